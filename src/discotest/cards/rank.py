"""A system's number with its bootstrap interval, and its place among other systems on the same items: the rank by
the metric's direction (higher, lower, or nearest its target: ΔG and ΔS are best at 0) and a paired bootstrap test
against the nearest system above and below. Pure functions over ``PairedMetric`` rows, for any family."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from discotest.report.result import PairedMetric
from discotest.stats import DEFAULT_SEED, paired_bootstrap


@dataclass(frozen=True)
class Scored:
    system: str
    metric: PairedMetric


def _rows(metric: PairedMetric, keys: Sequence) -> np.ndarray:
    return np.array([metric.rows[k] for k in keys], dtype=float)


def value_and_interval(metric: PairedMetric, n_bootstrap: int = 1000, seed: int = DEFAULT_SEED
                       ) -> tuple[float, float, int]:
    """The metric over all its rows (the number the suite's own run prints), the half-width of its 95% bootstrap
    interval (resampled as ``compare`` and the contrastive suites do) and the number of items."""
    rows = _rows(metric, list(metric.rows))
    if not len(rows):
        return 0.0, 0.0, 0
    boot = paired_bootstrap(rows, rows, metric.statistic, n_bootstrap, seed)
    return boot.score_a, boot.ci_a, len(rows)


def badness(value: float, metric: PairedMetric) -> float:
    """Sort key: smaller is better."""
    if metric.target is not None:
        return abs(value - metric.target)
    return -value if metric.higher_is_better else value


def paired_p(a: PairedMetric, b: PairedMetric, n_bootstrap: int = 1000, seed: int = DEFAULT_SEED) -> float | None:
    """Paired bootstrap p-value of A against B on the items both have (None: no item in common)."""
    keys = [k for k in a.rows if k in b.rows]
    if not keys:
        return None
    return paired_bootstrap(_rows(a, keys), _rows(b, keys), a.statistic, n_bootstrap, seed).p_value


def place(mine: Scored, others: Sequence[Scored], n_bootstrap: int = 1000, seed: int = DEFAULT_SEED) -> dict:
    """Rank of ``mine`` among ``others`` and ``mine`` (1 = best; ties share the better rank), how many are ranked,
    and the nearest system above and below with its value and the paired test's p-value."""
    own = badness(mine.metric.statistic(_rows(mine.metric, list(mine.metric.rows)).sum(0)), mine.metric)
    scored = []
    for other in others:
        rows = _rows(other.metric, list(other.metric.rows))
        value = float(other.metric.statistic(rows.sum(0))) if len(rows) else 0.0
        scored.append((badness(value, other.metric), other.system, value, other))
    above = sorted((s for s in scored if s[0] < own), key=lambda s: (-s[0], s[1]))
    below = sorted((s for s in scored if s[0] >= own), key=lambda s: (s[0], s[1]))

    def neighbour(found):
        if not found:
            return None
        _, system, value, other = found[0]
        return {"system": system, "value": round(value, 4), "p": paired_p(mine.metric, other.metric, n_bootstrap,
                                                                           seed)}

    return {"rank": len(above) + 1, "of": len(others) + 1, "above": neighbour(above), "below": neighbour(below)}
