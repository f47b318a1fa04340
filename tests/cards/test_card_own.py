"""Your own system on the card (issue 50): the row cache is keyed by everything that can change a row, so a file is
never ranked against itself under any naming, nor against a published system whose outputs equal it (the row says
so); a data file changed since a row was cached makes the row run again."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

import discotest
from discotest import cache, families
from discotest.cards import build as card_build
from discotest.cards import card_settings, parallel
from discotest.cards.build import resolve
from discotest.cards.render import render
from discotest.cards.rows import CardLine
from tests.support.cli_helpers import assert_one_line_error, run_cli


def _folder(root: Path, shared_data: Path, name: str) -> Path:
    """bing's WinoMT German translations in an outputs folder whose manifest names the system ``name``."""
    folder = root / name
    folder.mkdir(parents=True)
    shutil.copy(shared_data / "mt_gender/translations/bing/en-de.txt", folder / "winomt.de.txt")
    (folder / "manifest.json").write_text(json.dumps({"system": name, "files": {"en-de/winomt": "winomt.de.txt"}}))
    return folder


def _accuracy(card) -> CardLine:
    return next(line for line in card.rows[0].lines if line.metric == "accuracy")


@pytest.fixture(scope="module")
def _own_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("card-own-cache")


@pytest.fixture
def own_cache(_own_cache, monkeypatch) -> Path:
    """One cache for the module (the suites' verdicts computed once), with no card row in it when a test starts."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(_own_cache))
    shutil.rmtree(_own_cache / card_build.ROWS, ignore_errors=True)
    return _own_cache


@pytest.mark.parametrize("order", [("mine", "bing"), ("bing", "mine")])
def test_a_file_is_never_ranked_against_itself_whatever_it_is_named(shared_data, tmp_path, own_cache, order):
    """The issue's two orders in a cache of their own: "mine" then "bing" gave bing ranked against itself (2/6, above:
    bing p=1.000); "bing" then "mine" left "mine" at 1/5 from bing's cached row. Each naming is now its own row, and
    neither is ranked against bing, whose outputs are the file's: 1/5 (aws, google, systran, sota below), said on
    the row."""
    for name in order:
        folder = _folder(tmp_path / "-".join(order), shared_data, name)
        card = discotest.card(outputs=str(folder), pairs="en-de", suites="winomt", quiet=True)
        acc = _accuracy(card)
        assert (acc.rank, acc.of, acc.above) == (1, 5, None), (name, acc)
        assert acc.below.system == "aws"
        assert card.system == name and card.rows[0].system == "winomt.de.txt"
        assert card.rows[0].not_ranked_against == ("bing: its outputs equal this system's",)
        assert "not ranked against bing" in render(card, "text")
        assert not any(str(tmp_path) in w and str(folder) not in w for w in card.rows[0].warnings)


def test_a_changed_data_file_runs_the_row_again(shared_data, own_cache, monkeypatch):
    """A row remembers the sha256 of every data file it read; one that differs when the row is loaded (the WinoMT
    suite file edited) makes the card run the row again instead of serving the number cached before the change."""
    first = discotest.card(system="google", pairs="en-de", suites="winomt", quiet=True)
    files = first.rows[0].data_files
    assert any("winomt" in name for name in files) and all(len(sha) == 64 for sha in files.values())
    calls = []
    real_run = card_build.run_settings  # every row's run goes through it
    monkeypatch.setattr(card_build, "run_settings", lambda *a, **k: calls.append(a) or real_run(*a, **k))
    assert discotest.card(system="google", pairs="en-de", suites="winomt", quiet=True).rows == first.rows
    assert calls == []  # unchanged: served from the cache
    # the row as cached before the suite file changed: it read another sha256 of that file
    changed = next(name for name in files if "winomt" in name)
    system, _, rows = resolve(card_settings({"system": "google", "pairs": "en-de", "suites": "winomt"}))
    key = card_build._row_key(system, rows[0], card_build.CardOptions())
    stale = {**first.rows[0].to_json(), "data_files": {**files, changed: "0" * 64}}
    cache.store(card_build.ROWS, key, json.dumps(stale, sort_keys=True))
    assert discotest.card(system="google", pairs="en-de", suites="winomt", quiet=True).rows == first.rows
    assert calls and calls[0][0] == "winomt"  # run again, not served


@pytest.fixture
def no_work(monkeypatch):
    """Any suite run fails the test: a bad setting must end the card before any work."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a suite ran: {args}")

    monkeypatch.setattr(families, "run_settings", refuse)
    monkeypatch.setattr(card_build, "run_settings", refuse)  # a row's run, whole or in two phases
    monkeypatch.setattr(families, "ask", refuse)
    monkeypatch.setattr(parallel.RowPool, "submit", refuse)  # a row handed to a worker process (cards.parallel)


def _manifest(folder: Path, text: str) -> Path:
    (folder / "manifest.json").write_text(text)
    return folder


@pytest.mark.parametrize(("files", "said"), [
    ('{"en-de/winmt-adj": "winomt.de.txt"}', "'winmt-adj' (did you mean 'winomt-adj'?)"),
    ('{"en-de/winomt": "winomt.de.txt", "en-de/winomt": "other.txt"}', "'en-de/winomt' is named twice"),
    ('{"en-de/winomt": "../outside.txt"}', "../outside.txt is outside"),
    ('{"en-xx/winomt": "winomt.de.txt"}', "no pair 'en-xx'"),
])
def test_a_bad_manifest_is_one_line_before_any_work(shared_data, tmp_path, no_work, capsys, files, said):
    folder = _folder(tmp_path, shared_data, "mine")
    (tmp_path / "outside.txt").write_text("a line\n")
    _manifest(folder, '{"system": "mine", "files": ' + files + "}")
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "--pairs", "en-de", "-q")
    assert_one_line_error(code, err, said)
    assert "manifest.json" in err and "a line" not in err


@pytest.mark.parametrize("target", ["manifest.json", "winomt.de.txt"])
def test_the_card_is_never_written_onto_its_inputs(shared_data, tmp_path, no_work, capsys, target):
    folder = _folder(tmp_path, shared_data, "mine")
    before = (folder / target).read_bytes()
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "-o", str(folder / target), "-q")
    assert_one_line_error(code, err, "is an input of the card")
    assert (folder / target).read_bytes() == before


def test_bad_card_wide_settings_are_one_line_before_any_work(shared_data, tmp_path, no_work, capsys, monkeypatch):
    folder = _folder(tmp_path, shared_data, "mine")
    cases = [
        (("--system", "gogle", "--pairs", "en-de"), "'gogle' (did you mean 'google'?)"),
        (("--system", "google", "--pairs", "en-de", "--versus", str(tmp_path / "mnie")), "--versus"),
        (("--system", "google", "--pairs", "en-de", "--versus", str(tmp_path)), "not a model"),
        (("--model", str(folder), "--pairs", "en-de"), "--outputs " + str(folder)),
        (("--system", "google", "--pairs", "ja-en,ja-en"), "ja-en is named twice"),
    ]
    for args, said in cases:
        code, _, err = run_cli(capsys, "card", *args, "-q")
        assert_one_line_error(code, err, said)
    monkeypatch.setitem(sys.modules, "ray", None)  # Ray not installed
    code, _, err = run_cli(capsys, "card", "--system", "google", "--pairs", "en-de", "--engine", "ray", "-q")
    assert_one_line_error(code, err, "--engine ray needs Ray")


def test_rows_a_system_cannot_fill_are_decided_in_the_plan_at_no_cost(shared_data, own_cache, no_work, capsys):
    """base_tgt has no DiP output and google none in ja-en: the plan says "unfilled" without running a suite, and a
    card of only such rows runs none and ends 0 (unfillable by nature is not a failure)."""
    code, plan, err = run_cli(capsys, "card", "--system", "base_tgt", "--pairs", "zh-en", "--dry-run")
    assert code == 0, err
    assert "zh-en/dip" in plan and "base_tgt has no published output for dip (zh-en)" in plan
    code, out, err = run_cli(capsys, "card", "--system", "google", "--pairs", "ja-en", "--format", "json", "-q")
    assert code == 0, err
    assert {row["status"] for row in json.loads(out)["rows"]} == {"unfilled"}


def test_a_failed_row_ends_the_card_with_status_1(shared_data, own_cache, tmp_path, capsys):
    folder = _folder(tmp_path, shared_data, "mine")
    (folder / "short.txt").write_text("eine Zeile\n")
    _manifest(folder, json.dumps({"system": "mine", "files": {"en-de/winomt-adj": "short.txt"}}))
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--format", "json", "-q")
    assert code == 1 and "en-de/winomt-adj" in err
    assert [row["status"] for row in json.loads(out)["rows"] if row["id"] == "winomt-adj"] == ["failed"]


def _card_parser_flags() -> set[str]:
    """Every option string ``discotest card`` accepts, from the CLI's own parser."""
    import argparse

    from discotest.cli.dispatch import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    card = sub.choices["card"]
    return {flag for action in card._actions for flag in action.option_strings} | \
        {flag for action in parser._actions for flag in action.option_strings}


def _flags_named(text: str) -> set[str]:
    return {f"--{flag}" for flag in card_build.FLAG.findall(text)}


def test_every_flag_a_card_warning_names_is_a_card_flag_and_the_manifest_takes_the_suite_version(
        shared_data, own_cache, tmp_path, capsys):
    """bing's file was made from WinoMT 2019: the run says "give --suite-version 2019", which the card does not
    take; the card says to set the row's suite version in the manifest, which then scores every row of 2019."""
    folder = _folder(tmp_path, shared_data, "mine")
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--format", "json", "-q")
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    said = " ".join(row["warnings"])
    assert '"options": {"en-de/winomt": {"suite_version": "2019"}} in manifest.json' in said
    assert _flags_named(said) <= _card_parser_flags(), said
    line = next(line for line in row["lines"] if line["metric"] == "accuracy")
    assert line["n"] == 3886
    manifest = json.loads((folder / "manifest.json").read_text())
    _manifest(folder, json.dumps({**manifest, "options": {"en-de/winomt": {"suite_version": "2019"}}}))
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--format", "json", "-q")
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    assert not any("suite_version" in w or "2019" in w for w in row["warnings"]), row["warnings"]
    assert next(line for line in row["lines"] if line["metric"] == "accuracy")["n"] == 3888
    assert "version:2019" in row["signature"]
    _manifest(folder, json.dumps({**manifest, "options": {"en-de/winomt": {"aligner": "fast_align"}}}))
    assert_one_line_error(*run_cli(capsys, "card", "--outputs", str(folder), "-q")[::2], "takes no option 'aligner'")


def test_a_dip_warning_in_the_card_names_no_flag_the_card_refuses():
    from discotest.cards.groups import rows_of
    from discotest.cards.system import SystemSpec
    from discotest.dip.family import mining_pool_warning

    row = next(r for r in rows_of(["ja-en"]) if r.suite == "dip")
    warning = mining_pool_warning(11, "mine.en")
    assert "--holdout" in warning
    said = card_build.in_card_words(warning, row, SystemSpec("outputs", folder="x", files={row.key: "mine.en"}))
    assert "--holdout" not in said and "`discotest run dip`'s holdout option SYSTEM" in said
    assert _flags_named(said) <= _card_parser_flags()
    assert "--help" in _card_parser_flags() and "--suite-version" not in _card_parser_flags()


def _toy_card():
    from discotest.cards.build import Card
    from discotest.cards.rows import FilledRow

    def line(metric, value, n, better="higher", rank=2, scope=""):
        return {"scope": scope, "lang": "de", "metric": metric, "unit": "%", "better": better, "value": value,
                "ci95": 1.5, "n": n, "rank": rank, "of": 15,
                "above": {"system": "unified_oc_tgt", "value": 70.1, "p": 0.0421},
                "below": {"system": "deepl-sentences", "value": 40.0, "p": 0.0004}}

    badge = {"sample": "in", "text": "x", "figure": "94.7%", "section": "s"}
    rows = [
        {"pair": "en-de", "id": "winomt", "suite": "winomt", "phenomenon": "gender of a coreferent entity (WinoMT)",
         "validity": badge, "status": "ok", "reason": None, "signature": "sig", "not_ranked_against": [
             "bing: its outputs equal this system's"],
         "warnings": ["warning: " + "a long warning about the file " * 12],
         "lines": [line("accuracy", 56.4, 3886), line("delta_g", 3.2, 3886, "nearer 0")]},
        {"pair": "de-en", "id": "dip", "suite": "dip", "phenomenon": "document level: consistency, connectives, "
         "anaphora, coherence (DiP)", "validity": badge, "status": "ok", "reason": None, "signature": "sig",
         "lines": [line("anaphora Σ(ref−sys)", 12.0, 1, "lower", 1)]},
        {"pair": "en-de", "id": "scat", "suite": "scat", "phenomenon": "pronoun anaphora, contrastive (SCAT)",
         "validity": badge, "status": "unfilled", "reason": "scat " + "takes no published output " * 10,
         "signature": None, "lines": []},
    ]
    return Card("mine", "outputs", ["en-de", "de-en"], [FilledRow.from_json(row) for row in rows])


def test_the_text_card_fits_160_columns_with_a_legend_for_every_metric_and_warnings_in_every_format():
    card = _toy_card()
    text = render(card, "text")
    body = text.split("\ncard: ")[0]
    assert max(map(len, body.splitlines())) <= 160, max(body.splitlines(), key=len)
    for said in ("Acc: accuracy, %, higher is better", "ΔG: F1♂ − F1♀, points, best at 0",
                 "anaphora Σ(ref−sys): summed score of the reference minus the system's, lower is better", "ctxK",
                 "by d"):
        assert said in " ".join(body.split()), said
    dip = next(line for line in text.splitlines() if "Σ(ref−sys)" in line and "12.0" in line)
    assert "n<30" in dip and "unified_oc_tgt" not in dip  # n 1: a caution, no rank, no neighbours
    assert "p=0.042" in text and "not ranked against bing" in text and "scat: unfilled" in text
    for fmt in ("markdown", "latex", "html"):
        assert "a long warning about the file" in render(card, fmt), fmt


def test_init_writes_every_contrastive_rows_candidates_and_a_filled_folder_equals_the_runs(shared_data, own_cache,
                                                                                          tmp_path, capsys):
    """The newcomer's walk for ja-en's contrastive rows: `--init` writes each row's candidates as JSONL in the order
    of the scores file; one score per line of it (here: shorter is better) fills the row, equal to `run --scores`."""
    folder = tmp_path / "mine"
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--init", "--pairs", "ja-en")
    assert code == 0, err
    manifest = json.loads((folder / "manifest.json").read_text())
    for row in ("jazp", "bsd-zp-ja-en-test"):
        key = f"ja-en/{row}"
        candidates = folder / manifest["sources"][key]
        lines = [json.loads(line) for line in candidates.read_text().splitlines()]
        assert lines and all({"item", "candidate", "src", "src_context", "text"} <= set(line) for line in lines)
        assert "correct" not in lines[0]
        (folder / f"{row}.scores").write_text("".join(f"{-len(line['text'])}\n" for line in lines))
        manifest["files"][key] = f"{row}.scores"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    card = discotest.card(outputs=str(folder), suites="jazp,bsd-zp-ja-en-test", quiet=True)
    for row in card.rows:
        assert row.status == "ok", row
        run = discotest.run(row.suite, scores=str(folder / f"{row.id}.scores"), quiet=True)[0]
        acc = next(line for line in row.lines if line.metric == "accuracy")
        assert acc.value == round(run.headline().value, 4) and acc.n == run.n


@pytest.mark.parametrize(("pair", "row", "run_options"), [
    ("ja-en", "mittens", {"lang": "ja"}),
    ("en-de", "mt-geneval-counterfactual", {"lang": "de", "subset": "counterfactual"}),
])
def test_init_writes_mittens_and_mt_geneval_sources_a_run_reads_line_for_line(shared_data, own_cache, tmp_path,
                                                                                 capsys, pair, row, run_options):
    """A file of one line per line of `--init`'s sources is read by the row's run (here the sources themselves,
    the language check off): the row is filled and equals `run --input`."""
    folder = tmp_path / "mine"
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "--init", "--pairs", pair)
    assert code == 0, err
    manifest = json.loads((folder / "manifest.json").read_text())
    key = f"{pair}/{row}"
    manifest["files"][key] = manifest["sources"][key]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    card = discotest.card(outputs=str(folder), suites=row, pairs=pair, skip_language_check=True, quiet=True)
    assert card.rows[0].status == "ok", card.rows[0]
    suite = card.rows[0].suite
    result = discotest.run(suite, input=str(folder / manifest["sources"][key]), skip_language_check=True,
                           quiet=True, **run_options)[0]
    from discotest.report.ranking import value_and_interval

    value, _, n = value_and_interval(result.ranked_metrics()[0])
    first = card.rows[0].lines[0]
    assert (first.metric, first.value, first.n) == (result.ranked_metrics()[0].name, round(value, 4), n)


def test_check_says_row_by_row_what_is_present_missing_or_wrong_before_any_scoring(shared_data, tmp_path, no_work,
                                                                                    capsys):
    folder = tmp_path / "mine"
    assert run_cli(capsys, "card", "--outputs", str(folder), "--init", "--pairs", "ja-en,en-de")[0] == 0
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "short.txt").write_text("Eins\nZwei\n")
    manifest["files"].update({"ja-en/mittens": manifest["sources"]["ja-en/mittens"], "en-de/winomt": "short.txt"})
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--check")
    assert code == 1, err
    said = dict(line.split(": ", 1) for line in out.splitlines())
    assert said["ja-en/mittens"].startswith("present (") and "82 lines" in said["ja-en/mittens"]
    assert said["en-de/winomt"].startswith("wrong (short.txt: 2 lines") and "3888" in said["en-de/winomt"]
    assert said["ja-en/jazp"].startswith("missing")
    manifest["files"]["en-de/winomt"] = None
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert run_cli(capsys, "card", "--outputs", str(folder), "--check")[0] == 0


def _walk_folder(shared_data: Path, tmp_path: Path, capsys) -> tuple[Path, dict]:
    """docs/card.md's "A folder of outputs", step by step: `--init` for en-de, ja-en and zh-en, then each row's file
    put beside the manifest and named in it (``bench.cards.card_costs.fill_walk_folder``, which times the same
    folder's card: published translations, MT-GenEval's and MiTTenS's references, mZPRT's deep_tgt one file per domain,
    a baseline's scores, the sources themselves where nothing is published)."""
    from bench.cards.card_costs import fill_walk_folder

    folder = tmp_path / "mine"
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "--init", "--pairs", "en-de,ja-en,zh-en")
    assert code == 0, err
    manifest = json.loads((folder / "manifest.json").read_text())
    assert set(manifest["sources"]) == set(manifest["files"])  # every row has what to translate or score
    for domain, source in manifest["sources"]["zh-en/mzprt"].items():  # a line per sentence, no [doc] lines
        assert len((folder / source).read_text("utf-8").splitlines()) == \
            len((folder / f"zh-en.mzprt.{domain}.docids.txt").read_text().splitlines())
    return folder, fill_walk_folder(folder, str(shared_data))


# the walk's DiP rows: the pair's first 40 documents (ja-en: 221 items mined, every phenomenon's among them)
WALK_DOCS = 40
# and their egrid coherence model: trained on the first 4 documents of each WMT21 training pair (as
# tests/dip/test_coherence.py's small model), not on the whole pairs (~85 CPU s cold, most of a sliced row's time)
WALK_COHERENCE_DOCS = 4


def test_the_newcomers_walk_fills_every_row_a_folder_can_and_each_equals_its_run(shared_data, own_cache, tmp_path,
                                                                                capsys, monkeypatch):
    """Issue 50, item 9: the walk of docs/card.md ("A folder of outputs") from `--init` to the card. `--check` finds
    every file present, one line per line of its sources; the card (a `--limit` sample where a row takes it) fills
    every row the folder names, each line the number, interval and n of the row's own `discotest run` on the same
    file, DiP's rows too (your translation of the whole WMT22 source, scored on the items mined from the WMT systems and
    ranked among them; on the pair's first ``WALK_DOCS`` documents, the manifest's ``max_docs`` of the row: the whole
    pair costs minutes of parsing and mining a row, the same code on more lines; their coherence model, the card's
    and the run's alike, trained by ``load_coherence_model`` on ``WALK_COHERENCE_DOCS`` documents of each pair)."""
    from discotest.cards.build import where_of
    from discotest.cards.groups import rows_of
    from discotest.dip import coherence
    from discotest.dip import run as dip_run
    from discotest.report.ranking import value_and_interval
    from discotest.report.result import lang_of

    monkeypatch.setattr(dip_run, "load_coherence", lambda data_dir=None, use_cache=True, kind="egrid":
                        coherence.load_coherence_model(data_dir, use_cache, max_docs=WALK_COHERENCE_DOCS, kind=kind))

    folder, manifest = _walk_folder(shared_data, tmp_path, capsys)
    manifest["options"] = {key: {"max_docs": WALK_DOCS} for key in ("ja-en/dip", "zh-en/dip")}
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1))
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--check")
    said = dict(line.split(": ", 1) for line in out.splitlines())
    filled = [key for key, name in manifest["files"].items() if name]
    assert code == 0, err
    checked = [f"{key}/{part}" if isinstance(name, dict) else key for key, name in manifest["files"].items() if name
               for part in (name if isinstance(name, dict) else [None])]
    assert all(said[key].startswith("present (") and "one per line of" in said[key] for key in checked), said
    assert said["ja-en/dip"] == "present (ja-en.dip.mine.en: 2008 lines, one per line of ja-en.dip.src.txt)"
    assert said["zh-en/mzprt/WF"].startswith("present (deep_tgt.WF")
    limit = 30
    # one process: the small coherence model above is this process's stand-in (rows in worker processes are
    # tests/cards/test_card_jobs.py's)
    card = discotest.card(outputs=str(folder), limit=limit, skip_language_check=True, quiet=True, jobs=1)
    rows = {row.key: row for row in rows_of(["en-de", "ja-en", "zh-en"])}
    assert sorted(r.pair + "/" + r.id for r in card.rows) == sorted(rows)
    assert len(filled) == len(rows)  # every row, DiP's too
    # deep_tgt's own outputs: not ranked against deep_tgt (its release's verdicts beside ours are no evidence)
    assert card.row("zh-en/mzprt").not_ranked_against == ("deep_tgt: its outputs equal this system's",)
    for key in filled:
        row, spec = card.row(key), rows[key]
        taken = {o.name for o in families.family_of(spec.suite).options}
        given = manifest["files"][key]
        files = {spec.file: [str(folder / name) for name in given.values()], "domain": list(given)} \
            if isinstance(given, dict) else {spec.file: str(folder / given)}  # mZPRT: one file per domain, in order
        own = discotest.run(spec.suite, **{**spec.options, **manifest["options"].get(key, {}), **files},
                            skip_language_check=True, quiet=True, **({"limit": limit} if "limit" in taken else {}))
        assert row.status == "ok", (key, row.reason)
        mine = own.results if isinstance(given, dict) else [r for r in own.results if r.system == row.system]
        assert mine and len(row.lines) == sum(len(r.ranked_metrics()) for r in mine), key
        for line in row.lines:
            result = next(r for r in mine if (where_of(r), lang_of(r)) == (line.scope, line.lang))
            value, ci, n = value_and_interval(next(m for m in result.ranked_metrics() if m.name == line.metric))
            assert (line.value, line.ci95, line.n) == (round(value, 4), round(ci, 4), n), (key, line)
            assert n <= limit or "limit" not in taken, (key, line)
        if isinstance(given, dict):  # one run of the five files: each domain's result is its file's run alone
            assert sorted(where_of(r) for r in mine) == sorted(given) and \
                sorted(row.signature) == sorted(r.signature.format() for r in mine), key
            alone = discotest.run(spec.suite, domain="QA", input=str(folder / given["QA"]), limit=limit,
                                  skip_language_check=True, quiet=True)[0]
            qa = next(line for line in row.lines if line.scope == "QA")
            assert (qa.value, qa.n) == (round(value_and_interval(alone.ranked_metrics()[0])[0], 4),
                                              alone.n) and alone.signature.format() in row.signature
            continue
        if spec.suite == "dip":  # the row's run is on the manifest's documents (a whole pair has 256 or more)
            assert f"|docs:{WALK_DOCS}|" in row.signature and all(line.n > 0 for line in row.lines), key
            assert {line.metric.split()[0] for line in row.lines} == {"lexical", "connectives", "anaphora",
                                                                      "coherence"}, key
            assert f"|coherence:{dip_run.load_coherence(str(shared_data)).signature()}|" in row.signature, key
        assert row.signature == result.signature.format().replace(str(folder) + "/", "") or \
            row.signature.rsplit("|files:", 1)[0] == result.signature.format().rsplit("|files:", 1)[0], key


def test_a_limited_run_reads_a_whole_suite_scores_file_and_scores_the_sample_as_the_whole_run_does(tmp_path):
    """`--limit` with `--scores`: the file scores every candidate of the suite (as `--init` lists them); the sample
    takes its items' lines from it, so each sampled item's verdict is the whole run's for that item (a file of the
    sample's length is refused, one line naming it)."""
    from discotest.contrastive.run import score_requests
    from discotest.contrastive.suites import load_suite

    items = load_suite("jazp", None)
    scores = tmp_path / "jazp.scores"
    scores.write_text("".join(f"{(item.index * 7 + k * 5) % 3}\n" for item in items
                              for k in range(len(item.candidates))))
    whole = {v.index: v.correct for v in discotest.run("jazp", scores=str(scores), quiet=True)[0].verdicts}
    sample = discotest.run("jazp", scores=str(scores), limit=12, quiet=True)[0]
    assert len(sample.verdicts) == 12 and len(whole) == len(items) == len(score_requests(items))
    assert {v.index: v.correct for v in sample.verdicts} == {v.index: whole[v.index] for v in sample.verdicts}
    assert len(set(whole.values())) == 2  # right and wrong items both, so a misplaced line would show
    short = tmp_path / "short.scores"
    short.write_text("".join(scores.read_text().splitlines(keepends=True)[:24]))
    with pytest.raises(discotest.errors.InputError, match="24 scores for 88 candidates"):
        discotest.run("jazp", scores=str(short), limit=12, quiet=True)


def test_check_says_per_domain_what_the_mzprt_row_has_and_a_single_file_is_one_line(tmp_path, no_work, capsys):
    """zh-en's mZPRT row reads one file per domain: `--init` writes each domain's sources and a manifest entry of one
    null per domain; `--check` says each domain's file present, missing or wrong (as the run's own reader would
    refuse it), before any scoring; a single file for the row is one line naming the entry, exit 2."""
    folder = tmp_path / "mine"
    assert run_cli(capsys, "card", "--outputs", str(folder), "--init", "--pairs", "zh-en")[0] == 0
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["files"]["zh-en/mzprt"] == dict.fromkeys(["QA", "GR", "MS", "PP", "WF"])
    sources = manifest["sources"]["zh-en/mzprt"]
    qa = (folder / sources["QA"]).read_text("utf-8").splitlines()
    assert len(qa) == 1171 and len((folder / "zh-en.mzprt.QA.docids.txt").read_text().splitlines()) == 1171
    (folder / "qa.en.txt").write_text("A line.\n" * len(qa))
    (folder / "gr.en.txt").write_text("A line.\n")
    manifest["files"]["zh-en/mzprt"].update(QA="qa.en.txt", GR="gr.en.txt")
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, out, _ = run_cli(capsys, "card", "--outputs", str(folder), "--check")
    said = dict(line.split(": ", 1) for line in out.splitlines())
    assert code == 1 and said["zh-en/mzprt/QA"].startswith("present (qa.en.txt: 1171 lines, one per line of")
    assert said["zh-en/mzprt/GR"].startswith("wrong (gr.en.txt: expected 1587 lines") and \
        said["zh-en/mzprt/MS"].startswith("missing") and said["zh-en/mittens"].startswith("missing")
    manifest["files"]["zh-en/mzprt"] = "qa.en.txt"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "-q")
    assert_one_line_error(code, err, "its run reads one file per domain (QA GR MS PP WF)")
    manifest["files"]["zh-en/mzprt"] = {"QA": "qa.en.txt", "XX": "qa.en.txt"}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "-q")
    assert_one_line_error(code, err, "no domain 'XX'")


def test_a_first_dry_run_estimates_from_the_shipped_costs_and_later_ones_from_the_last_run(shared_data, own_cache,
                                                                                           no_work, capsys, tmp_path):
    """`--dry-run` with no history: each row to run is its kind's typical cost per item in its pair (cards/costs.json:
    models trained) times its items, plus the training of the models its first run trains (lang/training.json).
    After a run: its measured seconds less the training, plus the training of a model it used only while that model
    is not in the cache; the same input again: the time of a run that found the first one's work in the cache (before
    one, the shipped share again/trained of the first's); a system of another kind whose row recorded its models gets
    the cost with trained models."""
    from discotest.cards.build import _record_time, plan, shipped_costs, typical_cost
    from discotest.lang.align import model as align_model

    shutil.rmtree(own_cache / card_build.TIMES, ignore_errors=True)  # no history: the module's other cards kept some
    s = card_settings({"system": "google", "pairs": "en-de"})
    system, _, rows = resolve(s)
    costs = shipped_costs()["costs"]
    here = card_build.CardOptions(data_dir=str(shared_data))
    steps = [p for p in plan(system, rows, here) if p["status"] == "to run"]
    assert {p["row"] for p in steps} == {"en-de/winomt", "en-de/winomt-adj"}
    for p in steps:
        figure = costs[p["suite"]]["published"]["en-de"]
        training = sum(align_model.training_seconds(name) for name in figure["models"])
        assert p["estimate"] == "typical" and p["seconds"] == round(figure["trained"] * p["items"] + training, 1), p
    row = next(r for r in rows if r.id == "winomt")
    (tmp_path / "x.txt").write_text("Eins\n")
    mine = card_build.SystemSpec("outputs", folder="mine", files={"en-de/winomt": str(tmp_path / "x.txt")})
    _record_time(mine, row, 50.0, {"a-model-key": 40.0}, "a file")  # a file's run trained the row's model
    assert card_build.estimate(mine, row, 3888) == (50.0, "measured")  # 10 s of work, 40 s of training
    # google's row has no history, but the row's models are known: the cost with trained models, plus the training
    assert card_build.estimate(system, row, 3888) == (typical_cost(row, "published")["trained"] * 3888 + 40.0,
                                                      "typical")
    _record_time(system, row, 50.0, {"a-model-key": 40.0}, "another input")
    winomt = next(p for p in plan(system, rows, here) if p["row"] == "en-de/winomt")
    assert (winomt["estimate"], winomt["seconds"]) == ("measured", 50.0)
    # the same input again (a published row runs every published system): its work is in the cache
    same = card_build._input_of(system, row, card_build.CardOptions())
    _record_time(system, row, 50.0, {"a-model-key": 40.0}, same)
    figure = typical_cost(row, "published")
    assert card_build.estimate(system, row, 3888) == (10.0 * figure["again"] / figure["trained"] + 40.0, "measured")
    _record_time(system, row, 4.0, {"a-model-key": 0.0}, same)  # a run that found it: its own time, training kept
    assert card_build.estimate(system, row, 3888) == (44.0, "measured")
    monkey = pytest.MonkeyPatch()
    monkey.setattr(align_model, "trained", lambda key: True)
    try:
        assert card_build.estimate(system, row, 3888) == (4.0, "measured")
    finally:
        monkey.undo()
    code, out, _ = run_cli(capsys, "card", "--system", "google", "--pairs", "en-de", "--dry-run")
    assert code == 0 and "(1 row measured here, 1 row at their kind's typical cost per item, cards/costs.json)" in out


def test_a_first_dry_run_takes_each_languages_own_figure_and_trains_a_shared_model_once(monkeypatch, own_cache):
    """The arithmetic of a first run's estimate (no timing): a row's items times the trained cost per item of its own
    pair, plus its models' training (once per plan: a second row of the same model adds none); a pair never measured
    takes the first measured pair ``nearest`` lists for it; a file's row without a figure of its kind in a pair takes
    the pair's published one (and a published system's row a file's); a row whose items are mined (DiP) has a figure
    per row."""
    from discotest.cards.build import estimate, typical_cost
    from discotest.cards.groups import rows_of
    from discotest.lang.align import model as align_model

    shutil.rmtree(own_cache / card_build.TIMES, ignore_errors=True)
    nearest = {"en-es": ["en-it", "en-fr"], "zh-en": ["ja-en"]}
    shipped = {"again": 0.5, "nearest": nearest, "costs": {"winomt": {"published": {
        "en-de": {"trained": 0.01, "again": 0.002, "models": ["m-de"]},
        "en-fr": {"trained": 0.03, "again": 0.006, "models": ["m-fr"]}}}}}
    monkeypatch.setattr(card_build, "shipped_costs", lambda: shipped)
    monkeypatch.setattr(align_model, "_training_figures", lambda: {"m-de": 20.0, "m-fr": 70.0})
    row = {r.pair: r for r in rows_of(["en-de", "en-fr", "en-es", "en-uk"], ["winomt"])}
    google = card_build.SystemSpec("published", published="google")
    assert estimate(google, row["en-de"], 1000) == (0.01 * 1000 + 20.0, "typical")
    assert estimate(google, row["en-fr"], 1000) == (0.03 * 1000 + 70.0, "typical")  # French's, not German's
    assert typical_cost(row["en-es"], "published") is shipped["costs"]["winomt"]["published"]["en-fr"]
    assert estimate(google, row["en-es"], 1000) == (0.03 * 1000 + 70.0, "typical")
    assert estimate(google, row["en-uk"], 1000) == (None, "unknown")  # neither measured nor named nearest
    paid: set[str] = set()
    assert estimate(google, row["en-de"], 1000, paid=paid) == (30.0, "typical") and paid == {"en-de m-de"}
    assert estimate(google, row["en-de"], 500, paid=paid) == (5.0, "typical")  # its model trained by the row before
    assert estimate(google, row["en-es"], 1000, paid={"en-fr m-fr"}) == (100.0, "typical")  # es trains its own
    mine = card_build.SystemSpec("outputs", folder="mine", files={"en-fr/winomt": "x.txt"})
    assert estimate(mine, row["en-fr"], 1000) == (100.0, "typical")  # no outputs figure: the published one
    shipped["costs"]["dip"] = {"outputs": {"ja-en": {"per": "row", "trained": 186.0}}}
    dip = rows_of(["ja-en", "zh-en"], ["dip"])
    assert [estimate(google, r, None) for r in dip] == [(186.0, "typical")] * 2  # per row; zh-en takes ja-en's


def test_a_dry_run_on_a_loaded_machine_says_what_its_load_makes_of_the_estimate(shared_data, own_cache, capsys,
                                                                                 monkeypatch):
    """The shipped figures are CPU seconds, a quiet machine's wall: at a load average above the cores, a row's one
    process gets cores/load of a core, and the plan says the estimate times load/cores (the arithmetic, no timing);
    at a load below the cores it says nothing more."""
    import re

    from discotest.cli import card as card_cli

    shutil.rmtree(own_cache / card_build.TIMES, ignore_errors=True)
    monkeypatch.setattr(card_cli, "_load", lambda: (10.0, 2))
    code, out, _ = run_cli(capsys, "card", "--system", "google", "--pairs", "en-fr", "--dry-run")
    estimate = sum(float(s) for s in re.findall(r"^en-fr/\S+\s+\S+\s+to run\s+\d+\s+([\d.]+)$", out, re.M))
    said = re.search(r"at this machine's load \(10 on 2 cores\) about (\d+) s", out)
    assert code == 0 and estimate > 0 and said and abs(int(said.group(1)) - 5 * estimate) <= 5, out
    monkeypatch.setattr(card_cli, "_load", lambda: (1.0, 2))
    code, out, _ = run_cli(capsys, "card", "--system", "google", "--pairs", "en-fr", "--dry-run")
    assert code == 0 and "machine's load" not in out


def _own_suite_folder(shared_data: Path, root: Path, options: dict | None = None) -> Path:
    """google's WinoMT German translations, scored on the user's own suite: WinoMT's own en.txt copied into the
    folder and named in the manifest's options of the row."""
    folder = root / "own-suite"
    folder.mkdir(parents=True)
    shutil.copy(shared_data / "mt_gender/data/aggregates/en.txt", folder / "my-suite.txt")
    shutil.copy(shared_data / "mt_gender/translations/google/en-de.txt", folder / "winomt.de.txt")
    (folder / "manifest.json").write_text(json.dumps({
        "system": "mine", "files": {"en-de/winomt": "winomt.de.txt"},
        "options": options or {"en-de/winomt": {"suite_file": "my-suite.txt"}}}))
    return folder


def test_a_gender_row_on_your_own_suite_file_is_its_run_and_is_not_ranked(shared_data, tmp_path, own_cache):
    """Issue 54 item 5: the manifest's ``"options": {"en-de/winomt": {"suite_file": FILE}}`` scores the row as
    ``run winomt --lang de --suite-file FILE --input …`` does (every line's value, interval and n, and the signature
    with ``version:file@sha8``); no published system translated the user's items, so the row is not ranked and says
    so."""
    from discotest.report.ranking import value_and_interval

    folder = _own_suite_folder(shared_data, tmp_path)
    card = discotest.card(outputs=str(folder), pairs="en-de", suites="winomt", quiet=True)
    row = card.rows[0]
    assert row.status == "ok", row
    (result,) = discotest.run("winomt", lang="de", suite_file=str(folder / "my-suite.txt"),
                              input=str(folder / "winomt.de.txt"), quiet=True)
    assert row.signature == result.signature.format()
    assert f"version:file@{hashlib.sha256((folder / 'my-suite.txt').read_bytes()).hexdigest()[:8]}|" in \
        row.signature
    metrics = {m.name: m for m in result.ranked_metrics()}
    assert [line.metric for line in row.lines] == list(metrics)
    for line in row.lines:
        value, ci, n = value_and_interval(metrics[line.metric], 1000, card_build.DEFAULT_SEED)
        assert (line.value, line.ci95, line.n) == (round(value, 4), round(ci, 4), n)
        assert (line.rank, line.above, line.below) == (None, None, None)
    assert row.not_ranked_against == ("the published systems: they translated winomt's items, not your suite "
                                      "file (my-suite.txt)",)
    assert "not ranked against the published systems" in render(card, "text")


@pytest.mark.parametrize(("options", "said"), [
    ({"en-de/winomt": {"suite_file": "absent.txt"}}, "absent.txt is not in"),
    ({"en-de/winomt": {"suite_file": "../my-suite.txt"}}, "is outside"),
    ({"en-de/winomt": {"suite_file": "bad.txt"}}, "bad.txt:2: entity 'nurse' is not in its sentence"),
    ({"en-de/winomt-adj": {"suite_file": "my-suite.txt"}}, "takes no option 'suite_file'"),
])
def test_a_bad_suite_file_ends_the_card_before_any_work(shared_data, tmp_path, no_work, capsys, options, said):
    folder = _own_suite_folder(shared_data, tmp_path, options)
    (folder / "bad.txt").write_text("female\t1\tThe developer argued.\tdeveloper\n"
                                    "male\t1\tThe developer argued.\tnurse\n")
    shutil.copy(folder / "my-suite.txt", tmp_path / "my-suite.txt")
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "--pairs", "en-de", "--suites", "winomt")
    assert_one_line_error(code, err, said)


@pytest.mark.parametrize(("options", "said"), [
    ({"ja-en/dip": {"max_docs": 0}}, "options of ja-en/dip: max_docs: --max-docs must be between 1 and"),
    ({"ja-en/dip": {"max_docs": 2.5}}, "options of ja-en/dip: max_docs: --max-docs must be a whole number, not 2.5"),
    ({"ja-en/dip": {"max_docs": True}}, "--max-docs must be a whole number, not True"),
    ({"ja-en/dip": {"max_docs": "40x"}}, "options of ja-en/dip: max_docs: argument --max-docs: expected a whole"),
    ({"en-de/winomt": {"max_docs": 40}}, "winomt takes no option 'max_docs'"),
])
def test_a_dip_rows_max_docs_is_checked_with_the_manifest(shared_data, tmp_path, no_work, capsys, options, said):
    """A DiP row's ``max_docs`` (its run's ``--max-docs``) is checked as the run checks it, JSON numbers too, before
    any row runs; no other row takes it."""
    folder = _folder(tmp_path, shared_data, "mine")
    manifest = json.loads((folder / "manifest.json").read_text())
    _manifest(folder, json.dumps({**manifest, "options": options}))
    code, _, err = run_cli(capsys, "card", "--outputs", str(folder), "-q")
    assert_one_line_error(code, err, said)
    assert "manifest.json" in err


def test_check_says_whether_a_rows_suite_file_is_present_or_wrong(shared_data, tmp_path, no_work, capsys):
    folder = _own_suite_folder(shared_data, tmp_path)
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--check", "--pairs", "en-de")
    assert code == 0, err
    said = dict(line.split(": ", 1) for line in out.splitlines())
    assert said["en-de/winomt suite file"] == "present (my-suite.txt: 3888 rows)"
    assert said["en-de/winomt"] == "present (winomt.de.txt: 3888 lines, one per row of my-suite.txt)"
    (folder / "my-suite.txt").write_text("female\t1\tThe developer argued.\tdeveloper\n"
                                         "male\t1\tThe developer argued.\tnurse\n")
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--check", "--pairs", "en-de")
    said = dict(line.split(": ", 1) for line in out.splitlines())
    assert code == 1, err
    assert said["en-de/winomt suite file"] == ("wrong (my-suite.txt: entity 'nurse' is not in its sentence, its "
                                               "line 2)")


def test_an_edited_suite_file_names_another_row_in_the_cache(shared_data, tmp_path, no_work):
    """The row's cache key holds the suite file's content (its version, ``file@sha8``), not only its path: an edited
    suite is scored again."""
    folder = _own_suite_folder(shared_data, tmp_path)
    system, _, rows = resolve(card_settings({"outputs": str(folder), "pairs": "en-de", "suites": "winomt"}))
    before = system.fingerprint(rows[0])
    lines = (folder / "my-suite.txt").read_text("utf-8").splitlines(keepends=True)
    (folder / "my-suite.txt").write_text("".join(lines[:-1]), "utf-8")
    assert system.fingerprint(rows[0]) != before
