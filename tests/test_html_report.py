"""The HTML report: one page from a run's JSON summary and detail rows, with the evidence words marked."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from discotest.cli import main
from discotest.report.html import MAX_ITEMS, highlight, render_html

FIXTURES = Path(__file__).parent / "fixtures" / "winox"


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.rows: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append(dict(attrs).get("class"))


def test_highlight_marks_whole_words_and_escapes():
    marked = highlight("The <b>nurse</b> met the nurseryman; she left.", [("nurse", "ent"), ("she", "pro")])
    assert '&lt;b&gt;<mark class="ent">nurse</mark>&lt;/b&gt;' in marked  # escaped, then marked
    assert "nurseryman" in marked and marked.count("<mark") == 2  # "nurse" inside "nurseryman" is not a word
    assert highlight("a b", [("a b", "ent"), ("b", "pro")]).count("<mark") == 1  # overlapping marks: first wins


def test_page_has_summary_signatures_and_coloured_items():
    page = render_html("t", [{"system": "s", "scores": {"accuracy": 50.0, "n": 2}, "signature": "a:1|b:2"}],
                       [{"source": "The nurse left because she was tired.", "entity": "nurse", "pronoun": "she",
                         "correct": True},
                        {"source": "x", "correct": False}], command="discotest run x")
    parser = _Collect()
    parser.feed(page)
    assert "scores.accuracy" in page and "50.00" in page and "a:1|b:2" in page and "discotest run x" in page
    assert parser.rows.count("good") == 1 and parser.rows.count("bad") == 1
    assert '<mark class="ent">nurse</mark>' in page and '<mark class="pro">she</mark>' in page


def test_long_runs_are_cut_with_a_note():
    rows = [{"source": str(i)} for i in range(MAX_ITEMS + 5)]
    page = render_html("t", [{"n": 1}], rows)
    assert f"first {MAX_ITEMS} of {MAX_ITEMS + 5}" in page


def test_cli_writes_an_html_page(tmp_path):
    out = tmp_path / "report.html"
    code = main(["run", "winox", "--lang", "fr", "--input", str(FIXTURES / "system.fr.txt"),
                 "--suite-file", str(FIXTURES / "en_fr_test.jsonl"), "--format", "html", "--output", str(out)])
    assert code == 0
    page = out.read_text("utf-8")
    parser = _Collect()
    parser.feed(page)
    assert page.startswith("<!DOCTYPE html>") and "Wino-X" in page
    assert parser.rows.count("good") == 5 and parser.rows.count("bad") == 3  # the fixture's verdicts
