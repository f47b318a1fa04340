"""Wino-X (Emelin & Sennrich 2021), its MT part: Winograd schemas whose English "it" must become a gendered
pronoun in German, French or Russian.

The published file (``data/mt/en_<lang>_test.jsonl`` of the Hugging Face dataset ``demelin/wino_x``) has one
JSON object per line: ``qID``, ``sentence`` (English, with "it"), ``translation1``/``translation2`` (the sentence
translated with the pronoun referring to option 1 / option 2), ``answer`` (1 or 2), ``pronoun1``/``pronoun2`` (the
target pronoun of each translation), ``referent1_en``/``referent2_en`` (the two English options) and the target
translations of the referents. Only the first seven are required here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import json_objects, require
from discotest.errors import InputError

LANGUAGES = ("de", "fr", "ru")
REQUIRED = ("sentence", "translation1", "translation2", "answer", "pronoun1", "pronoun2")


@dataclass(frozen=True)
class WinoxItem:
    index: int
    qid: str
    sentence: str  # English source, the ambiguous "it" in it
    translations: tuple[str, str]  # the pronoun refers to option 1 / option 2
    answer: int  # 1 or 2: which translation is right
    pronouns: tuple[str, str]  # the target pronoun of each translation
    referents: tuple[str, str]  # the English options ("" when the file does not give them)
    line: int

    @property
    def gold_pronoun(self) -> str:
        return self.pronouns[self.answer - 1]

    @property
    def wrong_pronoun(self) -> str:
        return self.pronouns[2 - self.answer]

    @property
    def gold_translation(self) -> str:
        return self.translations[self.answer - 1]

    @property
    def wrong_translation(self) -> str:
        return self.translations[2 - self.answer]

    @property
    def gold_referent(self) -> str:
        return self.referents[self.answer - 1]


def read_winox(path: str | Path) -> list[WinoxItem]:
    """Read a Wino-X MT file; every problem is an InputError naming the file and line."""
    items: list[WinoxItem] = []
    for number, row in json_objects(path):
        missing = [name for name in REQUIRED if name not in row]
        if missing:
            raise InputError(f"missing Wino-X field {missing[0]!r}", path, number)
        answer = require(row, "answer", (int, str), path, number)
        if answer not in (1, 2, "1", "2"):
            raise InputError(f"answer must be 1 or 2, not {answer!r}"[:80], path, number)
        answer = int(answer)
        texts = [row[name] for name in REQUIRED if name != "answer"]
        if not all(isinstance(t, str) and t.strip() for t in texts):
            raise InputError("sentence, translations and pronouns must be non-empty strings", path, number)
        qid = require(row, "qID", (str, int), path, number, default=f"line-{number}")
        items.append(WinoxItem(
            index=len(items), qid=str(qid), sentence=row["sentence"].strip(),
            translations=(row["translation1"].strip(), row["translation2"].strip()), answer=answer,
            pronouns=(row["pronoun1"].strip(), row["pronoun2"].strip()),
            referents=(require(row, "referent1_en", str, path, number, default=""),
                       require(row, "referent2_en", str, path, number, default="")), line=number,
        ))
    if not items:
        raise InputError("no Wino-X items in the file", path)
    return items


def load_winox(lang: str, data_dir: str | Path | None = None, suite_file: str | Path | None = None) -> list[WinoxItem]:
    """The Wino-X MT items for ``lang``: ``suite_file`` if given, else the registry's file in the data dir."""
    if lang not in LANGUAGES:
        raise InputError(f"Wino-X has no language {lang!r}; choose from {', '.join(LANGUAGES)}")
    return read_winox(suite_file or catalogue.locate(f"winox-{lang}", data_dir))
