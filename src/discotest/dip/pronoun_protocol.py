"""Out-of-sample figures for the offline pronoun scorer, and its agreement with the eval-anaphora user study.

The offline scorer has two constants chosen by looking at eval-anaphora: the agreement ``weight`` and the prior
strength ``beta`` (the class priors come from the WMT training text, the word lists are hand-made; neither is
fitted here). A figure measured on the pairs the constants were picked on is optimistic, so ``cross_validate``
picks them on some languages and counts wins on the others: leave one language out (each pair is held out once,
the pooled figure covers all 2000) and two-against-two (every split). Tuning is a grid search, ties broken by grid
order, so the same data gives the same constants and figures.

``human_agreement`` compares the scorer with the user study of Jwalapuram et al. (2019) (``pronoun_pair_list.json``):
the study gives vote counts per reference/system pronoun pair, not per sentence, so the scorer's preference for a
pronoun pair is its majority decision over the eval-anaphora pairs with that substitution.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from discotest.dip.eval_anaphora import VOTES, AnaphoraPair, pronoun_substitution
from discotest.dip.ngram_lm import normalise
from discotest.dip.pronoun_scorer import OfflinePronounScorer, agreement_bonus

WEIGHTS = tuple(i / 4 for i in range(17))  # 0, 0.25, …, 4
BETAS = (0.5, 1.0, 2.0, 4.0, 8.0)
GRID = tuple(itertools.product(WEIGHTS, BETAS))

Terms = tuple[tuple[int, int, float], ...]


@dataclass(frozen=True)
class PairFeatures:
    """What the offline scorer's decision on one pair depends on, besides its two constants."""

    language: str
    substitution: str | None
    ref_lm: float
    ref_terms: Terms
    sys_lm: float
    sys_terms: Terms

    def prefers_reference(self, weight: float, beta: float) -> bool:
        """score(ref) > score(sys), computed exactly as ``OfflinePronounScorer.score`` does."""
        ref = self.ref_lm + weight * agreement_bonus(self.ref_terms, beta)
        sys_ = self.sys_lm + weight * agreement_bonus(self.sys_terms, beta)
        return ref > sys_


def pair_features(scorer: OfflinePronounScorer, pairs: Sequence[AnaphoraPair]) -> list[PairFeatures]:
    out = []
    for p in pairs:
        ref, sys_ = normalise(p.reference), normalise(p.system)
        out.append(PairFeatures(p.language, pronoun_substitution(p),
                                scorer.lm_logprob(ref), tuple(scorer.agreement_terms(p.context, ref)),
                                scorer.lm_logprob(sys_), tuple(scorer.agreement_terms(p.context, sys_))))
    return out


def wins(features: Sequence[PairFeatures], weight: float, beta: float) -> int:
    return sum(f.prefers_reference(weight, beta) for f in features)


def tune(features: Sequence[PairFeatures], grid: Sequence[tuple[float, float]] = GRID) -> tuple[float, float]:
    """The (weight, beta) of ``grid`` with the most wins; the first in grid order among equals."""
    best, best_wins = grid[0], -1
    for weight, beta in grid:
        won = wins(features, weight, beta)
        if won > best_wins:
            best, best_wins = (weight, beta), won
    return best


@dataclass(frozen=True)
class Fold:
    tuned_on: tuple[str, ...]
    tested_on: tuple[str, ...]
    weight: float
    beta: float
    tune_wins: int
    tune_n: int
    test_wins: int
    test_n: int


def folds(languages: Sequence[str], scheme: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(tune languages, test languages): ``loo`` = leave one out; ``half`` = every half against the other half."""
    languages = tuple(languages)
    if scheme == "loo":
        return [(tuple(x for x in languages if x != held), (held,)) for held in languages]
    if scheme == "half":
        out = []
        for tuned in itertools.combinations(languages, len(languages) // 2):
            out.append((tuned, tuple(x for x in languages if x not in tuned)))
        return out
    raise ValueError(f"unknown scheme {scheme!r}")


def cross_validate(features: Mapping[str, Sequence[PairFeatures]], scheme: str,
                   grid: Sequence[tuple[float, float]] = GRID) -> list[Fold]:
    out = []
    for tuned_on, tested_on in folds(sorted(features), scheme):
        train = [f for lang in tuned_on for f in features[lang]]
        test = [f for lang in tested_on for f in features[lang]]
        weight, beta = tune(train, grid)
        out.append(Fold(tuned_on, tested_on, weight, beta, wins(train, weight, beta), len(train),
                        wins(test, weight, beta), len(test)))
    return out


def held_out_decisions(features: Mapping[str, Sequence[PairFeatures]], grid: Sequence[tuple[float, float]] = GRID
                       ) -> dict[str, list[bool]]:
    """Per language, the decision on each pair by the constants tuned on the other languages (leave one out)."""
    out = {}
    for fold in cross_validate(features, "loo", grid):
        (lang,) = fold.tested_on
        out[lang] = [f.prefers_reference(fold.weight, fold.beta) for f in features[lang]]
    return out


# ---------------------------------------------------------------------------------------------------------------
# the user study


@dataclass(frozen=True)
class PairAgreement:
    """One reference/system pronoun pair: the scorer's decisions on its eval-anaphora pairs against the votes."""

    key: str
    scored: int  # eval-anaphora pairs with this substitution
    prefer_ref: int  # of which the scorer prefers the reference
    votes: dict[str, int]  # summed over the study's entries
    majority_votes: int  # votes of the entries whose majority label is the scorer's label
    agreeing_votes: float  # Σ over votes of P(a scorer decision drawn from its pairs equals the vote)

    @property
    def label(self) -> str:
        """The scorer's preference: REF or SYS by majority of its decisions, Tie when they split evenly."""
        if 2 * self.prefer_ref > self.scored:
            return "REF"
        return "SYS" if 2 * self.prefer_ref < self.scored else "Tie"


def human_agreement(study: Mapping[str, Sequence[Mapping[str, int]]], keys: Sequence[str | None],
                    decisions: Sequence[bool]) -> tuple[list[PairAgreement], list[str]]:
    """(per pronoun pair of the study that the data covers, the study's pairs it does not cover).

    ``keys``/``decisions``: the substitution of each eval-anaphora pair and whether the scorer prefers its reference.
    Majority agreement of an entry: all its votes count when the scorer's label is one of its most voted labels
    (a REF/Tie draw agrees with either), none otherwise. Vote agreement: a REF vote agrees with the share of pairs
    the scorer decides for the reference, a SYS vote with the rest, a Tie vote never (the scorer never ties here).
    """
    decided: dict[str, list[bool]] = {}
    for key, decision in zip(keys, decisions, strict=True):
        if key is not None:
            decided.setdefault(key, []).append(decision)
    rows, missing = [], []
    for key in sorted(study):
        if key not in decided:
            missing.append(key)
            continue
        n, ref = len(decided[key]), sum(decided[key])
        label = "REF" if 2 * ref > n else "SYS" if 2 * ref < n else "Tie"
        votes = {v: sum(e.get(v, 0) for e in study[key]) for v in VOTES}
        majority = sum(sum(e.values()) for e in study[key] if e.get(label, 0) == max(e.values()) and any(e.values()))
        agreeing = (votes["REF"] * ref + votes["SYS"] * (n - ref)) / n
        rows.append(PairAgreement(key, n, ref, votes, majority, agreeing))
    return rows, missing


def overall(rows: Sequence[PairAgreement]) -> tuple[float, float, int]:
    """(majority agreement, vote agreement, votes), each weighted by the number of votes."""
    total = sum(sum(r.votes.values()) for r in rows)
    if not total:
        return 0.0, 0.0, 0
    return sum(r.majority_votes for r in rows) / total, sum(r.agreeing_votes for r in rows) / total, total
