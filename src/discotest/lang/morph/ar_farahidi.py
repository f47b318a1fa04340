"""farahidi with its pattern scan indexed: the same analyses, about half the CPU per word.

farahidi (0.4.0) finds a stem's derivation patterns by testing every unvoweled pattern of the stem's length in turn
(``Analyzer._possible_solutions``: up to 1,079 patterns, each by ``normalize.is_diac_pattern`` and a hamza regex), which
is most of the 2.5 ms a word costs. ``IndexedLexicon.unvoweled_stems`` hands that loop only the patterns whose fixed
letters fit the stem (bitsets per position and letter, built once per category and length), in farahidi's own order;
farahidi still runs its own test on each, so the index may only let through too much, never too little, and every
analysis is the one farahidi gives alone (``tests/lang/test_ar_farahidi.py`` checks every word form of the published
outputs). Used only with the farahidi version the index was checked on (``INDEXED_VERSIONS``); another version runs
plain.

Its tables load lighter (``_table``): farahidi parses every record of every table a word touches (0.54 CPU-s before a
cold run's first reading, more than the analyses of its 97 words), though a run of one system's output reads a few
hundred of their 100,000 records (68 of the 34,008 proper-noun forms, a few of each letter's hundreds of roots). A large
table is decompressed and split into lines at once, and a value or record parsed on its first use from its own JSON
text (``_LazyMap``, ``_LazyList``); a map of numbers and plain strings (a root's id) is read by one regular expression;
the formulas a root may take are kept or passed over by a column of their pattern ids, read off the text, so only the
kept ones are parsed (``IndexedAnalyzer._get_info_result``); a table is found by one dict look-up, not its file name
formatted on every call. Every value is the one farahidi's loader gives (``tests/lang/test_ar_farahidi.py`` compares
every record of every table). The tables' load before a cold run's first reading: 0.54 -> 0.18 CPU-s; making the word
table of three outputs (8,522 forms), which reads most of every table: 12.6 -> 11.5 CPU-s.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator, Mapping, Sequence
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
# the tables read whole: the unvoweled patterns (every one of a length is scanned, ``_PatternIndex``) and every small
# table (under 32 KiB compressed: parsed whole at once, then read at a C dict's or list's speed)
_WHOLE = frozenset({"DATA.Derived.Nouns.Patterns.Stems.Unvoweled.map",
                    "DATA.Derived.Verbs.Patterns.Stems.Unvoweled.map"})
_SMALL = 32 * 1024


# a line of a map whose key and value are both a number or a plain string (a root's id, a stem's proper-noun ids)
_FLAT_LINE = re.compile(rb'^\{"key":("[^"\\\n]*"|-?[0-9]+),"value":("[^"\\\n]*"|-?[0-9]+)\}[ \t\r]*$', re.M)


def _lines(filename: str) -> list[bytes]:
    """The non-blank lines of a bundled table, decompressed and split at once (farahidi's ``load_map``/``load_list``
    decode and parse them one by one)."""
    path = farahidi_lexicon._data_dir() / (filename + ".jsonl.gz")
    return [line for line in gzip.decompress(path.read_bytes()).split(b"\n") if line and not line.isspace()]


def _scalar(token: bytes) -> str | int:
    """A JSON number or string without escapes, as ``json.loads`` reads it."""
    return token[1:-1].decode() if token.startswith(b'"') else int(token)


def _flat_map(lines: list[bytes]) -> dict | None:
    """A map whose every line has a number or plain string as key and value, read by one regular expression over
    its text (a third of ``json.loads``'s time a line), as a plain dict; None for any other map."""
    if not lines or not _FLAT_LINE.match(lines[0]):
        return None
    pairs = _FLAT_LINE.findall(b"\n".join(lines))
    if len(pairs) != len(lines):
        return None
    return {_scalar(key): _scalar(value) for key, value in pairs}


class _LazyList(Sequence):
    """A list of JSON records, each parsed on first use and kept (the same object each time, as in farahidi's list:
    its analyser tells formulas apart by identity). ``pieces[i]``: record i's text less ``head`` and ``tail``."""

    def __init__(self, pieces: list[bytes], head: bytes = b"", tail: bytes = b"", source: bytes = b"") -> None:
        self._pieces, self._head, self._tail, self._source = pieces, head, tail, source
        self._records: list[Any] = [None] * len(pieces)
        self._parsed = bytearray(len(pieces))
        self._columns: dict[str, list[str] | None] = {}

    def column(self, name: str) -> list[str] | None:
        """Every record's field ``name`` (a string of digits), in order, read off the list's JSON text (``source``) at
        once, without parsing the records; None where a record lacks it or holds something else."""
        if name not in self._columns:
            values = re.findall(b'"' + re.escape(name.encode()) + rb'":"([0-9]*)"[,}]', self._source)
            self._columns[name] = [v.decode() for v in values] if len(values) == len(self._pieces) else None
        return self._columns[name]

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
            value: Any = _LazyList(text[2:-2].split(b"},{"), b"{", b"}", text)
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


_tables: dict[str, Any] = {}  # filename -> its table (shared by every analyser, as farahidi shares its tables)


def _table(filename: str) -> Any:
    """The table ``filename``: lazy (``_LazyMap``, ``_LazyList``) where it is large, else (or where its lines are not
    laid out as expected: then nothing is lazy, nothing differs) farahidi's own, loaded whole."""
    table = _tables.get(filename)
    if table is None:
        path = farahidi_lexicon._data_dir() / (filename + ".jsonl.gz")
        large = path.stat().st_size >= _SMALL
        if filename not in _WHOLE and (large or filename.endswith(".map")):
            lines = _lines(filename)
            table = _flat_map(lines) if filename.endswith(".map") else None
            if table is None and large:
                try:
                    table = _LazyMap(lines) if filename.endswith(".map") else _LazyList(lines)
                except ValueError:
                    table = None
        if table is None:
            table = farahidi_lexicon.load_map(filename) if filename.endswith(".map") else \
                farahidi_lexicon.load_list(filename)
        _tables[filename] = table
    return table


class IndexedLexicon(Lexicon):
    """farahidi's lexicon; its pattern list for the stem under analysis (``stem``) holds only the patterns that fit;
    its tables lazy (module docstring)."""

    _indexes: dict[tuple[str, int], _PatternIndex] = {}  # shared, as farahidi shares its tables

    def __init__(self) -> None:
        super().__init__()
        self.stem: str | None = None
        self._found: dict[Any, Any] = {}  # (category,) logical name -> its table

    # farahidi's table accessors (the same tables, large ones lazy: ``_table``), each table found by one dict look-up
    # (farahidi formats its file name on every call: 150,000 calls a thousand words)
    def map(self, logical: str) -> Any:
        return self.list(logical)

    def list(self, logical: str) -> Any:
        table = self._found.get(logical)
        if table is None:
            table = self._found[logical] = _table(farahidi_lexicon.TABLES[logical])
        return table

    def derived_map(self, cat: str, logical: str) -> Any:
        return self.derived_list(cat, logical)

    def derived_list(self, cat: str, logical: str) -> Any:
        table = self._found.get((cat, logical))
        if table is None:
            table = self._found[(cat, logical)] = _table(farahidi_lexicon.DERIVED_TABLES[logical].format(cat=cat))
        return table

    def feature(self, cat: str, feature: str, index: int) -> dict | None:
        table = self._found.get((cat, "feature", feature))
        if table is None:
            name = farahidi_lexicon.FEATURE_TABLES[feature].format(cat=cat)
            table = self._found[(cat, "feature", feature)] = _table(name)
        return table[index - 1] if 0 < index <= len(table) else None

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

    def _get_info_result(self, id_root: str, id_pattern_stem: str, length: int, cat: str) -> list[dict]:
        """farahidi's own loop over a root's formulas, keeping those of the stem's patterns, with every formula's
        pattern id read off one column (``_LazyList.column``): the loop looks at 38,000 formulas in a cold run of one
        output (3 million to make the word table), a record each, and keeps a few hundred."""
        formulas = self.lex.formulas(cat, length)
        column = formulas.column("idDiacPatternStem") if isinstance(formulas, _LazyList) else None
        if column is None:
            return super()._get_info_result(id_root, id_pattern_stem, length, cat)
        pattern_ids = set(id_pattern_stem.split(" "))
        count = len(column)
        result = []
        for idr in id_root.split(" "):
            idx = int(idr)
            if 0 < idx <= count and column[idx - 1] in pattern_ids:
                result.append(formulas[idx - 1])
        return result


def analyzer(version: str) -> farahidi.Analyzer:
    """The indexed analyser for a checked farahidi ``version``, else farahidi's own."""
    return IndexedAnalyzer() if version in INDEXED_VERSIONS else farahidi.Analyzer()
