"""MiTTenS's one CSV (``mittens_dataset_v5.csv``, pinned in the registry as ``mittens``): 3,632 passages, each about
one person whose gender (``encoded_gender``) the authors state.

- ``2en`` rows (suite ``mittens``): a passage in one of 26 languages (``example``), the authors' prompt around it
  (``inputs``: "Translate the following text from X to English. …"), and an English reference (``targets``);
- ``2xx`` rows (suite ``mittens-out``): an English passage and its reference in one of 16 languages.

An item's ``index`` is its CSV row number (the first column), so a row keeps its number in every language subset.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.errors import InputError

SUITE = "mittens"  # into English
SUITE_OUT = "mittens-out"  # out of English
SOURCE = "mittens"  # the registry name of the CSV
FORMATS = {SUITE: "2en", SUITE_OUT: "2xx"}
LANGS_IN = ("am", "ar", "as", "bho", "bn", "cs", "de", "es", "fa", "fi", "fr", "hi", "id", "it", "ja", "lg", "ln",
            "mai", "om", "pl", "pt", "ru", "te", "th", "tr", "zh")
LANGS_OUT = ("am", "ar", "bn", "cs", "de", "es", "fr", "hi", "it", "ja", "pl", "pt", "ru", "te", "th", "zh")
GENDERS = {"feminine": "female", "masculine": "male"}
TEXTS = ("example", "prompt")  # what a model translates: the passage, or the authors' prompt around it
_COLUMNS = ("inputs", "targets", "lang", "encoded_gender", "eval_set_key", "example", "format")


@dataclass(frozen=True)
class MittensItem:
    """One passage: its source text, the authors' prompt, the reference and the person's gender."""

    index: int  # the CSV's row number (first column)
    lang: str  # the other language (source into English, target out of English)
    gender: str  # female / male
    key: str  # the authors' eval_set_key
    source: str  # the passage (``example``)
    prompt: str  # the authors' prompt around it (``inputs``)
    reference: str  # ``targets``
    resource: str = ""  # lang_resource_level
    line: int = 0  # the CSV line the row ends on (rows span lines)

    def text(self, which: str) -> str:
        """What is translated: the passage (``example``) or the authors' prompt (``prompt``)."""
        return self.prompt if which == "prompt" else self.source


def languages(suite: str) -> tuple[str, ...]:
    return LANGS_IN if suite == SUITE else LANGS_OUT


def load_mittens(suite: str, langs: tuple[str, ...] | list[str] | None = None,
                 root: str | Path | None = None) -> list[MittensItem]:
    """The items of ``suite`` (``mittens`` or ``mittens-out``) for ``langs`` (default: all), in CSV order."""
    if suite not in FORMATS:
        raise InputError(f"unknown MiTTenS suite {suite!r}; choose {' or '.join(FORMATS)}")
    known = languages(suite)
    for lang in langs or ():
        if lang not in known:
            raise InputError(f"{suite} has no language {lang!r}; choose from {', '.join(known)}")
    wanted = set(langs or known)
    path = catalogue.locate(SOURCE, root)
    items = []
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in _COLUMNS if c not in (reader.fieldnames or ())]
        if missing:
            raise InputError(f"not the MiTTenS CSV: no column {', '.join(missing)}", path, 1)
        for row in reader:
            if row["format"] != FORMATS[suite] or row["lang"] not in wanted:
                continue
            gender = GENDERS.get(row["encoded_gender"])
            if gender is None or not row[""].isdigit():
                raise InputError(f"malformed row (encoded_gender {row['encoded_gender']!r})", path, reader.line_num)
            items.append(MittensItem(int(row[""]), row["lang"], gender, row["eval_set_key"], row["example"].strip(),
                                     row["inputs"], row["targets"].strip(), row.get("lang_resource_level", ""),
                                     reader.line_num))
    return items
