"""Readings per word form, prepared once per suite and language (Arabic: farahidi's analyses of each word).

Where an analyser's reading of a word depends on that word alone (``GenderAnalyser.word_table_code``), the readings of
every word form of the suite's published outputs (and their clitic-stripped forms) are computed once and kept in the
cache (namespace ``word-readings``, beside the alignment models: ``$DISCOTEST_MODELS``); a run adopts them and loads
the tool only for a word the table lacks. A table cannot change a verdict: it holds what the tool answers for each
word. Its key: ``identity`` (what fixes the word list: the published files and the code that reads them, as the
alignment model's key), the tool's version and the code of the modules its readings and word forms depend on.
Only with the cache on: without it, building the table would cost more than the run it serves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from discotest import cache
from discotest.lang.morph.base import GenderAnalyser, Token
from discotest.timing import stage

NAMESPACE = "word-readings"
_adopted: set[tuple[int, str]] = set()  # (analyser id, key) already adopted in this process


def table_key(analyser: type[GenderAnalyser] | GenderAnalyser, identity: str) -> str | None:
    """The cache key of the table of ``analyser`` for the text ``identity`` names, or None where it keeps none."""
    code = analyser.word_table_code
    version = analyser.static_version()
    if code is None or version is None:
        return None
    return cache.content_key([NAMESPACE, analyser.lang, version, cache.code_key(*code), identity])


def adopt_table(analyser: GenderAnalyser, identity: str, sentences: Callable[[], Iterable[Sequence[Token]]],
                make: bool = False) -> None:
    """Give ``analyser`` the table of the text ``identity`` names: read from the cache, else (``make``: ``data
    prepare``) made now from ``sentences()`` (the published outputs' tokens) and stored. Once per analyser and table
    in a process. A run does not make it: making it costs about 16 s of CPU for Arabic (8,500 word forms; 24 s
    before farahidi's pattern scan was indexed), far more than the 0.5 s of CPU it saves a later cold run (issue 39,
    measured leave-one-system-out), so only a user who prepares the data pays for it."""
    key = table_key(analyser, identity)
    if key is None or (id(analyser), key) in _adopted:
        return
    with stage("word table"):
        table = cache.load(NAMESPACE, key, parse=lambda text: (analyser.adopt_readings(text), text)[1])
        if table is None and make:
            with cache.making(NAMESPACE, key):  # another process making the same table: wait for it
                table = cache.load(NAMESPACE, key, parse=lambda text: (analyser.adopt_readings(text), text)[1])
                if table is None:
                    table = analyser.export_readings(sorted(analyser.word_forms(sentences())))
                    cache.store(NAMESPACE, key, table)
                    analyser.adopt_readings(table)
    _adopted.add((id(analyser), key))
