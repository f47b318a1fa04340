"""farahidi with its pattern scan indexed: the same analyses, about half the CPU per word.

farahidi (0.4.0) finds a stem's derivation patterns by testing every unvoweled pattern of the stem's length in turn
(``Analyzer._possible_solutions``: up to 1,079 patterns, each by ``normalize.is_diac_pattern`` and a hamza regex), which
is most of the 2.5 ms a word costs. ``IndexedLexicon.unvoweled_stems`` hands that loop only the patterns whose fixed
letters fit the stem (bitsets per position and letter, built once per category and length), in farahidi's own order;
farahidi still runs its own test on each, so the index may only let through too much, never too little, and every
analysis is the one farahidi gives alone (``tests/lang/test_ar_farahidi.py`` checks every word form of the published
outputs). Used only with the farahidi version the index was checked on (``INDEXED_VERSIONS``); another version runs
plain.
"""

from __future__ import annotations

from typing import Any

import farahidi
from farahidi import normalize
from farahidi.lexicon import Lexicon

INDEXED_VERSIONS = frozenset({"0.4.0"})
_ROOT_SLOTS = frozenset("فعل")  # a pattern letter that stands for any root radical


def _normalised(text: str) -> str:
    """The spelling farahidi compares a stem and a pattern in (hamza carriers bare, but the first letter)."""
    return text[:1] + normalize.normalize_hamza(text[1:])


class _PatternIndex:
    """The unvoweled patterns of one category and length, indexed by the letter each position requires."""

    def __init__(self, patterns: list[dict]) -> None:
        self.patterns = patterns
        width = max((len(p["val"]) for p in patterns), default=0)
        everything = (1 << len(patterns)) - 1
        self.free = [everything] * width  # per position: the patterns that take any letter there
        self.fixed: list[dict[str, int]] = [{} for _ in range(width)]  # per position and letter: patterns that need it
        for k, pattern in enumerate(patterns):
            bit = 1 << k
            for i, letter in enumerate(_normalised(pattern["val"])):
                if letter not in _ROOT_SLOTS:
                    self.free[i] &= ~bit
                    self.fixed[i][letter] = self.fixed[i].get(letter, 0) | bit

    def fitting(self, stem: str) -> list[dict]:
        """The patterns ``normalize.is_diac_pattern`` can accept for ``stem`` (normalised), in their order."""
        bits = (1 << len(self.patterns)) - 1
        for i, letter in enumerate(stem[: len(self.free)]):
            bits &= self.free[i] | self.fixed[i].get(letter, 0)
            if not bits:
                return []
        out = []
        while bits:
            low = bits & -bits
            out.append(self.patterns[low.bit_length() - 1])
            bits ^= low
        return out


class IndexedLexicon(Lexicon):
    """farahidi's lexicon; its pattern list for the stem under analysis (``stem``) holds only the patterns that fit."""

    _indexes: dict[tuple[str, int], _PatternIndex] = {}  # shared, as farahidi shares its tables

    def __init__(self) -> None:
        super().__init__()
        self.stem: str | None = None

    def unvoweled_stems(self, cat: str, length: int) -> list[dict]:
        patterns = super().unvoweled_stems(cat, length)
        if self.stem is None or not patterns:
            return patterns
        index = self._indexes.get((cat, length))
        if index is None or index.patterns is not patterns:
            index = self._indexes[(cat, length)] = _PatternIndex(patterns)
        return index.fitting(_normalised(self.stem))


class IndexedAnalyzer(farahidi.Analyzer):
    """``farahidi.Analyzer`` whose pattern scan sees only the patterns that fit the stem (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.lex: IndexedLexicon = IndexedLexicon()

    def _possible_solutions(self, seg: Any, cat: str, cache: dict) -> dict:
        self.lex.stem = seg.stem
        try:
            return super()._possible_solutions(seg, cat, cache)
        finally:
            self.lex.stem = None


def analyzer(version: str) -> farahidi.Analyzer:
    """The indexed analyser for a checked farahidi ``version``, else farahidi's own."""
    return IndexedAnalyzer() if version in INDEXED_VERSIONS else farahidi.Analyzer()
