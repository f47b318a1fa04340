"""WinoMT with stereotypical adjectives ("fighting bias with bias", Stanovsky et al. 2019 §5).

The authors put an adjective that matches the gold gender by stereotype before the entity of every
anti-stereotypical WinoMT sentence ("the pretty developer", "the handsome designer") and published Google's and
Bing's translations of the result. No suite file of these sentences was published: the items are read from the
sources of a published output (all sixteen have the same sources), each checked against its row of the 2019
``en_anti.txt`` — the same words with exactly one of ``ADJECTIVES`` inserted before the entity. An item keeps the
row's index in ``en_anti.txt``, gold gender and entity; its entity index moves one word right.
"""

from __future__ import annotations

from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.errors import InputError
from discotest.gender.winomt import GenderItem, read_gender_tsv

SUITE = "winomt-adj"
ADJECTIVES = {"male": "handsome", "female": "pretty"}
# the published output whose sources define the items (every output has the same sources:
# tests/gender/test_winomt_adj.py)
ITEMS_FROM = "winomt-adj-google-de"
_BITEXT = "|||"  # the published outputs are "source ||| translation" lines


def adjective_item(row: GenderItem, sentence: str, path: Path, line: int) -> GenderItem:
    """The row with its adjective inserted, or an error naming the line when ``sentence`` is not that."""
    words, adjective = row.sentence.split(" "), ADJECTIVES.get(row.gold)
    expected = [*words[:row.entity_index], adjective, *words[row.entity_index:]]
    if adjective is None or sentence.split(" ") != expected:
        raise InputError(f"not row {row.index + 1} of en_anti.txt with '{adjective}' before its entity "
                         f"({row.entity!r})", path, line)
    return GenderItem(row.index, row.gold, row.entity_index + 1, sentence, row.entity, "anti")


def load_winomt_adj(root: str | Path | None = None) -> list[GenderItem]:
    """The 1,584 adjective items, in ``en_anti.txt`` order."""
    rows = read_gender_tsv(catalogue.locate(SUITE, root))
    path = catalogue.locate(ITEMS_FROM, root)
    lines = read_lines(path)
    if len(lines) != len(rows):
        raise InputError(f"{len(lines)} lines, while en_anti.txt has {len(rows)} rows", path, min(len(lines),
                                                                                               len(rows)) + 1)
    return [adjective_item(row, line.split(_BITEXT, 1)[0].strip(), path, number)
            for number, (row, line) in enumerate(zip(rows, lines), start=1)]
