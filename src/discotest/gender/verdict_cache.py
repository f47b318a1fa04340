"""Whole verdict lists of a gender run, cached by content: a rerun on the same suite and translations reads them back
without tokenising, aligning, locating or reading anything (and without loading an analyser).

The key is everything the verdicts depend on: every suite item (all fields) and every translation (row and text),
the language, the aligner's signature (its seed and settings; links are a function of it and of the tokenised text),
the analyser's name and version (``GenderAnalyser.static_version``: known without loading), the lexicon setting,
whether pronouns and the reader verdict were read, and discotest's own code (``cache.code_key``: the tokeniser, the
locator and the analysers' rules are ours). Used only when the aligner trains on the evaluated pairs alone (no
``--align-extra`` text): the extra text would have to be keyed too, and small suites, where it is used, are fast.
Entries are sealed like every cache entry; a damaged one is recomputed.

A published output is also found by the files it was read from (``files_key``: the suite's and the output's data files,
each held to its pinned sha256 by ``catalogue.locate``, with the same settings and code): a small entry there names the
content key and the suite rows without a translation, so a warm run neither reads, matches nor hashes the translations
(all WinoMT pairs: 1.6 s of CPU). It points to the content-keyed entry, so both ways read the same verdicts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields

from discotest import cache
from discotest.data.catalogue import FileCheck
from discotest.gender.judge import GenderVerdict
from discotest.gender.winomt import GenderItem

NAMESPACE = "gender-verdicts"
FILES_NAMESPACE = "gender-verdicts-by-file"
_ITEM_FIELDS = tuple(f.name for f in fields(GenderItem))
_VERDICT_FIELDS = tuple(f.name for f in fields(GenderVerdict))


def verdicts_key(items: Sequence[GenderItem], translations: Mapping[int, str], lang: str, settings: Sequence[str]
                 ) -> str:
    """The cache key of one translation set's verdicts; ``settings``: aligner signature, analyser name and version,
    lexicon, consistency and reader flags (each a string)."""
    rows = [[getattr(item, name) for name in _ITEM_FIELDS] for item in items]
    texts = sorted(translations.items())
    return cache.content_key([NAMESPACE, cache.code_key(), lang, *settings, json.dumps(rows, ensure_ascii=False),
                              json.dumps(texts, ensure_ascii=False)])


def files_key(files: Iterable[FileCheck], lang: str, system: str, settings: Sequence[str]) -> str:
    """The key of a published output's verdicts by the data files it was read from (the suite's and the output's:
    name and sha256); ``settings`` as for ``verdicts_key``, plus whatever else chooses the items (suite, version,
    limit)."""
    named = sorted(f"{check.name}\t{check.sha256}" for check in files)
    return cache.content_key([FILES_NAMESPACE, cache.code_key(), lang, system, *settings, *named])


def store_files_entry(key: str, content: str, unmatched: Sequence[int]) -> None:
    """Under ``files_key``: the content key of the verdicts and the suite rows without a translation."""
    cache.store(FILES_NAMESPACE, key, json.dumps({"verdicts": content, "unmatched": list(unmatched)}))


def load_by_files(key: str) -> tuple[list[GenderVerdict], list[int]] | None:
    """The verdicts and unmatched rows found under a ``files_key``, or None (either entry absent or damaged)."""
    entry = cache.load(FILES_NAMESPACE, key, parse=_parse_files_entry)
    if entry is None:
        return None
    verdicts = load_verdicts(entry[0])
    return None if verdicts is None else (verdicts, entry[1])


def _parse_files_entry(text: str) -> tuple[str, list[int]]:
    data = json.loads(text)
    if not isinstance(data["verdicts"], str) or not all(isinstance(row, int) for row in data["unmatched"]):
        raise ValueError("not a verdicts-by-file entry")
    return data["verdicts"], data["unmatched"]


def load_verdicts(key: str) -> list[GenderVerdict] | None:
    """The cached verdicts under ``key``, or None."""
    return cache.load(NAMESPACE, key, parse=_parse)


def store_verdicts(key: str, verdicts: Sequence[GenderVerdict]) -> None:
    rows = [[getattr(v, name) for name in _VERDICT_FIELDS] for v in verdicts]
    cache.store(NAMESPACE, key, json.dumps({"fields": _VERDICT_FIELDS, "rows": rows}, ensure_ascii=False))


def _parse(text: str) -> list[GenderVerdict]:
    data = json.loads(text)
    if tuple(data["fields"]) != _VERDICT_FIELDS:
        raise ValueError("the verdict fields changed")
    return [_verdict(row) for row in data["rows"]]


def _verdict(row: list) -> GenderVerdict:
    """``GenderVerdict(*row)`` at a quarter of the cost: a frozen dataclass's ``__init__`` sets each of its 24 fields
    through ``object.__setattr__`` (0.4 s for all WinoMT pairs); a verdict has no ``__post_init__`` to skip."""
    if not isinstance(row, list) or len(row) != len(_VERDICT_FIELDS):
        raise ValueError("a verdict row of the wrong length")
    verdict = object.__new__(GenderVerdict)
    verdict.__dict__.update(zip(_VERDICT_FIELDS, row))
    return verdict
