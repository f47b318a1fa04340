"""Fixed-width text tables: the one layout every text report uses."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: a wide (CJK) character two, so the mZPRT pronoun columns line up."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fixed_width(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Header, a dashed rule and the rows; the first ``left`` columns left-aligned, the rest right-aligned."""
    widths = [max(display_width(h), *(display_width(r[i]) for r in rows)) if rows else display_width(h)
              for i, h in enumerate(header)]

    def pad(cell: str, width: int, at_left: bool) -> str:
        fill = " " * (width - display_width(cell))
        return cell + fill if at_left else fill + cell

    def line(cells: Sequence[str]) -> str:
        return "  ".join(pad(c, w, i < left) for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def row_ranges(rows: Sequence[int], limit: int | None = None) -> str:
    """Row numbers compactly, as ranges: ``[0, 1, 2, 5, 7, 8]`` → ``"0-2,5,7-8"``; ``limit`` keeps the first ranges
    and ends with ``…`` (warnings), the JSON keeps them all."""
    spans: list[str] = []
    rows = sorted(set(rows))
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i] != rows[i - 1] + 1:
            spans.append(str(rows[start]) if start == i - 1 else f"{rows[start]}-{rows[i - 1]}")
            start = i
    if limit is not None and len(spans) > limit:
        return ",".join(spans[:limit]) + ",…"
    return ",".join(spans)
