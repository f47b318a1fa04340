"""Paper tables (``--format latex|markdown|csv``), ``--score-only`` and ``suites --format json``: every family's
results as one row per system × language/domain with the numbers of its JSON, the signatures as notes; the LaTeX
parses (pylatexenc, strict) and compiles where pdflatex is installed."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import LatexEnvironmentNode, LatexWalker

import discotest
from discotest.cli import main
from discotest.report.export import build_table, render_csv, render_latex, render_markdown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winox"

# (family, suite and options of discotest.run or "rank", the JSON score each row shows, its column in the table)
CASES = {
    "gender": ("winomt", dict(lang="de", system="google,bing"), "accuracy", "Acc"),
    "zero-pronoun": ("mzprt", dict(domain="GR", system="base_tgt,zpr_tgt"), "accuracy", "AZPT"),
    "contrastive": ("ctxpro-auxiliary-en-de-test", dict(system="deepl-contexts"), None, "accuracy"),
    "winox": ("winox", dict(lang="fr", input=str(FIXTURES / "system.fr.txt"),
                            suite_file=str(FIXTURES / "en_fr_test.jsonl")), "accuracy", "acc"),
    "dip": ("dip", dict(data="wmt22", pair="de-en", max_docs=4, phenomena="lexical,connectives"), None,
            "lexical consistency %"),
}


def _out(args: list[str], tmp_path: Path, fmt: str, *extra: str) -> str:
    path = tmp_path / f"out.{fmt}"
    assert main(["-q", *args, "--format", fmt, "--output", str(path), *extra]) == 0
    return path.read_text("utf-8")


def _tabular(source: str) -> tuple[list[str], list[list[str]]]:
    """The header and body rows of the one tabular in ``source``, as plain text cells; parsing is strict, so an
    unescaped special character or unbalanced brace fails here."""
    walker = LatexWalker(source, tolerant_parsing=False)
    nodes, _, _ = walker.get_latex_nodes()

    def find(nodes, name):
        for node in nodes or []:
            if isinstance(node, LatexEnvironmentNode):
                if node.environmentname == name:
                    return node
                found = find(node.nodelist, name)
                if found is not None:
                    return found
        return None

    tabular = find(nodes, "tabular")
    assert tabular is not None and (find(nodes, "table") or find(nodes, "table*")) is not None
    body = tabular.latex_verbatim().split(r"\midrule", 1)
    text = LatexNodes2Text(math_mode="verbatim")
    header_src = body[0].split(r"\toprule", 1)[1]
    rows_src = body[1].split(r"\bottomrule", 1)[0]

    def cells(line: str) -> list[str]:
        # split on & not escaped as \&
        parts, at = [], 0
        for k, ch in enumerate(line):
            if ch == "&" and (k == 0 or line[k - 1] != "\\"):
                parts.append(line[at:k])
                at = k + 1
        parts.append(line[at:])
        return [text.latex_to_text(p).strip() for p in parts]

    header = cells(header_src.strip().removesuffix(r"\\").strip())
    rows = [cells(line.strip().removesuffix(r"\\").strip()) for line in rows_src.strip().splitlines() if line.strip()]
    return header, rows


def _compile(tmp_path: Path, table: str) -> None:
    """pdflatex on a minimal document holding the table (skipped where pdflatex is not installed)."""
    if shutil.which("pdflatex") is None:
        return
    doc = tmp_path / "doc.tex"
    doc.write_text("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
                   f"\\begin{{document}}\n{table}\n\\end{{document}}\n", "utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0


@pytest.mark.parametrize("family", list(CASES))
def test_every_family_exports_its_rows(family, shared_data, tmp_path):
    suite, options, score_key, column = CASES[family]
    report = discotest.run(suite, data_dir=str(shared_data), quiet=True, **options)
    results = report.to_json()["results"]
    assert results
    latex = report.render("latex")
    header, rows = _tabular(latex)
    assert len(rows) == len(results) and all(len(row) == len(header) for row in rows)
    values = [r["scores"][score_key] if score_key else r["headline"]["value"] for r in results]
    if family == "dip":  # one row per system, one column per phenomenon
        values = [r["scores"]["lexical"]["consistency %"] for r in results]
        col = next(k for k, h in enumerate(header) if h.startswith("lexical consistency"))
    else:
        col = header.index(column)
    digits = 2 if family in ("contrastive", "dip") else 1
    assert all(len(row[col].split(".")[1]) == digits for row in rows)
    assert [float(row[col]) for row in rows] == pytest.approx(values, abs=0.5 * 10 ** -digits + 0.005)
    sig = results[0]["signature"]
    assert f"suite:{sig.split('suite:')[1].split('|')[0]}" in latex.replace("\\textbar{}\\allowbreak{}", "|")
    _compile(tmp_path, latex)

    md = report.render("markdown")
    lines = [line for line in md.splitlines() if line.startswith("|")]
    assert len(lines) == len(results) + 2
    assert len({line.replace("\\|", "").count("|") for line in lines}) == 1  # every line has the same cells
    assert "`discotest:" in md

    table = list(csv.DictReader(io.StringIO(report.render("csv"))))
    assert len(table) == len(results)
    assert [row["signature"] for row in table] == [r["signature"] for r in results]
    assert [float(row[column]) for row in table] == pytest.approx(values, abs=0.006)  # the JSON rounds to 2 decimals

    assert report.render("score").split() == [f"{r['headline']['value']:.2f}" for r in results]


def test_the_cli_writes_tables_and_scores(tmp_path, capsys):
    args = ["run", "winox", "--lang", "fr", "--input", str(FIXTURES / "system.fr.txt"), "--suite-file",
            str(FIXTURES / "en_fr_test.jsonl")]
    assert main(["-q", *args, "-b"]) == 0
    assert capsys.readouterr().out == "50.00\n"  # the fixture's accuracy, nothing else
    for fmt in ("latex", "markdown", "csv"):
        text = _out(args, tmp_path, fmt)
        assert "system.fr.txt" in text and "50.0" in text


def test_compare_exports_its_tests(shared_data, tmp_path):
    args = ["--data-dir", str(shared_data), "compare", "winomt", "--lang", "de", "--system", "google",
            "--system", "bing"]
    comparison = json.loads(_out(args, tmp_path, "json"))["comparisons"][0]["metrics"][0]
    latex = _out(args, tmp_path, "latex")
    assert latex.count(r"\begin{tabular}") == 2
    _compile(tmp_path, latex)
    md = _out(args, tmp_path, "markdown")
    row = next(line for line in md.splitlines() if line.startswith("| accuracy"))
    assert f"| {comparison['a']:.2f} | {comparison['b']:.2f} |" in row


def _legend_terms(legend: str) -> set[str]:
    """The codes a legend defines: the term before ' = ' of each clause."""
    return {clause.split(" = ", 1)[0] for clause in legend.split("; ") if " = " in clause}


@pytest.mark.parametrize("measure", ["accuracy", "consistency"])
def test_the_gender_legend_defines_exactly_the_printed_columns(measure, shared_data):
    report = discotest.run("winomt", lang="de", system="google", measure=measure, data_dir=str(shared_data),
                           quiet=True)
    table = report.tables()[0]
    legend = next(note for note in table.notes if note.startswith("percentages"))
    defined = _legend_terms(legend)
    assert defined <= set(table.columns)  # no code defined that the table does not print
    assert ("Cons%" in defined) == ("Cons%" in table.columns) == (measure == "consistency")
    assert {"Acc", "ΔG", "ΔS", "unk%", "unmatched"} <= defined
    latex, md = report.render("latex"), report.render("markdown")
    assert ("Cons\\%" in latex) == ("Cons%" in md) == (measure == "consistency")


def test_a_wide_table_is_a_float_across_both_columns(shared_data, tmp_path, capsys):
    report = discotest.run("winomt", lang="de", system="google,bing", data_dir=str(shared_data), quiet=True)
    assert len(report.tables()[0].columns) >= 14
    wide = report.render("latex")
    assert wide.count(r"\begin{table*}[t]") == 1 and wide.count(r"\end{table*}") == 1
    _tabular(wide)
    _compile(tmp_path, wide)
    narrow = report.render("latex", latex_float="table")
    assert r"\begin{table}[t]" in narrow and "table*" not in narrow
    with pytest.raises(discotest.InputError, match="--latex-float must be one of auto, table, table"):
        report.render("latex", latex_float="sidewaystable")
    # a narrow table stays in one column unless asked
    small = build_table([{"system": "a", "acc": 1.0}])
    assert r"\begin{table}[t]" in render_latex(small) and r"\begin{table*}[t]" in render_latex(small, "table*")
    args = ["--data-dir", str(shared_data), "run", "winomt", "--lang", "de", "--system", "google"]
    assert "begin{table}[t]" in _out(args, tmp_path, "latex", "--latex-float", "table")
    assert "begin{table*}[t]" in _out(args, tmp_path, "latex")
    with pytest.raises(SystemExit) as exit_:
        main(["-q", *args, "--format", "latex", "--latex-float", "wide"])
    assert exit_.value.code == 2
    assert "--latex-float" in capsys.readouterr().err


def test_the_compare_footer_names_only_the_metrics_it_has(shared_data):
    winomt = discotest.compare("winomt", lang="de", system=["google", "bing"], data_dir=str(shared_data),
                               quiet=True).render()
    assert "paired by item;" in winomt and "BLEU" not in winomt
    mzprt = discotest.compare("mzprt", domain="GR", system=["base_tgt", "zpr_tgt"], data_dir=str(shared_data),
                              quiet=True).render()
    assert "paired by item (sentences for BLEU);" in mzprt


def test_latex_escapes_every_special_character(tmp_path):
    name = r"sys_1 & co. 50% #2 $x {y} ~z ^w \v <a>|b"
    table = build_table([{"system": name, "Δ score": -1.25, "n": 3}],
                        ["ΔG = F1♂ − F1♀ ± τ", "discotest:0.1|suite:a_b|system:*"], 2, "caption_1 & 2")
    latex = render_latex(table)
    header, rows = _tabular(latex)
    # pylatexenc spells the rarer symbols its own way (\textless: nothing, ^: ˆ); the rest comes back as written
    assert rows[0][0].startswith("sys_1 & co. 50% #2 $x {y} ~z ") and rows[0][1:] == ["-1.25", "3"]
    assert r"\textbackslash{}v \textless{}a\textgreater{}\textbar{}b" in latex and "Δ" not in latex
    _compile(tmp_path, latex)
    md = render_markdown(table)
    assert "sys\\_1" not in md and "\\|b" in md and "`discotest:0.1|suite:a_b|system:*`" in md
    rows = list(csv.reader(io.StringIO(render_csv(table))))
    assert rows == [["system", "Δ score", "n"], [name, "-1.25", "3"]]


def test_suites_as_json(shared_data, capsys, tmp_path):
    assert main(["--data-dir", str(shared_data), "suites", "--format", "json"]) == 0
    suites = {s["suite"]: s for s in json.loads(capsys.readouterr().out)}
    from discotest import api

    assert set(suites) == set(api.suites())
    assert suites["winomt"]["family"] == "gender"
    assert (suites["winomt"]["size"], suites["winomt"]["unit"]) == (3888, "items")  # a number, not "3,888 items"
    assert any(s.startswith("google") for s in suites["winomt"]["systems"])
    assert suites["mzprt"]["family"] == "zero-pronoun"
    assert (suites["mzprt"]["size"], suites["mzprt"]["unit"]) == (3805, "zero pronouns")
    assert suites["mzprt"]["size_note"] == "in 5 domains (QA, GR, MS, PP, WF)"
    assert suites["contrapro"]["size"] is None and suites["contrapro"]["size_note"] == "your file (--suite-file)"
    assert all(isinstance(s["size"], int) or s["size"] is None for s in suites.values())
    empty = tmp_path / "data"
    empty.mkdir()
    assert main(["--data-dir", str(empty), "suites", "--format", "json"]) == 0
    missing = {s["suite"]: s for s in json.loads(capsys.readouterr().out)}
    assert (missing["winomt"]["size"], missing["winomt"]["unit"]) == (None, "items")
    assert missing["winomt"]["size_note"] == "not in the data directory: `discotest data fetch winomt`"
