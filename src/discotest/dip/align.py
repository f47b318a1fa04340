"""Monolingual token alignment of a system sentence to the reference sentence (both English).

difflib's SequenceMatcher on lowercased words: equal runs align one to one; inside a replaced run the
reference word maps to the system word at the same relative position, so "he saw her" / "he saw him"
aligns "her" to "him". A deleted run maps to nothing (an omission).
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher


def align(ref_words: Sequence[str], sys_words: Sequence[str]) -> list[int | None]:
    """For each reference word, the index of the aligned system word, or None where the system has nothing."""
    a = [w.lower() for w in ref_words]
    b = [w.lower() for w in sys_words]
    out: list[int | None] = [None] * len(a)
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            for k in range(i2 - i1):
                out[i1 + k] = j1 + k
        elif op == "replace":
            for k in range(i2 - i1):
                out[i1 + k] = j1 + min(j2 - j1 - 1, k * (j2 - j1) // (i2 - i1))
    return out


def replaced_span(ref_words: Sequence[str], sys_words: Sequence[str], i: int) -> tuple[str, range]:
    """The opcode covering reference word i and the system words it corresponds to ("equal", "replace",
    "delete"), for classifying a miss as an omission or another word."""
    a = [w.lower() for w in ref_words]
    b = [w.lower() for w in sys_words]
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if i1 <= i < i2:
            return op, range(j1, j2)
    return "delete", range(0)
