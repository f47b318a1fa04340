"""MT-GenEval's reference-based gender verdict (Currey et al. 2022) and its scores.

The definition (the authors' ``accuracy_metric.py``, re-implemented from its description): lowercase a line, turn
every ASCII punctuation character into a space and take the set of its space-separated words. The words of the
right-gender reference that the other-gender reference lacks are the *right* words, those of the other reference
that the right one lacks the *wrong* words. A translation is

- ``correct`` when it holds a right word and no wrong word;
- ``wrong`` when it holds a wrong word and no right word;
- ``tie`` when it holds both: wrong, as the authors' scorer says (any wrong word makes it incorrect);
- ``undecided`` when it holds neither: the metric has no evidence (the references may not even differ).

``accuracy`` is correct / (correct + wrong + tie): the share of the items the metric decides that it decides right,
so the references as translations score 100 and the other-gender references 0. The authors' scorer instead counts
every item without a wrong word as correct (undecided ones too) and, for the counterfactual subset, a pair as
correct only when both its feminine and its masculine translation are: that figure is ``scorer_accuracy``, for
comparison with published numbers.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from discotest.gender.pipeline import noun_gender

OUTCOMES = ("correct", "wrong", "tie", "undecided")
PUNCTUATION_AS_SPACE = str.maketrans(string.punctuation, " " * len(string.punctuation))


def words(line: str) -> frozenset[str]:
    """The metric's bag of words of a line: lowercased, ASCII punctuation as spaces, split on whitespace."""
    return frozenset(line.lower().translate(PUNCTUATION_AS_SPACE).split())


@dataclass(frozen=True)
class GenEvalVerdict:
    """One translation judged against the right- and the other-gender reference, with the deciding words."""

    index: int
    gender: str
    source: str
    translation: str
    reference: str
    other: str
    right_words: tuple[str, ...]  # right-only words found in the translation
    wrong_words: tuple[str, ...]  # other-only words found in the translation
    right_only: tuple[str, ...]  # every word of the reference the other lacks
    other_only: tuple[str, ...]  # every word of the other reference the reference lacks
    outcome: str
    context: str = ""

    @property
    def decided(self) -> bool:
        return self.outcome != "undecided"

    @property
    def reason(self) -> str | None:
        """Why an item is undecided: the references are the same words, the right one has no word of its own (German
        "sie" is also "they"), or the translation holds no word of either reference's own."""
        if self.decided:
            return None
        if not self.right_only:
            return "references-identical" if not self.other_only else "reference-has-no-own-word"
        return "no-deciding-word"

    @property
    def scorer_correct(self) -> bool:
        """The authors' scorer's verdict: no word of the other reference's own."""
        return not self.wrong_words

    def to_json(self) -> dict:
        context = {"context": self.context} if self.context else {}
        return {"index": self.index, "gender": self.gender, **context, "source": self.source,
                "translation": self.translation, "reference": self.reference, "other_reference": self.other,
                "outcome": self.outcome, **({"reason": self.reason} if self.reason else {}),
                "right_words": list(self.right_words), "wrong_words": list(self.wrong_words),
                "reference_only": list(self.right_only), "other_only": list(self.other_only)}


def judge(index: int, gender: str, source: str, translation: str, reference: str, other: str,
          context: str = "") -> GenEvalVerdict:
    """One item's verdict (module doc); word lists sorted, so the evidence is the same on every run."""
    mine, right, wrong = words(translation), words(reference), words(other)
    right_only, other_only = right - wrong, wrong - right
    found_right, found_wrong = mine & right_only, mine & other_only
    outcome = ("tie" if found_right and found_wrong else "wrong" if found_wrong else
               "correct" if found_right else "undecided")
    return GenEvalVerdict(index, gender, source, translation, reference, other, tuple(sorted(found_right)),
                          tuple(sorted(found_wrong)), tuple(sorted(right_only)), tuple(sorted(other_only)), outcome,
                          context)


@dataclass(frozen=True)
class GenEvalCounts:
    """Outcomes of a group of items and what they give."""

    n: int
    correct: int
    wrong: int
    tie: int
    undecided: int
    scorer_correct: int  # items the authors' scorer calls correct (no wrong word)

    @property
    def decided(self) -> int:
        return self.correct + self.wrong + self.tie

    @property
    def accuracy(self) -> float | None:
        return 100.0 * self.correct / self.decided if self.decided else None

    @property
    def undecided_share(self) -> float | None:
        return 100.0 * self.undecided / self.n if self.n else None

    def to_json(self) -> dict:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {"n": self.n, "decided": self.decided, "correct": self.correct, "wrong": self.wrong, "tie": self.tie,
                "undecided": self.undecided, "accuracy": r(self.accuracy), "undecided_pct": r(self.undecided_share),
                "scorer_accuracy": r(100.0 * self.scorer_correct / self.n if self.n else None)}


def count(verdicts: Sequence[GenEvalVerdict]) -> GenEvalCounts:
    outcomes = [v.outcome for v in verdicts]
    return GenEvalCounts(len(verdicts), outcomes.count("correct"), outcomes.count("wrong"), outcomes.count("tie"),
                         outcomes.count("undecided"), sum(v.scorer_correct for v in verdicts))


@dataclass(frozen=True)
class GenEvalScores:
    """Overall and per-gender counts; ``scorer_accuracy`` is the authors' headline figure (module doc)."""

    overall: GenEvalCounts
    by_gender: dict[str, GenEvalCounts]
    scorer_accuracy: float | None
    scorer_n: int  # items (contextual) or feminine/masculine pairs (counterfactual) it is computed on

    def to_json(self) -> dict:
        return {**self.overall.to_json(), "scorer_accuracy": None if self.scorer_accuracy is None
                else round(self.scorer_accuracy, 4), "scorer_n": self.scorer_n,
                "by_gender": {g: c.to_json() for g, c in self.by_gender.items()}}


def score(verdicts: Sequence[GenEvalVerdict], subset: str, pairs: dict[int, int] | None = None) -> GenEvalScores:
    """The scores of one subset. ``pairs``: counterfactual feminine row → its masculine row; a pair counts for the
    scorer's figure when both rows were translated."""
    genders = [g for g in ("female", "male", "unknown") if any(v.gender == g for v in verdicts)]
    by_gender = {g: count([v for v in verdicts if v.gender == g]) for g in genders}
    if subset == "counterfactual":
        by_index = {v.index: v for v in verdicts}
        both = [(by_index[f], by_index[m]) for f, m in (pairs or {}).items() if f in by_index and m in by_index]
        scorer_n = len(both)
        good = sum(f.scorer_correct and m.scorer_correct for f, m in both)
    else:
        scorer_n = len(verdicts)
        good = sum(v.scorer_correct for v in verdicts)
    return GenEvalScores(count(verdicts), by_gender, 100.0 * good / scorer_n if scorer_n else None, scorer_n)


# -- the reference-free reading beside it (gender.mt_geneval.reference_free) ----------------------------------------

_GENDERS = ("male", "female")


@dataclass(frozen=True)
class FreeReading:
    """What the translation says of the person's gender, read without the references' verdict."""

    gender: str  # male / female / mixed / none
    verdict: str  # correct / wrong / undecided
    reason: str  # why undecided, else the analysers' reasons joined
    anchors: tuple[str, ...] = ()  # English words
    words: tuple[str, ...] = ()  # translation words aligned to them
    evidence: tuple[str, ...] = ()  # the words the analyser read the gender from

    def to_json(self) -> dict:
        return {"gender": self.gender, "verdict": self.verdict, "reason": self.reason, "anchors": list(self.anchors),
                "words": list(self.words), "evidence": list(self.evidence)}


def combine_readings(v: GenEvalVerdict, anchors: tuple[str, ...], found: tuple[str, ...], readings: Sequence[Any],
                     has_own: bool) -> FreeReading:
    """The reference-free verdict from the analysers' readings of the words aligned to each anchor
    (``gender.mt_geneval.reference_free``): the shown genders must agree, and the item must have a gender label."""
    if not has_own:
        return FreeReading("none", "undecided", "reference-has-no-own-word")
    if not anchors:
        return FreeReading("none", "undecided", "no-anchor-aligned", anchors, found)
    if not readings:
        return FreeReading("none", "undecided", "anchor-not-aligned-in-translation", anchors, found)
    shown = {noun_gender(r) for r in readings} & set(_GENDERS)  # the one noun-level definition: generic is neutral
    evidence = tuple(w for r in readings for w in r.evidence)
    reasons = "; ".join(dict.fromkeys(r.reason for r in readings if r.reason))
    if not shown:
        return FreeReading("none", "undecided", f"unreadable: {reasons}", anchors, found, evidence)
    if len(shown) > 1:
        return FreeReading("mixed", "undecided", f"mixed: {reasons}", anchors, found, evidence)
    gender = shown.pop()
    if v.gender not in _GENDERS:
        return FreeReading(gender, "undecided", "no-gender-label", anchors, found, evidence)
    return FreeReading(gender, "correct" if gender == v.gender else "wrong", reasons, anchors, found, evidence)


@dataclass(frozen=True)
class Agreement:
    """The reference-based verdict against the reference-free one, on the items both decide."""

    n: int  # all items
    free_decided: int
    both: int
    agree: int
    confusion: dict[str, int]  # "reference-based/reference-free" -> count, over the items both decide

    @property
    def agreement(self) -> float | None:
        return 100.0 * self.agree / self.both if self.both else None

    def to_json(self) -> dict:
        return {"n": self.n, "free_decided": self.free_decided, "both_decided": self.both, "agree": self.agree,
                "agreement": None if self.agreement is None else round(self.agreement, 4),
                "confusion": dict(sorted(self.confusion.items()))}


def based(v: GenEvalVerdict) -> str:
    """The reference-based verdict as correct / wrong (a tie is wrong) / undecided."""
    return "undecided" if not v.decided else "correct" if v.outcome == "correct" else "wrong"


def agreement(verdicts: Sequence[GenEvalVerdict], free: Sequence[FreeReading]) -> Agreement:
    both = [(based(v), f.verdict) for v, f in zip(verdicts, free) if v.decided and f.verdict != "undecided"]
    confusion: dict[str, int] = {}
    for a, b in both:
        confusion[f"{a}/{b}"] = confusion.get(f"{a}/{b}", 0) + 1
    return Agreement(len(verdicts), sum(f.verdict != "undecided" for f in free), len(both),
                     sum(a == b for a, b in both), confusion)
