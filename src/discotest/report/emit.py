"""One emitter for every family and command: a ``Report`` (results, comparisons, family-level figures) rendered as
text, JSON or HTML, and its per-item rows written as ``--details`` lines.

The JSON document is the same for every family and any number of systems (``report/schema.json``): a top-level
object with the discotest version, a list of results, a list of comparisons and the family's aggregates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from discotest.atomic import write_bytes_atomic, write_text_atomic
from discotest.report.charts import FIGURE_FORMATS, Chart, figure_bytes, merge_charts, render_svg, slug
from discotest.report.export import TABLE_FORMATS, Table, build_table, render_tables, table_columns
from discotest.report.result import ItemRow, Result, grouped_signatures, lang_of, scope_of
from discotest.report.table import fixed_width
from discotest.version import VERSION

if TYPE_CHECKING:  # comparisons and the HTML page load when a report has them, not with every run
    from discotest.report.comparison import Comparison

FORMATS = ("text", "json", "html", *TABLE_FORMATS)
SCORE_ONLY = "score"  # ``--score-only``/``-b``: the headline numbers alone, one line per result (as sacrebleu -b)
SCHEMA_VERSION = 1


def summarise_warnings(warnings: Sequence[tuple[str, str]], what: str, shown: int = 3) -> list[str]:
    """One line per distinct message: ``(subject, message)`` pairs whose message repeats across subjects (33
    system×language pairs with the same 2 missing rows) become one line naming how many ``what`` and the first
    ``shown`` subjects; a message of one subject stays ``"subject: message"``. First-seen order."""
    by_message: dict[str, list[str]] = {}
    for subject, message in warnings:
        by_message.setdefault(message, []).append(subject)
    lines = []
    for message, subjects in by_message.items():
        if len(subjects) == 1:
            lines.append(f"{subjects[0]}: {message}")
        else:
            named = ", ".join(subjects[:shown]) + (", …" if len(subjects) > shown else "")
            lines.append(f"{len(subjects)} {what} ({named}): {message}")
    return lines


def headline_table(results: Sequence[Result]) -> str:
    """The generic text table: one row per result with its headline and n, then the signatures."""
    rows = []
    for r in results:
        h = r.headline()
        value = "–" if h.value is None else f"{h.value:.2f}"
        rows.append([r.system, lang_of(r) or "", scope_of(r) or "", h.metric, value, str(r.n)])
    header = ["system", "lang", "scope", "metric", "value", "n"]
    keep = [i for i, h in enumerate(header) if h not in ("lang", "scope") or any(row[i] for row in rows)]
    table = fixed_width([header[i] for i in keep], [[row[i] for i in keep] for row in rows], left=len(keep) - 3)
    return "\n".join([*table, "", *grouped_signatures([r.signature for r in results], "system")])


@dataclass
class Report:
    """What one command computed. ``text`` is the family's text rendering of the results (``headline_table`` when
    the family has none of its own); ``aggregates`` hold figures over several results (mZPRT's Kendall τ, DiP's
    rankings)."""

    title: str
    results: list[Result] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    aggregates: dict[str, Any] = field(default_factory=dict)
    text: Callable[[Sequence[Result]], str] = headline_table
    warnings: list[str] = field(default_factory=list)  # for stderr, one line each (rows without a translation …)
    # the HTML summary's rows when the results read better another way (DiP: one row per system in rank order);
    # default: each result's JSON
    summary_rows: list[dict[str, Any]] | None = None
    # the HTML page's charts over several results (DiP's rankings); default: each result's ``charts()``, merged
    charts: list[Chart] | None = None

    def __iter__(self):
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, index: int) -> Result:
        return self.results[index]

    def to_json(self) -> dict[str, Any]:
        warnings = {"warnings": list(self.warnings)} if self.warnings else {}  # also on stderr
        return {"discotest": VERSION, "schema": SCHEMA_VERSION, "title": self.title,
                "results": [r.to_json() for r in self.results], "aggregates": self.aggregates,
                "comparisons": [c.to_json() for c in self.comparisons], **warnings}

    def all_charts(self) -> list[Chart]:
        """The page's charts: the report's own (DiP's rankings), else every result's, merged by title."""
        return merge_charts(self.charts if self.charts is not None else [c for r in self.results for c in r.charts()])

    def figure_charts(self) -> dict[str, Chart]:
        """Each chart of the page under its file stem ``FAMILY-MEASURE`` (``-2``, ``-3`` … when two share one)."""
        family = self.results[0].family if self.results else "report"
        out: dict[str, Chart] = {}
        for chart in self.all_charts():
            measure = slug(chart.title)
            stem = base = measure if measure.startswith(f"{family}-") else f"{family}-{measure}"
            k = 2
            while stem in out:
                stem, k = f"{base}-{k}", k + 1
            out[stem] = chart
        return out

    def figures(self) -> dict[str, str]:
        """Each chart as a standalone SVG file (``--figures DIR``): file name ``FAMILY-MEASURE.svg`` -> its text."""
        charts = self.figure_charts().items()
        return {f"{stem}.svg": render_svg(chart, standalone=True) + "\n" for stem, chart in charts}

    def tables(self) -> list[Table]:
        """The paper tables: one row per result (``Result.table_row``), the legends, the signatures grouped as in
        the text table and any other scorer's (BLEU) as notes; then one table per comparison."""
        from discotest.report.comparison import comparison_table

        out = []
        if self.results:
            rows = [r.table_row() for r in self.results]
            columns = table_columns(rows)
            notes = [legend for r in self.results if (legend := r.legend_for(columns))]
            wildcards = tuple(dict.fromkeys(w for r in self.results for w in r.signature_wildcards))
            notes += grouped_signatures([r.signature for r in self.results], *wildcards)
            notes += [note for r in self.results for note in r.table_notes()]
            out.append(build_table(rows, notes,
                                   max(r.table_digits for r in self.results), self.title,
                                   [r.signature.format() for r in self.results]))
        out += [comparison_table(c) for c in self.comparisons]
        return out

    def score_lines(self) -> str:
        """Each result's headline number, one line each in the results' order (``nan`` where there is none)."""
        return "\n".join("nan" if (h := r.headline()).value is None else f"{h.value:.2f}" for r in self.results)

    def detail_rows(self) -> list[dict[str, Any]]:
        rows = [row for r in self.results for row in r.details()]
        for c in self.comparisons:  # the items whose verdict changed, with both systems' evidence
            rows += c.changed_items()
        return rows

    def item_rows(self) -> list[ItemRow]:
        """Every result's items for the HTML page; in a comparison each item also says whether its verdicts differ
        between the two systems and which way (``A≠B`` yes/no, ``A→B``: a filter and a column of the page)."""
        from discotest.report.comparison import row_item

        changes: dict[int, dict[str, str]] = {}
        for c in self.comparisons:
            found = c.changes()
            changes[id(c.a)] = changes[id(c.b)] = found
        out = []
        for r in self.results:
            found = changes.get(id(r))
            for row in r.item_rows():
                key = row_item(row) if found is not None else None
                if key is not None and key in found:
                    change = found[key]
                    fields = {"A≠B": "no" if change == "same" else "yes", "A→B": change, **row.fields}
                    row = replace(row, fields=fields)
                out.append(row)
        return out

    def render(self, fmt: str = "text", command: str = "", latex_float: str = "auto") -> str:
        """The report as ``fmt``; ``latex_float`` (``--latex-float``): the LaTeX table's float, ``table``,
        ``table*`` (across both columns of a two-column paper) or auto (``table*`` for a wide table)."""
        if fmt == "json":
            return json_text(self.to_json(), indent=1)
        if fmt in TABLE_FORMATS:
            return render_tables(self.tables(), fmt, latex_float)
        if fmt == SCORE_ONLY:
            return self.score_lines()
        if fmt == "html":
            from discotest.report.html import render_html, words_of

            comparisons = []
            for c in self.comparisons:
                changed = sum(change != "same" for change in c.changes().values())
                comparisons += [{"system_a": c.a.system, "system_b": c.b.system, **m.to_json(),
                                 "changed_items": changed} for m in c.metrics]
            summaries = self.summary_rows if self.summary_rows is not None else [r.to_json() for r in self.results]
            charts = self.all_charts()
            items = self.item_rows()
            legends = list(dict.fromkeys(r.table_legend for r in self.results if r.table_legend))
            words = words_of(type(r) for r in self.results)
            return render_html(self.title, summaries, command=command, comparisons=comparisons, charts=charts,
                               items=items, warnings=self.warnings, legends=legends, words=words)
        parts = [self.text(self.results)] if self.results else []
        if self.comparisons:
            from discotest.report.comparison import render_comparison

            parts += [render_comparison(c) for c in self.comparisons]
        return _LONE_SURROGATE.sub("\ufffd", "\n\n".join(parts))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(data: Any, indent: int | None = None) -> str:
    """``data`` as JSON, non-ASCII kept readable, but a lone surrogate (a file name that is not UTF-8, a ``\\ud800``
    escape in a suite file) written as its escape: it has no UTF-8 form, and ``json.loads`` gives it back."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def write_jsonl(path: str | Path, rows: Sequence[dict]) -> None:
    """Detail rows as JSON lines, written atomically (every --details file goes through here)."""
    write_text_atomic(path, "".join(json_text(r) + "\n" for r in rows))


def write_figures(report: Report, folder: str | Path, formats: Sequence[str] = FIGURE_FORMATS) -> list[Path]:
    """Every chart of the report as a file per format in ``folder`` (made if missing), each written atomically:
    ``FAMILY-MEASURE.svg``, ``.pdf`` and ``.png`` drawn from the same SVG (``charts.figure_bytes``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, chart in report.figure_charts().items():
        svg = render_svg(chart, standalone=True) + "\n"
        for fmt in formats:
            path = folder / f"{stem}.{fmt}"
            write_bytes_atomic(path, figure_bytes(svg, fmt, chart.title))
            paths.append(path)
    return paths


def emit(report: Report, fmt: str = "text", output: str | Path | None = None, details: str | Path | None = None,
         command: str = "", figures: str | Path | None = None,
         figure_formats: Sequence[str] = FIGURE_FORMATS, latex_float: str = "auto",
         stream: TextIO | None = None) -> None:
    """Write the details file and the figures (if asked), then the report to ``output``, else to ``stream`` (stdout
    by default)."""
    if details:
        write_jsonl(details, report.detail_rows())
    if figures:
        write_figures(report, figures, figure_formats)
    text = report.render(fmt, command, latex_float)
    if output:
        write_text_atomic(output, text + "\n")
    else:
        print(text, file=stream)  # None: sys.stdout
