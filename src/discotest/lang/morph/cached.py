"""An analyser's readings through the content-hash cache: a rerun on the same translations reads them back and never
loads the analyser.

The key of an entry is everything a reading depends on: the method (``read`` or ``read_pronouns``), the analyser's
name and version (its tools' versions: ``GenderAnalyser.static_version``, known without loading), discotest's own
code and tables (``cache.code_key``), and every item (sentence, tokens with offsets, entity and pronoun indices, the
English pronoun and its role). The analyser loads on the first miss, once per process (``load_analyser``); with
``static_version`` None (Hebrew and Italian ask a system program for its version) it loads at once, as before. An
analyser that keeps readings per word form (``word_table.py``: Arabic) adopts the tables and, after a miss, adds the
words its tool read to the table of words seen.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Sequence

from discotest import cache
from discotest.lang.morph import analyser_class, load_analyser
from discotest.lang.morph.base import (
    Gender,
    GenderAnalyser,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
    Token,
)
from discotest.lang.morph.word_table import adopt_seen, adopt_table, keep_seen
from discotest.timing import stage

NAMESPACE = "readings"


class CachedReads(GenderAnalyser):
    """``read`` and ``read_pronouns`` of the ``lang`` analyser, served from the cache where the same items were read
    by the same analyser version and code before."""

    def __init__(self, lang: str, use_cache: bool = True) -> None:
        cls = analyser_class(lang)
        self.lang, self.name, self.rules = lang, cls.name, cls.rules
        self._use_cache = use_cache
        self._version = cls.static_version()
        self._table: tuple[str, Callable[[], Iterable[Sequence[Token]]], bool] | None = None
        if self._version is None:
            self._version = self.analyser().version()

    def use_word_table(self, identity: str, sentences: Callable[[], Iterable[Sequence[Token]]],
                       make: bool = False) -> None:
        """Where the analyser keeps one (``word_table.py``), give it the table of readings per word form of the text
        ``identity`` names when it loads: read from the cache, else (``make``) made from ``sentences()`` (with the
        cache on)."""
        if self._use_cache:
            self._table = identity, sentences, make

    def analyser(self) -> GenderAnalyser:
        """The analyser itself, loaded on first use (once per process), with its word table if it has one."""
        with stage("analyser load"):
            analyser = load_analyser(self.lang)
            if self._table is not None:
                adopt_table(analyser, *self._table)
            if self._use_cache and analyser.word_table_code is not None:
                adopt_seen(analyser)
            return analyser

    def version(self) -> str:
        return self._version

    def prepare(self, sentences: Sequence[Sequence[Token]]) -> None:
        """Load the analyser and let it prepare (``GenderAnalyser.prepare``): call it only when the readings are not
        going to come from the cache, while something else (the aligner) runs."""
        analyser = self.analyser()
        with stage("morphology"):
            analyser.prepare(sentences)

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        return self._through_cache("read", items, lambda: self.analyser().read(items), _gender_reading)

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        return self._through_cache("read_pronouns", items, lambda: self.analyser().read_pronouns(items),
                                   _pronoun_reading)

    def _through_cache(self, method: str, items: Sequence, compute: Callable[[], list], row: Callable) -> list:
        if not items:
            return compute()
        key = cache.content_key([NAMESPACE, method, self.name, self._version, cache.code_key(), _items_text(items)])
        if self._use_cache and (hit := cache.load(NAMESPACE, key, parse=cache.json_rows(len(items), row))) is not None:
            return hit
        readings = compute()
        cache.store(NAMESPACE, key, json.dumps([_fields(r) for r in readings], ensure_ascii=False))
        if self._use_cache and analyser_class(self.lang).word_table_code is not None:
            keep_seen(self.analyser())  # the words the tool read for these items, for the next cold run
        return readings


def _items_text(items: Sequence[TargetEntity] | Sequence[PronounTarget]) -> str:
    """Every field of every item as JSON, tokens as [text, start, end] (``dataclasses.astuple`` does the same four
    times slower: it copies every value)."""
    names = [f.name for f in dataclasses.fields(items[0])]
    rows = [[[(t.text, t.start, t.end) for t in value] if name == "tokens" else value
             for name in names for value in (getattr(item, name),)] for item in items]
    return json.dumps(rows, ensure_ascii=False)


def _fields(reading: GenderReading | PronounReading) -> tuple:
    """The reading's fields in order, as ``dataclasses.astuple`` gives them to JSON (which copies every value
    deeply: five times slower here); the fields are strings, enums and tuples of strings."""
    return tuple(getattr(reading, f.name) for f in dataclasses.fields(reading))


def _gender_reading(gender: str, reason: str, evidence: list[str], silent: bool, generic: bool) -> GenderReading:
    return GenderReading(Gender(gender), reason, tuple(evidence), silent, generic)


def _pronoun_reading(gender: str, reason: str, evidence: list[str], omitted: str | None) -> PronounReading:
    return PronounReading(Gender(gender), reason, tuple(evidence), omitted)
