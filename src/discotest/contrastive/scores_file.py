"""Candidate scores computed elsewhere: one number per line, one line per candidate, items in suite order and
candidates in the order the suite lists them (for Voita, the ``dst`` order). Higher is better unless the file
holds losses. Only the first tab-separated column is read, and it must be exactly one number: "0.5 0.7" is refused
rather than read as 0.5. Scores carry no source, so the file is matched by position and its line count must be the
suite's candidate count."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from discotest.data.contrastive_item import ContrastiveItem, split_by_item
from discotest.data.readers import finite_number, read_lines
from discotest.errors import InputError


def read_scores(path: str | Path, items: Sequence[ContrastiveItem], losses: bool = False) -> list[list[float]]:
    """Per item, one score per candidate (higher = better; losses are negated)."""
    lines = read_lines(path)
    expected = sum(len(item.candidates) for item in items)
    values = []
    for number, line in enumerate(lines, start=1):
        text = line.split("\t")[0].strip()  # a TSV's further columns are ignored, a second number is not
        if not text:
            raise InputError("empty line: expected one number per line", path, number)
        value = finite_number(text, "score", path, number)
        values.append(-value if losses else value)
    if len(values) != expected:
        raise InputError(f"{len(values)} scores for {expected} candidates of {len(items)} items "
                         "(one line per candidate, in suite order)", path)
    return split_by_item(values, items)
