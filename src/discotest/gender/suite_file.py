"""Your own gender suite (``--suite-file``): WinoMT's TSV or JSONL, read into the same items as the registered suites,
so a file scores with the same verdicts (tests/gender/test_suite_file.py: WinoMT given as a file equals ``run
winomt``).

TSV (WinoMT's, as mt_gender scores it): gold gender, the 0-based index of the entity's first word in the space-split
sentence, the sentence, the entity; further columns are ignored. Its rows are tagged pro/anti-stereotypical (ΔS) from
WinoMT's layout: ``NAME_pro.EXT`` and ``NAME_anti.EXT`` beside ``NAME.EXT``, when both are there.

JSONL: ``gold``, ``entity_index``, ``sentence``, ``entity``, and optionally ``stereotype`` (``pro``/``anti``/null) and
``id`` (unique). A field spelled close to one of these is refused (read as the user's own field, it would leave the
real one unset); other fields are ignored.

Every problem is one InputError naming the file and line: a bad gold gender, an index outside the sentence, an
entity that is not in its sentence, a repeated id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import is_stdin, json_objects, read_lines, require
from discotest.errors import InputError, did_you_mean
from discotest.gender.winomt import GOLD_GENDERS, GenderItem, _key, _rows, strip_article

FIELDS = ("id", "gold", "entity_index", "sentence", "entity", "stereotype")
STEREOTYPES = ("pro", "anti")
SUBSETS = ("pro", "anti")


@dataclass(frozen=True)
class SuiteFile:
    """A user's gender suite: its items and the signature's ``version``: ``file@<sha8>`` (the first 8 hex digits of
    its sha256), with ``+pro@<sha8>+anti@<sha8>`` when subset files tag it (they change ΔS); ``file`` for stdin. A
    file of the data directory given by path is signed so too, and ``files:`` also names it."""

    items: tuple[GenderItem, ...]
    version: str


def _shown(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _words(text: str) -> list[str]:
    """Lower-cased words without the punctuation around them: how an entity is found in its sentence."""
    return [w for w in (re.sub(r"^\W+|\W+$", "", word).lower() for word in text.split()) if w]


def _check_entity(entity: str, sentence: str, path: str | Path, line: int) -> None:
    """Refuse an entity whose words do not occur together in its sentence (a row whose entity and sentence do not
    belong together: its verdict would read a word the sentence never had). The index is not held to the entity's
    position: the registered suites' own rows are off by a word at times (WinoMT's row 2551 has a double space)."""
    wanted, words = _words(entity), _words(sentence)
    if not wanted or not any(words[i:i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1)):
        raise InputError(f"entity {_shown(entity)} is not in its sentence", path, line)


def _subset_files(path: Path) -> list[tuple[str, Path]]:
    """WinoMT's stereotype subsets beside ``path`` (``en.txt`` → ``en_pro.txt``, ``en_anti.txt``): both, or none."""
    found = [(subset, path.with_name(f"{path.stem}_{subset}{path.suffix}")) for subset in SUBSETS]
    return found if all(p.is_file() for _, p in found) else []


def _is_jsonl(path: str | Path) -> bool:
    """JSONL when the first non-empty line is a JSON object (a TSV row starts with its gold gender)."""
    return next((line.lstrip().startswith("{") for line in read_lines(path) if line.strip()), False)


def _tsv_items(path: str | Path) -> list[GenderItem]:
    items = []
    for index, gold, start, sentence, entity in _rows(path):
        _check_entity(entity, sentence, path, index + 1)
        items.append(GenderItem(index, gold, start, sentence, entity))
    return items


def _jsonl_items(path: str | Path) -> list[GenderItem]:
    items: list[GenderItem] = []
    seen: dict[object, int] = {}
    for number, row in json_objects(path):
        for name in row:
            close = did_you_mean(name, FIELDS) if name not in FIELDS else ""
            if close:
                raise InputError(f"unknown field {_shown(name)}{close}", path, number)
        gold = require(row, "gold", str, path, number)
        if gold not in GOLD_GENDERS:
            raise InputError(f"gold gender must be one of {', '.join(GOLD_GENDERS)}, found {_shown(gold)}", path,
                             number)
        start = require(row, "entity_index", int, path, number)
        if start < 0:
            raise InputError(f"entity_index must be at least 0, got {start}", path, number)
        sentence = require(row, "sentence", str, path, number)
        entity = strip_article(require(row, "entity", str, path, number).strip())
        if not entity or start + len(entity.split()) > len(sentence.split(" ")):
            raise InputError(f"entity index {start} is outside the sentence", path, number)
        _check_entity(entity, sentence, path, number)
        stereotype = require(row, "stereotype", (str, type(None)), path, number, default=None)
        if stereotype is not None and stereotype not in STEREOTYPES:
            raise InputError(f"stereotype must be pro, anti or null, found {_shown(stereotype)}", path, number)
        if "id" in row:
            item_id = require(row, "id", (str, int), path, number)
            if item_id in seen:
                raise InputError(f"item id {_shown(item_id)} repeats the id of line {seen[item_id]}", path, number)
            seen[item_id] = number
        items.append(GenderItem(len(items), gold, start, sentence, entity, stereotype))
    if not items:
        raise InputError("no items in the file", path)
    return items


def load_suite_file(path: str | Path, data_dir: str | Path | None = None) -> SuiteFile:
    """The items of a user's gender suite and its signature version; a file inside the data directory (WinoMT's
    own, given by path) is checked against its pin and recorded, as the registered suite's files are."""
    if _is_jsonl(path):
        items, subsets = _jsonl_items(path), []
    else:
        items = _tsv_items(path)
        subsets = [] if is_stdin(path) else _subset_files(Path(path))
        if not items:
            raise InputError("no items in the file", path)
    tags: dict[tuple[str, str, int, str], str] = {}
    for subset, subset_path in subsets:  # tagged as load_winomt tags the registered suite
        for _, *fields in _rows(subset_path):
            tags[_key(*fields)] = subset
    if tags:
        items = [GenderItem(*(item.index, item.gold, item.entity_index, item.sentence, item.entity),
                            tags.get(_key(item.gold, item.entity_index, item.sentence, item.entity)))
                 for item in items]
    versions = []
    for name, file in (("file", path), *subsets):
        if is_stdin(file):
            versions.append(name)  # read once: nothing to hash it by again
            continue
        catalogue.check_file(file, data_dir)  # the data dir's own file, given by path, is held to its pin
        versions.append(f"{name}@{catalogue.sha256_of(Path(file))[:8]}")
    return SuiteFile(tuple(items), "+".join(versions))
