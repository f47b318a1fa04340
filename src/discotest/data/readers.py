"""Reading user and suite text files safely: every problem becomes an InputError naming file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from discotest.errors import InputError


def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 text file without line ends; a BOM and CRLF line ends are accepted.

    A final newline does not make an extra empty line. Undecodable bytes are reported with the
    number of the line they are on.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a text file", path) from None
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path) from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("file is UTF-16; save it as UTF-8", path, 1)
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = []
    for number, line in enumerate(lines, start=1):
        if line.endswith(b"\r"):
            line = line[:-1]
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise InputError(f"not valid UTF-8 (byte {exc.start + 1} of the line)", path, number) from None
    return out


def json_objects(path: str | Path) -> Iterator[tuple[int, dict]]:
    """(line number, object) for every non-empty line of a JSONL file; anything else is an InputError there."""
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON ({exc.msg})", path, number) from None
        if not isinstance(row, dict):
            raise InputError("expected a JSON object", path, number)
        yield number, row
