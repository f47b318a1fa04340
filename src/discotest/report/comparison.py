"""Two results on the same items, compared metric by metric: both scores, a paired bootstrap and a sign test.

Works on any family through ``Result.paired_metrics``: each metric is per-item rows of sufficient statistics
(``[correct, 1]`` for an accuracy, ``[difference]`` for a DiP sum …), paired by item key in A's item order, so the
resampling is the same one the family's own tests ran before this module existed (AZPT's and the contrastive
suites' comparisons give the same p-values). A family may add metrics that are not per item (BLEU) with
``extra``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from discotest.errors import InputError
from discotest.report.export import Table, build_table
from discotest.report.result import ItemRow, PairedMetric, Result, grouped_signatures, lang_of, scope_of
from discotest.report.table import fixed_width
from discotest.stats import DEFAULT_SEED, Bootstrap, SignTest, paired_bootstrap, sign_test


@dataclass(frozen=True)
class MetricComparison:
    """One metric of two systems with both paired tests."""

    metric: str
    score_a: float
    score_b: float
    n: int  # paired items: ZPs, sentences, contrastive items …
    sign: SignTest
    bootstrap: Bootstrap
    higher_is_better: bool = True

    def to_json(self) -> dict:
        return {
            "metric": self.metric,
            "a": round(self.score_a, 2),
            "b": round(self.score_b, 2),
            "n": self.n,
            "higher_is_better": self.higher_is_better,
            "sign_test": {"wins_a": self.sign.wins_a, "wins_b": self.sign.wins_b, "ties": self.sign.ties,
                          "p": self.sign.p_value},
            "bootstrap": {"mean_a": round(self.bootstrap.mean_a, 2), "ci_a": round(self.bootstrap.ci_a, 2),
                          "mean_b": round(self.bootstrap.mean_b, 2), "ci_b": round(self.bootstrap.ci_b, 2),
                          "p": self.bootstrap.p_value, "samples": self.bootstrap.n_samples,
                          "seed": self.bootstrap.seed},
        }


@dataclass
class Comparison:
    """Result A against result B on the items both have."""

    a: Result
    b: Result
    metrics: list[MetricComparison]
    pairs: list[dict[str, Any]] = field(default_factory=list, repr=False)  # per item and metric: a, b
    notes: list[str] = field(default_factory=list)  # extra signature lines (BLEU's)

    @property
    def title(self) -> str:
        where = " ".join(x for x in (self.a.suite, lang_of(self.a), scope_of(self.a)) if x)
        return f"{where}: A = {self.a.system}, B = {self.b.system}"

    def to_json(self) -> dict:
        sigs = grouped_signatures([self.a.signature, self.b.signature], "system")
        return {"suite": self.a.suite, "lang": lang_of(self.a), "scope": scope_of(self.a), "a": self.a.system,
                "b": self.b.system, "metrics": [m.to_json() for m in self.metrics],
                "changed_items": sum(change != "same" for change in self.changes().values()),
                "signature": sigs[0] if len(sigs) == 1 else sigs, "notes": self.notes}

    def details(self) -> list[dict[str, Any]]:
        return self.pairs

    def changes(self) -> dict[str, str]:
        """Per paired item (``item_id`` of its key) what changed from A to B: ``"same"``, or each metric that differs
        and which system it favours (``"accuracy: B better"``), in A's item order."""
        better = {m.metric: m.higher_is_better for m in self.metrics}
        out: dict[str, list[str]] = {}
        for pair in self.pairs:
            said = out.setdefault(item_id(pair["item"]), [])
            if pair["a"] != pair["b"]:
                b_up = (pair["b"] > pair["a"]) == better.get(pair["metric"], True)
                said.append(f"{pair['metric']}: {'B' if b_up else 'A'} better")
        return {key: "; ".join(said) or "same" for key, said in out.items()}

    def changed_items(self) -> list[dict[str, Any]]:
        """The items whose verdict differs, each with both systems' evidence (their item rows): what ``compare
        --details`` writes and the text report counts."""
        changes = self.changes()
        evidence_a, evidence_b = item_evidence(self.a), item_evidence(self.b)
        return [{"system_a": self.a.system, "system_b": self.b.system, "item": _key(json.loads(key)),
                 "change": change, "a": evidence_a.get(key), "b": evidence_b.get(key)}
                for key, change in changes.items() if change != "same"]


def _key(key: Any) -> Any:
    return list(key) if isinstance(key, tuple) else key


def item_id(key: Any) -> str:
    """A paired item's key as text, the same for a tuple and its JSON list (an AZPT ZP's ``(segment, ordinal)``)."""
    return json.dumps(_key(key), ensure_ascii=False)


def row_item(row: ItemRow) -> str | None:
    """The paired key of an item row (``ItemRow.item``, else its ``index`` field) as ``item_id`` text."""
    key = row.item if row.item is not None else row.fields.get("index")
    return None if key is None else item_id(key)


def item_evidence(result: Result) -> dict[str, dict[str, Any]]:
    """A result's item rows by paired key: the fields the HTML shows (text, evidence, verdict)."""
    out: dict[str, dict[str, Any]] = {}
    for row in result.item_rows():
        key = row_item(row)
        if key is not None:
            out.setdefault(key, row.fields)
    return out


def compare_metric(a: PairedMetric, b: PairedMetric, name_a: str, name_b: str, n_bootstrap: int = 1000,
                   seed: int | None = DEFAULT_SEED) -> tuple[MetricComparison, list[dict]]:
    keys = [k for k in a.rows if k in b.rows]
    if not keys:
        raise InputError(f"{name_a} and {name_b} share no item scored by {a.name}")
    rows_a = np.array([a.rows[k] for k in keys], dtype=float)
    rows_b = np.array([b.rows[k] for k in keys], dtype=float)
    boot = paired_bootstrap(rows_a, rows_b, a.statistic, n_bootstrap, seed)
    first_a, first_b = rows_a[:, 0], rows_b[:, 0]
    sign = sign_test(first_a, first_b) if a.higher_is_better else sign_test(-first_a, -first_b)
    pairs = [{"metric": a.name, "item": _key(k), "a": ra[0], "b": rb[0]}
             for k, ra, rb in zip(keys, rows_a.tolist(), rows_b.tolist())]
    return MetricComparison(a.name, boot.score_a, boot.score_b, len(keys), sign, boot, a.higher_is_better), pairs


def compare_results(a: Result, b: Result, n_bootstrap: int = 1000, seed: int | None = DEFAULT_SEED,
                    extra: Sequence[MetricComparison] = (), notes: Sequence[str] = ()) -> Comparison:
    """Every metric both results can pair, in A's order; ``extra`` metrics (computed by the family) follow."""
    where_a, where_b = (a.suite, lang_of(a), scope_of(a)), (b.suite, lang_of(b), scope_of(b))
    if where_a != where_b:
        def name(where: tuple) -> str:
            return " ".join(x for x in where if x)

        raise InputError(f"cannot compare results on different items ({name(where_a)} vs {name(where_b)})")
    by_name = {m.name: m for m in b.paired_metrics()}
    metrics, pairs = [], []
    for metric in a.paired_metrics():
        if metric.name in by_name:
            compared, rows = compare_metric(metric, by_name[metric.name], a.system, b.system, n_bootstrap, seed)
            metrics.append(compared)
            pairs += rows
    if not metrics and not extra:
        raise InputError(f"{a.system} and {b.system} have no per-item metric to compare")
    return Comparison(a, b, [*metrics, *extra], pairs, list(notes))


def _fmt(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:+.1f}" if signed else f"{value:.1f}"


def _p(p: float) -> str:
    if p == 0.0:
        return "<1e-300"  # an exact sign test far beyond float range
    return f"{p:.4f}" if p >= 0.0001 else f"{p:.1e}"


def render_comparison(comparison: Comparison) -> str:
    """Both systems' scores, the difference, and the p-values of the sign test and the paired bootstrap."""
    header = ["metric", "A", "B", "B−A", "n", "A better", "B better", "ties", "sign p", "bootstrap p",
              "A 95% CI", "B 95% CI"]
    rows = []
    for m in comparison.metrics:
        bs = m.bootstrap
        rows.append([
            m.metric, _fmt(m.score_a), _fmt(m.score_b), _fmt(m.score_b - m.score_a, signed=True), str(m.n),
            str(m.sign.wins_a), str(m.sign.wins_b), str(m.sign.ties), _p(m.sign.p_value), _p(bs.p_value),
            f"{bs.mean_a:.1f}±{bs.ci_a:.1f}", f"{bs.mean_b:.1f}±{bs.ci_b:.1f}",
        ])
    first = comparison.metrics[0].bootstrap if comparison.metrics else None
    lower = [m.metric for m in comparison.metrics if not m.higher_is_better]
    return "\n".join([
        comparison.title,
        *fixed_width(header, rows, left=1),
        "",
        f"paired by item{' (sentences for BLEU)' if any(m.metric == 'BLEU' for m in comparison.metrics) else ''}; "
        "sign test two-sided exact; paired bootstrap as sacrebleu "
        f"({first.n_samples if first else 0} resamples, seed {first.seed if first else '–'})"
        + (f"; lower is better for {', '.join(lower)}" if lower else ""),
        *grouped_signatures([comparison.a.signature, comparison.b.signature], "system"),
        *comparison.notes,
        *_change_lines(comparison),
    ])


SHOWN_CHANGES = 10  # items whose verdict differs listed in the text report; --details has them all, with evidence


def _change_lines(comparison: Comparison) -> list[str]:
    """How many items changed verdict and which way, and the first few of them."""
    changes = comparison.changes()
    differ = [(key, change) for key, change in changes.items() if change != "same"]
    if not changes:
        return []
    ways = Counter(tuple(part.split(": ", 1)) for _, change in differ for part in change.split("; "))
    metrics = dict.fromkeys(metric for metric, _ in ways)
    counted = "; ".join(f"{metric}: " + ", ".join(f"{way} on {n}" for (m, way), n in sorted(ways.items())
                                                  if m == metric) for metric in metrics)
    out = ["", f"verdicts differ on {len(differ)} of {len(changes)} items" + (f" ({counted})" if counted else "")
           + ("; `compare … --details FILE` writes each with both systems' evidence" if differ else "")]
    out += [f"  item {json.loads(key)}: {change}" for key, change in differ[:SHOWN_CHANGES]]
    if len(differ) > SHOWN_CHANGES:
        out.append(f"  … {len(differ) - SHOWN_CHANGES} more")
    return out


def comparison_table(comparison: Comparison) -> Table:
    """The comparison as a paper table: per metric both scores, B−A, n and both tests' p-values; the signatures and
    the test settings as notes."""
    rows = [{"metric": m.metric, "A": m.score_a, "B": m.score_b, "B−A": m.score_b - m.score_a, "n": m.n,
             "sign p": _p(m.sign.p_value), "bootstrap p": _p(m.bootstrap.p_value)} for m in comparison.metrics]
    first = comparison.metrics[0].bootstrap if comparison.metrics else None
    notes = [f"paired bootstrap ({first.n_samples if first else 0} resamples, seed {first.seed if first else '–'}); "
             "sign test two-sided exact",
             *grouped_signatures([comparison.a.signature, comparison.b.signature], "system"), *comparison.notes]
    return build_table(rows, notes, 2, comparison.title)
