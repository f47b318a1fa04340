"""farahidi with its pattern scan indexed: the same analyses, about half the CPU per word.

farahidi (0.4.0) finds a stem's derivation patterns by testing every unvoweled pattern of the stem's length in turn
(``Analyzer._possible_solutions``: up to 1,079 patterns, each by ``normalize.is_diac_pattern`` and a hamza regex), which
is most of the 2.5 ms a word costs. ``IndexedLexicon.unvoweled_stems`` hands that loop only the patterns whose fixed
letters fit the stem (bitsets per position and letter, built once per category and length), in farahidi's own order;
farahidi still runs its own test on each, so the index may only let through too much, never too little, and every
analysis is the one farahidi gives alone (``tests/lang/test_ar_farahidi.py`` checks every word form of the published
outputs). Used only with the farahidi version the index was checked on (``INDEXED_VERSIONS``); another version runs
plain.

Its tables load lazily (``_LazyMap``, ``_LazyList``): farahidi parses every record of every table a word touches (0.54
CPU-s before a cold run's first reading, more than the analyses of its 97 words), though a run of one system's output
reads a few hundred of their 100,000 records (68 of the 34,008 proper-noun forms, a few of each letter's hundreds of
roots). A table is decompressed and split into lines at once (0.13 CPU-s for the 31 tables a cold run reads), and a
value or record is parsed on its first use, from its own JSON text, so every value is the one farahidi's loader gives
(``tests/lang/test_ar_farahidi.py`` compares every record of every table); the unvoweled patterns, scanned whole by the
index, load as farahidi loads them.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

import farahidi
from farahidi import lexicon as farahidi_lexicon
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


# the start of a line of a ``*.map`` table: {"key":"…" or a number,"value":…}
_MAP_KEY = re.compile(rb'\{"key":("[^"\\]*"|-?[0-9]+),"value":')
# the tables read whole: the unvoweled patterns (every one of a length is scanned, ``_PatternIndex``)
_WHOLE = frozenset({"DATA.Derived.Nouns.Patterns.Stems.Unvoweled.map",
                    "DATA.Derived.Verbs.Patterns.Stems.Unvoweled.map"})


def _lines(filename: str) -> list[bytes]:
    """The non-blank lines of a bundled table, decompressed and split at once (farahidi's ``load_map``/``load_list``
    decode and parse them one by one)."""
    path = farahidi_lexicon._data_dir() / (filename + ".jsonl.gz")
    return [line for line in gzip.decompress(path.read_bytes()).split(b"\n") if line and not line.isspace()]


class _LazyList(Sequence):
    """A list of JSON records, each parsed on first use and kept (the same object each time, as in farahidi's list:
    its analyser tells formulas apart by identity). ``pieces[i]``: record i's text less ``head`` and ``tail``."""

    def __init__(self, pieces: list[bytes], head: bytes = b"", tail: bytes = b"") -> None:
        self._pieces, self._head, self._tail = pieces, head, tail
        self._records: list[Any] = [None] * len(pieces)
        self._parsed = bytearray(len(pieces))

    def __len__(self) -> int:
        return len(self._pieces)

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._pieces)
        if not 0 <= index < len(self._pieces):
            raise IndexError(index)
        if not self._parsed[index]:
            self._records[index] = json.loads(self._head + self._pieces[index] + self._tail)
            self._parsed[index] = 1
        return self._records[index]


_MISSING = object()


class _LazyMap(Mapping):
    """A ``*.map`` table: its keys read off each line's start, a value parsed on its first use and kept; with
    ``records``, a value that is a list of records is a ``_LazyList``."""

    def __init__(self, lines: list[bytes]) -> None:
        self._lines: dict[Any, tuple[bytes, int]] = {}
        self._values: dict[Any, Any] = {}
        for line in lines:
            found = _MAP_KEY.match(line)
            if found is None or not line.endswith(b"}"):
                raise ValueError(f"not a map line: {line[:80]!r}")
            key = found[1]
            self._lines[key[1:-1].decode() if key.startswith(b'"') else int(key)] = line, found.end()

    def _value(self, key: Any) -> Any:
        line, start = self._lines[key]
        text = line[start:-1]
        if text.startswith(b"[{") and text.endswith(b"}]"):
            value: Any = _LazyList(text[2:-2].split(b"},{"), b"{", b"}")
        else:
            value = json.loads(text)
        self._values[key] = value
        return value

    def __getitem__(self, key: Any) -> Any:
        value = self._values.get(key, _MISSING)
        return self._value(key) if value is _MISSING else value

    def get(self, key: Any, default: Any = None) -> Any:
        value = self._values.get(key, _MISSING)
        if value is _MISSING:
            return self._value(key) if key in self._lines else default
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._lines

    def __iter__(self) -> Iterator[Any]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)


_tables: dict[str, Any] = {}  # filename -> its lazy table (shared by every analyser, as farahidi shares its tables)


def _lazy(filename: str, whole: Callable[[], Any]) -> Any:
    """The lazy table of ``filename`` (one of ``_LAZY``), made on first use; ``whole()`` (farahidi's own loader) where
    its lines are not laid out as expected (then nothing is lazy, nothing differs)."""
    table = _tables.get(filename)
    if table is None:
        lines = _lines(filename)
        try:
            table = _LazyMap(lines) if filename.endswith(".map") else _LazyList(lines)
        except ValueError:
            table = whole()
        _tables[filename] = table
    return table


class IndexedLexicon(Lexicon):
    """farahidi's lexicon; its pattern list for the stem under analysis (``stem``) holds only the patterns that fit;
    its tables lazy (module docstring)."""

    _indexes: dict[tuple[str, int], _PatternIndex] = {}  # shared, as farahidi shares its tables

    def __init__(self) -> None:
        super().__init__()
        self.stem: str | None = None

    # farahidi's table accessors, lazy for the tables of ``_LAZY``
    def map(self, logical: str) -> Any:
        name = farahidi_lexicon.TABLES[logical]
        if name not in _WHOLE:
            return _lazy(name, lambda: super(IndexedLexicon, self).map(logical))
        return super().map(logical)

    def list(self, logical: str) -> Any:
        name = farahidi_lexicon.TABLES[logical]
        if name not in _WHOLE:
            return _lazy(name, lambda: super(IndexedLexicon, self).list(logical))
        return super().list(logical)

    def derived_map(self, cat: str, logical: str) -> Any:
        name = farahidi_lexicon.DERIVED_TABLES[logical].format(cat=cat)
        if name not in _WHOLE:
            return _lazy(name, lambda: super(IndexedLexicon, self).derived_map(cat, logical))
        return super().derived_map(cat, logical)

    def derived_list(self, cat: str, logical: str) -> Any:
        name = farahidi_lexicon.DERIVED_TABLES[logical].format(cat=cat)
        if name not in _WHOLE:
            return _lazy(name, lambda: super(IndexedLexicon, self).derived_list(cat, logical))
        return super().derived_list(cat, logical)

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
