"""Gender evaluation of one translation set: tokenise, align, locate the entity, read its gender."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from discotest.gender.judge import Conveyed, GenderVerdict, convey
from discotest.gender.mentions import (
    Mention,
    find_distractor,
    find_pronouns,
    object_of_distractor,
    pronoun_positions,
    single_pronoun,
)
from discotest.gender.winomt import GenderItem
from discotest.lang.align import PendingLinks, start_align_cached
from discotest.lang.align.base import Links, Pair, WordAligner
from discotest.lang.locate import locate_entity, source_entity_tokens
from discotest.lang.morph.base import (
    Gender,
    GenderAnalyser,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
    Token,
)
from discotest.lang.tokenize import normalise_moses, tokenize, words
from discotest.timing import stage


class Bitext:
    """Tokenised source/translation pairs for the suite rows that have a translation."""

    def __init__(self, items: Sequence[GenderItem], translations: Mapping[int, str], lang: str):
        self.items = [item for item in items if item.index in translations]
        self.lang = lang
        self.translations = [normalise_moses(translations[item.index]) for item in self.items]
        self.src_tokens: list[tuple[Token, ...]] = [_english_tokens(item.sentence) for item in self.items]
        self.tgt_tokens: list[tuple[Token, ...]] = [tokenize(t, lang) for t in self.translations]

    @property
    def pairs(self) -> list[Pair]:
        return [
            (tuple(t.text for t in s), tuple(t.text for t in t_))
            for s, t_ in zip(self.src_tokens, self.tgt_tokens)
        ]

    @property
    def watched(self) -> list[frozenset[int]]:
        """Per pair, the English words whose links the verdicts read: the entity's, the pronoun's and the
        distractor's (what ``evaluate_gender`` locates); the ``checked`` alignment decode makes sure of these."""
        out = []
        for item, src, pronoun in zip(self.items, self.src_tokens, pronoun_positions(self.items)):
            words = set(source_entity_tokens(item.sentence, src, item.entity_word_span))
            if pronoun is not None:
                words.add(pronoun)
            if found := find_distractor(item):
                words.update(found[1])
            out.append(frozenset(words))
        return out


@lru_cache(maxsize=2**14)
def _english_tokens(sentence: str) -> tuple[Token, ...]:
    """``tokenize(sentence, "en")``, kept for a suite's worth of sentences: every system of a language (a worker of
    ``--lang all`` reads four or five) has the same English side."""
    return tokenize(sentence, "en")


def word_pairs(items: Sequence[GenderItem], translations: Mapping[int, str], lang: str) -> list[Pair]:
    """``Bitext(items, translations, lang).pairs`` without making the tokens (``tokenize.words``): the text an
    alignment model trains on, read once per first run, needs the words only."""
    return [(words(item.sentence, "en"), words(normalise_moses(translations[item.index]), lang))
            for item in items if item.index in translations]


def align_in_corpus(
    aligner: WordAligner, evaluated: list[Pair], corpus: Sequence[list[Pair]], use_cache: bool = True
) -> list[Links]:
    """Align ``evaluated`` trained together with the ``corpus`` blocks (more statistics).

    The corpus order is fixed by the caller, so every system of a language shares one cached
    alignment run; ``evaluated`` is appended only when it is not already one of the blocks.
    """
    return start_align_in_corpus(aligner, evaluated, corpus, use_cache)()


def start_align_in_corpus(
    aligner: WordAligner, evaluated: list[Pair], corpus: Sequence[list[Pair]], use_cache: bool = True,
    watch: Sequence[frozenset[int]] | None = None,
) -> PendingLinks:
    """``align_in_corpus`` begun now, finished by calling the result (``start_align_cached``); ``watch``: the words
    of ``evaluated`` the verdicts read (``Bitext.watched``; the corpus's other blocks: every word)."""
    blocks = list(corpus)
    if evaluated not in blocks:
        blocks.append(evaluated)
    position = blocks.index(evaluated)
    offset = sum(len(block) for block in blocks[:position])
    marks: list[frozenset[int] | None] | None = None
    if watch is not None:
        marks = [None] * sum(len(block) for block in blocks)
        marks[offset : offset + len(evaluated)] = list(watch)
    pending = start_align_cached(aligner, [pair for block in blocks for pair in block], use_cache, marks)
    return PendingLinks(lambda: pending()[offset : offset + len(evaluated)], pending.from_cache)


def evaluate_gender(
    bitext: Bitext,
    links: Sequence[Links],
    analyser: GenderAnalyser,
    lexicon: str = "on",
    consistency: bool = False,
    reader: bool = False,
    grammatical: bool = False,
) -> list[GenderVerdict]:
    """One verdict per item of ``bitext`` given its alignment links; with ``consistency`` also the
    pronoun's and the distractor's target words and genders; with ``reader`` (which implies ``consistency``) also the
    reader-level gender (``gender.judge.convey``). A noun whose form and agreeing words are silent is completed
    by its pronoun's target words (``complete_silent``). The noun verdict is ``noun_gender`` (``grammatical``:
    mt_gender's grammatical-gender convention)."""
    targets, how = [], []
    with stage("locate"):
        for item, src, tgt, sentence, lk in zip(
            bitext.items, bitext.src_tokens, bitext.tgt_tokens, bitext.translations, links
        ):
            src_entity = source_entity_tokens(item.sentence, src, item.entity_word_span)
            span, located_by = locate_entity(src_entity, len(src), lk, tgt, item.entity, bitext.lang, lexicon)
            targets.append(TargetEntity(sentence, tgt, span))
            how.append(located_by)
    with stage("morphology"):
        readings = analyser.read(targets)
        completed = complete_silent(
            bitext.items, targets, readings, analyser,
            lambda k, mention: _pronoun_words(links[k], mention.word, targets[k].entity, how[k]),
        )
    verdicts = [
        GenderVerdict(
            index=item.index,
            source=item.sentence,
            translation=target.sentence,
            entity=item.entity,
            target_entity=list(target.entity_words),
            located_by=located_by,
            predicted_gender=noun_gender(reading, grammatical),
            gold_gender=item.gold,
            correct=noun_gender(reading, grammatical) == item.gold,
            reason=reading.reason,
            evidence=list(reading.evidence),
            stereotype=item.stereotype,
        )
        for item, target, located_by, reading in zip(bitext.items, targets, how, readings)
    ]
    if consistency or reader:
        # consistency and the reader verdict compare the pronoun with the noun's own reading, not with a reading the
        # pronoun completed; consistency (grammatical agreement) with its grammatical gender
        verdicts = _add_consistency(bitext, links, analyser, verdicts, [t.entity for t in targets], lexicon, reader,
                                    [r.gender.value for r in readings])
    return [
        verdict if done is reading else replace(
            verdict, predicted_gender=done.gender.value, correct=done.gender.value == verdict.gold_gender,
            reason=done.reason, evidence=list(done.evidence),
        )
        for verdict, reading, done in zip(verdicts, readings, completed)
    ]


def complete_silent(
    items: Sequence[GenderItem],
    targets: Sequence[TargetEntity],
    readings: Sequence[GenderReading],
    analyser: GenderAnalyser,
    pronoun_words: Callable[[int, Mention], tuple[int, ...]],
) -> list[GenderReading]:
    """The noun readings, each ``silent`` one (a noun whose form and agreeing words show no gender: it l'insegnante,
    he המורה) completed by the words that render the English sentence's pronoun, which refers to the entity in
    WinoMT and BUG: "e l'ha invitata", "perché era entrata" show a woman. Only when the English sentence has one
    pronoun (so the gold gender never picks it) and the translation shows its gender (not omitted, dropped or
    neutral); the others are returned as they are (the same objects). ``pronoun_words(k, mention)``: the target
    words of item k aligned to its English pronoun (the pipeline's links; the gold's words in tests)."""
    open_ = [k for k, r in enumerate(readings) if r.silent and targets[k].entity and single_pronoun(items[k])]
    out = list(readings)
    if not open_:
        return out
    mentions = find_pronouns([items[k] for k in open_])
    asked = [(k, PronounTarget(targets[k].sentence, targets[k].tokens, pronoun_words(k, mention),
                               targets[k].entity, mention.text, mention.role))
             for k, mention in zip(open_, mentions) if mention is not None]
    for (k, _), pronoun in zip(asked, analyser.read_pronouns([target for _, target in asked])):
        if pronoun.omitted is None and pronoun.gender in (Gender.MALE, Gender.FEMALE):
            noun = readings[k]
            words = tuple(w for w in pronoun.evidence if w not in noun.evidence)
            out[k] = GenderReading(pronoun.gender, f"{noun.reason}; the entity's pronoun decides: {pronoun.reason}",
                                   noun.evidence + words)
    return out


_READABLE = ("male", "female", "neutral")


def noun_gender(reading: GenderReading, grammatical: bool = False) -> str:
    """The noun-level verdict of one reading (``predicted_gender``), the one definition every verdict and bench uses:
    a reading whose gender is only grammatical (``GenderReading.generic``: the default masculine of an indefinite
    pronoun, the fixed gender of an epicene noun, nothing else marking the person) is neutral, as people read it
    (issue 51); with ``grammatical`` (``--verdict grammatical``, mt_gender's convention) it keeps its grammatical
    gender. The reader verdict takes the noun the same way."""
    return Gender.NEUTRAL.value if reading.generic and not grammatical else reading.gender.value


def _pronoun_words(links: Links, word: int | None, entity_span: Sequence[int], located_by: str) -> tuple[int, ...]:
    """The target words aligned to the English pronoun, less the entity's own noun when the entity
    lexicon found it: a pronoun refers to the entity and is never its noun, so such a link is alignment
    noise ("for the designer and her" -> "למעצבת" only) and the analysers' rules for an unaligned pronoun
    apply. Aligned-only entity spans are kept: they may be wrong themselves and hold the pronoun."""
    if word is None:
        return ()
    aligned = {t for s, t in links if s == word}
    if located_by.startswith("lexicon"):
        aligned -= set(entity_span)
    return tuple(sorted(aligned))


def reader_verdict(
    noun: str, noun_evidence: Sequence[str], pronoun: PronounReading | None, pronoun_words: Sequence[str],
    distractor: str | None,
    bound: bool = False,
) -> Conveyed:
    """``convey`` from the analysers' readings: the pronoun counts when the source has one (``pronoun`` not None)
    and the translation shows its gender (not omitted, readable); its evidence words, else its aligned words."""
    shown = pronoun is not None and pronoun.omitted is None and pronoun.gender.value in _READABLE
    why = ("no source pronoun" if pronoun is None else f"pronoun {pronoun.omitted}" if pronoun.omitted
           else "pronoun unreadable")
    return convey(noun, noun_evidence, pronoun.gender.value if pronoun is not None and shown else None,
                  (pronoun.evidence if pronoun is not None else ()) or pronoun_words, distractor, why, bound)


def _add_consistency(
    bitext: Bitext,
    links: Sequence[Links],
    analyser: GenderAnalyser,
    verdicts: Sequence[GenderVerdict],
    entity_spans: Sequence[tuple[int, ...]],
    lexicon: str,
    reader: bool = False,
    grammatical: Sequence[str] = (),
) -> list[GenderVerdict]:
    """The verdicts with the pronoun's and the distractor's target words and genders, and whether the
    pronoun agrees with the entity's grammatical gender (``grammatical[k]``: item k's noun reading's own gender,
    default its ``predicted_gender``; None with the reason when the target cannot show it); with ``reader`` also
    the reader-level gender from the noun verdict (``noun_gender``), this pronoun reading and the distractor's
    grammatical gender."""
    with stage("locate"):
        mentions = find_pronouns(bitext.items)
    pronoun_targets, distractor_targets, distractors, bound = [], [], [], []
    for item, src, tgt, sentence, lk, entity_span, mention, verdict in zip(
        bitext.items, bitext.src_tokens, bitext.tgt_tokens, bitext.translations, links, entity_spans, mentions,
        verdicts,
    ):
        aligned = _pronoun_words(lk, mention.word if mention else None, entity_span, verdict.located_by)
        pronoun_targets.append(PronounTarget(
            sentence, tgt, aligned, entity_span, mention.text if mention else "", mention.role if mention else ""
        ))
        found = find_distractor(item)
        distractors.append(found[0] if found else None)
        bound.append(reader and object_of_distractor(item, mention, found[1] if found else None))
        span: tuple[int, ...] = ()
        if found:
            span, _ = locate_entity(found[1], len(src), lk, tgt, found[0], bitext.lang, lexicon)
        distractor_targets.append(TargetEntity(sentence, tgt, span))
    with stage("morphology"):
        pronoun_readings = analyser.read_pronouns(pronoun_targets)
        distractor_readings = analyser.read(distractor_targets)
    out = []
    grammatical = list(grammatical) or [v.predicted_gender for v in verdicts]
    for verdict, mention, target, reading, distractor, d_target, d_reading, bound_, noun in zip(
        verdicts, mentions, pronoun_targets, pronoun_readings, distractors, distractor_targets, distractor_readings,
        bound, grammatical,
    ):
        omitted = reading.omitted
        if mention is None:
            omitted = "no-source-pronoun"
        elif omitted is None and reading.gender.value not in _READABLE:
            omitted = "pronoun-unreadable"
        elif omitted is None and verdict.predicted_gender not in _READABLE:
            omitted = "entity-unreadable"
        conveyed = None
        if reader:
            # whether the pronoun fits the other entity is grammatical agreement: the distractor's grammatical gender
            # (jemand takes er; die Wache takes sie, not er)
            conveyed = reader_verdict(verdict.predicted_gender, verdict.evidence,
                                      reading if mention else None, [target.tokens[i].text for i in target.pronoun],
                                      d_reading.gender.value if distractor else None, bound_)
        out.append(replace(
            verdict,
            pronoun=mention.text if mention else "",
            target_pronoun=[target.tokens[i].text for i in target.pronoun],
            pronoun_gender=reading.gender.value,
            pronoun_reason=reading.reason,
            omitted=omitted,
            distractor=distractor,
            target_distractor=list(d_target.entity_words),
            distractor_gender=d_reading.gender.value if distractor else None,
            consistent=None if omitted else reading.gender.value == noun,
            conveyed_gender=conveyed.gender if conveyed else None,
            conveyed_reason=conveyed.reason if conveyed else None,
            conveyed_evidence=list(conveyed.evidence) if conveyed else None,
        ))
    return out
