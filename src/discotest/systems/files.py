"""Translations from files: plain text, ``source ||| translation`` lines, or JSONL.

Rows are matched to the suite by line, or by source sentence when the file carries sources (the
published WinoMT outputs do). Suite rows with no translation are reported, never a crash.
"""

from __future__ import annotations

import json
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from discotest.data.readers import read_lines
from discotest.errors import InputError

SEPARATOR = "|||"
_JSON_TRANSLATION_KEYS = ("translation", "tgt", "hyp", "target")
_JSON_SOURCE_KEYS = ("source", "src")


@dataclass
class Translations:
    """Translations keyed by suite row, and the suite rows nothing matched."""

    path: str
    by_row: dict[int, str] = field(default_factory=dict)
    unmatched: list[int] = field(default_factory=list)
    format: str = "plain"


def _parse(path: Path, lines: list[str]) -> tuple[str, list[tuple[str | None, str, int]]]:
    """(format, [(source or None, translation, line number)]) with every row checked."""
    first = next((line for line in lines if line.strip()), "")
    if first.lstrip().startswith("{"):
        fmt = "jsonl"
    elif SEPARATOR in first:
        fmt = "bitext"
    else:
        fmt = "plain"
    rows: list[tuple[str | None, str, int]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError("empty line (every row needs a translation)", path, number)
        if fmt == "plain":
            rows.append((None, line.strip(), number))
        elif fmt == "bitext":
            if SEPARATOR not in line:
                raise InputError(f"missing '{SEPARATOR}' between source and translation", path, number)
            source, translation = line.split(SEPARATOR, 1)
            if not translation.strip():
                raise InputError(f"empty translation after '{SEPARATOR}'", path, number)
            rows.append((source.strip(), translation.strip(), number))
        else:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"invalid JSON ({exc.msg})", path, number) from None
            if not isinstance(obj, dict):
                raise InputError("expected a JSON object per line", path, number)
            translation = next((obj[k] for k in _JSON_TRANSLATION_KEYS if k in obj), None)
            if not isinstance(translation, str) or not translation.strip():
                raise InputError(f"no non-empty string under any of {', '.join(_JSON_TRANSLATION_KEYS)}", path, number)
            source = next((obj[k] for k in _JSON_SOURCE_KEYS if k in obj), None)
            if source is not None and not isinstance(source, str):
                raise InputError("'source' must be a string", path, number)
            rows.append((source.strip() if source else None, translation.strip(), number))
    return fmt, rows


def read_translations(path: str | Path, suite_sources: Sequence[str]) -> Translations:
    """Read a translation file and match its rows to ``suite_sources`` (one per suite row)."""
    path = Path(path)
    fmt, rows = _parse(path, read_lines(path))
    result = Translations(str(path), format=fmt)
    if not rows:
        raise InputError("file is empty", path)
    with_sources = all(source is not None for source, _, _ in rows)
    if not with_sources:
        if len(rows) != len(suite_sources):
            raise InputError(
                f"expected {len(suite_sources)} lines (one per suite row), found {len(rows)}",
                path,
                min(len(rows), len(suite_sources)) + 1,
            )
        result.by_row = {i: translation for i, (_, translation, _) in enumerate(rows)}
        return result
    # Match by source sentence; repeated sources are consumed in file order.
    queue: dict[str, deque[str]] = defaultdict(deque)
    for source, translation, _ in rows:
        queue[_norm(source)].append(translation)
    last: dict[str, str] = {}
    for index, source in enumerate(suite_sources):
        key = _norm(source)
        if queue.get(key):
            last[key] = result.by_row[index] = queue[key].popleft()
        elif key in last:  # the suite repeats a sentence the file holds once
            result.by_row[index] = last[key]
        else:
            result.unmatched.append(index)
    if not result.by_row:
        raise InputError("no row's source sentence matches the suite; is this the right suite or language?", path)
    return result


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())
