"""Charts as data, and their inline SVG: a result says what to plot (``Result.charts``), never how.

A ``Chart`` is a title and points (category, series, value, note); the charts of several results with the same
title and unit merge into one (each system a series, each language or distance a category), so a family gets its
charts drawn by returning numbers. The SVG is plain horizontal grouped bars, with a zero line for signed values,
each bar labelled with its value (and its note: a p-value with its star), no script and no external file.
"""

from __future__ import annotations

import html
import io
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from discotest.errors import InputError

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")


@dataclass(frozen=True)
class ChartPoint:
    category: str  # a row group of bars: a language, a distance, a domain, a rank
    series: str  # one bar per series in each group: a system
    value: float | None
    note: str = ""  # shown after the value: "p=0.001*"


@dataclass(frozen=True)
class Chart:
    title: str
    points: tuple[ChartPoint, ...]
    unit: str = "%"
    note: str = ""  # a line under the title: what the numbers mean
    digits: int = 1

    def categories(self) -> list[str]:
        return list(dict.fromkeys(p.category for p in self.points))

    def series(self) -> list[str]:
        return list(dict.fromkeys(p.series for p in self.points))

    def label(self, value: float | None) -> str:
        if value is None:
            return "–"
        return f"{value:.{self.digits}f}" + (self.unit if self.unit == "%" else "")


def merge_charts(charts: Iterable[Chart]) -> list[Chart]:
    """One chart per (title, unit), in first-seen order, with the points of every result that returned it."""
    merged: dict[tuple[str, str], Chart] = {}
    for chart in charts:
        key = (chart.title, chart.unit)
        if key in merged:
            old = merged[key]
            merged[key] = Chart(old.title, old.points + chart.points, old.unit, old.note, old.digits)
        else:
            merged[key] = chart
    return list(merged.values())


LABEL_W, BAR_W, VALUE_W, BAR_H, GAP, TOP = 170, 380, 110, 14, 8, 8
CHAR_W = 6.6  # the width of one character of the 11 px labels, for sizing the label column
MAX_LABEL_W = 420
SIGNED_UNITS = ("pp",)  # differences: the axis is symmetric around zero, so one bar never fills the width
STANDALONE_STYLE = ("text{font-family:'DejaVu Sans',Arial,sans-serif;font-size:11px;fill:#222}"
                    "text.axis{fill:#555;font-size:10px}text.title{font-size:13px;font-weight:bold}"
                    "text.note{fill:#555;font-size:10px}text.none{fill:#888;font-style:italic}")


def _text(x: float, y: float, text: str, anchor: str = "start", css: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{klass}>{html.escape(text)}</text>'


def nice_ticks(low: float, high: float, target: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]``: steps of 1, 2, 2.5 or 5 × 10^k, about ``target`` intervals, the
    first tick at or below ``low`` and the last at or above ``high``."""
    span = (high - low) or abs(high) or 1.0
    raw = span / target
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw - 1e-12)
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [round(k * step, 10) for k in range(first, last + 1)]


def axis_range(chart: Chart) -> list[float]:
    """The ticks of a chart's value axis: 0–100 by 20 for a percentage; for a difference (pp) symmetric around zero
    (a single ΔG bar shows its size and sign, not the whole width); otherwise round values around the data and 0."""
    numbers = [p.value for p in chart.points if p.value is not None]
    low, high = min([0.0, *numbers]), max([0.0, *numbers])
    if chart.unit == "%" and low >= 0 and high <= 100:
        return [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    if chart.unit in SIGNED_UNITS:
        reach = max(abs(low), abs(high)) or 1.0
        ticks = nice_ticks(-reach, reach, 6)
        top = max(abs(ticks[0]), abs(ticks[-1]))
        return nice_ticks(-top, top, 6)
    return nice_ticks(low, high)


def _tick_label(value: float, ticks: Sequence[float], unit: str) -> str:
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else 1.0
    digits = 0 if float(step).is_integer() else max(0, -math.floor(math.log10(step)) + (step * 10 % 1 > 1e-9))
    return f"{value:.{digits}f}" + ("%" if unit == "%" else "")


def render_svg(chart: Chart, standalone: bool = False) -> str:
    """The chart as an ``<svg>``: categories top to bottom, one bar per series, a legend when several, an axis with
    round ticks and grid lines, the unit named under it; a (category, series) without a result says so. With
    ``standalone``, the title, note and fonts are inside it (a figure file: ``--figures``)."""
    categories, series = chart.categories(), chart.series()
    values = {(p.category, p.series): p for p in chart.points}
    ticks = axis_range(chart)
    low, high = ticks[0], ticks[-1]
    span = (high - low) or 1.0
    label_w = min(MAX_LABEL_W, max(LABEL_W, 12 + CHAR_W * max((len(c) for c in categories), default=0)))
    head = 0
    if standalone:
        head = 20 + (14 if chart.note else 0)

    def x(v: float) -> float:
        return label_w + BAR_W * (v - low) / span

    legend_h = 18 if len(series) > 1 else 0
    group_h = len(series) * BAR_H + GAP
    top = TOP + head + legend_h
    height = top + len(categories) * group_h + 30
    width = label_w + BAR_W + VALUE_W
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width:.0f}" height="{height}" '
           f'viewBox="0 0 {width:.0f} {height}" role="img" aria-label="{html.escape(chart.title)}">']
    if standalone:
        out.append(f"<style>{STANDALONE_STYLE}</style>")
        out.append(f'<rect x="0" y="0" width="{width:.0f}" height="{height}" fill="#fff"/>')
        out.append(_text(8, TOP + 10, chart.title, css="title"))
        if chart.note:
            out.append(_text(8, TOP + 26, chart.note, css="note"))
    if legend_h:
        at = label_w
        for k, name in enumerate(series):
            out.append(f'<rect x="{at:.1f}" y="{TOP + head}" width="10" height="10" '
                       f'fill="{PALETTE[k % len(PALETTE)]}"/>')
            out.append(_text(at + 14, TOP + head + 9, name))
            at += 24 + CHAR_W * len(name)
    bottom = top + len(categories) * group_h
    for tick in ticks:  # grid lines and tick labels
        out.append(f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{bottom:.1f}" stroke="#e3e3e3"/>')
        out.append(f'<line x1="{x(tick):.1f}" y1="{bottom:.1f}" x2="{x(tick):.1f}" y2="{bottom + 4:.1f}" '
                   'stroke="#555"/>')
        out.append(_text(x(tick), bottom + 14, _tick_label(tick, ticks, chart.unit), "middle", "axis"))
    unit = {"%": "percent", "pp": "percentage points", "": ""}.get(chart.unit, chart.unit)
    if unit:
        out.append(_text(label_w + BAR_W / 2, bottom + 26, unit, "middle", "axis"))
    y = top
    zero = x(0.0)
    for category in categories:
        out.append(_text(label_w - 6, y + group_h / 2 + 2, category, "end"))
        for k, name in enumerate(series):
            point = values.get((category, name))
            if point is None:
                if len(series) > 1:  # a system without this language: say so, not a silent gap
                    out.append(_text(zero + 4, y + BAR_H - 4, f"{name}: no result", css="none"))
            else:
                colour = PALETTE[k % len(PALETTE)]
                if point.value is not None:
                    left, right = sorted((zero, x(point.value)))
                    out.append(f'<rect x="{left:.1f}" y="{y:.1f}" width="{max(right - left, 1):.1f}" '
                               f'height="{BAR_H - 2}" fill="{colour}"><title>{html.escape(name)} · '
                               f'{html.escape(category)}: {html.escape(chart.label(point.value))}</title></rect>')
                label = chart.label(point.value) + (f" {point.note}" if point.note else "")
                end = x(point.value) if point.value is not None else zero
                out.append(_text(max(end, zero) + 4, y + BAR_H - 4, label, css="v"))
            y += BAR_H
        y += GAP
    out.append(f'<line x1="{zero:.1f}" y1="{top}" x2="{zero:.1f}" y2="{bottom:.1f}" stroke="#555"/>')
    out.append(f'<line x1="{label_w:.1f}" y1="{bottom:.1f}" x2="{label_w + BAR_W:.1f}" y2="{bottom:.1f}" '
               'stroke="#555"/>')
    out.append("</svg>")
    return "".join(out)


_SLUG_SYMBOLS = {"Δ": "delta", "♂": "m", "♀": "f", "%": "pct", "τ": "tau", "Σ": "sum"}


def slug(title: str) -> str:
    """A chart title as a file name: ASCII words joined by ``-`` ("ΔG = F1♂ − F1♀ by language" ->
    ``deltag-f1m-f1f-by-language``)."""
    text = "".join(_SLUG_SYMBOLS.get(c, c) for c in title)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "chart"


def render_charts(charts: Sequence[Chart]) -> str:
    parts = []
    for chart in charts:
        note = f'<p class="note">{html.escape(chart.note)}</p>' if chart.note else ""
        parts.append(f'<figure><figcaption>{html.escape(chart.title)}</figcaption>{note}{render_svg(chart)}</figure>')
    return "".join(parts)


FIGURE_FORMATS = ("svg", "pdf", "png")  # --figures-format: every one by default (see the CLI's help for why)
PNG_SCALE = 3  # PNG pixels per SVG pixel: 288 dpi at the SVG's 96 px per inch, sharp on paper and in slides
CAIROSVG_HINT = "pip install 'discotest[figures]' (or --figures-format svg)"


def require_cairosvg() -> tuple[Any, Any]:
    """cairocffi and cairosvg, or the one-line error that names the extra: it is optional, and loads the C library
    libcairo2 (a Debian package) when imported, so a missing library is an ``OSError``, not an ``ImportError``."""
    try:
        import cairocffi
        import cairosvg.parser
        import cairosvg.surface
    except ImportError:
        raise InputError(f"PDF and PNG figures need cairosvg: {CAIROSVG_HINT}") from None
    except OSError:  # cairocffi found no libcairo
        raise InputError("PDF and PNG figures need the cairo library: apt-get install libcairo2") from None
    return cairocffi, cairosvg


def figure_bytes(svg: str, fmt: str, title: str = "") -> bytes:
    """A standalone chart SVG as the bytes of a ``fmt`` file (svg, pdf or png), the same bytes on every run: the
    PDF has no creation date (cairo writes the clock's time unless told otherwise) and the chart's title as its
    title; the PNG is ``PNG_SCALE`` times the SVG's size in pixels and carries no time either."""
    if fmt == "svg":
        return svg.encode("utf-8")
    if fmt not in FIGURE_FORMATS:
        raise ValueError(f"unknown figure format {fmt!r}")
    cairo, cairosvg = require_cairosvg()
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"))
    out = io.BytesIO()
    if fmt == "pdf":
        surface = cairosvg.surface.PDFSurface(tree, out, 96)
        pdf = surface.cairo
        pdf.set_metadata(cairo.PDF_METADATA_CREATE_DATE, "")  # an empty value leaves the date out
        if title:
            pdf.set_metadata(cairo.PDF_METADATA_TITLE, title)
    else:
        surface = cairosvg.surface.PNGSurface(tree, out, 96, scale=PNG_SCALE)
    surface.finish()
    return out.getvalue()
