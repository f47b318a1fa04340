"""WinoMT (Stanovsky et al. 2019) and suites in its TSV format (BUG gold).

Each row: gold gender, 0-based index of the entity's first word in the space-split sentence, the
sentence, and the entity (a profession; the 2019 files prefix it with its article).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import read_lines, whole_number
from discotest.errors import InputError

GOLD_GENDERS = ("male", "female", "neutral")
_ARTICLES = ("the ", "a ", "an ")


@dataclass(frozen=True)
class GenderItem:
    """One suite row: the English sentence and the entity whose gender the pronoun decides."""

    index: int  # 0-based row in the suite file
    gold: str  # male / female / neutral
    entity_index: int  # first word of the entity in sentence.split(" ")
    sentence: str
    entity: str  # without article, e.g. "construction worker"
    stereotype: str | None = None  # "pro" / "anti" / None (WinoMT subsets)

    @property
    def entity_word_span(self) -> range:
        """Word positions of the entity in ``sentence.split(" ")``."""
        return range(self.entity_index, self.entity_index + len(self.entity.split()))


def strip_article(entity: str) -> str:
    lowered = entity.lower()
    for article in _ARTICLES:
        if lowered.startswith(article):
            return entity[len(article):]
    return entity


def read_gender_tsv(path: str | Path, missing_sentence: str | None = None) -> list[GenderItem]:
    """Parse a WinoMT-format TSV (extra columns, e.g. BUG's corpus, are ignored).

    ``missing_sentence``: a placeholder some exports write for an empty sentence (pandas' "nan" in
    BUG); such rows are skipped. An item's ``index`` is always its 0-based row in the file.
    """
    return [GenderItem(*row) for row in _rows(path, missing_sentence)]


def _rows(path: str | Path, missing_sentence: str | None = None) -> Iterator[tuple[int, str, int, str, str]]:
    """``read_gender_tsv``'s items as their fields (index, gold, entity index, sentence, entity), checked the same."""
    for number, line in enumerate(read_lines(path), start=1):
        cols = line.split("\t")
        if len(cols) < 4:
            raise InputError(f"expected 4 tab-separated columns, found {len(cols)}", path, number)
        gold, index, sentence, entity = (c.strip() for c in cols[:4])
        if missing_sentence is not None and sentence == missing_sentence:
            continue
        if gold not in GOLD_GENDERS:
            raise InputError(f"gold gender must be one of {', '.join(GOLD_GENDERS)}, found {gold!r}", path, number)
        start = whole_number(index, "the entity index", path, number, minimum=0)
        entity = strip_article(entity)
        words = sentence.split(" ")
        if not entity or start + len(entity.split()) > len(words):
            raise InputError(f"entity index {start} is outside the sentence", path, number)
        yield number - 1, gold, start, sentence, entity


def _key(gold: str, start: int, sentence: str, entity: str) -> tuple[str, str, int, str]:
    return (gold, sentence, start, entity.lower())


def winomt_files(suite: str = "winomt", version: str = "current") -> tuple[str, tuple[tuple[str, str], ...]]:
    """The catalogue names of a WinoMT-style suite's file and of its stereotype subsets' (subset, name)."""
    subsets = []
    for subset in ("pro", "anti"):
        try:
            subsets.append((subset, catalogue.suite_file(suite, version, subset)))
        except InputError:
            continue  # a suite without stereotype subsets (BUG gold): no ΔS
    return catalogue.suite_file(suite, version), tuple(subsets)


def load_winomt(version: str = "current", root: str | Path | None = None, suite: str = "winomt") -> list[GenderItem]:
    """A WinoMT-style suite with each row tagged pro/anti-stereotypical from its subset files."""
    main_name, subset_names = winomt_files(suite, version)
    main = catalogue.locate(main_name, root)  # checked and recorded on every call
    subsets = [(subset, catalogue.locate(name, root)) for subset, name in subset_names]
    files = (main, *(path for _, path in subsets))
    return list(_tagged_items(main, tuple(subsets), tuple(_stamp(path) for path in files)))


def _stamp(path: Path) -> tuple[int, int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


@functools.lru_cache(maxsize=8)
def _tagged_items(main: Path, subsets: tuple[tuple[str, Path], ...], stamps: tuple) -> tuple[GenderItem, ...]:
    """The parsed and tagged rows, once per process while the files are unchanged (``stamps``: size, mtime and ctime
    of each): a run loads the suite in the parent and again for each language. ``catalogue.locate`` still checks and
    records the files on every call."""
    rows = list(_rows(main))
    tags: dict[tuple[str, str, int, str], str] = {}
    for subset, path in subsets:  # the subsets' rows as keys only: each item is made once, with its tag
        for _, *fields in _rows(path):
            tags[_key(*fields)] = subset
    return tuple(GenderItem(*row, tags.get(_key(*row[1:]))) for row in rows)
