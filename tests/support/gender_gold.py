"""Hand-checked gold samples of target-side gender, one TSV per language in tests/gold/gender/.

Columns: index (0-based row of WinoMT, = line of the published output), system (a WinoMT output; ``adj-google``,
``adj-bing``: the published winomt-adj output, its index the row of ``en_anti.txt``), target_entity (the
words of the translation that render the English entity, as discotest tokenises them, space-joined),
gender (male / female / neutral / unknown: the grammatical gender the *translation* gives the entity,
not WinoMT's gold), justification (one line a reviewer can check), and optionally pronoun_words (the words that
render the English pronoun, space-joined; only where the entity's own words are silent and the pronoun's decide:
``gender.pipeline.complete_silent``; empty when the translation drops it).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.gender.pipeline import complete_silent
from discotest.gender.winomt import GenderItem, load_winomt
from discotest.gender.winomt_adj import load_winomt_adj
from discotest.lang.morph.base import GenderAnalyser, GenderReading, TargetEntity
from discotest.lang.tokenize import normalise_moses, tokenize

GOLD_DIR = Path(__file__).resolve().parents[1] / "gold" / "gender"
COLUMNS = ["index", "system", "target_entity", "gender", "justification"]
ADJ = "adj-"  # system prefix of a row from a published winomt-adj output (an adjective before the entity)
OPTIONAL = ["pronoun_words"]


@dataclass(frozen=True)
class GoldRow:
    lang: str
    line: int  # line in the TSV, for messages
    index: int
    system: str
    target_entity: str
    gender: str
    justification: str
    pronoun_words: str = ""


def load_gold(lang: str) -> list[GoldRow]:
    path = GOLD_DIR / f"{lang}.tsv"
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        assert reader.fieldnames in (COLUMNS, COLUMNS + OPTIONAL), f"{path}: header must be {COLUMNS} (+ {OPTIONAL})"
        return [
            GoldRow(lang, n, int(r["index"]), r["system"], r["target_entity"], r["gender"], r["justification"],
                    r.get("pronoun_words") or "")
            for n, r in enumerate(reader, start=2)
        ]


def published_translation(system: str, lang: str, index: int) -> str:
    lines = read_lines(catalogue.locate(f"winomt-{system}-{lang}"))
    return normalise_moses(lines[index].split("|||", 1)[1].strip())


def find_span(tokens: tuple, words: str) -> tuple[int, ...] | None:
    """Indices of the first contiguous token run equal to ``words`` (space-separated)."""
    wanted = words.split()
    texts = [t.text for t in tokens]
    for start in range(len(texts) - len(wanted) + 1):
        if texts[start : start + len(wanted)] == wanted:
            return tuple(range(start, start + len(wanted)))
    return None


def gold_entity(row: GoldRow) -> TargetEntity:
    """The translation with the gold target-entity words marked (an empty span if the gold has none)."""
    sentence = published_translation(row.system, row.lang, row.index)
    tokens = tokenize(sentence, row.lang)
    span = find_span(tokens, row.target_entity) if row.target_entity else ()
    if span is None:
        raise AssertionError(f"{GOLD_DIR / (row.lang + '.tsv')}:{row.line}: {row.target_entity!r} not in {sentence!r}")
    return TargetEntity(sentence, tokens, span)


def gold_readings(rows: Sequence[GoldRow], analyser: GenderAnalyser) -> list[GenderReading]:
    """The analyser's readings of the gold words, a silent noun completed by the gold pronoun words as the pipeline
    completes it by the aligned ones (``complete_silent``)."""
    targets = [gold_entity(r) for r in rows]
    by_index = suite_items(rows)

    def pronoun_words(k: int, _mention: object) -> tuple[int, ...]:
        words = rows[k].pronoun_words
        span = find_span(targets[k].tokens, words) if words else ()
        if span is None:
            raise AssertionError(f"{GOLD_DIR / (rows[k].lang + '.tsv')}:{rows[k].line}: {words!r} not in the sentence")
        return span

    items = [by_index[r.system.startswith(ADJ), r.index] for r in rows]
    return complete_silent(items, targets, analyser.read(targets), analyser, pronoun_words)


def suite_items(rows: Sequence[GoldRow]) -> dict[tuple[bool, int], GenderItem]:
    """(is a winomt-adj row, index) -> the suite item the row's translation renders."""
    out = {(False, item.index): item for item in load_winomt("2019")}
    if any(r.system.startswith(ADJ) for r in rows):
        out.update({(True, item.index): item for item in load_winomt_adj()})
    return out
