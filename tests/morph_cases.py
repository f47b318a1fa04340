"""Building analyser inputs from hand-written sentences, shared by the per-language analyser tests."""

from __future__ import annotations

from discotest.lang.morph.base import PronounTarget, TargetEntity
from discotest.lang.tokenize import tokenize
from tests.gender_gold import find_span


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
