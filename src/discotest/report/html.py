"""One self-contained HTML page per run: the summary table, the signatures, and every item's evidence.

Every result type already has a JSON form (its summary) and per-item detail rows (the ``--details`` lines); the
page is built from those two, so a new phenomenon gets an HTML report without its own renderer. Words the
evidence names (entity, pronoun, distractor and their aligned target words) are highlighted in the sentences,
rows are coloured by verdict, and a filter box narrows the items; no network, no external files.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

MAX_ITEMS = 20000  # beyond this the page gets slow in a browser; the JSONL details file has everything

# (sentence field, evidence field, CSS class): words of the evidence field are marked inside the sentence field
HIGHLIGHTS = (
    ("source", "entity", "ent"), ("source", "pronoun", "pro"), ("source", "distractor", "dis"),
    ("translation", "target_entity", "ent"), ("translation", "target_pronoun", "pro"),
    ("translation", "target_distractor", "dis"), ("translation", "expected", "ent"),
)
GOOD = {"correct", "consistent", "ok", "true"}
BAD = {"wrong", "incorrect", "inconsistent", "false"}

STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;font-size:.88em;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.25em .45em;vertical-align:top;text-align:left}
th{background:#f2f2f2;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.good td{background:#eef8ee}tr.bad td{background:#fbecec}
mark.ent{background:#cfe3ff}mark.pro{background:#ffe08a}mark.dis{background:#e2d4f5}
code.sig{display:block;font-size:.8em;color:#555;word-break:break-all;margin:.15em 0}
#filter{margin:.5em 0;padding:.3em;width:24em}
.legend mark{padding:0 .3em}
"""

SCRIPT = """
const box=document.getElementById('filter');
if(box){box.addEventListener('input',()=>{const q=box.value.toLowerCase();
for(const r of document.querySelectorAll('#items tbody tr')){
r.style.display=r.textContent.toLowerCase().includes(q)?'':'none';}});}
"""


def _flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested summaries as ``a.b`` columns; long lists (row numbers) are left to the JSON."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{name}."))
        elif isinstance(value, list | tuple) and len(value) > 6:
            continue
        else:
            out[name] = value
    return out


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f'<td class="num">{value:.2f}</td>'
    if isinstance(value, int) and not isinstance(value, bool):
        return f'<td class="num">{value}</td>'
    if isinstance(value, list | tuple):
        value = ", ".join(map(str, value))
    return f"<td>{html.escape('' if value is None else str(value))}</td>"


def _words(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list | tuple):
        return [v for v in value if isinstance(v, str) and v.strip()]
    return []


def highlight(text: str, marks: Sequence[tuple[str, str]]) -> str:
    """Escape ``text`` and wrap each (word or phrase, css class) in ``<mark>``, whole words only, first match."""
    spans: list[tuple[int, int, str]] = []
    for phrase, css in marks:
        found = re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text)
        if found and not any(s < found.end() and found.start() < e for s, e, _ in spans):
            spans.append((found.start(), found.end(), css))
    out, at = [], 0
    for start, end, css in sorted(spans):
        out.append(html.escape(text[at:start]))
        out.append(f'<mark class="{css}">{html.escape(text[start:end])}</mark>')
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out)


def _row_class(row: Mapping[str, Any]) -> str:
    for key in ("correct", "consistent", "verdict"):
        value = row.get(key)
        if value is None:
            continue
        label = str(value).lower()
        if label in GOOD:
            return ' class="good"'
        if label in BAD:
            return ' class="bad"'
    return ""


def _table(columns: Sequence[str], rows: Sequence[Mapping[str, Any]], table_id: str = "", marked: bool = False) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = []
        for column in columns:
            value = row.get(column)
            marks = [(w, css) for field, evidence, css in HIGHLIGHTS if field == column
                     for w in _words(row.get(evidence))] if marked else []
            cells.append(f"<td>{highlight(value, marks)}</td>" if marks and isinstance(value, str) else _cell(value))
        body.append(f"<tr{_row_class(row) if marked else ''}>{''.join(cells)}</tr>")
    ident = f' id="{table_id}"' if table_id else ""
    return f"<table{ident}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _columns(rows: Sequence[Mapping[str, Any]], skip: Sequence[str] = ()) -> list[str]:
    return [c for c in dict.fromkeys(k for r in rows for k in r) if c not in skip]


def render_html(title: str, summaries: Sequence[Mapping[str, Any]], details: Sequence[Mapping[str, Any]] = (),
                command: str = "", comparisons: Sequence[Mapping[str, Any]] = ()) -> str:
    """The page: ``summaries`` (each result's JSON form) as one table, their signatures, the ``comparisons`` (one row
    per compared metric), then ``details``."""
    flat = [_flatten(s) for s in summaries]
    parts = [f"<h1>{html.escape(title)}</h1>"]
    if command:
        parts.append(f"<p><code>{html.escape(command)}</code></p>")
    parts += ["<h2>Summary</h2>", _table(_columns(flat, skip=("signature",)), flat)]
    signatures = [s["signature"] for s in flat if s.get("signature")]
    if signatures:
        parts.append("<h2>Signatures</h2>" + "".join(f'<code class="sig">{html.escape(str(s))}</code>'
                                                     for s in dict.fromkeys(signatures)))
    if comparisons:
        flat_cmp = [_flatten(c) for c in comparisons]
        parts += ["<h2>Comparisons</h2>", _table(_columns(flat_cmp), flat_cmp)]
    if details:
        shown = list(details[:MAX_ITEMS])
        note = f" (first {MAX_ITEMS} of {len(details)}; the --details file has all)" if len(details) > MAX_ITEMS else ""
        parts += [
            f"<h2>Items{note}</h2>",
            '<p class="legend"><mark class="ent">entity / expected word</mark> <mark class="pro">pronoun</mark> '
            '<mark class="dis">distractor</mark> · green: correct, red: wrong</p>',
            '<input id="filter" placeholder="filter items (any text: a word, a verdict, a system)">',
            _table(_columns(shown), shown, table_id="items", marked=True),
        ]
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>\n{body}\n<script>{SCRIPT}</script></body></html>")
