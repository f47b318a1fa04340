"""BUG gold (Levy, Lazar, Stanovsky 2021): naturally occurring sentences in WinoMT's format.

The WinoMT-format file carries gender, entity index, sentence and profession. Its stereotype label
(1 stereotypical, -1 anti-stereotypical, 0 neutral) lives in the annotated CSV of the same gold set;
rows are joined on (sentence, profession), which covers 1622 of the 1629 rows. Rows without a
label, and the neutral ones, take part in accuracy but not in ΔS.
"""

from __future__ import annotations

from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import csv_rows
from discotest.errors import InputError
from discotest.gender.winomt import GenderItem, read_gender_tsv

FILES = ("bug-gold", "bug-gold-annotations")  # the rows, then their stereotype labels
_STEREOTYPE = {"1": "pro", "-1": "anti", "0": None}


def _key(sentence: str, profession: str) -> tuple[str, str]:
    return " ".join(sentence.split()), profession.strip().lower()


def read_stereotypes(path: str | Path) -> dict[tuple[str, str], str | None]:
    """(sentence, profession) -> pro / anti / None from BUG's annotated gold CSV."""
    out: dict[tuple[str, str], str | None] = {}
    _, reader = csv_rows(path)
    for line, row in reader:
        if None in row.values():
            raise InputError("fewer cells than columns", path, line)
        try:
            out[_key(row["sentence_text"], row["profession"])] = _STEREOTYPE[row["stereotype"].strip()]
        except KeyError as exc:
            raise InputError(f"missing column or unknown stereotype value ({exc})", path, line) from None
    return out


def load_bug(root: str | Path | None = None) -> list[GenderItem]:
    """The 1628 usable BUG gold rows (row 583 has no sentence, "nan" in the export), tagged pro/anti."""
    items = read_gender_tsv(catalogue.locate(FILES[0], root), missing_sentence="nan")
    labels = read_stereotypes(catalogue.locate(FILES[1], root))
    return [
        GenderItem(i.index, i.gold, i.entity_index, i.sentence, i.entity, labels.get(_key(i.sentence, i.entity)))
        for i in items
    ]
