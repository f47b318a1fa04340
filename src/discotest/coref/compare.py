"""Resolvers and MT systems side by side (Yehudai et al. 2023, Table 2): how often is the pronoun
resolved to the right entity?

An MT system resolves through its translation: the pronoun's target gender matches the entity's and
not the distractor's (entity), or the distractor's and not the entity's (distractor). When entity and
distractor share a gender, or a gender cannot be read, the translation does not decide ("none").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from discotest.phenomena.gender import GenderVerdict

_GENDERS = ("male", "female", "neutral")


def mt_resolution(v: GenderVerdict) -> str:
    if v.omitted or v.pronoun_gender not in _GENDERS or v.distractor_gender not in _GENDERS:
        return "none"
    if v.predicted_gender == v.distractor_gender:
        return "none"  # both candidates agree with the pronoun, or neither does: undecided
    if v.pronoun_gender == v.predicted_gender:
        return "entity"
    return "distractor" if v.pronoun_gender == v.distractor_gender else "none"


@dataclass(frozen=True)
class CorefScores:
    name: str
    n: int
    decided: float  # share of items the resolver decided
    accuracy: float  # resolved to the gold entity, over all items
    accuracy_decided: float  # over the decided items

    def to_json(self) -> dict:
        return {k: round(v, 2) if isinstance(v, float) else v for k, v in self.__dict__.items()}


def score_resolutions(name: str, resolutions: Sequence[str]) -> CorefScores:
    n = len(resolutions)
    decided = [r for r in resolutions if r != "none"]
    right = sum(r == "entity" for r in resolutions)
    return CorefScores(
        name, n, 100 * len(decided) / n if n else 0.0, 100 * right / n if n else 0.0,
        100 * right / len(decided) if decided else 0.0,
    )


def render_coref_table(scores: Sequence[CorefScores]) -> str:
    width = max(len("resolver / system"), *(len(s.name) for s in scores))
    lines = [f"{'resolver / system':<{width}}  {'n':>5}  {'decided%':>8}  {'Acc%':>6}  {'Acc% of decided':>15}",
             "-" * (width + 42)]
    for s in scores:
        lines.append(f"{s.name:<{width}}  {s.n:>5}  {s.decided:>8.1f}  {s.accuracy:>6.1f}  {s.accuracy_decided:>15.1f}")
    lines.append("Acc% = pronoun resolved to the gold entity; an MT system decides only where its translation gives "
                 "entity and distractor different genders and the pronoun agrees with one of them")
    return "\n".join(lines)
