"""Contrastive verdicts and their metrics: accuracy overall, by antecedent distance, phenomenon and pronoun pair,
each with a bootstrap confidence interval (two systems are compared by ``report.comparison``).

An item is right when the correct candidate scores strictly higher than every incorrect one. A tie for the top score
is wrong and chooses nothing (``chosen`` is null and ``tied`` lists the candidates; the HTML marks them "tied"):
Bawden's files list the correct candidate first, so ``argmax``'s first-wins rule would reward a model that cannot
tell them apart. CTXPRO-style items are right when the translation contains the expected word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from discotest.data.contrastive_item import ContrastiveItem
from discotest.data.readers import is_whole_number
from discotest.stats import DEFAULT_SEED, accuracy_from_sums, paired_bootstrap


@dataclass(frozen=True)
class ContrastiveVerdict:
    """One item's evidence: the candidate scores (or the translation checked), the choice and whether it is right."""

    index: int
    correct: bool
    phenomenon: str
    distance: int | None
    pair: str
    scores: tuple[float, ...] = ()
    chosen: int | None = None  # the candidate scored highest; None when several tie for the top score
    translation: str | None = None
    expected: str | None = None
    meta: dict = field(default_factory=dict, compare=False)

    @property
    def tied(self) -> list[int]:
        """The candidates sharing the top score (more than one: a tie)."""
        top = max(self.scores) if self.scores else None
        return [i for i, s in enumerate(self.scores) if s == top]

    def to_json(self) -> dict:
        out = {"row": self.index, "correct": self.correct, "phenomenon": self.phenomenon,
               "distance": self.distance, "pair": self.pair}
        if self.scores:
            out.update(scores=list(self.scores), chosen=self.chosen)
            if self.chosen is None:  # a tie for the top score: no candidate was chosen, and it counts as wrong
                out["tied"] = self.tied
        if self.expected is not None:
            out.update(expected=self.expected, translation=self.translation)
        return {**out, **({"meta": self.meta} if self.meta else {})}


def judge_scores(item: ContrastiveItem, scores: Sequence[float]) -> ContrastiveVerdict:
    """Verdict from one score per candidate (higher = better)."""
    scores = tuple(float(s) for s in scores)
    right = scores[item.correct_index]
    others = [s for i, s in enumerate(scores) if i != item.correct_index]
    top = max(scores)
    chosen = scores.index(top) if scores.count(top) == 1 else None  # a tie chooses nothing (and is wrong)
    return ContrastiveVerdict(item.index, all(right > s for s in others), item.phenomenon, item.distance, item.pair,
                              scores, chosen, meta=item.meta)


def judge_translation(item: ContrastiveItem, translation: str, lang: str = "de") -> ContrastiveVerdict:
    """CTXPRO verdict: does the translation's last sentence (in ``lang``) contain the expected word?"""
    from discotest.contrastive.ctxpro import contains_expected

    return ContrastiveVerdict(item.index, contains_expected(translation, item.expected or "", lang), item.phenomenon,
                              item.distance, item.pair, translation=translation, expected=item.expected,
                              meta=item.meta)


@dataclass(frozen=True)
class Accuracy:
    """Percent correct of ``n`` items with the half-width of its 95% bootstrap interval."""

    accuracy: float
    ci: float
    n: int

    def to_json(self) -> dict:
        return {"accuracy": round(self.accuracy, 2), "ci95": round(self.ci, 2), "n": self.n}


def accuracy(correct: Sequence[bool], n_bootstrap: int = 1000, seed: int | None = DEFAULT_SEED) -> Accuracy:
    if not len(correct):
        return Accuracy(0.0, 0.0, 0)
    rows = np.array([[float(c), 1.0] for c in correct])
    boot = paired_bootstrap(rows, rows, accuracy_from_sums, n_samples=n_bootstrap, seed=seed)
    return Accuracy(boot.score_a, boot.ci_a, len(correct))


@dataclass
class ContrastiveScores:
    overall: Accuracy
    by_distance: dict[str, Accuracy]
    by_phenomenon: dict[str, Accuracy]
    by_pair: dict[str, Accuracy]

    def to_json(self) -> dict:
        def part(groups):
            return {k: v.to_json() for k, v in groups.items()}

        return {"overall": self.overall.to_json(), "by_distance": part(self.by_distance),
                "by_phenomenon": part(self.by_phenomenon), "by_pair": part(self.by_pair)}


def _grouped(verdicts: Sequence[ContrastiveVerdict], key: Callable[[ContrastiveVerdict], str],
             n_bootstrap: int) -> dict[str, Accuracy]:
    groups: dict[str, list[bool]] = {}
    for v in verdicts:
        groups.setdefault(key(v), []).append(v.correct)
    return {k: accuracy(groups[k], n_bootstrap) for k in sorted(groups, key=_natural)}


def _natural(key: str):
    return (0, int(key), "") if is_whole_number(key) and key.strip() == key else (1, 0, key)


def distance_key(v: ContrastiveVerdict) -> str:
    """The distance an item is reported under: items marked ``context_needed: false`` (their incorrect candidate is
    wrong on its own) apart, so that they do not inflate the figure of the distance whose context they do not use."""
    return str(v.distance) + (" no context needed" if v.meta.get("context_needed") is False else "")


def score_contrastive(verdicts: Sequence[ContrastiveVerdict], n_bootstrap: int = 1000) -> ContrastiveScores:
    """All the metrics of one system on one suite. Items without a distance are left out of ``by_distance``."""
    with_d = [v for v in verdicts if v.distance is not None]
    return ContrastiveScores(
        overall=accuracy([v.correct for v in verdicts], n_bootstrap),
        by_distance=_grouped(with_d, distance_key, n_bootstrap),
        by_phenomenon=_grouped(verdicts, lambda v: v.phenomenon or "-", n_bootstrap),
        by_pair=_grouped(verdicts, lambda v: v.pair or "-", n_bootstrap),
    )
