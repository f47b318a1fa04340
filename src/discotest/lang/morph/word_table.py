"""Readings per word form prepared once (Arabic: farahidi's analyses of each word), so a cold run asks the tool only
for the words no earlier run read.

Where an analyser's reading of a word depends on that word alone (``GenderAnalyser.word_table_code``), two tables of
readings per word form are kept in the cache, and a run adopts both and loads the tool only for a word they lack:

- the table of a suite's published outputs (every word form and its clitic-stripped forms), made by ``data prepare``
  (``adopt_table``; namespace ``word-readings``, beside the alignment models: ``$DISCOTEST_MODELS``); its key:
  ``identity`` (what fixes the word list: the published files and the code that reads them, as the alignment model's
  key), the tool's version and the code of the modules its readings depend on;
- the table of the words earlier runs read (``adopt_seen``, ``keep_seen``; namespace ``word-readings-seen``): a run
  that asked the tool for new words adds them, at the cost of writing the table (the tool's answers were computed
  anyway), so each run prepares the next: a cold run of google's Arabic output after bing's, aws's and systran's asks
  farahidi for 70 of the 81 word forms its readings look up (11 in the table; the readings look up only the words a
  verdict reads: a head noun the entity lexicon does not decide, a construct phrase, an agreeing word). Its key: the
  tool's version and the code, nothing of any text.

A table cannot change a verdict: it holds what the tool answers for each word. Only with the cache on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from discotest import cache
from discotest.lang.morph.base import GenderAnalyser, Token
from discotest.timing import stage

NAMESPACE = "word-readings"
# the words earlier runs read: this cache's history, not a resource the same for everyone, so in the cache itself (not
# $DISCOTEST_MODELS), and a "cold" benchmark run with a fresh cache sees none of it
SEEN_NAMESPACE = "word-readings-seen"
_adopted: set[tuple[int, str]] = set()  # (analyser id, key) already adopted in this process
_seen: dict[int, tuple[GenderAnalyser, str, frozenset[str]]] = {}  # analyser id -> (it, seen key, the words adopted)


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
    in a process. A run does not make it: making it costs about 12 s of CPU for Arabic (8,522 word forms of three
    outputs: 11.5 s, 12.6 s before farahidi's tables loaded lighter, half again as much before its pattern scan was
    indexed), far more than the 0.04 s of CPU it saves a later cold run (morphology 0.60 -> 0.53 s, 0.03 s to read the
    table; measured leave-one-system-out: bench/speed/ar_word_table.py; 0.5 s in issue 39, before the readings stopped
    looking up the nouns the entity lexicon decides), so only a user who prepares the data pays for it."""
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


def seen_key(analyser: type[GenderAnalyser] | GenderAnalyser) -> str | None:
    """The cache key of the table of the words earlier runs of ``analyser`` read, or None where it keeps none."""
    code = analyser.word_table_code
    version = analyser.static_version()
    if code is None or version is None:
        return None
    return cache.content_key([SEEN_NAMESPACE, analyser.lang, version, cache.code_key(*code)])


def adopt_seen(analyser: GenderAnalyser) -> None:
    """Give ``analyser`` the readings of the words earlier runs read (once per analyser in a process)."""
    key = seen_key(analyser)
    if key is None or id(analyser) in _seen:
        return
    with stage("word table"):
        words: frozenset[str] = frozenset()

        def parse(text: str) -> str:
            nonlocal words
            analyser.adopt_readings(text)
            words = frozenset(analyser.table_words(text))
            return text

        cache.load(SEEN_NAMESPACE, key, parse=parse)
    _seen[id(analyser)] = analyser, key, words


def keep_seen(analyser: GenderAnalyser) -> None:
    """Add the words ``analyser`` asked its tool for since it adopted the seen table to that table (nothing where it
    asked for none). Two processes adding at once: the last one's table stands, every entry still the tool's."""
    if id(analyser) not in _seen:
        return
    _, key, words = _seen[id(analyser)]
    new = set(analyser.analysed_words()) - words
    if not new:
        return
    with stage("word table"):
        # another run's additions since: adopted first, so that writing them asks the tool nothing
        found = cache.load(SEEN_NAMESPACE, key, parse=lambda text: (analyser.adopt_readings(text),
                                                              analyser.table_words(text))[1])
        everything = words | new | frozenset(found or ())
        cache.store(SEEN_NAMESPACE, key, analyser.export_readings(sorted(everything)))
    _seen[id(analyser)] = analyser, key, frozenset(everything)
