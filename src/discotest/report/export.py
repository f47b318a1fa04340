"""Tables for papers and scripts: one ``Table`` (columns, rows of plain values, notes) rendered as LaTeX, Markdown or
CSV, so every family gets the three formats by supplying its rows (``Result.table_row``), not three renderers each.

The LaTeX is a float with booktabs rules (``table``, or ``table*`` across both columns of a two-column paper:
``--latex-float``, by default ``table*`` for a table of more than ``WIDE_COLUMNS`` columns;
``\\usepackage{booktabs}``), every special character escaped,
the signatures and legends as a note under the tabular; the CSV keeps each row's own signature in a column (a
script reads one line per result); the Markdown is a pipe table followed by its notes.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from discotest.errors import InputError

TABLE_FORMATS = ("latex", "markdown", "csv")
LATEX_FLOATS = ("auto", "table", "table*")  # auto: table* for a table wider than WIDE_COLUMNS columns
WIDE_COLUMNS = 8  # about what one column of a two-column paper holds in \small type

# LaTeX's special characters, then the few non-ASCII symbols discotest's tables use (pdflatex's default UTF-8 input
# handles Latin letters but not Greek or symbols); anything else passes through.
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
_LATEX_SYMBOLS = {
    "Δ": r"$\Delta$", "♂": r"$_\mathrm{m}$", "♀": r"$_\mathrm{f}$", "−": "$-$", "±": r"$\pm$", "τ": r"$\tau$",
    "Σ": r"$\Sigma$", "·": r"$\cdot$", "…": r"\ldots{}", "†": r"\dag{}", "→": r"$\rightarrow$", "≥": r"$\geq$",
    "≤": r"$\leq$", "–": "--", "—": "---", "×": r"$\times$", "‖": r"$\|$", "⏎": r"$\hookleftarrow$",
}


def latex_escape(text: str) -> str:
    """``text`` safe inside a LaTeX document (text mode)."""
    return "".join(_LATEX_SPECIAL.get(c) or _LATEX_SYMBOLS.get(c) or c for c in text)


@dataclass(frozen=True)
class Table:
    """Columns, one row per result (column -> number, string or None), notes printed under the table (legends,
    signatures), and how many decimals a float shows. ``signatures`` holds each row's own signature (CSV)."""

    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]
    notes: tuple[str, ...] = ()
    digits: int = 1
    caption: str = ""
    signatures: tuple[str, ...] = field(default=())

    def cell(self, row: dict[str, Any], column: str) -> str:
        value = row.get(column)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "–"
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return f"{value:.{self.digits}f}"
        return str(value)

    def numeric(self, column: str) -> bool:
        """A column of numbers is right-aligned."""
        values = [row.get(column) for row in self.rows if row.get(column) is not None]
        return bool(values) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def table_columns(rows: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """The columns a table over ``rows`` prints: first-seen order, a column empty in every row left out (a legend
    is built for these, so it defines exactly what is printed)."""
    seen = dict.fromkeys(k for row in rows for k in row)
    return tuple(c for c in seen if any(row.get(c) is not None for row in rows))


def build_table(rows: Sequence[dict[str, Any]], notes: Sequence[str] = (), digits: int = 1, caption: str = "",
                signatures: Sequence[str] = ()) -> Table:
    """A table over ``rows``: the columns in first-seen order, a column empty in every row left out."""
    return Table(table_columns(rows), tuple(rows), tuple(dict.fromkeys(notes)), digits, caption, tuple(signatures))


def _latex_note(note: str) -> str:
    """A note line: a signature (``key:value|…``) in typewriter type with a break allowed after each field."""
    if "|" in note and ":" in note.split("|", 1)[0]:
        prefix, _, sig = note.rpartition(": ") if note.startswith("BLEU: ") else ("", "", note)
        fields = r"\textbar{}\allowbreak{}".join(latex_escape(part) for part in sig.split("|"))
        return (latex_escape(prefix) + ": " if prefix else "") + r"\texttt{" + fields + "}"
    return latex_escape(note)


def latex_float(table: Table, choice: str = "auto") -> str:
    """The float ``render_latex`` puts ``table`` in: ``choice``, or for auto ``table*`` when the table has more
    than ``WIDE_COLUMNS`` columns (a 14-column gender table overflows one column of a two-column paper)."""
    if choice not in LATEX_FLOATS:
        raise InputError(f"--latex-float must be one of {', '.join(LATEX_FLOATS)}, not {choice!r}")
    if choice != "auto":
        return choice
    return "table*" if len(table.columns) > WIDE_COLUMNS else "table"


def render_latex(table: Table, float_env: str = "auto") -> str:
    """A float (``latex_float``): booktabs rules, numbers right-aligned, the notes in small type under the
    tabular."""
    env = latex_float(table, float_env)
    spec = "".join("r" if table.numeric(c) else "l" for c in table.columns)
    lines = ["% discotest table; needs \\usepackage{booktabs}", rf"\begin{{{env}}}[t]", r"\centering", r"\small",
             rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(latex_escape(c) for c in table.columns) + r" \\", r"\midrule"]
    lines += [" & ".join(latex_escape(table.cell(row, c)) for c in table.columns) + r" \\" for row in table.rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if table.notes:
        lines.append(r"\par\smallskip{\footnotesize\raggedright")
        lines += [_latex_note(note) + r"\par" for note in table.notes]
        lines.append("}")
    if table.caption:
        lines.append(rf"\caption{{{latex_escape(table.caption)}}}")
    lines.append(rf"\end{{{env}}}")
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_markdown(table: Table) -> str:
    """A pipe table (numbers right-aligned), then the notes, signatures in backticks."""
    lines = [f"**{_md(table.caption)}**", ""] if table.caption else []
    lines.append("| " + " | ".join(_md(c) for c in table.columns) + " |")
    lines.append("|" + "|".join("---:" if table.numeric(c) else ":---" for c in table.columns) + "|")
    lines += ["| " + " | ".join(_md(table.cell(row, c)) for c in table.columns) + " |" for row in table.rows]
    if table.notes:
        lines.append("")
        for note in table.notes:
            sig = "|" in note and ":" in note.split("|", 1)[0]
            lines.append((f"`{note}`" if sig else note) + "  ")
    return "\n".join(lines)


def render_csv(table: Table) -> str:
    """A header and one line per row, numbers unrounded (4 decimals), each row's signature in the last column."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    with_sig = len(table.signatures) == len(table.rows) and table.signatures
    writer.writerow([*table.columns, *(["signature"] if with_sig else [])])
    for k, row in enumerate(table.rows):
        cells = []
        for c in table.columns:
            value = row.get(c)
            cells.append("" if value is None else round(value, 4) if isinstance(value, float) else value)
        writer.writerow([*cells, *([table.signatures[k]] if with_sig else [])])
    return out.getvalue().rstrip("\n")


RENDERERS = {"latex": render_latex, "markdown": render_markdown, "csv": render_csv}


def render_tables(tables: Sequence[Table], fmt: str, float_env: str = "auto") -> str:
    """Several tables (the results, then a compare's tests) in one format; CSV tables separated by a blank line;
    ``float_env``: the LaTeX float (``LATEX_FLOATS``)."""
    if fmt == "latex":
        return "\n\n".join(render_latex(t, float_env) for t in tables)
    return "\n\n".join(RENDERERS[fmt](t) for t in tables)
