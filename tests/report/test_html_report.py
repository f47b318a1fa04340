"""The HTML report: one self-contained page per run of every family, with a labelled summary, inline SVG charts
drawn from ``Result.charts``, and the items (evidence marked) as one JSON blob a script pages through, with exact
per-column filters. The filter/sort logic is run with node when it is installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.report import html as html_report
from discotest.report.charts import Chart, ChartPoint, merge_charts, render_svg
from discotest.report.html import CORE, PAGE_SIZE, expand, read_blob, render_html, words_of
from discotest.report.result import ItemRow, Mark, phrase_marks, token_marks

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winox"


class _Page(HTMLParser):
    """Tags, svg text, legend marks and the items blob of a page."""

    def __init__(self, page: str):
        super().__init__()
        self.tags: Counter = Counter()
        self.svg_text: list[str] = []
        self.legend: list[str] = []
        self.blob = ""
        self.gzipped = False
        self._in: list[str] = []
        self._where = ""
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags[tag] += 1
        if tag == "script" and attrs.get("id") == "items-data":
            self._where = "blob"
            self.gzipped = attrs.get("data-gzip") == "1"
        elif tag == "text":
            self._where = "svg"
        elif tag == "p" and attrs.get("class") == "legend":
            self._where = "legend"
        elif tag == "mark" and self._where == "legend":
            self.legend.append(attrs["class"])

    def handle_endtag(self, tag):
        if tag in ("script", "text", "p"):
            self._where = ""

    def handle_data(self, data):
        if self._where == "blob":
            self.blob += data
        elif self._where == "svg":
            self.svg_text.append(data)

    @property
    def raw(self) -> dict:
        """The items as the page carries them (repeated values coded, maybe gzipped)."""
        return read_blob(self.blob, self.gzipped)

    @property
    def data(self) -> dict:
        return expand(self.raw)


def _column(data: dict, name: str) -> list:
    c = data["columns"].index(name)
    return [row[c] for row in data["rows"]]


def _view(data: dict, state: dict) -> list[int]:
    """The page's own view function (CORE), run by node on the page's data."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    script = CORE + ("const x=JSON.parse(require('fs').readFileSync(0,'utf8'));"
                     "console.log(JSON.stringify(view(expand(x.data),x.state)));")
    out = subprocess.run(["node", "-e", script], input=json.dumps({"data": data, "state": state}),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _marked(data: dict, i: int) -> dict[str, list[str]]:
    """Row ``i``'s marked words by kind."""
    out: dict[str, list[str]] = {}
    for c, start, end, kind in data["marks"][i]:
        out.setdefault(data["kinds"][kind], []).append(str(data["rows"][i][c])[start:end])
    return out


def _run(args: list[str], out: Path) -> tuple[str, _Page]:
    assert main(["-q", *args, "--format", "html", "--output", str(out)]) == 0
    page = out.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<link" not in page and " src=" not in page and " href=" not in page  # self-contained: nothing to fetch
    return page, _Page(page)


def test_phrase_and_token_marks():
    row = {"source": "The nurse met the nurseryman; she left.", "entity": "nurse", "pronoun": ["she"],
           "distractor": "nurse"}
    marks = phrase_marks(row, [("source", "entity", "ent"), ("source", "pronoun", "pro"),
                               ("source", "distractor", "dis")])
    assert [(row["source"][m.start:m.end], m.kind) for m in marks] == [("nurse", "ent"), ("she", "pro")]
    # whole words only; the distractor overlapping the entity is not marked twice
    assert token_marks("h", ["I", "saw", "it"], [([2], "hit"), ([1, 2], "ali")]) == [
        Mark("h", 6, 8, "hit"), Mark("h", 2, 5, "ali")]


def test_charts_merge_and_draw_their_numbers():
    a = Chart("Accuracy", (ChartPoint("de", "google", 60.0),))
    b = Chart("Accuracy", (ChartPoint("de", "bing", 70.25), ChartPoint("fr", "bing", 55.0)))
    d = Chart("ΔG", (ChartPoint("de", "google", -12.5, "p=0.001*"),), unit="pp")
    merged = merge_charts([a, d, b])
    assert [c.title for c in merged] == ["Accuracy", "ΔG"] and merged[0].series() == ["google", "bing"]
    assert merged[0].categories() == ["de", "fr"]
    svg = _Page(render_svg(merged[0]))
    assert {"60.0%", "70.2%", "55.0%"} <= set(svg.svg_text) and svg.tags["rect"] == 3 + 2  # bars + legend keys
    signed = _Page(render_svg(merged[1]))
    assert "-12.5 p=0.001*" in signed.svg_text  # a note keeps its p-value and star


def test_summary_has_labels_and_p_values_keep_their_precision():
    from discotest.gender.result import GenderResult

    page = render_html("t", [{"system": "PROMT", "scores": {"precision_male": 50.0}, "p_next": 0.001,
                              "signature": "a:1"},
                             {"system": "Online-B", "scores": {"precision_male": 40.0}, "p_next": 0.2,
                              "signature": "a:1"}], words=words_of([GenderResult]))
    assert "Precision ♂ (%)" in page and ">scores.precision_male<" not in page
    assert ">0.001*<" in page and ">0.200<" in page and ">0.00<" not in page


def test_items_blob_is_escaped_paged_and_filters_are_exact():
    rows = [ItemRow({"system": "s", "index": i, "gender": ("male", "female")[i % 2],
                     "source": "a </script><b> b" if i == 0 else f"item {i}", "correct": i % 3 == 0},
                    (), f"{i}") for i in range(PAGE_SIZE * 3)]
    page = render_html("t", [{"n": 1}], items=rows)
    parsed = _Page(page)
    data = parsed.data
    assert len(data["rows"]) == PAGE_SIZE * 3
    assert parsed.tags["tr"] == 3  # the summary's head and row, the items' head: the script draws the items
    assert _column(data, "source")[0] == "a </script><b> b" and "</script><b>" not in page
    gender = str(data["columns"].index("gender"))
    assert data["filters"][gender] == ["female", "male"]
    assert parsed.legend == []  # nothing is marked: the legend promises no marks
    males = _view(parsed.raw, {"filters": {gender: "male"}})
    assert males and all(_column(data, "gender")[i] == "male" for i in males)  # "male" does not match "female"
    assert len(males) == PAGE_SIZE * 3 // 2
    correct = str(data["columns"].index("correct"))
    assert _view(parsed.raw, {"filters": {gender: "female", correct: "true"}}) == [
        i for i in range(PAGE_SIZE * 3) if i % 2 and i % 3 == 0]
    assert _view(parsed.raw, {"sort": data["columns"].index("index"), "desc": True})[:2] == [PAGE_SIZE * 3 - 1,
                                                                                     PAGE_SIZE * 3 - 2]


def test_big_blobs_are_gzipped_and_read_back_the_same(monkeypatch):
    rows = [ItemRow({"system": ("a", "b")[i % 2], "source": f"sentence {i // 2}", "verdict": "ok"}, (), str(i // 2))
            for i in range(400)]
    small = _Page(render_html("t", [{"n": 1}], items=rows))
    monkeypatch.setattr(html_report, "GZIP_ABOVE", 100)
    big = _Page(render_html("t", [{"n": 1}], items=rows))
    assert not small.gzipped and big.gzipped and small.raw == big.raw
    assert small.raw["dicts"]["1"][:2] == ["sentence 0", "sentence 1"]  # the source of both systems, once
    assert big.data["rows"][3] == ["b", "sentence 1", "ok"]
    assert _view(big.raw, {"filters": {"0": "b"}}) == list(range(1, 400, 2))


def test_gender_page_on_winomt(shared_data, tmp_path):
    page, parsed = _run(["--data-dir", str(shared_data), "run", "winomt", "--lang", "de,es",
                         "--system", "google,bing"], tmp_path / "g.html")
    assert main(["-q", "--data-dir", str(shared_data), "run", "winomt", "--lang", "de,es", "--system",
                 "google,bing", "--format", "json", "--output", str(tmp_path / "g.json")]) == 0
    results = json.loads((tmp_path / "g.json").read_text("utf-8"))["results"]
    # the charts: accuracy, ΔG and ΔS per language and system, with the JSON's numbers
    assert "Gender accuracy by language" in page and "ΔS = accuracy pro − anti-stereotypical by language" in page
    for r in results:
        assert f"{r['scores']['accuracy']:.1f}%" in parsed.svg_text
        # the JSON's value is rounded to 4 places: one on a .x5 boundary (21.75) was drawn from the unrounded 21.7499…
        delta_g = r['scores']['delta_g']
        assert any(f"{v:.1f}" in parsed.svg_text for v in (delta_g - 5e-5, delta_g + 5e-5))
    assert "ΔG = F1♂ − F1♀ (pp)" in page and ">scores.delta_g<" not in page
    data = parsed.data
    assert len(data["rows"]) == sum(r["n"] for r in results) + sum(r["unmatched"] for r in results) or len(
        data["rows"]) == sum(r["n"] for r in results)
    # exact filters: gold gender male never shows a female row, and the counts are the data's
    gold = data["columns"].index("gold_gender")
    assert data["filters"][str(gold)] == sorted(set(_column(data, "gold_gender")))
    males = _view(parsed.raw, {"filters": {str(gold): "male"}})
    assert len(males) == _column(data, "gold_gender").count("male") and males
    assert {data["rows"][i][gold] for i in males} == {"male"}
    assert str(data["columns"].index("stereotype")) in data["filters"]
    # evidence: entity marked in the source, its translation and the words that decided the gender
    first = data["rows"][0]
    assert first[data["columns"].index("source")].startswith("The developer")
    marked = _marked(data, 0)
    assert marked["ent"] == ["developer", "Entwicklerin"] and "Die" in marked["cue"]
    assert set(parsed.legend) == set(data["kinds"]) and "zp" not in parsed.legend  # only marks that appear
    # the same item of both systems side by side
    assert 'id="group"' in page
    keys = Counter(data["keys"])
    assert keys["de/0"] == 2
    grouped = _view(parsed.raw, {"group": True})
    at = grouped.index(0)
    assert data["keys"][grouped[at + 1]] == "de/0"


def test_contrastive_page_marks_the_candidates_and_charts_distance(shared_data, tmp_path):
    from discotest.contrastive.suites import load_suite

    items = load_suite("voita-deixis", shared_data)
    lines = [str(0.0 if (j == it.correct_index) == (it.distance == 2) else 1.0)
             for it in items for j in range(len(it.candidates))]
    scores = tmp_path / "losses.txt"
    scores.write_text("\n".join(lines) + "\n")
    page, parsed = _run(["--data-dir", str(shared_data), "run", "voita-deixis", "--scores", str(scores),
                         "--scores-are-losses"], tmp_path / "c.html")
    assert "voita-deixis: accuracy by antecedent distance" in page
    assert "100.0% n=" + str(sum(it.distance == 2 for it in items)) in parsed.svg_text
    data = parsed.data
    distance = str(data["columns"].index("distance"))
    assert data["filters"][distance] == ["1", "2", "3"]
    first = items[0]
    marked = _marked(data, 0)
    assert marked["gold"] == [first.candidates[first.correct_index]]  # the right candidate
    assert len(marked["chosen"]) == 1 and marked["chosen"] != marked["gold"]  # item 0 (d=3) is wrong
    assert _column(data, "source")[0] == first.src and _column(data, "context")[0] == " ⏎ ".join(first.src_context)
    assert set(parsed.legend) == {"gold", "chosen"}


def test_ctxpro_page_marks_the_expected_word(shared_data, tmp_path):
    page, parsed = _run(["--data-dir", str(shared_data), "run", "ctxpro-auxiliary-en-de-test",
                         "--system", "deepl-contexts"], tmp_path / "x.html")
    data = parsed.data
    hits = [i for i, v in enumerate(_column(data, "correct")) if v == "true"]
    assert hits and all(_marked(data, i)["gold"][0].lower() == str(_column(data, "expected")[i]).lower()
                        for i in hits[:50])
    assert any(t.startswith("40.0% ± ") for t in parsed.svg_text)  # the authors' figure (tests/test_ctxpro_authors)


def test_azpt_page(shared_data, tmp_path):
    page, parsed = _run(["--data-dir", str(shared_data), "run", "mzprt", "--domain", "MS",
                         "--system", "base_tgt,zpr_grounding"], tmp_path / "z.html")
    assert "AZPT by domain" in page and "AZPT by form · MS" in page and "AZPT by pronoun · MS" in page
    data = parsed.data
    for system in ("base_tgt", "zpr_grounding"):
        mine = [i for i, s in enumerate(_column(data, "system")) if s == system]
        scored = [_column(data, "correct")[i] for i in mine if _column(data, "correct")[i] is not None]
        accuracy = 100 * scored.count("true") / len(scored)
        assert f"{accuracy:.1f}% n={len(scored)}" in parsed.svg_text
    zp = [i for i in range(len(data["rows"])) if "zp" in _marked(data, i)]
    assert len(zp) == len(data["rows"])  # every ZP is marked in its source
    assert any("hit" in _marked(data, i) for i in range(len(data["rows"])))
    assert {"zp", "ali", "span", "hit"} >= set(parsed.legend) >= {"zp", "hit"}
    assert str(data["columns"].index("form")) in data["filters"] and 'id="group"' in page


def test_dip_ranking_page_keeps_p_values(shared_data, tmp_path):
    page, parsed = _run(["--data-dir", str(shared_data), "rank", "dip", "--data", "wmt22", "--pair", "de-en",
                         "--max-docs", "4", "--phenomena", "lexical,connectives"], tmp_path / "d.html")
    assert main(["-q", "--data-dir", str(shared_data), "rank", "dip", "--data", "wmt22", "--pair", "de-en",
                 "--max-docs", "4", "--phenomena", "lexical,connectives", "--format", "json", "--output",
                 str(tmp_path / "d.json")]) == 0
    rankings = json.loads((tmp_path / "d.json").read_text("utf-8"))["aggregates"]["rankings"]
    for ranking in rankings:
        assert f"DiP ranking · {ranking['phenomenon']}: {ranking['metric']}" in page
        for row in ranking["rows"]:
            if row["p_next"] is not None:
                p = f"p={row['p_next']:.3f}" + ("*" if row["significant"] else "")
                assert any(t.endswith(p) for t in parsed.svg_text), p
                assert re.search(rf">{re.escape(p[2:])}<", page)  # the summary table too
    assert ">0.00<" not in page


def test_winox_page_colours_items_by_verdict(tmp_path):
    page, parsed = _run(["run", "winox", "--lang", "fr", "--input", str(FIXTURES / "system.fr.txt"),
                         "--suite-file", str(FIXTURES / "en_fr_test.jsonl")], tmp_path / "w.html")
    data = parsed.data
    assert Counter(data["status"]) == {1: 5, -1: 3, 0: 2}  # the fixture's verdicts
    assert "Wino-X pronoun accuracy by language" in page and "50.0%" in parsed.svg_text
    verdict = str(data["columns"].index("verdict"))
    assert data["filters"][verdict] == ["correct", "no-pronoun", "undecided", "wrong"]
    page2, _ = _run(["run", "winox", "--lang", "fr", "--input", str(FIXTURES / "system.fr.txt"),
                     "--suite-file", str(FIXTURES / "en_fr_test.jsonl")], tmp_path / "w2.html")
    assert page2.replace("w2.html", "w.html") == page  # the same bytes for the same inputs


def test_any_item_text_round_trips_through_the_blob():
    """Hypothesis: whatever an item's text holds (``<!--``, ``</script``, U+2028/2029, lone surrogates, controls),
    the page can be written as UTF-8, the blob has no ``<`` (so nothing in it can end the script or open a comment)
    and reads back to exactly the input, plain or gzipped. The browser half is tests/report/test_html_browser.py."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    fragments = st.sampled_from(["<!--", "</script", "<script", "-->", "\u2028", "\u2029", "\ud800", "\udfff",
                                 "\x00", "\x1f", "\x7f", "\x85", "\ufffe", "\U0001f600", "&", ">"])
    text = st.lists(st.one_of(fragments, st.text(st.characters(exclude_categories=()), max_size=3)),
                    max_size=6).map("".join)

    @settings(max_examples=150, deadline=None)
    @given(st.lists(text, min_size=1, max_size=5), st.booleans())
    def check(texts: list[str], gzipped: bool) -> None:
        rows = [ItemRow({"system": "s", "index": i, "source": t}, (), str(i)) for i, t in enumerate(texts)]
        html_report.GZIP_ABOVE = 0 if gzipped else 1_000_000
        page = render_html("t", [{"n": 1}], items=rows)
        page.encode("utf-8")
        parsed = _Page(page)
        assert parsed.gzipped == gzipped and (gzipped or "<" not in parsed.blob)
        # as UTF-16 (JavaScript's strings): a high and a low lone surrogate side by side are one character there
        utf16 = [t.encode("utf-16-le", "surrogatepass") for t in texts]
        assert [t.encode("utf-16-le", "surrogatepass") for t in _column(parsed.data, "source")] == utf16

    try:
        check()
    finally:
        html_report.GZIP_ABOVE = 1_000_000


def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(tmp_path):
    """A system file whose name is not UTF-8 (Python sees a lone surrogate): the text report shows U+FFFD, the JSON
    report, the details and the page's blob keep the name exactly (escaped); before, writing the report failed with
    a UnicodeEncodeError traceback."""
    odd = tmp_path / "sys\udcff.fr.txt"
    odd.write_bytes((FIXTURES / "system.fr.txt").read_bytes())
    args = ["-q", "run", "winox", "--lang", "fr", "--suite-file", str(FIXTURES / "en_fr_test.jsonl"), "--input",
            str(odd), "--details", str(tmp_path / "d.jsonl")]
    for fmt in ("text", "json", "html"):
        assert main([*args, "--format", fmt, "--output", str(tmp_path / f"out.{fmt}")]) == 0
    assert "sys\ufffd.fr.txt" in (tmp_path / "out.text").read_text("utf-8")
    assert json.loads((tmp_path / "out.json").read_text("utf-8"))["results"][0]["system"] == "sys\udcff.fr.txt"
    details = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text("utf-8").splitlines()]
    assert {row["system"] for row in details} == {"sys\udcff.fr.txt"}
    page = _Page((tmp_path / "out.html").read_text("utf-8"))
    assert set(_column(page.data, "system")) == {"sys\udcff.fr.txt"}


def test_items_columns_fit_a_laptop_screen():
    """The items table's layout (report.html.column_widths): running text shares the free width, a short column is
    as wide as its common longest word (a rare long compound wraps), a long header is abbreviated with the full label
    as tooltip, and a column with one value for every item is said once above the table."""
    from discotest.report.html import EM_PER_CHAR, column_widths

    rows = [ItemRow({"system": "google", "index": i, "source": "The developer argued with the designer because she "
                     f"did not like the design {i}.", "target_entity": "Bauarbeiterinnen" if i == 0 else "Ärztin",
                     "gold_gender": ("male", "female")[i % 2]}, (), str(i)) for i in range(40)]
    columns = ["system", "index", "source", "target_entity", "gold_gender"]
    from discotest.gender.result import GenderResult

    words = words_of([GenderResult])  # the gender family's own column names
    widths = column_widths(rows, columns, words)
    assert widths[2] is None  # running text
    assert widths[3] < len("Bauarbeiterinnen") * EM_PER_CHAR  # one long word does not widen its column
    assert all(w < 8 for w in (widths[0], widths[1], widths[3], widths[4]))
    page = render_html("t", [{"n": 40}], items=rows, words=words)
    assert '<th title="Entity in translation">Entity (MT)</th>' in page
    assert "<p class=\"common\">Every item: System: google</p>" in page and ">System</th>" not in page
    assert 'table-layout:fixed' in page and page.count("<col") >= 4
