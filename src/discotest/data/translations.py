"""Translations from files: plain text, ``source ||| translation`` lines, or JSONL.

A row lands on exactly the suite row it belongs to, or the file is refused with one line naming file:line;
nothing is guessed. The rules:

- **Format.** ``auto`` (the default) reads JSONL when every non-empty line is a JSON object, ``source |||
  translation`` when every non-empty line holds exactly one ``|||``, and plain text otherwise. A file that is
  neither, but where some line looks like JSONL (an object with a translation key), or like ``suite source |||
  translation``, or where most lines hold ``|||``, is refused at the first line that does not fit: it is a broken
  file of that kind, and read as plain text it would score ``source ||| translation`` strings as translations.
  ``input_format`` (plain, bitext, jsonl) forces a reading, e.g. for plain text in which most lines hold ``|||``.
- **By position** (plain text, JSONL without sources): one line per suite row, in suite order. A suite that
  skips rows of its file (BUG's row without a sentence) also accepts one line per row of that file; the lines of
  skipped rows are ignored. Any other line count is refused: a subset needs sources.
- **By source** (``|||`` lines, JSONL with ``source``/``src``): every source must be a suite row's source (after
  collapsing whitespace); the first that is not is refused, so a file made for another suite or suite version
  does not score. A subset is fine: suite rows without a translation are listed in ``unmatched``.
- **A source the suite holds several times** (the same sentence, e.g. with another entity): given once, its
  translation goes to every such row (same input, same translation); given exactly as many times as the suite has
  it, the copies go to the rows in suite order (the published WinoMT outputs); copies with one identical
  translation collapse into one. Any other repetition is refused at its second occurrence.
- **Context-dependent suites** (``context_dependent``: mZPRT, whose repeated sentences sit in different
  documents with different zero pronouns): a source the suite holds several times must be given exactly as many
  times, in suite order; given fewer times it is refused as ambiguous (which occurrence is it?).
- **Aliases** (suites whose source carries context, e.g. CTXPRO's ``context <eos> sentence`` lines): a file
  source may also be the bare sentence, but only when every suite row with that sentence has the same context;
  otherwise it is refused as ambiguous.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from discotest.data.readers import read_lines
from discotest.errors import InputError

SEPARATOR = "|||"
INPUT_FORMATS = ("auto", "plain", "bitext", "jsonl")
_JSON_TRANSLATION_KEYS = ("translation", "tgt", "hyp", "target")
_JSON_SOURCE_KEYS = ("source", "src")
_FORCE_HINT = " (force a reading with --input-format plain, bitext or jsonl)"


@dataclass
class Translations:
    """Translations keyed by suite row, and the suite rows nothing matched."""

    path: str
    by_row: dict[int, str] = field(default_factory=dict)
    unmatched: list[int] = field(default_factory=list)
    format: str = "plain"
    lines: dict[int, int] = field(default_factory=dict)  # suite row -> the file's line that translates it
    # matched by their sources (``|||``, JSONL with a source): the file's order does not decide which row a line
    # lands on, so two lines cannot be swapped (``lang.correspondence`` leaves its swap test out for such a file)
    by_source: bool = False


Row = tuple[str | None, str, int]  # (source or None, translation, line number)


def _json_object(line: str) -> dict | None:
    if not line.lstrip().startswith("{"):  # not an object (a plain or bitext line: the JSON error cost 10 us a line)
        return None
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) else None


def _bitext_source(line: str) -> str | None:
    """The source of a ``source ||| translation`` line with exactly one separator, else None."""
    return line.split(SEPARATOR, 1)[0] if line.count(SEPARATOR) == 1 else None


def detect_format(path: Path, lines: Sequence[str], known_sources: set[str]) -> str:
    """The ``auto`` reading of ``lines`` (see the module doc); a half-JSONL or half-bitext file is refused."""
    filled = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    objects = [_json_object(line) for _, line in filled]
    if filled and all(obj is not None for obj in objects):
        return "jsonl"
    if any(obj is not None and any(k in obj for k in _JSON_TRANSLATION_KEYS) for obj in objects):
        number = next(n for (n, _), obj in zip(filled, objects) if obj is None)
        _parse_line("jsonl", path, lines[number - 1], number)  # raises with the JSON error of that line
    sources = [_bitext_source(line) for _, line in filled]
    if filled and all(source is not None for source in sources):
        return "bitext"
    with_separator = sum(SEPARATOR in line for _, line in filled)
    if 2 * with_separator > len(filled) or any(s is not None and _norm(s) in known_sources for s in sources):
        number, line = next((n, line) for (n, line), s in zip(filled, sources) if s is None)
        found = "missing" if SEPARATOR not in line else "more than one"
        raise InputError(f"{found} '{SEPARATOR}' between source and translation, while other lines are "
                         f"'source {SEPARATOR} translation'{_FORCE_HINT}", path, number)
    for number, line in filled:  # ["src", "tgt"] or ["tgt"]: a JSON export, which plain text would score verbatim
        if line.lstrip().startswith("[") and isinstance(_json_value(line), list):
            raise InputError("a JSON array, not a plain translation: write JSONL objects ({\"translation\": …}) "
                             f"or plain text{_FORCE_HINT}", path, number)
    return "plain"


def _json_value(line: str) -> object:
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return None


def _parse_line(fmt: str, path: Path, line: str, number: int) -> Row:
    if fmt == "plain":
        return None, line.strip(), number
    if fmt == "bitext":
        if SEPARATOR not in line:
            raise InputError(f"missing '{SEPARATOR}' between source and translation", path, number)
        source, translation = line.split(SEPARATOR, 1)
        if not translation.strip():
            raise InputError(f"empty translation after '{SEPARATOR}'", path, number)
        return source.strip(), translation.strip(), number
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
    if source is not None and (not isinstance(source, str) or not source.strip()):
        raise InputError("'source' must be a non-empty string", path, number)
    return (source.strip() if source else None), translation.strip(), number


def translation_texts(path: str | Path, input_format: str = "auto") -> list[str]:
    """The translations of a file, without matching them to a suite (the input language check reads these)."""
    lines = read_lines(path)
    fmt = detect_format(Path(path), lines, set()) if input_format == "auto" else input_format
    return [_parse_line(fmt, Path(path), line, number)[1] for number, line in enumerate(lines, start=1)
            if line.strip()]


def with_sources(lines: Sequence[str], input_format: str = "auto") -> list[str] | None:
    """The source of every line when every line has one (``|||`` or JSONL with a source), else None."""
    fmt = detect_format(Path("-"), lines, set()) if input_format == "auto" else input_format
    if fmt == "plain":
        return None
    sources = [_parse_line(fmt, Path("-"), line, number)[0] for number, line in enumerate(lines, start=1)
               if line.strip()]
    return None if any(s is None for s in sources) else [s for s in sources if s is not None]


def read_translations(
    path: str | Path,
    suite_sources: Mapping[int, str] | Sequence[str],
    input_format: str = "auto",
    aliases: Mapping[int, str] | None = None,
    context_dependent: bool = False,
) -> Translations:
    """Read a translation file and match its rows to the suite.

    ``suite_sources``: suite row index -> source, in suite order (a sequence means indices 0, 1, …); the keys are
    what ``by_row`` is keyed by, so a suite whose indices skip rows (BUG) gets them right. ``aliases``: row ->
    a shorter form of its source a file may give instead (the sentence without its context).
    ``context_dependent``: equal sources are different rows (see the module doc).
    """
    path = Path(path)
    sources = dict(suite_sources) if isinstance(suite_sources, Mapping) else dict(enumerate(suite_sources))
    if input_format not in INPUT_FORMATS:
        raise InputError(f"--input-format must be one of {', '.join(INPUT_FORMATS)}, not {input_format!r}")
    lines = read_lines(path)
    if not any(line.strip() for line in lines):
        raise InputError("file is empty", path)
    known = {_norm(s) for s in sources.values()} | {_norm(s) for s in (aliases or {}).values()}
    fmt = detect_format(path, lines, known) if input_format == "auto" else input_format
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError("empty line (every row needs a translation)", path, number)
        rows.append(_parse_line(fmt, path, line, number))
    result = Translations(str(path), format=fmt)
    with_source = [row for row in rows if row[0] is not None]
    if with_source and len(with_source) != len(rows):
        lacking = next(row for row in rows if row[0] is None)
        raise InputError(f"no source, while line {with_source[0][2]} has one (give a source on every line, "
                         "or on none to match by position)", path, lacking[2])
    if with_source:
        hint = _FORCE_HINT if input_format == "auto" else ""
        result.by_row, result.lines = _match_by_source(path, rows, sources, aliases or {}, hint, context_dependent)
        result.by_source = True
    else:
        result.by_row, result.lines = _match_by_position(path, rows, list(sources))
    result.unmatched = [i for i in sources if i not in result.by_row]
    return result


def _match_by_position(path: Path, rows: Sequence[Row], order: list[int]) -> tuple[dict[int, str], dict[int, int]]:
    """Suite row -> translation, and suite row -> line number."""
    if len(rows) == len(order):
        return ({index: translation for index, (_, translation, _) in zip(order, rows)},
                {index: number for index, (_, _, number) in zip(order, rows)})
    if order and len(rows) == max(order) + 1:  # one line per row of the suite file, skipped rows included
        return {index: rows[index][1] for index in order}, {index: rows[index][2] for index in order}
    also = f" or {max(order) + 1} (one per row of the suite file)" if order and max(order) + 1 != len(order) else ""
    raise InputError(
        f"expected {len(order)} lines (one per suite row, in suite order){also}, found {len(rows)}; "
        f"for part of the suite give 'source {SEPARATOR} translation' lines",
        path,
        min(len(rows), len(order)) + 1,
    )


def _match_by_source(
    path: Path, rows: Sequence[Row], sources: Mapping[int, str], aliases: Mapping[int, str], hint: str,
    context_dependent: bool = False,
) -> tuple[dict[int, str], dict[int, int]]:
    """Suite row -> translation (and -> line number) under the module doc's rules; the first row that cannot be
    placed is refused."""
    full: dict[str, list[int]] = defaultdict(list)
    for index, source in sources.items():
        full[_norm(source)].append(index)
    short: dict[str, list[int]] = defaultdict(list)
    for index, source in aliases.items():
        short[_norm(source)].append(index)
    given: dict[str, list[tuple[str, int]]] = defaultdict(list)
    targets: dict[str, list[int]] = {}
    for source, translation, number in rows:
        key = _norm(source)
        if key not in targets:
            if key in full:
                targets[key] = full[key]
            elif key in short:
                contexts = {_norm(sources[i]) for i in short[key]}
                if len(contexts) > 1:
                    raise InputError(
                        f"ambiguous source: the suite has this sentence in {len(short[key])} rows with "
                        f"{len(contexts)} different contexts; give the source with its context",
                        path, number,
                    )
                targets[key] = short[key]
            else:
                raise InputError("source sentence is not in the suite (is this the right suite, version or "
                                 f"language?){hint}", path, number)
        given[key].append((translation, number))
    by_row: dict[int, str] = {}
    placed_by: dict[int, int] = {}
    for key, copies in given.items():
        suite_rows = targets[key]
        if context_dependent and len(suite_rows) > 1 and len(copies) != len(suite_rows):
            raise InputError(
                f"ambiguous source: the suite has this sentence {len(suite_rows)} times in different contexts and "
                f"the file {len(copies)} time{'s' if len(copies) != 1 else ''} (give it once per suite row, in "
                "suite order)",
                path, copies[len(suite_rows)][1] if len(copies) > len(suite_rows) else copies[0][1],
            )
        if len({translation for translation, _ in copies}) == 1:
            pairs = [(index, copies[0]) for index in suite_rows]
        elif len(copies) == len(suite_rows):
            pairs = list(zip(suite_rows, copies))
        else:
            raise InputError(
                f"source given {len(copies)} times with different translations, but the suite has it "
                f"{len(suite_rows)} time{'s' if len(suite_rows) != 1 else ''} (give one translation, or one per "
                "suite row in suite order)",
                path, copies[1][1],
            )
        for index, (translation, number) in pairs:
            if index in by_row and by_row[index] != translation:
                raise InputError(f"a second, different translation of the suite row line {placed_by[index]} "
                                 "already translates", path, number)
            by_row[index], placed_by[index] = translation, number
    return ({index: by_row[index] for index in sources if index in by_row},
            {index: placed_by[index] for index in sources if index in by_row})


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())
