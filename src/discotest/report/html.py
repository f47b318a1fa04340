"""One self-contained HTML page per run: the summary, charts, the signatures, and every item's evidence.

Every result has a JSON form (its summary), charts as data (``Result.charts``) and its items with their evidence
marked (``Result.item_rows``); the page is built from those, so a new family gets an HTML report without its own
renderer. The summary uses human labels with units; the charts are inline SVG; the items travel as one JSON blob
rendered a page at a time by a small script (sorting, an exact select per categorical column, a text search, and
a view grouping the same item of several systems together), so a run of 60,000 items stays usable. No network, no
external files, and the same inputs give the same bytes.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from discotest.report.charts import Chart, merge_charts, render_charts
from discotest.report.result import DEFAULT_MARKS, KEY_FIELDS, MARK_KINDS, ItemRow, phrase_marks

PAGE_SIZE = 100
GZIP_ABOVE = 1_000_000  # a bigger items blob is gzipped and base64-encoded (the browser's DecompressionStream)
MAX_CATEGORIES = 40  # a column with at most this many distinct short values gets an exact select
GOOD = {"correct", "consistent", "ok", "true", "entity"}
BAD = {"wrong", "incorrect", "inconsistent", "false", "distractor"}
ID_FIELDS = ("index", "row", "segment", "ordinal", "id")  # name one item: never a filter
VERDICT_FIELDS = ("correct", "consistent", "verdict", "same", "resolution")

# flattened summary keys -> what a reader calls them (units in brackets); others: the key with spaces
LABELS = {
    "system": "System", "lang": "Language", "scope": "Scope", "suite": "Suite", "n": "Items",
    "suite_version": "Suite version", "domain": "Domain", "kind": "Kind", "segments": "Segments",
    "accuracy": "Accuracy (%)", "unknown": "Gender unreadable (%)", "unmatched": "Unmatched rows",
    "decided_accuracy": "Accuracy of decided (%)", "overall.accuracy": "Accuracy (%)", "overall.n": "Items",
    "correct": "Correct", "bleu": "BLEU", "BLEU": "BLEU", "phenomenon": "Phenomenon", "decided": "Decided (%)",
    "accuracy_decided": "Accuracy of decided (%)", "system_a": "System A", "system_b": "System B", "metric": "Metric",
    "a": "Score A", "b": "Score B", "sign_test.wins_a": "Sign test: A better",
    "sign_test.wins_b": "Sign test: B better", "sign_test.ties": "Ties", "sign_test.p": "p (sign test)",
    "bootstrap.p": "p (paired bootstrap)", "bootstrap.ci_a": "± 95% CI A", "bootstrap.ci_b": "± 95% CI B",
    "bootstrap.mean_a": "Bootstrap mean A", "bootstrap.mean_b": "Bootstrap mean B",
    "bootstrap.samples": "Bootstrap samples", "bootstrap.seed": "Bootstrap seed",
    "higher_is_better": "Higher is better", "counts.correct": "Verdict correct", "counts.wrong": "Verdict wrong",
    "counts.no-pronoun": "Verdict no pronoun", "counts.undecided": "Verdict undecided", "p_value": "p (bootstrap)",
    "sign_p": "p (sign test)", "index": "#", "id": "Item", "source": "Source", "translation": "Translation",
    "entity": "Entity", "reason": "Why", "evidence": "Cue words", "pronoun": "Pronoun", "distractor": "Distractor",
    "consistent": "Consistent", "verdict": "Verdict", "context": "Context", "reference": "Reference", "same": "Same",
    "A≠B": "Verdicts differ", "A→B": "Change A→B", "changed_items": "Items whose verdict differs",
}
# the summary tables' headers where the label is long: the short form the text table and its legend use, the full
# label as the tooltip, so a summary of every measure fits a 1,366 px laptop screen without scrolling in its box
SUMMARY_HEADERS = {
    "unknown": "Unread (%)", "unmatched": "Unmatched", "suite_version": "Version",
    "decided_accuracy": "Acc. decided (%)", "accuracy_decided": "Acc. decided (%)", "sign_test.wins_a": "A better",
    "sign_test.wins_b": "B better", "sign_test.p": "p (sign)", "bootstrap.p": "p (boot.)",
    "bootstrap.mean_a": "Mean A", "bootstrap.mean_b": "Mean B", "bootstrap.ci_a": "± CI A", "bootstrap.ci_b": "± CI B",
    "bootstrap.samples": "Samples", "bootstrap.seed": "Seed", "higher_is_better": "Higher better",
    "changed_items": "Items differ",
}

# the items table's headers where the label is long: a short form, the full label as its tooltip (title), so the
# table fits a 1,366 px laptop screen; the filters above the table keep the full labels
ITEM_HEADERS = {
    "A≠B": "A≠B", "A→B": "A→B", "lang": "Lang.", "evidence": "Cues", "distractor": "Distr.", "consistent": "Consist.",
}
FILTER_ONLY = ("A≠B",)  # a filter above the table, not a column: "Change A→B" shows the same ('same' or which way)
WIDTH_SAMPLE = 4000  # items read for the column widths (a 128,238-item page took 4.5 s to read them all)
LONG_TEXT = 24  # a column whose values run longer (p90, characters) is running text: it shares the free width
EM_PER_CHAR = 0.55  # the average width of a character of the table's font, in em (DejaVu Sans / system-ui)
HEAD_EM_PER_CHAR = 0.8  # the same in the bold headers, generous: a header word never breaks
CELL_PAD_EM = 0.7  # a cell's left and right padding and border, in em
LONG_MIN_EM = 10  # running-text columns keep at least this width: a narrower window scrolls the page instead

# summary columns left to the JSON (the breakdowns are charted; lists of rows are long)
HIDDEN = ("family", "headline.", "unmatched_rows", "by_", "manifest", "path", "bleu_signature", "released_note",
          "layout", "holdout", "found_by", "matched_by", "located_by")

def _asset(name: str) -> str:
    """One of the page's own files (``report/assets``: its CSS and scripts), shipped with the package and written
    into every page, so the page needs nothing beside it."""
    return resources.files("discotest.report").joinpath("assets", name).read_text("utf-8")


STYLE = _asset("page.css")
CORE = _asset("view.js")  # the view logic, pure (no DOM): which rows, in which order, for the filters and sort
UI = _asset("items.js")  # the items table: paging, filters, search, grouping (``__PAGE_SIZE__`` filled in)
SORT_TABLES = _asset("sort_tables.js")


@dataclass(frozen=True)
class Words:
    """What a page calls each column: the generic ``LABELS`` and short headers with a family's own over them (its
    result class's ``labels`` and ``headers``), so each family names its measures where it defines them."""

    labels: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)

    def label(self, key: str) -> str:
        """The column ``key`` (flattened, ``scores.`` dropped) as a reader calls it."""
        key = key.removeprefix("scores.")
        if key in self.labels:
            return self.labels[key]
        if key in LABELS:
            return LABELS[key]
        spaced = key.replace("_", " ").replace(".", ": ")
        return spaced[:1].upper() + spaced[1:]

    def summary_header(self, key: str) -> str:
        key = key.removeprefix("scores.")
        return self.headers.get(key) or SUMMARY_HEADERS.get(key) or self.label(key)

    def item_header(self, key: str) -> str:
        return self.headers.get(key) or ITEM_HEADERS.get(key) or self.label(key)


GENERIC = Words()


def words_of(result_classes: Iterable[type]) -> Words:
    """The words of a page showing results of these classes (``Result.labels``, ``Result.headers``)."""
    labels: dict[str, str] = {}
    headers: dict[str, str] = {}
    for cls in dict.fromkeys(result_classes):
        labels.update(getattr(cls, "labels", {}))
        headers.update(getattr(cls, "headers", {}))
    return Words(labels, headers)


def label(key: str, words: Words = GENERIC) -> str:
    """The summary column ``key`` (flattened, ``scores.`` dropped) as a reader calls it."""
    return words.label(key)


def _flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested summaries as ``a.b`` columns; long lists (row numbers) are left to the JSON."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if hasattr(value, "tolist"):  # numpy numbers and arrays
            value = value.tolist()
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{name}."))
        elif isinstance(value, list | tuple) and len(value) > 6:
            continue
        else:
            out[name] = value
    return out


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str | list | tuple) and not value)


def _hidden(key: str) -> bool:
    bare = key.removeprefix("scores.")
    return any(bare.startswith(h) or f".{h}" in bare for h in HIDDEN)


def format_value(key: str, value: Any) -> str:
    """Numbers as a reader wants them: p-values with three decimals and a star below 0.05 (PROMT's 0.001*, never
    0.00), other floats with two decimals, integers whole, lists comma-separated."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    if isinstance(value, float):
        last = key.split(".")[-1]
        if last == "p" or last.startswith("p_"):
            return f"{value:.3f}" + ("*" if value < 0.05 else "")
        return f"{value:.2f}"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return str(value)


def _cell(key: str, value: Any) -> str:
    text = html.escape(format_value(key, value))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f'<td class="num" data-v="{value!r}">{text}</td>'
    return f"<td>{text}</td>"


def summary_table(rows: Sequence[Mapping[str, Any]], skip: Sequence[str] = ("signature",), words: Words = GENERIC
                  ) -> str:
    """Rows of flattened JSON as one sortable table with human labels; columns with one value for every row (the
    suite, its version) go in a line above it when there are several rows."""
    flat = [_flatten(r) for r in rows]
    columns = [c for c in dict.fromkeys(k for r in flat for k in r) if c not in skip and not _hidden(c)
               and any(not _empty(r.get(c)) for r in flat)]
    seen: dict[str, str] = {}  # label -> column: the same label with the same values is shown once ("n", "scores.n")
    for c in list(columns):
        other = seen.setdefault(words.label(c), c)
        if other != c and all(r.get(c) == r.get(other) for r in flat):
            columns.remove(c)
    same_in_every_row = []
    if len(flat) > 1:
        for c in list(columns):
            values = {json.dumps(r.get(c), sort_keys=True) for r in flat}
            if len(values) == 1 and c != "system":
                same_in_every_row.append(c)
                columns.remove(c)
    line = ""
    shown = [c for c in same_in_every_row if not _empty(flat[0].get(c))]
    if shown:
        line = '<p class="common">' + " · ".join(
            f"{html.escape(words.label(c))}: {html.escape(format_value(c, flat[0].get(c)))}" for c in shown) + "</p>"
    head = "".join(f'<th title="{html.escape(words.label(c))}">{html.escape(words.summary_header(c))}</th>'
                   for c in columns)
    body = "".join("<tr>" + "".join(_cell(c, r.get(c)) for c in columns) + "</tr>" for r in flat)
    return (f'{line}<div class="wide"><table class="sortable"><thead><tr>{head}</tr></thead><tbody>{body}</tbody>'
            "</table></div>")


def _status(row: Mapping[str, Any]) -> int:
    for key in VERDICT_FIELDS:
        value = row.get(key)
        if value is None:
            continue
        word = str(value).lower()
        if word in GOOD:
            return 1
        if word in BAD:
            return -1
    return 0


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    if isinstance(value, Mapping):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


def _utf16_span(text: Any, start: int, end: int) -> tuple[int, int]:
    """A mark's character offsets as the page's JavaScript counts them (UTF-16 code units): a character beyond
    U+FFFF (an emoji, a CJK extension) counts two, so the words after it are still the ones marked."""
    if not isinstance(text, str) or not text or max(text) <= "\uffff":
        return start, end

    def units(i: int) -> int:
        return len(text[:i].encode("utf-16-le", "surrogatepass")) // 2

    return units(start), units(end)


_WHOLE_NUMBER = re.compile("-?[0-9]+")


def _filter_order(value: str) -> tuple[bool, int, str]:
    """A select's values: words first, then whole numbers by value (ASCII digits only: ``'¹'.isdigit()`` is true but
    ``int('¹')`` fails)."""
    number = _WHOLE_NUMBER.fullmatch(value) is not None
    return number, int(value) if number else 0, value


def constant_columns(items: Sequence[ItemRow], columns: Sequence[str]) -> dict[str, Any]:
    """The columns with one value for every item (of two or more) -> that value: said once above the items table
    (as the summary says its common values), not repeated in every row. A column with marked evidence in it stays in
    the table, where its marks are drawn."""
    out = {}
    marked = {m.field for item in items for m in item.marks}
    for c in columns:
        if c in marked:
            continue
        first = items[0].fields.get(c) if len(items) > 1 else None
        if len(items) > 1 and all(item.fields.get(c) == first for item in items):
            out[c] = first
    return out


def shown_columns(items: Sequence[ItemRow], columns: Sequence[str]) -> list[int]:
    """The items table's columns (indices into ``columns``): all but the constant ones and ``FILTER_ONLY`` ones."""
    constant = constant_columns(items, columns)
    return [i for i, c in enumerate(columns) if c not in constant and c not in FILTER_ONLY]


def items_data(items: Sequence[ItemRow]) -> dict[str, Any]:
    """The items as the page's JSON blob: column names, rows as arrays, marks as [column, start, end, kind],
    item keys, verdict status (1 good, −1 bad, 0 neither) and the exact values of each categorical column."""
    columns = list(dict.fromkeys(k for item in items for k in item.fields))
    position = {c: i for i, c in enumerate(columns)}
    kinds = list(dict.fromkeys(m.kind for item in items for m in item.marks))
    rows, marks = [], []
    for item in items:
        rows.append([_plain(item.fields.get(c)) for c in columns])
        marks.append([[position[m.field], *_utf16_span(item.fields.get(m.field), m.start, m.end),
                       kinds.index(m.kind)] for m in item.marks if m.field in position])
    filters: dict[str, list[str]] = {}
    for c, name in enumerate(columns):
        values: set[str] = set()
        for row in rows:
            value = row[c]
            if isinstance(value, float) or (isinstance(value, str) and len(value) > 40):
                break
            values.add("" if value is None else str(value).lower() if isinstance(value, bool) else str(value))
            if len(values) > MAX_CATEGORIES:
                break
        else:
            few = len(values) <= 8 or 2 * len(values) <= len(rows)  # not an id: values repeat
            if 1 < len(values) <= MAX_CATEGORIES and few and name not in ID_FIELDS:
                filters[str(c)] = sorted(values, key=_filter_order)
    for row in rows:  # booleans as the filters spell them
        for c, value in enumerate(row):
            if isinstance(value, bool):
                row[c] = str(value).lower()
    # a column whose values repeat (the source of every system, a verdict) as indices into its distinct values
    dicts: dict[str, list[Any]] = {}
    for c in range(len(columns)):
        distinct = list(dict.fromkeys((type(row[c]).__name__, row[c]) for row in rows))  # 1 and "1" differ
        if 2 * len(distinct) <= len(rows):
            index = {v: k for k, v in enumerate(distinct)}
            dicts[str(c)] = [v for _, v in distinct]
            for row in rows:
                row[c] = index[type(row[c]).__name__, row[c]]
    return {"columns": columns, "shown": shown_columns(items, columns), "rows": rows, "dicts": dicts, "marks": marks,
            "kinds": kinds,
            "keys": [item.key for item in items], "status": [_status(item.fields) for item in items],
            "filters": filters}


def expand(data: Mapping[str, Any]) -> dict[str, Any]:
    """``items_data`` with its dictionary-coded columns spelled out again (the page's ``expand``)."""
    rows = [list(row) for row in data["rows"]]
    for c, values in data["dicts"].items():
        for row in rows:
            row[int(c)] = values[row[int(c)]]
    return {**data, "rows": rows, "dicts": {}}


def read_blob(text: str, gzipped: bool) -> dict[str, Any]:
    """The items blob of a page as ``items_data`` wrote it (ungzipped when ``gzipped``)."""
    if gzipped:
        text = gzip.decompress(base64.b64decode(text)).decode("utf-8")
    return json.loads(text)


# characters a JSON string may hold raw but the page may not: ``<`` ``>`` ``&`` (a script's ``</script``, ``<!--``),
# U+2028/2029 (line ends to older JavaScript), lone surrogates (no UTF-8 form: the page could not be written), DEL
# and the C1 controls (HTML parse errors), noncharacters; each is written as its JSON escape ``\\uXXXX``
_UNSAFE_IN_SCRIPT = re.compile("[<>&\u2028\u2029\ud800-\udfff\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def script_json(data: Any) -> str:
    """``data`` as compact JSON that can sit inside ``<script type="application/json">`` and still parse back to
    exactly ``data`` (``JSON.parse`` in the page, ``json.loads`` here), whatever text its strings hold."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return _UNSAFE_IN_SCRIPT.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _blob(data: Mapping[str, Any]) -> tuple[str, bool]:
    """The blob's text and whether it is gzipped: ``script_json``; above ``GZIP_ABOVE`` bytes gzipped (mtime 0: the
    same bytes every run) and base64-encoded."""
    text = script_json(data)
    if len(text.encode()) > GZIP_ABOVE:
        return base64.b64encode(gzip.compress(text.encode(), compresslevel=6, mtime=0)).decode("ascii"), True
    return text, False


_WORD_BREAKS = re.compile(r"\s+|(?<=-)")  # where a browser may wrap a line: spaces, after a hyphen


def _quantile(values: list[int], q: float) -> int:
    """The ``q`` quantile of ``values`` (nearest rank, no interpolation: a width in whole characters); 0 if empty."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


def column_widths(items: Sequence[ItemRow], columns: Sequence[str], words: Words = GENERIC) -> list[float | None]:
    """Each items column's width in em for a fixed table layout, from its values, so the table fits the window
    (a 1,366 px laptop) instead of growing with its longest sentence: None for running text (p90 length over
    ``LONG_TEXT``: source, translation, why), which shares the width left; otherwise the longest word most values
    have (p95: a rarer long compound wraps inside), the short header's longest word, and up to 10 characters of the
    typical value (p90), at most 14 characters."""
    sample = items[::max(1, len(items) // WIDTH_SAMPLE)]  # every k-th item: the quantiles, at a fixed cost
    out: list[float | None] = []
    for c in columns:
        texts = [str(_plain(v)) for item in sample if (v := item.fields.get(c)) is not None]
        lengths = [len(t) for t in texts]
        if _quantile(lengths, 0.9) > LONG_TEXT:
            out.append(None)
            continue
        longest = [max((len(w) for w in _WORD_BREAKS.split(t)), default=0) for t in texts]
        header = max(len(w) for w in words.item_header(c).split())
        chars = min(14, max(3, _quantile(longest, 0.95), min(10, _quantile(lengths, 0.9))))
        out.append(round(max(chars * EM_PER_CHAR, header * HEAD_EM_PER_CHAR) + CELL_PAD_EM, 1))
    return out


def _items_section(items: Sequence[ItemRow], words: Words = GENERIC) -> str:
    data = items_data(items)
    kinds = data["kinds"]
    legend = " ".join(f'<mark class="{k}">{html.escape(MARK_KINDS.get(k, k))}</mark>' for k in kinds)
    status = set(data["status"])
    colours = [text for s, text in ((1, "green: correct"), (-1, "red: wrong")) if s in status]
    legend_line = " · ".join(x for x in (legend, ", ".join(colours)) if x)
    selects = []
    for c, values in data["filters"].items():
        name = data["columns"][int(c)]
        options = "".join(f'<option value="={html.escape(v)}" data-i="{i}">{html.escape(v or "(empty)")}</option>'
                          for i, v in enumerate(values))
        selects.append(f'<label>{html.escape(words.label(name))}</label><select data-col="{c}">'
                       f'<option value="">all</option>{options}</select>')
    systems = {row.get("system") for row in (item.fields for item in items)}
    keys = [item.key for item in items]
    group = ('<label><input type="checkbox" id="group"> the same item of every system together</label>'
             if len(systems) > 1 and len(set(keys)) < len(keys) else "")
    shown = [data["columns"][i] for i in data["shown"]]
    head = "".join(f'<th title="{html.escape(words.label(c))}">{html.escape(words.item_header(c))}</th>'
                   for c in shown)
    widths = column_widths(items, shown, words)
    constant = constant_columns(items, data["columns"])
    every = " · ".join(f"{html.escape(words.label(c))}: {html.escape(format_value(c, v))}" for c, v in constant.items()
                       if not _empty(v))
    cols = "".join(f'<col style="width:{w:.1f}em">' if w is not None else "<col>" for w in widths)
    least = sum(w if w is not None else LONG_MIN_EM for w in widths)
    blob, gzipped = _blob(data)
    zipped = ' data-gzip="1"' if gzipped else ""
    return "\n".join([
        f"<h2>Items ({len(items)})</h2>",
        f'<p class="legend">{legend_line}</p>' if legend_line else "",
        f'<p class="common">Every item: {every}</p>' if every else "",
        f'<div id="controls"><input id="q" placeholder="search any text">{"".join(selects)}{group}</div>',
        '<p><button id="prev">◀</button> <span id="info"></span> <button id="next">▶</button></p>',
        f'<table id="items" style="min-width:{least:.1f}em"><colgroup>{cols}</colgroup><thead><tr>{head}</tr>'
        "</thead><tbody></tbody></table>",
        f'<script type="application/json" id="items-data"{zipped}>{blob}</script>',
        f"<script>{CORE}{UI.replace('__PAGE_SIZE__', str(PAGE_SIZE))}</script>",
    ])


def rows_as_items(details: Sequence[Mapping[str, Any]]) -> list[ItemRow]:
    """Plain detail rows (a comparison's pairs, a caller's own rows) as items with the default marks."""
    return [ItemRow(dict(row), tuple(phrase_marks(row, DEFAULT_MARKS)),
                    "/".join(str(row[k]) for k in KEY_FIELDS if row.get(k) is not None)) for row in details]


def render_html(title: str, summaries: Sequence[Mapping[str, Any]], details: Sequence[Mapping[str, Any]] = (),
                command: str = "", comparisons: Sequence[Mapping[str, Any]] = (), charts: Sequence[Chart] = (),
                items: Sequence[ItemRow] | None = None, warnings: Sequence[str] = (),
                legends: Sequence[str] = (), words: Words = GENERIC) -> str:
    """The page: ``summaries`` (each result's JSON form) as one table with the ``legends`` of its codes under it, the
    ``charts``, the signatures, the ``comparisons`` (one row per compared metric), then the ``items`` (or plain
    ``details`` rows); ``warnings`` at the top. ``words``: what its columns are called (``words_of``)."""
    parts = [f"<h1>{html.escape(title)}</h1>"]
    if command:
        parts.append(f"<p><code>{html.escape(command)}</code></p>")
    if warnings:
        parts.append('<ul class="warnings">' + "".join(f"<li>{html.escape(w)}</li>" for w in warnings) + "</ul>")
    parts += ["<h2>Summary</h2>", summary_table(summaries, words=words),
              *(f'<p class="note">{html.escape(legend)}</p>' for legend in legends)]
    merged = merge_charts(charts)
    if merged:
        parts += ["<h2>Charts</h2>", render_charts(merged)]
    signatures = [s["signature"] for s in summaries if s.get("signature")]
    if signatures:
        parts.append("<h2>Signatures</h2>" + "".join(f'<code class="sig">{html.escape(str(s))}</code>'
                                                     for s in dict.fromkeys(signatures)))
    if comparisons:
        parts += ["<h2>Comparisons</h2>", summary_table(comparisons, skip=(), words=words)]
    rows = list(items) if items is not None else rows_as_items(details)
    if rows:
        parts.append(_items_section(rows, words))
    body = "\n".join(p for p in parts if p)
    # a lone surrogate (a file name that is not UTF-8, a JSON escape in a suite file) has no UTF-8 form: shown as
    # U+FFFD in the page's text; the items blob keeps it exactly (escaped), and the filters read their values there
    body = _LONE_SURROGATE.sub("\ufffd", body)
    title = _LONE_SURROGATE.sub("\ufffd", title)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>\n{body}\n<script>{SORT_TABLES}</script></body></html>")
