"""Coreference fine-tuning data from a parallel corpus (Yehudai, Cattan, Abend, Stanovsky 2023, §4 and Table 5).

*Coref data*: sentence pairs whose English side has a non-singleton coreference cluster; *Gender data*: the subset
with a cluster holding he/she/him/her/his/hers. With ``markers`` the English side carries inline ``<ENTk>`` tags
(``discotest.gender.coref.markers``).

The corpus is streamed: both sides are read line by line in chunks (spaCy ``pipe`` per chunk) and the selected
pairs are written to a temporary JSONL file renamed into place at the end, so memory does not grow with the corpus
and an interrupted run leaves no half-written output. A first pass (bytes only) checks that both sides have the same
number of lines and no empty line, so bad input fails before any parsing. The rules resolver only builds clusters
around third-person pronouns, so lines without one skip the parse (``pronominal_only``); fastcoref sees every line.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from discotest.atomic import output_file, write_text_atomic
from discotest.data.readers import stream_lines
from discotest.errors import InputError
from discotest.gender.coref.clusters import THIRD_PERSON, make_clusterer
from discotest.gender.coref.markers import is_gender_cluster, mark
from discotest.values import check_int

SELECTIONS = ("coref", "gender")
_PRONOUN = re.compile(r"\b(?:" + "|".join(sorted(THIRD_PERSON, key=len, reverse=True)) + r")\b", re.IGNORECASE)


@dataclass
class AugmentCounts:
    """Table 5 of the paper: corpus size and the two selections."""

    total: int = 0
    coref: int = 0
    gender: int = 0
    written: int = 0
    parsed: int = 0  # lines that went through the resolver (the rest had no third-person pronoun)

    def pct(self, n: int) -> float:
        return 100 * n / self.total if self.total else 0.0

    def to_json(self) -> dict:
        return {"total": self.total, "coref": self.coref, "coref_pct": round(self.pct(self.coref), 2),
                "gender": self.gender, "gender_pct": round(self.pct(self.gender), 2), "written": self.written,
                "parsed": self.parsed}

    def render(self) -> str:
        return (f"{'data':<8} {'sentences':>10} {'%':>7}\n"
                f"{'all':<8} {self.total:>10} {100.0 if self.total else 0.0:>7.2f}\n"
                f"{'coref':<8} {self.coref:>10} {self.pct(self.coref):>7.2f}\n"
                f"{'gender':<8} {self.gender:>10} {self.pct(self.gender):>7.2f}")


def _check_file(path: Path, columns: int | None = None) -> int:
    """Line count of a corpus side, failing on a missing, unreadable or undecodable file, an empty line or (TSV) a
    wrong column count."""
    count = 0
    for count, line in stream_lines(path):  # noqa: B007 - count is the result
        if columns is None:
            if not line.strip():
                raise InputError("empty line (every sentence needs a translation)", path, count)
        else:
            cells = line.split("\t")
            if len(cells) != columns or not all(c.strip() for c in cells):
                raise InputError("expected a source and a target separated by one tab, both non-empty", path, count)
    return count


def _pairs(source: Path, target: Path | None) -> Iterator[tuple[str, str]]:
    """(English, other side) pairs, streamed from a plain-text pair or one TSV file."""
    if target is None:
        for number, line in stream_lines(source):
            try:
                src, tgt = line.split("\t")
            except ValueError:
                raise InputError("expected one tab", source, number) from None
            yield src.strip(), tgt.strip()
        return
    for (_, src), (_, tgt) in zip(stream_lines(source), stream_lines(target)):
        yield src.strip(), tgt.strip()


def check_corpus(source: str | Path, target: str | Path | None = None) -> int:
    """Number of pairs; unequal sides name both files and counts, an empty line names file:line."""
    source = Path(source)
    if target is None:
        n_pairs = _check_file(source, columns=2)
        if n_pairs == 0:
            raise InputError("file is empty", source)
        return n_pairs
    target = Path(target)
    n_src, n_tgt = _check_file(source), _check_file(target)
    if n_src != n_tgt:
        raise InputError(f"corpus sides differ in length: {source} has {n_src} lines, {target} has {n_tgt}")
    if n_src == 0:
        raise InputError("file is empty", source)
    return n_src


def augment(source: str | Path, output: str | Path, target: str | Path | None = None, *, select: str = "coref",
            markers: bool = False, resolver: str = "rules", chunk_size: int = 1000, quiet: bool = False,
            summary: str | Path | None = None, clusterer=None) -> AugmentCounts:
    """Select Coref or Gender data from a corpus (``target`` None: ``source`` is a TSV) into JSONL at ``output``.

    Each output line: ``{"src": English (marked with markers=True), "tgt": …, "select": ["coref", "gender"?],
    "clusters": [[[start, end], …], …]}`` (spans index the unmarked English, kept as ``src_plain`` when marked).
    """
    from tqdm import tqdm

    if select not in SELECTIONS:
        raise InputError(f"--select must be one of {', '.join(SELECTIONS)}, not {select!r}")
    check_int(chunk_size, "chunk-size")
    total_lines = check_corpus(source, target)
    clusterer = clusterer or make_clusterer(resolver)
    counts = AugmentCounts()
    output = Path(output)
    with output_file(output) as out, tqdm(total=total_lines, unit="line", disable=quiet, file=sys.stderr,
                                          desc="selecting") as bar:
        chunk: list[tuple[str, str]] = []
        for pair in _pairs(Path(source), Path(target) if target is not None else None):
            chunk.append(pair)
            if len(chunk) >= chunk_size:
                _process(chunk, clusterer, select, markers, counts, out)
                bar.update(len(chunk))
                chunk = []
        if chunk:
            _process(chunk, clusterer, select, markers, counts, out)
            bar.update(len(chunk))
    if summary is not None:
        info = {**counts.to_json(), "select": select, "markers": markers, "resolver": clusterer.version(),
                "source": str(source), "target": str(target) if target is not None else None, "output": str(output)}
        write_text_atomic(summary, json.dumps(info, indent=1) + "\n")
    return counts


def _process(chunk: list[tuple[str, str]], clusterer, select: str, markers: bool, counts: AugmentCounts, out) -> None:
    counts.total += len(chunk)
    if getattr(clusterer, "pronominal_only", False):
        todo = [k for k, (src, _) in enumerate(chunk) if _PRONOUN.search(src)]
    else:
        todo = list(range(len(chunk)))
    counts.parsed += len(todo)
    for k, clusters in zip(todo, clusterer.clusters(chunk[k][0] for k in todo)):
        if not clusters:
            continue
        src, tgt = chunk[k]
        gender = any(is_gender_cluster(src, c) for c in clusters)
        counts.coref += 1
        counts.gender += gender
        if select == "gender" and not gender:
            continue
        record = {"src": mark(src, clusters) if markers else src, "tgt": tgt,
                  "select": ["coref", "gender"] if gender else ["coref"], "clusters": clusters}
        if markers:
            record["src_plain"] = src
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        counts.written += 1
