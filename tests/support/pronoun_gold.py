"""Hand-checked gold samples of the gender a translation gives the English pronoun, one TSV per
language in tests/gold/pronoun/.

Columns: index (0-based row of WinoMT 2019, = line of the published output), system, pronoun_words
(the target words that render the pronoun or carry its gender — a pronoun, a participle, a verb form,
an adjective — as discotest tokenises them, space-joined, contiguous; empty when there are none),
gender (male / female / neutral / unknown), omitted (empty, or a key of OMISSION_REASONS when the target
cannot show the pronoun's gender), justification (one line a reviewer can check).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from discotest.gender.mentions import english_pronoun
from discotest.gender.winomt import load_winomt
from discotest.lang.lexicon import find_entity_tokens
from discotest.lang.morph.base import PronounTarget
from discotest.lang.tokenize import tokenize
from tests.support.gender_gold import find_span, published_translation

GOLD_DIR = Path(__file__).resolve().parents[1] / "gold" / "pronoun"
COLUMNS = ["index", "system", "pronoun_words", "gender", "omitted", "justification"]


@dataclass(frozen=True)
class PronounGoldRow:
    lang: str
    line: int
    index: int
    system: str
    pronoun_words: str
    gender: str
    omitted: str
    justification: str


def load_pronoun_gold(lang: str) -> list[PronounGoldRow]:
    path = GOLD_DIR / f"{lang}.tsv"
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        assert reader.fieldnames == COLUMNS, f"{path}: header must be {COLUMNS}"
        return [
            PronounGoldRow(lang, n, int(r["index"]), r["system"], r["pronoun_words"], r["gender"], r["omitted"],
                           r["justification"])
            for n, r in enumerate(reader, start=2)
        ]


def gold_pronoun_target(row: PronounGoldRow) -> PronounTarget:
    """The translation with the gold pronoun words marked and the entity found by the lexicon."""
    item = load_winomt("2019")[row.index]
    sentence = published_translation(row.system, row.lang, row.index)
    tokens = tokenize(sentence, row.lang)
    span = find_span(tokens, row.pronoun_words) if row.pronoun_words else ()
    if span is None:
        raise AssertionError(f"{GOLD_DIR / (row.lang + '.tsv')}:{row.line}: {row.pronoun_words!r} not in {sentence!r}")
    pronoun, role = english_pronoun(item)
    entity = find_entity_tokens(tokens, item.entity, row.lang)
    return PronounTarget(sentence, tokens, span, entity, pronoun, role)
