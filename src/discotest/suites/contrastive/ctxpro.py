"""CTXPRO evaluation sets (Wicks & Post 2023): items carry the word a translation must contain (``expected``).

They are scored on a translation, not by model scores: take the last sentence of the output, lower-case it, strip
ASCII punctuation and pass iff `` expected `` occurs in it (the authors' ``ctxpro score``).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

from discotest.data.readers import read_lines, require
from discotest.errors import InputError
from discotest.suites.contrastive.item import ContrastiveItem
from discotest.suites.contrastive.published import _optional_int, _read_json

CONTEXT_SEP = "<eos>"
_PUNCT = str.maketrans("", "", string.punctuation)
_SENT_END = re.compile(r"(?<=[.!?…])\s+(?=\S)")


def load_ctxpro(path: str | Path, inputs: str | Path | None = None) -> list[ContrastiveItem]:
    """Items of one CTXPRO JSON file. ``inputs`` (``release/inputs/…``), when present, gives the source context:
    previous sentences joined by ``<eos>``, the last piece being the test sentence."""
    rows = _read_json(path)
    contexts: list[list[str]] = []
    if inputs is not None:
        lines = read_lines(inputs)
        if len(lines) != len(rows):
            raise InputError(f"{len(lines)} input lines for {len(rows)} CTXPRO items", inputs)
        contexts = [[p.strip() for p in line.split(CONTEXT_SEP)][:-1] for line in lines]
    items = []
    for i, row in enumerate(rows):
        where = f"{path} item {i}"
        src, ref, expected, rule = (require(row, key, str, where)
                                    for key in ("src segment", "ref segment", "expected", "rule"))
        items.append(ContrastiveItem(
            index=i, src=src, candidates=(ref,), correct_index=0,
            src_context=tuple(contexts[i]) if contexts else (), phenomenon=rule,
            distance=_optional_int(row, "ante distance", where), pair=rule, expected=expected,
            meta={"document": row.get("document id"), "segment": row.get("segment id")},
        ))
    return items


def last_sentence(output: str) -> str:
    """The test sentence of a translation made with context: the last ``<eos>`` piece, else the last sentence."""
    if CONTEXT_SEP in output:
        return output.split(CONTEXT_SEP)[-1].strip()
    pieces = _SENT_END.split(output.strip())
    return pieces[-1] if pieces else ""


def contains_expected(output: str, expected: str) -> bool:
    """CTXPRO's pass test on one translation."""
    text = " " + " ".join(last_sentence(output).lower().translate(_PUNCT).split()) + " "
    return f" {expected.lower()} " in text
