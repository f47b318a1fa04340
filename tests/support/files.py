"""Small input files written for a test: a one-row jazp contrastive suite (changed field by field) and a DiP
test-set folder with its manifest; shared by the bad-input, strict-input, suite-file, signature, messages, outputs and
endpoint tests."""

from __future__ import annotations

import json
from pathlib import Path

JAZP_ROW = {"source": "s", "correct": "He came.", "incorrect": ["She came."]}


def write(folder: Path, name: str, data: bytes | str | object) -> str:
    path = folder / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    elif isinstance(data, str):
        path.write_text(data, "utf-8")
    else:
        path.write_text(json.dumps(data), "utf-8")
    return str(path)


def jazp_file(tmp: Path, **change) -> str:
    return write(tmp, "suite.jsonl", json.dumps({**JAZP_ROW, **change}) + "\n")


def dip_tests(tmp: Path, manifest: object, items: dict[str, bytes] | None = None) -> str:
    folder = tmp / "dip"
    folder.mkdir()
    write(folder, "manifest.json", manifest)
    for name, raw in (items or {}).items():
        write(folder, name, raw)
    return str(folder)


MANIFEST = {"data": "wmt22", "pair": "de-en", "ref": "A", "pair_lines": 5, "counts": {"lexical": 1}}
