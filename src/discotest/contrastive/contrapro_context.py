"""ContraPro's context sentences rebuilt from OpenSubtitles2018, as ContraPro's own scripts do.

ContraPro (Müller et al. 2018) ships only the current sentences; the context comes from the OPUS release of
OpenSubtitles2018 de-en in Moses format (``OpenSubtitles2018.de-en.{de,en,ids}``). Its ``opusXML2docs.pl`` cuts
that corpus into documents by the German file named on each ``.ids`` line (``de/1916/7930/5760419.xml.gz`` →
``1916_7930_5760419``), and ``json2text_and_context.pl`` takes, for each item, the ``context`` lines before its
``segment id`` (1-based within the document; empty before the document's start) after checking that the
document's line is the item's source sentence. This module does the same in one streaming pass over the corpus
(22 M lines: never loaded whole), returning ``context`` lines per item, oldest first.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import zip_longest
from pathlib import Path

from discotest.data.readers import is_whole_number, stream_lines
from discotest.errors import InputError

_DOC = re.compile(r"(\d{4}/\d+/\d+)\.xml")


def document_key(value: str) -> str:
    """``2002/127349/3429014``, ``2002_127349_3429014.de`` or an .ids path → ``2002_127349_3429014``."""
    found = _DOC.search(value)
    key = found.group(1) if found else value.strip()
    key = re.sub(r"\.(de|en)$", "", key.replace(".xml.gz", ""))
    return key.replace("/", "_")


def _lines(path: Path) -> Iterator[str]:
    return (line for _, line in stream_lines(path))


def _norm(text: str) -> str:
    return "".join(text.split())


def opus_context(rows: Sequence[dict], opus_prefix: str | Path, size: int, src: str = "en", tgt: str = "de",
                 where: str | Path = "contrapro.json") -> tuple[list[str], list[str]]:
    """(source context lines, target context lines): ``size`` lines per item, items in ``rows`` order.

    ``opus_prefix`` names ``<prefix>.ids``, ``<prefix>.<src>`` and ``<prefix>.<tgt>`` (``OpenSubtitles2018.de-en``).
    """
    if size < 1:
        raise InputError("ContraPro context needs a size of at least 1")
    wanted: dict[tuple[str, int], list[int]] = {}
    for i, row in enumerate(rows):
        try:
            segment = row["segment id"]
            if isinstance(segment, str) and is_whole_number(segment):  # "12" as in ContraPro's JSON; not "1_2"
                segment = int(segment)
            if isinstance(segment, bool) or not isinstance(segment, int):
                raise ValueError(f"segment id {segment!r} is not a whole number")
            key = (document_key(str(row["document id"])), segment)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"item {i}: missing or bad document/segment id ({exc})", where) from None
        wanted.setdefault(key, []).append(i)
    prefix = str(opus_prefix)
    paths = [Path(f"{prefix}.ids"), Path(f"{prefix}.{src}"), Path(f"{prefix}.{tgt}")]
    found: dict[int, tuple[list[str], list[str]]] = {}
    window: deque[tuple[str, str]] = deque(maxlen=size)
    doc, position, number = None, 0, 0
    for number, lines in enumerate(zip_longest(*(_lines(p) for p in paths)), start=1):
        if None in lines:
            short = paths[lines.index(None)]
            raise InputError(f"ends at line {number - 1}, before the other OPUS files", short)
        ids_line, s_line, t_line = lines
        key = document_key(ids_line.split("\t")[0])
        if key != doc:
            doc, position = key, 0
            window.clear()
        position += 1
        for i in wanted.get((doc, position), ()):
            expected = rows[i].get("src segment", rows[i].get("source", ""))
            if expected and _norm(expected) != _norm(s_line):
                raise InputError(f"line {position} of document {doc} is {s_line!r}, but ContraPro item {i} has "
                                 f"{expected!r}: is this OpenSubtitles2018 de-en?", paths[1], number)
            pad = [("", "")] * (size - len(window))
            context = pad + list(window)
            found[i] = ([c[0] for c in context], [c[1] for c in context])
        window.append((s_line, t_line))
    missing = [i for i in range(len(rows)) if i not in found]
    if missing:
        row = rows[missing[0]]
        raise InputError(f"{len(missing)} ContraPro items not found in the corpus (first: document "
                         f"{row.get('document id')}, segment {row.get('segment id')})", paths[0])
    src_lines = [line for i in range(len(rows)) for line in found[i][0]]
    tgt_lines = [line for i in range(len(rows)) for line in found[i][1]]
    return src_lines, tgt_lines
