"""Whole verdict lists of a gender run, cached by content: a rerun on the same suite and translations reads them back
without tokenising, aligning, locating or reading anything (and without loading an analyser).

The key is everything the verdicts depend on: every suite item (all fields) and every translation (row and text),
the language, the aligner's signature (its seed and settings; links are a function of it and of the tokenised text),
the analyser's name and version (``GenderAnalyser.static_version``: known without loading), the lexicon setting,
whether pronouns and the reader verdict were read, and discotest's own code (``cache.code_key``: the tokeniser, the
locator and the analysers' rules are ours). Used only when the aligner trains on the evaluated pairs alone (no
``--align-extra`` text): the extra text would have to be keyed too, and small suites, where it is used, are fast.
Entries are sealed like every cache entry; a damaged one is recomputed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields

from discotest import cache
from discotest.gender.judge import GenderVerdict
from discotest.gender.winomt import GenderItem

NAMESPACE = "gender-verdicts"
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


def load_verdicts(key: str) -> list[GenderVerdict] | None:
    """The cached verdicts under ``key``, or None."""
    return cache.load(NAMESPACE, key, parse=_parse)


def has_verdicts(key: str) -> bool:
    """Whether an entry exists for ``key`` (not whether it reads back: ``load_verdicts`` says that)."""
    return cache.entry_path(NAMESPACE, key).is_file()


def store_verdicts(key: str, verdicts: Sequence[GenderVerdict]) -> None:
    rows = [[getattr(v, name) for name in _VERDICT_FIELDS] for v in verdicts]
    cache.store(NAMESPACE, key, json.dumps({"fields": _VERDICT_FIELDS, "rows": rows}, ensure_ascii=False))


def _parse(text: str) -> list[GenderVerdict]:
    data = json.loads(text)
    if tuple(data["fields"]) != _VERDICT_FIELDS:
        raise ValueError("the verdict fields changed")
    return [GenderVerdict(*row) for row in data["rows"]]
