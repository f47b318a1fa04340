"""Fixed-width text tables: the one layout every text report uses."""

from __future__ import annotations

from collections.abc import Sequence


def fixed_width(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Header, a dashed rule and the rows; the first ``left`` columns left-aligned, the rest right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]
