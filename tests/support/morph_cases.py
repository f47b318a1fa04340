"""Building analyser inputs from hand-written sentences, shared by the per-language analyser tests."""

from __future__ import annotations

import shutil
from types import ModuleType
from typing import Any

import pytest

from discotest.errors import InputError
from discotest.gender.pipeline import complete_silent
from discotest.gender.winomt import GenderItem
from discotest.lang.morph.base import GenderAnalyser, GenderReading, PronounTarget, TargetEntity
from discotest.lang.tokenize import tokenize
from tests.support.gender_gold import find_span

DECIDES = "the entity's pronoun decides"  # the reason of a silent noun its pronoun completed (``completed``)


def marked(sentence: str, words: str, lang: str) -> TargetEntity:
    """``sentence`` with ``words`` as the entity span: space-separated tokens (first contiguous run),
    ``"a|b"`` for separate words (a span with a gap, as aligners produce), ``""`` for an empty span."""
    tokens = tokenize(sentence, lang)
    if not words:
        return TargetEntity(sentence, tokens, ())
    texts = [t.text for t in tokens]
    if "|" in words:
        return TargetEntity(sentence, tokens, tuple(texts.index(w) for w in words.split("|")))
    span = find_span(tokens, words)
    if span is None:
        raise AssertionError(f"{words!r} not in {texts}")
    return TargetEntity(sentence, tokens, span)


def pronoun_marked(sentence: str, words: str, lang: str, source_pronoun: str, role: str,
                   entity: str = "") -> PronounTarget:
    """``sentence`` with ``words`` as the span aligned to the English pronoun and ``entity`` as the
    entity's span (same notation as ``marked``)."""
    pronoun = marked(sentence, words, lang)
    entity_span = marked(sentence, entity, lang).entity if entity else ()
    return PronounTarget(sentence, pronoun.tokens, pronoun.entity, entity_span, source_pronoun, role)


def completed(analyser: GenderAnalyser, english: str, entity_index: int, entity: str, sentence: str, words: str,
              pronoun_words: str, lang: str) -> GenderReading:
    """The noun reading of ``words`` in ``sentence`` as the pipeline gives it: a silent noun completed by the words
    that render the English sentence's pronoun (``pronoun_words``, notation of ``marked``; "" = dropped)."""
    item = GenderItem(0, "neutral", entity_index, english, entity)  # the gold gender is never read
    target = marked(sentence, words, lang)
    pronoun = marked(sentence, pronoun_words, lang).entity if pronoun_words else ()
    return complete_silent([item], [target], analyser.read([target]), analyser, lambda _k, _m: pronoun)[0]


def case_analyser(made: dict[str, Any], lang: str, module: ModuleType) -> Any:
    """The language's analyser from its case module (``analyser()``, ``REQUIRES``, ``BINARY``), made once into
    ``made``; the test is skipped where what it needs is missing, as each language's own file did."""
    if lang not in made:
        for name in module.REQUIRES:
            pytest.importorskip(name)
        if module.BINARY and shutil.which(module.BINARY) is None:
            pytest.skip(f"{module.BINARY} is not installed")
        try:
            made[lang] = module.analyser()
        except InputError as exc:
            pytest.skip(str(exc))
    return made[lang]
