"""A system's number with its bootstrap interval, and its place among other systems on the same items: the rank by
the metric's direction (higher, lower, or nearest its target: ΔG and ΔS are best at 0) and a paired bootstrap test
against the nearest system above and below. Pure functions over ``PairedMetric`` rows, for any family."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from discotest.report.result import PairedMetric
from discotest.stats import DEFAULT_SEED, paired_bootstrap, tie_order


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
    """Paired bootstrap p-value of A against B on the items both have (None: no item in common); for a metric best at
    a target, of their distances to it."""
    keys = [k for k in a.rows if k in b.rows]
    if not keys:
        return None
    statistic = a.statistic
    if a.target is not None:  # ΔG, ΔS: is one nearer 0 than the other (not: do the signed values differ)
        def statistic(row, f=a.statistic, target=a.target):
            return abs(f(row) - target)
    return paired_bootstrap(_rows(a, keys), _rows(b, keys), statistic, n_bootstrap, seed).p_value


def place(mine: Scored, others: Sequence[Scored], n_bootstrap: int = 1000, seed: int = DEFAULT_SEED) -> dict:
    """Rank of ``mine`` among ``others`` and ``mine`` (1 = best), how many are ranked, and the systems just above and
    below it with their values and the paired test's p-value, by the tie rule ``compare``'s rankings and ``run``
    share (``stats.tie_order``)."""
    entries = [mine, *others]
    values = []
    for entry in entries:
        rows = _rows(entry.metric, list(entry.metric.rows))
        values.append(float(entry.metric.statistic(rows.sum(0))) if len(rows) else 0.0)
    order = tie_order([badness(v, e.metric) for v, e in zip(values, entries)], [e.system for e in entries])
    at = next(k for k, (i, _) in enumerate(order) if i == 0)

    def neighbour(k: int) -> dict | None:
        if not 0 <= k < len(order):
            return None
        i = order[k][0]
        return {"system": entries[i].system, "value": round(values[i], 4),
                "p": paired_p(mine.metric, entries[i].metric, n_bootstrap, seed)}

    return {"rank": order[at][1], "of": len(entries), "above": neighbour(at - 1), "below": neighbour(at + 1)}


def ranking(results: Sequence, n_bootstrap: int = 1000, seed: int = DEFAULT_SEED) -> list[dict]:
    """Every ranked metric (``Result.ranked_metrics``) of systems on the same items, per language and scope: the
    systems in rank order, each with its value, 95% interval, n, and the paired bootstrap p-value against the next
    system down (is it significantly better than its neighbour?)."""
    from discotest.report.result import lang_of, scope_of

    groups: dict[tuple, list] = {}
    for result in results:
        groups.setdefault((result.suite, lang_of(result), scope_of(result)), []).append(result)
    out = []
    for (suite, lang, scope), members in groups.items():
        metrics: dict[str, list[Scored]] = {}
        for result in members:
            for metric in result.ranked_metrics():
                metrics.setdefault(metric.name, []).append(Scored(result.system, metric))
        for name, scored in metrics.items():
            valued = []
            for s in scored:
                value, ci, n = value_and_interval(s.metric, n_bootstrap, seed)
                valued.append((badness(value, s.metric), s.system, value, ci, n, s))
            order = tie_order([v[0] for v in valued], [v[1] for v in valued])
            ranks = [rank for _, rank in order]
            valued = [valued[i] for i, _ in order]
            systems = []
            for k, (_, system, value, ci, n, s) in enumerate(valued):
                below = valued[k + 1] if k + 1 < len(valued) else None
                systems.append({"rank": ranks[k], "system": system,
                                "value": round(value, 4), "ci95": round(ci, 4), "n": n,
                                "next": below[1] if below else None,
                                "p_next": paired_p(s.metric, below[5].metric, n_bootstrap, seed) if below else None})
            first = scored[0].metric
            out.append({"suite": suite, "lang": lang, "scope": scope, "metric": name, "unit": first.unit,
                        "better": "nearer 0" if first.target is not None else
                        "higher" if first.higher_is_better else "lower", "systems": systems})
    return out


def render_ranking(tables: Sequence[dict]) -> str:
    """The rankings as text: one table per suite, language, scope and metric."""
    from discotest.report.table import fixed_width

    lines = []
    for t in tables:
        where = " ".join(str(x) for x in (t["suite"], t["lang"], t["scope"]) if x)
        lines.append(f"{where} · {t['metric']} ({t['better']} is better)")
        rows = [[str(s["rank"]), s["system"], f"{s['value']:.1f} ± {s['ci95']:.1f}", str(s["n"]),
                 "–" if s["next"] is None else f"{s['next']} (p={s['p_next']:.4f})"] for s in t["systems"]]
        lines += fixed_width(["rank", "system", "value", "n", "vs the next down"], rows, left=2)
        lines.append("")
    lines.append("paired bootstrap as sacrebleu against the next system down (the same items); ± the half-width of "
                 "the 95% bootstrap interval; tied systems share the better rank, listed by name")
    return "\n".join(lines)
