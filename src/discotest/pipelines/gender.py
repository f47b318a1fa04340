"""Gender evaluation of one translation set: tokenise, align, locate the entity, read its gender."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from discotest.lang.align import align_cached
from discotest.lang.align.base import Links, Pair, WordAligner
from discotest.lang.locate import locate_entity, source_entity_tokens
from discotest.lang.morph.base import GenderAnalyser, TargetEntity, Token
from discotest.lang.tokenize import normalise_moses, tokenize
from discotest.phenomena.gender import GenderVerdict
from discotest.suites.winomt import GenderItem


class Bitext:
    """Tokenised source/translation pairs for the suite rows that have a translation."""

    def __init__(self, items: Sequence[GenderItem], translations: Mapping[int, str], lang: str):
        self.items = [item for item in items if item.index in translations]
        self.lang = lang
        self.translations = [normalise_moses(translations[item.index]) for item in self.items]
        self.src_tokens: list[tuple[Token, ...]] = [tokenize(item.sentence, "en") for item in self.items]
        self.tgt_tokens: list[tuple[Token, ...]] = [tokenize(t, lang) for t in self.translations]

    @property
    def pairs(self) -> list[Pair]:
        return [
            (tuple(t.text for t in s), tuple(t.text for t in t_))
            for s, t_ in zip(self.src_tokens, self.tgt_tokens)
        ]


def align_in_corpus(
    aligner: WordAligner, evaluated: list[Pair], corpus: Sequence[list[Pair]], use_cache: bool = True
) -> list[Links]:
    """Align ``evaluated`` trained together with the ``corpus`` blocks (more statistics).

    The corpus order is fixed by the caller, so every system of a language shares one cached
    alignment run; ``evaluated`` is appended only when it is not already one of the blocks.
    """
    blocks = list(corpus)
    if evaluated not in blocks:
        blocks.append(evaluated)
    position = blocks.index(evaluated)
    links = align_cached(aligner, [pair for block in blocks for pair in block], use_cache)
    offset = sum(len(block) for block in blocks[:position])
    return links[offset : offset + len(evaluated)]


def evaluate_gender(
    bitext: Bitext,
    links: Sequence[Links],
    analyser: GenderAnalyser,
    lexicon: str = "on",
) -> list[GenderVerdict]:
    """One verdict per item of ``bitext`` given its alignment links."""
    targets, how = [], []
    for item, src, tgt, sentence, lk in zip(
        bitext.items, bitext.src_tokens, bitext.tgt_tokens, bitext.translations, links
    ):
        src_entity = source_entity_tokens(item.sentence, src, item.entity_word_span)
        span, located_by = locate_entity(src_entity, len(src), lk, tgt, item.entity, bitext.lang, lexicon)
        targets.append(TargetEntity(sentence, tgt, span))
        how.append(located_by)
    readings = analyser.read(targets)
    return [
        GenderVerdict(
            index=item.index,
            source=item.sentence,
            translation=target.sentence,
            entity=item.entity,
            target_entity=list(target.entity_words),
            located_by=located_by,
            predicted_gender=reading.gender.value,
            gold_gender=item.gold,
            correct=reading.gender.value == item.gold,
            reason=reading.reason,
            evidence=list(reading.evidence),
            stereotype=item.stereotype,
        )
        for item, target, located_by, reading in zip(bitext.items, targets, how, readings)
    ]
