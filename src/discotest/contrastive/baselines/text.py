"""Training text and tokens for the baselines: whitespace words, lower-cased, punctuation dropped; CJK text
(no spaces) falls apart into characters so Japanese and Chinese sources give usable tokens without a segmenter."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from discotest.data.readers import read_lines
from discotest.errors import InputError

_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W_]+(?:'[^\W_]+)?", re.UNICODE)


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def read_training_text(path: str | Path) -> list[tuple[str, str]]:
    """(source, target) per line: ``source ||| target`` lines, or plain target text (source empty)."""
    out = []
    for line in read_lines(path):
        if "|||" in line:
            src, _, tgt = line.partition("|||")
            out.append((src.strip(), tgt.strip()))
        elif line.strip():
            out.append(("", line.strip()))
    if not out:
        raise InputError("training text is empty", path)
    return out


def differing_words(candidate: str, others: Sequence[str]) -> list[str]:
    """Words of ``candidate`` missing from at least one other candidate: the pronoun (and its agreement)."""
    mine = tokens(candidate)
    other_sets = [set(tokens(o)) for o in others]
    out = [w for w in mine if any(w not in s for s in other_sets)]
    return out or mine[:1]
