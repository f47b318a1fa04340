"""Candidate scores computed elsewhere, as a scoring backend: one number per line, one line per candidate, requests
(suite items) in order and candidates in the order they list them (for Voita, the ``dst`` order). Higher is better
unless the file holds losses. Only the first tab-separated column is read, and it must be exactly one number: "0.5
0.7" is refused rather than read as 0.5. Scores carry no source, so the file is matched by position and its line
count must be the requests' candidate count. The numbers are not log-probabilities with token counts, and the
context size does not change them."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from discotest.data.readers import finite_number, read_lines, system_name
from discotest.errors import InputError
from discotest.models.interface import LogProb, Scorer, ScoreRequest, split_by_item


def read_scores(path: str | Path, items: Sequence[Any], losses: bool = False) -> list[list[float]]:
    """Per item (anything with ``candidates``), one score per candidate (higher = better; losses are negated)."""
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


class ScoresFileScorer(Scorer):
    """A scores file as ``door.open_scorer`` gives one: every context size reads the same numbers (token count 0, so
    ``normalise`` leaves them as they are)."""

    kind = "scores-file"
    logprob_scores = False
    takes_context = False

    def __init__(self, path: str | Path, *, losses: bool = False, whole: Sequence[Any] | None = None,
                 keep: Sequence[int] | None = None):
        """``whole`` and ``keep``: the file scores every request of ``whole`` (the whole suite) and the requests asked
        for are those at positions ``keep`` of it (a ``--limit`` sample): the file a user made for the suite is read
        whole, its line count checked against the suite, and the sample's lines picked from it."""
        self.path, self.losses = path, losses
        self.whole, self.keep = whole, keep
        self.name = str(path)

    def fingerprint(self) -> str:
        """The digest of the lines read (standard input, ``-``, is read once and kept)."""
        return hashlib.sha256("\n".join(read_lines(self.path)).encode("utf-8")).hexdigest()

    def system_name(self, k: int) -> str:
        return system_name(self.path)

    def signature_fields(self, k: int) -> list[tuple[str, str]]:
        return [("scores", "losses" if self.losses else "higher-better")]

    def logprobs(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[list[list[LogProb]]]:
        if self.whole is not None and self.keep is not None:
            every = read_scores(self.path, self.whole, self.losses)
            per_item = [every[k] for k in self.keep]
        else:
            per_item = read_scores(self.path, requests, self.losses)
        return [[[(value, 0) for value in row] for row in per_item] for _ in contexts]
