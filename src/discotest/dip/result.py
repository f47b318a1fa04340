"""DiP results (Jwalapuram et al. 2020): one system scored on mined test sets, and the ranking of WMT systems per
phenomenon, with their text tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from discotest.dip.evidence import item_text
from discotest.dip.mine import Parses
from discotest.dip.rank import ALPHA, Ranking
from discotest.dip.score import EXTRA, METRICS, PhenomenonScore
from discotest.report.charts import Chart, ChartPoint
from discotest.report.result import Headline, ItemRow, Mark, PairedMetric, Result, Signature

NOTES = {
    "lexical": "share of blocks where the system uses the reference's repeated lemma at least as often",
    "connectives": "accuracy = same connective as the reference; ANY = some connective at the aligned place",
    "anaphora": "Σ(score(ref) − score(sys)) over items where the system's pronoun differs (Eq. 1); lower is better",
    "coherence": "Σ(score(ref) − score(sys)) over the mined documents; lower is better",
}


@dataclass(frozen=True)
class DipTexts:
    """What the report needs to show an item's sentences: the mined items, both sides' lines and their parses
    (only the lines the items name are parsed)."""

    tests: dict[str, list[dict]]
    reference: Sequence[str]
    system: Sequence[str]
    ref: Parses
    sys: Parses


@dataclass
class DipResult(Result):
    """One system's scores on every phenomenon of a mined test set (``run dip``, or one row set of ``rank dip``)."""

    family: ClassVar[str] = "dip"
    labels: ClassVar[dict[str, str]] = {
        "rank": "Rank", "p_next": "p (vs next)", "connective": "Connective", "sense": "Sense",
        "any": "Any connective", "lemma": "Lemma", "ref_count": "Count in reference", "count": "Count in system",
        "miss": "Miss", "other_word": "Other word", "differs": "Differs", "score_ref": "Score of reference",
        "score_sys": "Score of system", "diff": "ref − sys", "output": "System output",
        "output context": "Output context", "system_connective": "System connective",
        "system_pronoun": "System pronoun",
    }
    headers: ClassVar[dict[str, str]] = {
        "ref_count": "In ref.", "count": "In system", "score_ref": "Score ref.", "score_sys": "Score sys.",
        "system_connective": "System conn.",
    }
    suite: ClassVar[str] = "dip"
    system: str
    manifest: dict[str, Any]
    scores: dict[str, PhenomenonScore]
    signature: Signature
    bleu: float | None = None
    holdout: bool = False  # the system mining left out (rank dip --holdout)
    texts: DipTexts | None = field(default=None, repr=False, compare=False)  # for the HTML items; not in the JSON
    # a WMT system ranked beside a given output (``--input``, ``--model``): not what the run was asked for
    # (``Result.own``); every system is its own where none is given
    own: bool = True

    @property
    def lang(self) -> str:  # type: ignore[override]
        return self.manifest["pair"]

    @property
    def scope(self) -> str:  # type: ignore[override]
        return f"{self.manifest['data']} ref {self.manifest['ref']}"

    @property
    def n(self) -> int:
        return sum(len(s.stats) for s in self.scores.values())

    def headline(self) -> Headline:
        for phenomenon, score in self.scores.items():
            metric = METRICS[phenomenon]
            unit = "%" if metric.label.endswith("%") else ""
            return Headline(f"{phenomenon} {metric.label}", score.value, metric.higher_is_better, unit)
        return Headline("none", None)

    table_digits: ClassVar[int] = 2
    table_legend: ClassVar[str] = "; ".join(f"{p}: {note}" for p, note in NOTES.items())

    def summary(self) -> dict:
        return {p: s.summary for p, s in self.scores.items()}

    def table_row(self) -> dict:
        """Pair, system, then each phenomenon's score (and its extra figure: ANY %, differs) and n, then BLEU."""
        row: dict[str, Any] = {"pair": self.lang, "system": self.system + (" †" if self.holdout else "")}
        for phenomenon, score in self.scores.items():
            row[f"{phenomenon} {METRICS[phenomenon].label}"] = score.value
            if phenomenon in EXTRA:
                label, fn = EXTRA[phenomenon]
                row[f"{phenomenon} {label}"] = fn(score.sums())
            row[f"{phenomenon} n"] = len(score.stats)
        row["BLEU"] = self.bleu
        return row

    def extra_json(self) -> dict:
        return {"bleu": self.bleu, "holdout": self.holdout, "manifest": self.manifest}

    def details(self) -> list[dict]:
        return [{"phenomenon": p, "system": self.system, **v} for p, s in self.scores.items() for v in s.verdicts]

    def item_rows(self) -> list[ItemRow]:
        """The details with the item's reference and system sentences, the deciding words marked; the same mined
        item of every system shares its key (the item id)."""
        if self.texts is None:
            return super().item_rows()
        texts, out = self.texts, []
        for phenomenon, score in self.scores.items():
            items = {item["id"]: item for item in texts.tests.get(phenomenon, [])}
            for verdict in score.verdicts:
                item = items.get(verdict["id"])
                row = {"phenomenon": phenomenon, "system": self.system, **verdict}
                if item is None:
                    out.append(ItemRow(row, (), verdict["id"], verdict["id"]))
                    continue
                text = item_text(phenomenon, item, verdict, texts.reference, texts.system, texts.ref, texts.sys)
                row = {"phenomenon": phenomenon, "system": self.system, "id": verdict["id"], **text.fields, **verdict}
                marks = tuple(Mark(s.field, s.start, s.end, s.kind) for s in text.spans)
                out.append(ItemRow(row, marks, verdict["id"], verdict["id"]))
        return out

    def charts(self) -> list[Chart]:
        out = []
        for phenomenon, score in self.scores.items():
            metric = METRICS[phenomenon]
            unit = "%" if metric.label.endswith("%") else ""
            better = "higher" if metric.higher_is_better else "lower"
            out.append(Chart(f"DiP {phenomenon}: {metric.label}", (ChartPoint(self.system, "score", score.value),),
                             unit, f"{better} is better; " + NOTES.get(phenomenon, ""), 2))
        return out

    def paired_metrics(self) -> list[PairedMetric]:
        out = []
        for phenomenon, score in self.scores.items():
            metric = METRICS[phenomenon]
            rows = {v.get("id", k): tuple(row) for k, (v, row) in enumerate(zip(score.verdicts, score.stats))}
            unit = "%" if metric.label.endswith("%") else ""
            out.append(PairedMetric(f"{phenomenon} {metric.label}", rows, metric.value, metric.higher_is_better, unit))
        return out


@dataclass
class DipRanking:
    """Every system of a WMT pair ranked per phenomenon, with paired-bootstrap p-values against the next one."""

    manifest: dict[str, Any]
    rankings: list[Ranking]
    signature: Signature
    bleu_signature: Signature
    n_bootstrap: int = 1000
    results: list[DipResult] = field(default_factory=list, repr=False)

    def summary_rows(self) -> list[dict]:
        """One row per phenomenon and system, in rank order (the HTML report's table)."""
        return [{"phenomenon": r.phenomenon, "rank": row.rank, "system": row.system + (" †" if row.holdout else ""),
                 r.metric: row.value, **({r.extra_label: row.extra} if r.extra_label else {}), "n": row.n,
                 "p_next": row.p_next, "BLEU": row.bleu, "signature": self.signature.format()}
                for r in self.rankings for row in r.rows]

    def charts(self) -> list[Chart]:
        """One chart per phenomenon, systems in rank order, each bar with its p-value against the next system
        (three decimals, * below ALPHA: 0.001*, as in the text table)."""
        out = []
        for r in self.rankings:
            unit = "%" if r.metric.endswith("%") else ""
            better = "higher" if r.higher_is_better else "lower"
            points = tuple(ChartPoint(f"{row.rank}. {row.system}" + (" †" if row.holdout else ""), r.metric,
                                      row.value, "" if row.p_next is None else
                                      f"p={row.p_next:.3f}" + ("*" if row.significant else ""))
                           for row in r.rows)
            out.append(Chart(f"DiP ranking · {r.phenomenon}: {r.metric}", points, unit,
                             f"{better} is better; p: paired bootstrap against the next system, * p < {ALPHA}", 2))
        return out

    def to_json(self) -> dict:
        return {"bleu_signature": self.bleu_signature.format(), "rankings": [{
            "phenomenon": r.phenomenon, "metric": r.metric, "higher_is_better": r.higher_is_better,
            "extra": r.extra_label,
            "rows": [{"rank": row.rank, "system": row.system, "score": row.value, "extra": row.extra, "n": row.n,
                      "bleu": row.bleu,
                      "p_next": row.p_next, "significant": row.significant, "holdout": row.holdout}
                     for row in r.rows],
        } for r in self.rankings]}


def _fmt(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def _digits(label: str | None) -> int:
    """Counts ("differs") print as integers, percentages and sums with two decimals."""
    return 0 if label == "differs" else 2


def render_score_table(results: Sequence[DipResult]) -> str:
    out = []
    for result in results:
        m = result.manifest
        lines = [f"DiP {m['data']} {m['pair']} (ref {m['ref']}): {result.system}", ""]
        lines.append(f"{'phenomenon':<12} {'n':>6}  {'score':<24} details")
        for phenomenon, score in result.scores.items():
            summary = dict(score.summary)
            n = summary.pop("n")
            label, value = next(iter(summary.items()))
            details = ", ".join(f"{k} {_fmt(v, _digits(k))}" for k, v in list(summary.items())[1:])
            lines.append(f"{phenomenon:<12} {n:>6}  {label + ' ' + _fmt(value):<24} {details}")
        skipped = [p for p in m.get("counts", {}) if p not in result.scores]
        if skipped:
            lines.append(f"not scored (no model): {', '.join(skipped)}")
        lines += ["", *(f"{p}: {note}" for p, note in NOTES.items() if p in result.scores), result.signature.format()]
        out.append("\n".join(lines))
    return "\n\n".join(out)


def render_rank_table(report: DipRanking) -> str:
    m = report.manifest
    head = f"DiP ranking {m['data']} {m['pair']} (ref {m['ref']}), mined from {len(m['systems_mined'])} systems"
    if m.get("holdout"):
        head += f" without {m['holdout']} (marked †: never scored on its own errors)"
    given = sorted({row.system for r in report.rankings for row in r.rows if row.holdout} - {m.get("holdout")})
    if given:  # run dip --pair --input: the user's translations, ranked beside the WMT systems
        head += f"; {', '.join(given)} scored beside them, not mined from (marked †)"
    out = [head]
    for ranking in report.rankings:
        n = ranking.rows[0].n if ranking.rows else 0
        better = "higher" if ranking.higher_is_better else "lower"
        out += ["", f"{ranking.phenomenon}: {ranking.metric}, {better} is better, n={n}"]
        extra = f" {ranking.extra_label:>8}" if ranking.extra_label else ""
        out.append(f"{'#':>3} {'system':<22} {ranking.metric:>14}{extra} {'p(next)':>9}  {'BLEU':>6}")
        for row in ranking.rows:
            name = row.system + (" †" if row.holdout else "")
            p = "" if row.p_next is None else f"{row.p_next:.3f}" + ("*" if row.significant else " ")
            extra = f" {_fmt(row.extra, _digits(ranking.extra_label)):>8}" if ranking.extra_label else ""
            out.append(f"{row.rank:>3} {name:<22} {_fmt(row.value):>14}{extra} {p:>9}  {_fmt(row.bleu, 1):>6}")
    skipped = [p for p in m.get("counts", {}) if p not in {r.phenomenon for r in report.rankings}]
    skipped += m.get("skipped", [])
    if skipped:
        out += ["", f"not ranked (no model): {', '.join(dict.fromkeys(skipped))}"]
    out += ["", f"p(next): paired bootstrap ({report.n_bootstrap} resamples) against the next system; * p < {ALPHA}",
            report.signature.replace(system="*").format(), f"BLEU: {report.bleu_signature.format()}"]
    return "\n".join(out)
