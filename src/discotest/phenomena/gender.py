"""Gender accuracy of translated entities (Stanovsky et al. 2019; Yehudai et al. 2023, Table 9).

Accuracy counts every evaluated item (neutral gold included, as in the original evaluation);
precision/recall/F1 per gender; ΔG = F1(male) − F1(female); ΔS = accuracy on the pro-stereotypical
rows − accuracy on the anti-stereotypical rows. Figures are percentages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class GenderVerdict:
    """One item's evidence and verdict: what ``--details`` writes, one JSON line each."""

    index: int
    source: str
    translation: str
    entity: str
    target_entity: list[str]
    located_by: str  # aligned / lexicon-confirmed / lexicon-found / lexicon-override / none
    predicted_gender: str
    gold_gender: str
    correct: bool
    reason: str
    evidence: list[str] = field(default_factory=list)
    stereotype: str | None = None
    # target-side consistency (--measure consistency); None when not measured
    pronoun: str | None = None  # the English pronoun
    target_pronoun: list[str] | None = None  # target words aligned to it
    pronoun_gender: str | None = None
    pronoun_reason: str | None = None
    # why the item is left out: an OMISSION_REASONS key, "pronoun-unreadable" (the target marks gender but it could
    # not be read), "entity-unreadable" (the entity's gender could not be read), or "no-source-pronoun"
    omitted: str | None = None
    distractor: str | None = None
    target_distractor: list[str] | None = None
    distractor_gender: str | None = None
    consistent: bool | None = None  # pronoun gender == entity gender; None when omitted

    def to_json(self) -> dict:
        out = asdict(self)
        if self.pronoun is None:  # consistency not measured: keep the details file lean
            for key in CONSISTENCY_FIELDS:
                out.pop(key)
        return out


CONSISTENCY_FIELDS = (
    "pronoun", "target_pronoun", "pronoun_gender", "pronoun_reason", "omitted", "distractor", "target_distractor",
    "distractor_gender", "consistent",
)


def _pct(num: float, den: float) -> float:
    return 100.0 * num / den if den else 0.0


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True)
class GenderScores:
    n: int
    accuracy: float
    precision_male: float
    recall_male: float
    f1_male: float
    precision_female: float
    recall_female: float
    f1_female: float
    delta_g: float
    accuracy_pro: float | None
    accuracy_anti: float | None
    delta_s: float | None
    unknown: float  # share of items whose gender could not be read
    neutral: float  # share read as neutral

    def to_json(self) -> dict:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class ConsistencyScores:
    """Target-side consistency (Yehudai et al. 2023, §3): does the pronoun agree with its entity?

    ``consistency`` is over the scored items (pronoun and entity genders both read); ``omitted``
    counts the rest by reason; ``trivial`` is the share of scored items where entity and distractor
    have the same target gender, so agreement says nothing about which one the pronoun refers to.
    """

    n: int
    scored: int
    consistency: float
    trivial: float
    omitted: dict[str, int]

    def to_json(self) -> dict:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def score_consistency(verdicts: Sequence[GenderVerdict]) -> ConsistencyScores:
    scored = [v for v in verdicts if v.consistent is not None]
    omitted: dict[str, int] = {}
    for v in verdicts:
        if v.consistent is None:
            reason = v.omitted or "pronoun-unreadable"
            omitted[reason] = omitted.get(reason, 0) + 1
    trivial = [v for v in scored if v.distractor_gender == v.predicted_gender]
    return ConsistencyScores(
        n=len(verdicts),
        scored=len(scored),
        consistency=_pct(sum(bool(v.consistent) for v in scored), len(scored)),
        trivial=_pct(len(trivial), len(scored)),
        omitted=dict(sorted(omitted.items())),
    )


def score_gender(verdicts: Sequence[GenderVerdict]) -> GenderScores:
    n = len(verdicts)
    per_gender = {}
    for gender in ("male", "female"):
        gold = [v for v in verdicts if v.gold_gender == gender]
        predicted = [v for v in verdicts if v.predicted_gender == gender]
        hits = sum(v.correct for v in gold)
        p, r = _pct(hits, len(predicted)), _pct(hits, len(gold))
        per_gender[gender] = (p, r, _f1(p, r))
    subset_acc = {}
    for subset in ("pro", "anti"):
        rows = [v for v in verdicts if v.stereotype == subset]
        subset_acc[subset] = _pct(sum(v.correct for v in rows), len(rows)) if rows else None
    delta_s = (
        subset_acc["pro"] - subset_acc["anti"]
        if subset_acc["pro"] is not None and subset_acc["anti"] is not None
        else None
    )
    return GenderScores(
        n=n,
        accuracy=_pct(sum(v.correct for v in verdicts), n),
        precision_male=per_gender["male"][0],
        recall_male=per_gender["male"][1],
        f1_male=per_gender["male"][2],
        precision_female=per_gender["female"][0],
        recall_female=per_gender["female"][1],
        f1_female=per_gender["female"][2],
        delta_g=per_gender["male"][2] - per_gender["female"][2],
        accuracy_pro=subset_acc["pro"],
        accuracy_anti=subset_acc["anti"],
        delta_s=delta_s,
        unknown=_pct(sum(v.predicted_gender == "unknown" for v in verdicts), n),
        neutral=_pct(sum(v.predicted_gender == "neutral" for v in verdicts), n),
    )
