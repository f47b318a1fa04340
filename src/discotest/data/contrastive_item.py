"""The one item format every contrastive suite is read into.

A system sees the source sentence with up to k context sentences (and, optionally, the target context) and must
prefer the correct translation of the current sentence over incorrect ones that differ in a discourse-dependent word
(Bawden et al. 2018; Voita et al. 2019; Shimazu et al. 2020).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from discotest.errors import InputError


@dataclass(frozen=True)
class ContrastiveItem:
    """One test item. ``candidates`` keep the order the suite lists them (the order a scores file follows);
    ``correct_index`` says which one is right. ``distance`` is the antecedent distance in sentences (0 = the
    antecedent is in the current sentence; None when the suite does not say)."""

    index: int
    src: str
    candidates: tuple[str, ...]
    correct_index: int
    src_context: tuple[str, ...] = ()  # oldest first
    tgt_context: tuple[str, ...] = ()  # oldest first; empty when the suite gives none
    phenomenon: str = ""
    distance: int | None = None
    pair: str = ""  # e.g. "he>she", "il>elle": correct form > incorrect form
    meta: dict = field(default_factory=dict, compare=False)
    expected: str | None = None  # CTXPRO-style: the word the translation must contain

    @property
    def correct(self) -> str:
        return self.candidates[self.correct_index]

    @property
    def incorrect(self) -> tuple[str, ...]:
        return tuple(c for i, c in enumerate(self.candidates) if i != self.correct_index)


def make_item(index: int, *, src: str, correct: str | None = None, incorrect=(), candidates=None,
              correct_index: int = 0, where: str | None = None, line: int | None = None, **rest) -> ContrastiveItem:
    """Build and check an item; a bad one is an InputError naming ``where`` and ``line``."""
    if candidates is None:
        if correct is None:
            raise InputError("missing field 'correct'", where, line)
        incorrect = [incorrect] if isinstance(incorrect, str) else list(incorrect)
        if not incorrect and rest.get("expected") is None:
            raise InputError("empty list of incorrect candidates", where, line)
        candidates = [correct, *incorrect]
        correct_index = 0
    if not isinstance(src, str):
        raise InputError("field 'source' must be a string", where, line)
    if not candidates or not all(isinstance(c, str) for c in candidates):
        raise InputError("candidates must be a non-empty list of strings", where, line)
    if not 0 <= correct_index < len(candidates):
        raise InputError(f"correct index {correct_index} is outside the {len(candidates)} candidates", where, line)
    return ContrastiveItem(index, src, tuple(candidates), correct_index, **rest)


def candidate_pair(correct: str, incorrect: str) -> str:
    """The first word where two candidates differ, as ``correct>incorrect`` (lower-cased): the pronoun pair.
    Later differences are usually agreement with it (``ils seront pleins`` / ``elles seront pleines``)."""
    strip = ".,!?;:\"'«»"
    a = [w.strip(strip) for w in correct.lower().split()]
    b = [w.strip(strip) for w in incorrect.lower().split()]
    for x, y in zip(a, b):
        if x != y:
            return f"{x}>{y}"
    return f"{' '.join(a[len(b):])}>{' '.join(b[len(a):])}"
