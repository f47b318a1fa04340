"""Results of AZPT runs and of two-system comparisons: what the renderers in ``report/azpt.py`` format."""

from __future__ import annotations

from dataclasses import dataclass, field

from discotest.phenomena.zero_pronoun import AZPTScores, ZPVerdict
from discotest.report.result import Signature, grouped_signatures
from discotest.stats import Bootstrap, SignTest


@dataclass
class AZPTResult:
    """AZPT of one system (published output or input file) on one mZPRT domain, with the evidence."""

    domain: str
    system: str
    scores: AZPTScores
    signature: Signature
    kind: str = "input"  # "published" / "input"
    path: str = ""
    layout: str = "all-segments"  # which test lines the hypotheses cover (see systems/mzprt_outputs.py)
    n_segments: int = 0  # hypotheses evaluated
    bleu: float | None = None
    bleu_signature: str | None = None
    released: float | None = None  # the .score figure of a published system, percent
    released_counts: tuple[int, int] | None = None
    released_details_counts: tuple[int, int] | None = None  # counted in the .details rows
    verdicts: list[ZPVerdict] = field(default_factory=list, repr=False)
    hypotheses: dict[int, str] = field(default_factory=dict, repr=False)  # segment -> text, for BLEU tests

    @property
    def released_mismatch(self) -> str | None:
        """A note when the released .score and .details files disagree (QA unified_tgt does)."""
        if not self.released_counts or not self.released_details_counts:
            return None
        right, wrong = self.released_details_counts
        details = 100 * right / (right + wrong) if right + wrong else 0.0
        if abs(details - self.released) < 0.05:
            return None
        return (f"{self.domain}/{self.system}: the released .score says {self.released:.1f} "
                f"({self.released_counts[0]} correct), its .details {details:.1f} ({right})")

    @property
    def difference(self) -> float | None:
        return None if self.released is None else self.scores.accuracy - self.released

    def to_json(self) -> dict:
        return {
            "suite": "mzprt",
            "domain": self.domain,
            "system": self.system,
            "kind": self.kind,
            "path": self.path,
            "layout": self.layout,
            "segments": self.n_segments,
            "azpt": round(self.scores.accuracy, 2),
            "released_azpt": None if self.released is None else round(self.released, 2),
            "released_note": self.released_mismatch,
            "difference": None if self.difference is None else round(self.difference, 2),
            "bleu": None if self.bleu is None else round(self.bleu, 2),
            "bleu_signature": self.bleu_signature,
            "scores": self.scores.to_json(),
            "signature": self.signature.format(),
        }


@dataclass(frozen=True)
class MetricComparison:
    """One metric of two systems with both paired tests."""

    metric: str  # "AZPT" / "BLEU"
    score_a: float
    score_b: float
    n: int  # paired items: ZPs or sentences
    sign: SignTest
    bootstrap: Bootstrap

    def to_json(self) -> dict:
        return {
            "metric": self.metric,
            "a": round(self.score_a, 2),
            "b": round(self.score_b, 2),
            "n": self.n,
            "sign_test": {"wins_a": self.sign.wins_a, "wins_b": self.sign.wins_b, "ties": self.sign.ties,
                          "p": self.sign.p_value},
            "bootstrap": {"mean_a": round(self.bootstrap.mean_a, 2), "ci_a": round(self.bootstrap.ci_a, 2),
                          "mean_b": round(self.bootstrap.mean_b, 2), "ci_b": round(self.bootstrap.ci_b, 2),
                          "p": self.bootstrap.p_value, "samples": self.bootstrap.n_samples,
                          "seed": self.bootstrap.seed},
        }


@dataclass
class ComparisonResult:
    """Two systems on one domain: AZPT and BLEU of each, sign test and paired bootstrap p-values."""

    domain: str
    a: AZPTResult
    b: AZPTResult
    metrics: list[MetricComparison]

    def to_json(self) -> dict:
        return {
            "domain": self.domain,
            "a": self.a.system,
            "b": self.b.system,
            "metrics": [m.to_json() for m in self.metrics],
            "signature": (sigs[0] if len(sigs := grouped_signatures([self.a.signature, self.b.signature], "system"))
                          == 1 else sigs),
            "bleu_signature": self.a.bleu_signature,
        }
