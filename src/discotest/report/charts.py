"""Charts as data, and their inline SVG: a result says what to plot (``Result.charts``), never how.

A ``Chart`` is a title and points (category, series, value, note); the charts of several results with the same
title and unit merge into one (each system a series, each language or distance a category), so a family gets its
charts drawn by returning numbers. The SVG is plain horizontal grouped bars, with a zero line for signed values,
each bar labelled with its value (and its note: a p-value with its star), no script and no external file.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


def _text(x: float, y: float, text: str, anchor: str = "start", css: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{klass}>{html.escape(text)}</text>'


def render_svg(chart: Chart) -> str:
    """The chart as an inline ``<svg>``: categories top to bottom, one bar per series, a legend when several."""
    categories, series = chart.categories(), chart.series()
    values = {(p.category, p.series): p for p in chart.points}
    numbers = [p.value for p in chart.points if p.value is not None]
    low, high = min([0.0, *numbers]), max([0.0, *numbers])
    if chart.unit == "%" and low >= 0:
        high = max(high, 100.0)
    span = (high - low) or 1.0

    def x(v: float) -> float:
        return LABEL_W + BAR_W * (v - low) / span

    legend_h = 18 if len(series) > 1 else 0
    group_h = len(series) * BAR_H + GAP
    height = TOP + legend_h + len(categories) * group_h + 16
    width = LABEL_W + BAR_W + VALUE_W
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(chart.title)}">']
    if legend_h:
        at = LABEL_W
        for k, name in enumerate(series):
            out.append(f'<rect x="{at}" y="{TOP}" width="10" height="10" fill="{PALETTE[k % len(PALETTE)]}"/>')
            out.append(_text(at + 14, TOP + 9, name))
            at += 24 + 7 * len(name)
    y = TOP + legend_h
    zero = x(0.0)
    for category in categories:
        out.append(_text(LABEL_W - 6, y + group_h / 2 + 2, category, "end"))
        for k, name in enumerate(series):
            point = values.get((category, name))
            if point is not None:
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
    out.append(f'<line x1="{zero:.1f}" y1="{TOP + legend_h}" x2="{zero:.1f}" y2="{y:.1f}" stroke="#555"/>')
    out.append(_text(LABEL_W, y + 12, chart.label(low) if low < 0 else "0", "middle", "axis"))
    out.append(_text(LABEL_W + BAR_W, y + 12, chart.label(high), "middle", "axis"))
    out.append("</svg>")
    return "".join(out)


def render_charts(charts: Sequence[Chart]) -> str:
    parts = []
    for chart in charts:
        note = f'<p class="note">{html.escape(chart.note)}</p>' if chart.note else ""
        parts.append(f'<figure><figcaption>{html.escape(chart.title)}</figcaption>{note}{render_svg(chart)}</figure>')
    return "".join(parts)
