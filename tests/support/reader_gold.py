"""Hand-checked gold samples of the reader-level gender, one TSV per language in tests/gold/reader/.

Columns: index (0-based row of WinoMT 2019, = line of the published output), system, target_entity (the words that
render the English entity), pronoun_words (the words that render the English pronoun or carry its gender; empty when
there are none), distractor_words (the words that render the other entity; empty for "someone" items) — each as
discotest tokenises them, space-joined, contiguous — conveyed_gender (male / female / neutral / mixed / unknown: what a
reader takes from the whole translation about the entity's gender, by the rule of ``gender.judge``, not
WinoMT's gold and not what the tool says), case (the kind of item, so each kind is sampled: agree = noun and pronoun
show the same gender; generic-masculine = masculine noun, feminine pronoun that cannot be the other entity's;
feminine-noun-masculine-pronoun = the reverse; distractor = noun and pronoun disagree and the pronoun reads as the
other entity's; no-pronoun = the translation shows no gender for the pronoun; neutral-noun = the noun shows none),
justification (one line a reviewer can check against the translation).

The rows were drawn from google's published outputs (all eight languages have them), a few per kind of item the
tool's reasons suggested, and each label was decided by reading the translation, before the tool was run on them.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from discotest.gender.judge import Conveyed
from discotest.gender.mentions import find_distractor, find_pronouns, object_of_distractor
from discotest.gender.pipeline import noun_gender, reader_verdict
from discotest.gender.winomt import load_winomt
from discotest.lang.morph.base import GenderAnalyser, PronounTarget, TargetEntity
from discotest.lang.tokenize import tokenize
from tests.support.gender_gold import find_span, published_translation

GOLD_DIR = Path(__file__).resolve().parents[1] / "gold" / "reader"
COLUMNS = ["index", "system", "target_entity", "pronoun_words", "distractor_words", "conveyed_gender", "case",
           "justification"]
CASES = ("agree", "generic-masculine", "feminine-noun-masculine-pronoun", "distractor", "no-pronoun", "neutral-noun")


@dataclass(frozen=True)
class ReaderGoldRow:
    lang: str
    line: int
    index: int
    system: str
    target_entity: str
    pronoun_words: str
    distractor_words: str
    conveyed_gender: str
    case: str
    justification: str


def load_reader_gold(lang: str) -> list[ReaderGoldRow]:
    path = GOLD_DIR / f"{lang}.tsv"
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        assert reader.fieldnames == COLUMNS, f"{path}: header must be {COLUMNS}"
        return [ReaderGoldRow(lang, n, int(r["index"]), r["system"], r["target_entity"], r["pronoun_words"],
                              r["distractor_words"], r["conveyed_gender"], r["case"], r["justification"])
                for n, r in enumerate(reader, start=2)]


def _span(row: ReaderGoldRow, tokens: tuple, words: str) -> tuple[int, ...]:
    span = find_span(tokens, words) if words else ()
    if span is None:
        raise AssertionError(f"{GOLD_DIR / (row.lang + '.tsv')}:{row.line}: {words!r} not in the translation")
    return span


def tool_reading(rows: list[ReaderGoldRow], analyser: GenderAnalyser) -> list[Conveyed]:
    """The tool's reader-level verdict for each row, given the gold words (so the analysers and the conflict rule are
    tested, not the aligner): noun, pronoun and distractor read as the pipeline reads them."""
    items = load_winomt("2019")
    entities, distractors, pronouns, sources, bound = [], [], [], [], []
    for row in rows:
        sentence = published_translation(row.system, row.lang, row.index)
        tokens = tokenize(sentence, row.lang)
        entity = _span(row, tokens, row.target_entity)
        entities.append(TargetEntity(sentence, tokens, entity))
        distractors.append(TargetEntity(sentence, tokens, _span(row, tokens, row.distractor_words)))
        (mention,) = find_pronouns([items[row.index]])
        found = find_distractor(items[row.index])
        bound.append(object_of_distractor(items[row.index], mention, found[1] if found else None))
        pronoun, role = (mention.text, mention.role) if mention else ("", "")
        sources.append(pronoun)
        pronouns.append(PronounTarget(sentence, tokens, _span(row, tokens, row.pronoun_words), entity, pronoun, role))
    nouns = analyser.read(entities)
    distractor_readings = analyser.read(distractors)
    pronoun_readings = analyser.read_pronouns(pronouns)
    return [
        reader_verdict(noun_gender(noun), noun.evidence, pro if source else None, row.pronoun_words.split(),
                       dis.gender.value if row.distractor_words else None, b)
        for row, noun, pro, dis, source, b in zip(rows, nouns, pronoun_readings, distractor_readings, sources, bound)
    ]
