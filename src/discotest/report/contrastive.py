"""The contrastive suites' result (Voita, Bawden, SCAT, CTXPRO, ContraPro, jazp …) and its text report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from discotest.phenomena.contrastive import Accuracy, ContrastiveScores, ContrastiveVerdict
from discotest.report.result import Headline, PairedMetric, Result, Signature
from discotest.stats import accuracy_from_sums

MAX_PAIRS = 15  # the text table shows the most frequent pronoun pairs; JSON has them all


@dataclass
class ContrastiveResult(Result):
    """Accuracy of one system (a scores file, a model at one context size, a baseline, a translation file)."""

    family: ClassVar[str] = "contrastive"
    suite: str
    system: str
    scores: ContrastiveScores
    signature: Signature
    verdicts: list[ContrastiveVerdict] = field(default_factory=list, repr=False)
    lang: str | None = None  # "en-ru" …, when the suite has fixed languages

    @property
    def n(self) -> int:
        return self.scores.overall.n

    def headline(self) -> Headline:
        return Headline("accuracy", self.scores.overall.accuracy)

    def summary(self) -> dict:
        return self.scores.to_json()

    def details(self) -> list[dict]:
        return [{"system": self.system, "suite": self.suite, **v.to_json()} for v in self.verdicts]

    def paired_metrics(self) -> list[PairedMetric]:
        return [PairedMetric("accuracy", {v.index: (float(v.correct), 1.0) for v in self.verdicts},
                             accuracy_from_sums)]


def _row(label: str, acc: Accuracy) -> str:
    return f"  {label:<28} {acc.accuracy:6.2f} ± {acc.ci:5.2f}  (n={acc.n})"


def render_contrastive_table(results: Sequence[ContrastiveResult]) -> str:
    lines = []
    for r in results:
        s = r.scores
        lines.append(f"{r.suite} · {r.system}: accuracy {s.overall.accuracy:.2f} ± {s.overall.ci:.2f} "
                     f"(95% bootstrap CI, n={s.overall.n})")
        if s.by_distance:
            lines.append(" by antecedent distance d")
            lines += [_row(f"d={k}", v) for k, v in s.by_distance.items()]
        if len(s.by_phenomenon) > 1:
            lines.append(" by phenomenon")
            lines += [_row(k, v) for k, v in s.by_phenomenon.items()]
        if len(s.by_pair) > 1:
            frequent = sorted(s.by_pair.items(), key=lambda kv: -kv[1].n)[:MAX_PAIRS]
            more = len(s.by_pair) - len(frequent)
            lines.append(" by pair (correct>incorrect)" + (f", {len(frequent)} most frequent of {len(s.by_pair)}"
                                                           if more else ""))
            lines += [_row(k, v) for k, v in frequent]
        lines.append(f" signature: {r.signature.format()}")
        lines.append("")
    return "\n".join(lines).rstrip()
