"""The HTML report in a real browser (headless Chromium through selenium): the script inflates the items, pages
them, filters exactly, sorts, groups the same item of several systems, and the charts are drawn. Skips when
Chromium, its driver or selenium are missing (setup.sh installs them). Screenshots go to $DISCOTEST_SCREENSHOTS
(default: the test's tmp dir)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.report import html as html_report
from discotest.report.html import PAGE_SIZE, render_html
from discotest.report.result import ItemRow, Mark

webdriver = pytest.importorskip("selenium.webdriver")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winox"


@pytest.fixture(scope="module")
def browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


def _open(browser, path: Path):
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(path.as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.find_element("id", "info").text)
    return browser


def _rows(browser) -> list:
    return browser.find_elements("css selector", "#items tbody tr:not(.grp)")


def _shot(browser, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("DISCOTEST_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(folder / name))


def _select(browser, column: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    data = browser.execute_script("return [...document.querySelectorAll('#controls label')].map(l => l.textContent)")
    selects = browser.find_elements("css selector", "#controls select")
    Select(selects[data.index(column)]).select_by_value("=" + value)


def _column(browser, title: str) -> int:
    """The position of the items table's column whose header's tooltip (its full label) is ``title``."""
    titles = [th.get_attribute("title") for th in browser.find_elements("css selector", "#items th")]
    return titles.index(title)


def test_compare_page_filters_groups_and_draws(browser, tmp_path):
    b = tmp_path / "b.fr.txt"
    lines = (FIXTURES / "system.fr.txt").read_text("utf-8").splitlines()
    b.write_text("\n".join(["xyz", *lines[1:]]) + "\n", "utf-8")
    page = tmp_path / "compare.html"
    assert main(["-q", "compare", "winox", "--lang", "fr", "--suite-file", str(FIXTURES / "en_fr_test.jsonl"),
                 "--input", str(FIXTURES / "system.fr.txt"), "--input", str(b), "--format", "html",
                 "--output", str(page)]) == 0
    _open(browser, page)
    assert browser.find_elements("css selector", "svg.chart rect")  # the charts are drawn
    assert browser.find_element("id", "info").text.startswith("20 of 20 items")  # 2 × 10 items, no pair rows
    _select(browser, "Verdicts differ", "yes")  # item 0: correct in A, no pronoun in B
    rows = _rows(browser)
    change = _column(browser, "Change A→B")
    assert len(rows) == 2 and {r.find_elements("tag name", "td")[change].text for r in rows} == {"accuracy: A better"}
    browser.get(page.as_uri())
    _open(browser, page)
    _select(browser, "Verdict", "correct")
    rows = _rows(browser)
    assert len(rows) == 9 and all(r.get_attribute("class") == "good" for r in rows)  # 5 + 4 correct, exactly
    assert browser.find_elements("css selector", "#items mark.gold")  # the gold pronoun marked in the text
    _select(browser, "System", "b.fr.txt")
    assert len(_rows(browser)) == 4
    browser.find_element("css selector", "#controls select").click()
    browser.get(page.as_uri())  # a fresh page: the same item of both systems together
    _open(browser, page)
    browser.find_element("id", "group").click()
    groups = browser.find_elements("css selector", "#items tbody tr.grp")
    assert groups and groups[0].text.startswith("item fr/")
    _shot(browser, tmp_path, "html-compare-winox.png")


def test_big_gzipped_page_is_paged_and_sorted(browser, tmp_path, monkeypatch):
    monkeypatch.setattr(html_report, "GZIP_ABOVE", 100)
    rows = [ItemRow({"system": "s", "index": i, "gender": ("male", "female", "neutral")[i % 3],
                     "source": f"The nurse {i} said she left."}, (Mark("source", 4, 9, "ent"),), str(i))
            for i in range(PAGE_SIZE * 5 + 3)]
    page = tmp_path / "big.html"
    page.write_text(render_html("big", [{"n": len(rows)}], items=rows), "utf-8")
    assert 'data-gzip="1"' in page.read_text("utf-8")
    _open(browser, page)
    assert len(_rows(browser)) == PAGE_SIZE  # one page in the DOM
    assert browser.find_element("id", "info").text == f"{len(rows)} of {len(rows)} items · page 1 of 6"
    _select(browser, "Gender", "male")  # not "female"
    shown = _rows(browser)
    gender, index = _column(browser, "Gender"), _column(browser, "#")  # "system" (one value) is said above
    assert {r.find_elements("tag name", "td")[gender].text for r in shown} == {"male"}
    assert browser.find_element("id", "info").text.startswith(f"{(len(rows) + 2) // 3} of {len(rows)} items")
    browser.find_elements("css selector", "#items th")[index].click()
    browser.find_elements("css selector", "#items th")[index].click()  # index, descending
    first = _rows(browser)[0].find_elements("tag name", "td")[index].text
    assert first == str(max(i for i in range(len(rows)) if i % 3 == 0))
    assert _rows(browser)[0].find_element("css selector", "mark.ent").text == "nurse"


def test_winomt_page(browser, shared_data, tmp_path):
    page = tmp_path / "winomt.html"
    assert main(["-q", "--data-dir", str(shared_data), "run", "winomt", "--lang", "de", "--system", "google,bing",
                 "--format", "html", "--output", str(page)]) == 0
    _open(browser, page)
    assert browser.find_element("id", "info").text.startswith("7772 of 7772 items")
    _shot(browser, tmp_path, "html-winomt-top.png")
    browser.execute_script("document.getElementById('controls').scrollIntoView()")
    _shot(browser, tmp_path, "html-winomt-items.png")


def test_winomt_compare_page_shows_the_differing_items(browser, shared_data, tmp_path):
    """google vs bing on German: the "Differs" filter keeps both systems' rows of the 914 items whose verdict
    changed (the text report's count), grouped item by item; then the summary and its charts."""
    page = tmp_path / "winomt-compare.html"
    assert main(["-q", "--data-dir", str(shared_data), "compare", "winomt", "--lang", "de", "--system", "google",
                 "--system", "bing", "--format", "html", "--output", str(page)]) == 0
    _open(browser, page)
    assert browser.find_element("id", "info").text.startswith("7772 of 7772 items")
    _select(browser, "Verdicts differ", "yes")
    assert browser.find_element("id", "info").text.startswith("1828 of 7772 items")
    browser.find_element("id", "group").click()
    rows = _rows(browser)
    change = _column(browser, "Change A→B")
    changes = {r.find_elements("tag name", "td")[change].text for r in rows}
    assert changes <= {"accuracy: A better", "accuracy: B better"} and len(changes) == 2
    first = rows[:2]
    assert {r.get_attribute("class") for r in first} == {"good", "bad"}  # one system right, the other wrong
    browser.set_window_size(1366, 1000)  # a laptop screen: the items table and the summaries fit its width
    try:
        widths = browser.execute_script(_WIDTHS)
        assert widths["page"] <= widths["window"] and widths["items"] <= widths["window"], widths
        assert not widths["boxes"], widths  # no summary table scrolls inside its box
        browser.execute_script("document.getElementById('controls').scrollIntoView()")
        _shot(browser, tmp_path, "html-winomt-compare-differs.png")
        browser.execute_script("window.scrollTo(0, 0)")
        _shot(browser, tmp_path, "html-winomt-compare-summary.png")
    finally:
        browser.set_window_size(1400, 1000)


_WIDTHS = """
const e=document.documentElement;
return {window:e.clientWidth, page:e.scrollWidth,
        items:Math.ceil(document.getElementById('items').getBoundingClientRect().right),
        boxes:[...document.querySelectorAll('div.wide')].filter(w=>w.scrollWidth>w.clientWidth).map(w=>w.scrollWidth)};
"""


def test_dip_page_shows_the_mined_sentences_side_by_side(browser, tmp_path, monkeypatch):
    """A DiP ranking page: the connective item of both systems together, the reference's "because" marked."""
    pytest.importorskip("spacy")
    from tests.support.wmt_fakes import BAD, GOOD, write_pair

    data = write_pair(monkeypatch, tmp_path / "data", {"Good": GOOD, "Bad": BAD})
    page = tmp_path / "dip.html"
    assert main(["-q", "rank", "dip", "--pair", "de-en", "--data-dir", str(data), "--phenomena", "connectives",
                 "--format", "html", "-o", str(page)]) == 0
    _open(browser, page)
    assert browser.find_element("id", "info").text.startswith("6 of 6 items")  # 3 connectives × 2 systems
    browser.find_element("id", "group").click()
    groups = browser.find_elements("css selector", "#items tr.grp")
    assert [g.text for g in groups] == ["item connectives-00000", "item connectives-00001", "item connectives-00002"]
    rows = _rows(browser)
    # second group, both systems: the reference sentence with "because" marked; Bad's output has no connective
    because = [r for r in rows if r.find_elements("css selector", "mark.ref")
               and r.find_element("css selector", "mark.ref").text == "because"]
    assert len(because) == 2 and all(r.find_element("css selector", "mark.ref").is_displayed() for r in because)
    system = _column(browser, "System")
    outputs = {r.find_elements("tag name", "td")[system].text: r for r in because}
    assert outputs["Good"].find_element("css selector", "mark.same").text == "because"
    assert not outputs["Bad"].find_elements("css selector", "mark.same, mark.diff")
    _shot(browser, tmp_path, "html-dip-items.png")


# the hostile text of issue 24: comment openers and script closers, the two JavaScript line ends, lone surrogates,
# control characters (C0 and C1, DEL), noncharacters, characters beyond U+FFFF (two UTF-16 units: marks after them
# must still mark the right word), HTML entities and markup
HOSTILE = ("<!--", "-->", "</script", "</SCRIPT>", "<script>", "<\\!--", "\u2028", "\u2029", "\ud800", "\udfff",
           "\udc80x", "\x01", "\x1f", "\x7f", "\x85", "\x9f", "\ufffe", "\ufdd0", "\U0001f600", "\U00020000",
           "&amp;", "&lt;", "]]>", "\\", '"', "'", "\r\n", "\r", "\t", "\u0000", "é", "ש")


def _hostile_text():
    from hypothesis import strategies as st

    any_char = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
    return st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(any_char, max_size=4)), max_size=8).map("".join)


def _units(text: str) -> list[int]:
    """``text`` as JavaScript sees it: UTF-16 code units (a lone surrogate is one unit)."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(raw[i:i + 2], "little") for i in range(0, len(raw), 2)]


_READ_PAGE = """
const units=s=>[...Array(s.length).keys()].map(i=>s.charCodeAt(i));
const data=expand(JSON.parse(document.getElementById('items-data').textContent));
const src=data.columns.indexOf('source'),at=data.shown.indexOf(src);
const rows=[...document.querySelectorAll('#items tbody tr')];
return {parsed:data.rows.map(r=>units(r[src])),
        shown:rows.map(tr=>units(tr.children[at].textContent)),
        marked:rows.map(tr=>[...tr.querySelectorAll('mark')].map(m=>m.textContent)),
        info:document.getElementById('info').textContent};
"""


def test_hostile_text_round_trips_through_the_page(browser):
    """Any item text (hypothesis: hostile fragments and any code point, lone surrogates included) survives the page:
    ``JSON.parse`` of the embedded blob gives back exactly the input, every item is drawn with exactly that text, and
    the word marked after it is still the one marked. One page of many items per example, one browser."""
    import tempfile

    from hypothesis import HealthCheck, example, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(_hostile_text(), min_size=1, max_size=PAGE_SIZE))
    @example(["", ""])  # every source the same: the marked column stays in the table (it was hidden as constant)
    def check(texts: list[str]) -> None:
        rows = [ItemRow({"system": "s\ud800<!--", "index": i, "gender": texts[i % 2 and i - 1 or i][:10],
                         "source": f"{t} nurse"}, (Mark("source", len(t) + 1, len(t) + 6, "ent"),), str(i))
                for i, t in enumerate(texts)]
        page = render_html("t </script><!-- \ud800", [{"system": "s\ud800 </script>", "n": len(rows)}],
                           command="run --input '\udcff.txt'", items=rows)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "hostile.html"
            path.write_text(page, "utf-8")  # a lone surrogate would make this fail
            _open(browser, path)
            got = browser.execute_script(_READ_PAGE)
        want = [_units(f"{t} nurse") for t in texts]
        assert got["info"].startswith(f"{len(texts)} of {len(texts)} items")
        assert got["parsed"] == want  # JSON.parse gives back the input
        assert got["shown"] == want  # and every item is drawn with it
        assert got["marked"] == [["nurse"]] * len(texts)

    check()


def test_a_filter_on_hostile_values_is_exact(browser, tmp_path):
    """A categorical column whose values hold a lone surrogate, a script closer, a comment opener: choosing one in
    the select shows exactly its rows (the value is read from the blob, not from the option's text)."""
    values = ["a\ud800", "a\ufffd", "</script>", "<!--", "x\u2028y"]
    rows = [ItemRow({"system": "s", "index": i, "kind": values[i % len(values)], "source": f"item {i}"}, (), str(i))
            for i in range(50)]
    page = tmp_path / "filter.html"
    page.write_text(render_html("t", [{"n": 50}], items=rows), "utf-8")
    _open(browser, page)
    from selenium.webdriver.support.ui import Select

    select = Select(browser.find_element("css selector", "#controls select"))
    for value in values:
        at = browser.execute_script(  # the option whose value (in the blob) is this one; passed as ASCII JSON
            "const d=JSON.parse(document.getElementById('items-data').textContent);const s=arguments[0];"
            "return [...s.options].findIndex(o=>o.dataset.i!==undefined&&"
            "d.filters[s.dataset.col][+o.dataset.i]===JSON.parse(arguments[1]))",
            select._el, json.dumps(value))
        select.select_by_index(at)
        shown = [r.find_elements("tag name", "td")[_column(browser, "#")].text for r in _rows(browser)]
        assert shown == [str(i) for i in range(50) if values[i % len(values)] == value], value
