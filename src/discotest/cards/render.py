"""The card as text, JSON, Markdown, LaTeX or HTML: one line per row, metric and part of the suite, with the value and
its 95% interval, the rank among the suite's published systems with the paired test against the nearest above and
below, and the validity badge; rows the system cannot fill, or that failed, say why."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from discotest.report.export import build_table, render_latex, render_markdown
from discotest.report.table import fixed_width
from discotest.stats import wilson_interval

if TYPE_CHECKING:
    from discotest.cards.build import Card
    from discotest.cards.rows import FilledRow, Neighbour, Validity

FORMATS = ("text", "json", "markdown", "latex", "html")
METRIC_NAMES = {"accuracy": "Acc", "delta_g": "ΔG", "delta_s": "ΔS", "AZPT": "AZPT", "consistency": "Cons",
                "scorer_item_accuracy": "scorer Acc"}
SAMPLE = {"in": "in sample", "out": "out of sample"}
# what each metric the card may show means (its direction is said from the line's own ``better``)
MEANINGS = {
    "Acc": "accuracy, %", "ΔG": "F1♂ − F1♀, points", "ΔS": "Acc(pro) − Acc(anti-stereotypical), points",
    "AZPT": "zero pronouns translated right (mZPRT's accuracy), %", "Cons": "consistency, %",
    "scorer Acc": "the scorer's accuracy, %", "Σ(ref−sys)": "summed score of the reference minus the system's",
}
LEGEND = ("± the half-width of the 95% bootstrap interval; rank among the suite's published systems on the same "
          "items (1 = best; ties share the better rank); above/below: the published systems just before and after "
          "it, with the paired bootstrap p-value; n<30: too few items to rank; validity: agreement with people or "
          "hand-checked gold behind the number (VALIDITY.md): a hand check's items that hold of those read, with the "
          "95% Wilson interval, in sample (the rule was shaped on them) or out of sample; ctxK: scored with K "
          "sentences of context; by d: accuracy by the antecedent's distance in sentences")
WIDTH = 160  # the text card's columns
FEW = 30  # fewer items than this: a caution instead of a rank


def p_text(p: float | None) -> str:
    return "–" if p is None else f"p={p:.3f}" if p >= 0.001 else "p<0.001"


def _neighbour(n: Neighbour | None) -> str:
    return "–" if not n else f"{n.system} {n.value:.1f} ({p_text(n.p)})"


def _validity(badge: Validity) -> str:
    """The badge in a few words: its figure and whether the rule was shaped on the items behind it, e.g. "hand check
    97/100, 97.0% [91.5–99.0], out of sample"."""
    sample = SAMPLE.get(badge.sample or "")
    if sample is None:
        return badge.text or "no validity figure declared"
    check = badge.hand_check
    if check:
        low, high = wilson_interval(check.holds, check.n)
        return (f"hand check {check.holds}/{check.n}, {100 * check.holds / check.n:.1f}% "
                f"[{100 * low:.1f}–{100 * high:.1f}], {sample}")
    if badge.figure:
        return f"{badge.figure} gold, {sample}"
    return f"{badge.headline}, {sample}" if badge.headline else sample


def lines_of(card: Card) -> Iterator[dict[str, Any]]:
    """One flat dict per line of the card (a row that is not filled: one line saying why)."""
    for row in card.rows:
        head = {"pair": row.pair, "phenomenon": row.phenomenon, "suite": row.suite}
        if row.status != "ok" or not row.lines:
            note = f"{row.status}: {row.reason}" if row.status != "ok" else "the run gave no result"
            yield {**head, "metric": "–", "value": None, "ci95": None, "n": None, "rank": "–", "above": "–",
                   "below": "–", "validity": _validity(row.validity), "note": note}
            continue
        for line in row.lines:
            metric = METRIC_NAMES.get(line.metric, line.metric) + (f" {line.scope}" if line.scope else "")
            dist = line.by_distance
            notes = [f"by d: {', '.join(f'd{_d(k)} {v:.1f}' for k, v in dist.items())}"] if dist else []
            notes += [f"not ranked against {why}" for why in row.not_ranked_against]
            few = line.rank and (line.n or 0) < FEW
            yield {**head, "metric": metric, "value": line.value, "ci95": line.ci95, "n": line.n,
                   "rank": "n<30" if few else f"{line.rank}/{line.of}" if line.rank else "–",
                   "above": "–" if few else _neighbour(line.above),
                   "below": "–" if few else _neighbour(line.below), "validity": _validity(row.validity),
                   "better": line.better, "metric_name": METRIC_NAMES.get(line.metric, line.metric),
                   "note": "; ".join(notes)}


def _d(key: str) -> str:
    """A distance key as the note shows it: "0", or "0 (no context needed)" for the items counted apart."""
    head, _, rest = key.partition(" ")
    return f"{head} ({rest})" if rest else head


HEADER = ("pair", "phenomenon", "metric", "value", "n", "rank", "above", "below", "validity", "note")


def _cells(line: dict[str, Any]) -> list[str]:
    value = "–" if line["value"] is None else f"{line['value']:.1f} ± {line['ci95']:.1f}"
    return [line["pair"], line["phenomenon"], line["metric"], value, "" if line["n"] is None else str(line["n"]),
            line["rank"], line["above"], line["below"], line["validity"], line["note"]]


def legend(card: Card) -> str:
    """Every metric the card shows, what it means and which way is better, then how to read the columns."""
    shown: dict[str, str] = {}
    for line in lines_of(card):
        if line.get("metric_name") and line["metric_name"] not in shown:
            name = line["metric_name"]
            meaning = MEANINGS.get(name) or next((v for k, v in MEANINGS.items() if k.startswith("Σ") and k in name),
                                                 "")
            better = {"nearer 0": "best at 0"}.get(line["better"], f"{line['better']} is better")
            shown[line["metric_name"]] = f"{line['metric_name']}: " + (f"{meaning}, " if meaning else "") + better
    return "; ".join([*shown.values(), LEGEND])


def warnings_of(card: Card) -> list[str]:
    """Every row's warnings, each keyed to its row (``PAIR/ROW: …``)."""
    return [f"{row.key}: {w}" for row in card.rows for w in row.warnings]


def _wrap(text: str, indent: str = "  ") -> list[str]:
    import textwrap

    return textwrap.wrap(text, WIDTH, subsequent_indent=indent + "  ", initial_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or [indent]


TEXT_HEADER = ("metric", "value", "n", "rank", "above", "below", "see")


def render_text(card: Card) -> str:
    """One block per row (its pair, phenomenon and validity badge, then a line per metric), the notes and warnings
    under the table keyed to their rows, the legend; every line fits 160 columns but the signatures."""
    grouped = list(_rows_with_lines(card))
    notes: dict[str, int] = {}  # "PAIR/ROW: note" -> its number (a row's note said once for all its lines)
    cells = []
    for row, line in grouped:
        see = ""
        if line["note"]:
            note = f"{row.key}: {line['note']}"
            see = f"[{notes.setdefault(note, len(notes) + 1)}]"
        value = "–" if line["value"] is None else f"{line['value']:.1f} ± {line['ci95']:.1f}"
        cells.append([line["metric"], value, "" if line["n"] is None else str(line["n"]), line["rank"],
                      line["above"], line["below"], see])
    table = [t.rstrip() for t in fixed_width(TEXT_HEADER, cells, left=1)]
    out = table[:2]
    last = None
    for (row, _), text in zip(grouped, table[2:]):
        if row.key != last:
            out.append(f"{row.pair} · {row.phenomenon} · validity: {_validity(row.validity)}"[:WIDTH])
            last = row.key
        out.append("  " + text)
    sigs = [f"{row.key}: {s}" for row in card.rows if row.status == "ok" for s in row.signatures]
    warnings = warnings_of(card)
    return "\n".join([f"discourse card: {card.system} ({card.kind}) · {', '.join(card.pairs)}", *out, "",
                      *(["notes:", *(w for n, k in notes.items() for w in _wrap(f"[{k}] {n}")), ""] if notes else []),
                      *(["warnings:", *(w for n in warnings for w in _wrap(n)), ""] if warnings else []),
                      *_wrap(legend(card), ""), f"card: {card.signature()}", *sigs])


def _table(card: Card):
    rows = [dict(zip(HEADER, _cells(line))) for line in lines_of(card)]
    return build_table(rows, [legend(card), *(f"warning: {w}" for w in warnings_of(card)), card.signature()],
                       caption=f"Discourse card: {card.system}")


def render(card: Card, fmt: str, pages: dict[str, str] | None = None) -> str:
    """``pages``: row key -> the file of that suite's own HTML page (linked from the HTML card)."""
    if fmt == "json":
        return json.dumps(card.to_json(), ensure_ascii=False, indent=1, sort_keys=True)
    if fmt == "markdown":
        return render_markdown(_table(card))
    if fmt == "latex":  # ten columns: a float across both columns of a two-column paper
        return render_latex(_table(card), "table*")
    if fmt == "html":
        return render_html(card, pages or {})
    return render_text(card)


def render_html(card: Card, pages: dict[str, str]) -> str:
    """One table; a row whose suite page was written links to it (the suite's summary and every item's evidence)."""
    from discotest.report.html import SORT_TABLES, STYLE

    head = "".join(f"<th>{html.escape(h)}</th>" for h in HEADER)
    body = []
    for row, line in _rows_with_lines(card):
        cells = _cells(line)
        page = pages.get(row.key)
        if page:
            cells[1] = f'<a href="{html.escape(page)}">{html.escape(cells[1])}</a>'
        else:
            cells[1] = html.escape(cells[1])
        body.append("<tr>" + "".join(f"<td>{c if i == 1 else html.escape(c)}</td>" for i, c in enumerate(cells))
                    + "</tr>")
    title = f"Discourse card: {card.system}"
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>\n<h1>{html.escape(title)}</h1>\n"
            f"<p>{html.escape(card.kind)} · {html.escape(', '.join(card.pairs))}</p>\n"
            f'<table class="sortable"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>\n'
            + "".join(f'<p class="note">warning: {html.escape(w)}</p>\n' for w in warnings_of(card))
            + f'<p class="note">{html.escape(legend(card))}</p>\n<h2>Signatures</h2>'
            f'<code class="sig">{html.escape(card.signature())}</code>'
            + "".join(f'<code class="sig">{html.escape(row.key + ": " + _as_before(row.signature))}</code>'
                      for row in card.rows if row.status == "ok")
            + f"\n<script>{SORT_TABLES}</script></body></html>")


def _as_before(signature: str | tuple[str, ...] | None) -> str:
    """A row's signature as the HTML card has always printed it: one, or the list of several as Python writes it."""
    return signature if isinstance(signature, str) else str(list(signature) if signature is not None else None)


def _rows_with_lines(card: Card) -> Iterator[tuple[FilledRow, dict[str, Any]]]:
    flat = iter(lines_of(card))
    for row in card.rows:
        for _ in range(max(1, len(row.lines))):
            yield row, next(flat)
