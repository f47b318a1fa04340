"""A WMT pair read into documents: source, reference, every system output, and the doc ids that group lines.

Lines stay addressed by their 0-based index in the pair's files, so mined items point into the files and
a new system's output (same line count) is scored by index. Pairs that share a source keep their own
document order, which is why the pair's own ``.docids`` file is the only grouping used.

Every file is a registry entry, found with ``catalogue.locate``: held to its pinned sha256 and recorded for the
signature's ``files:`` field, and a missing one is an error saying where to put it or what to fetch. The doc ids are
ours (derived from the WMT XML), so they ship with the package (``data/bundled/wmt-docids``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.errors import InputError, did_you_mean
from discotest.values import check_int

# --data name -> (folder under the data directory, file prefix). The pair's files are registry entries (their path,
# url and sha256 in data/sources.json) named <data>-<pair>-src, -ref-<letter>, -docids (bundled) and -hyp-<system>;
# the folder and prefix name the text the n-gram LMs train on and the pair a scorer must not train on.
DATASETS = {"wmt21": ("wmt21_news", "newstest2021"), "wmt22": ("wmt22_general", "generaltest2022")}
MIN_BLOCK, MAX_BLOCK = 3, 5
# lines per shard (the unit of parsing, its cache entries and Ray tasks). WMT22 de-en's 1,984 lines make 5 shards of
# 372-405 lines; a shard parses in ~0.7 s, long against a Ray task's overhead, short enough to spread a text.
SHARD_LINES = 400


@dataclass(frozen=True)
class Document:
    doc_id: str
    start: int  # first line (0-based)
    end: int  # one past the last line

    @property
    def lines(self) -> range:
        return range(self.start, self.end)


@dataclass
class PairData:
    data: str
    pair: str
    ref_name: str
    reference: list[str]
    source: list[str]
    systems: dict[str, list[str]]  # system name -> output lines
    doc_ids: list[str]  # one per line
    documents: list[Document]  # possibly restricted by max_docs
    paths: dict[str, Path] = field(default_factory=dict)

    @property
    def n_lines(self) -> int:
        return len(self.reference)

    def doc_of_line(self) -> dict[int, Document]:
        return {i: doc for doc in self.documents for i in doc.lines}


def check_pair(data: str, pair: str) -> tuple[str, str]:
    """Validate --data and --pair names before touching files: DiP is English-target only."""
    if data not in DATASETS:
        raise InputError(f"unknown --data {data!r}{did_you_mean(data, DATASETS)} (known: {', '.join(DATASETS)})")
    src, sep, tgt = pair.partition("-")
    if not sep or not src or not tgt:
        raise InputError(f"--pair must look like de-en, got {pair!r}")
    if tgt != "en":
        raise InputError(f"DiP phenomena are English-target only (X-en); {pair} translates into {tgt!r}")
    return src, tgt


def _entries(data: str, pair: str, part: str) -> dict[str, str]:
    """Registry names ``<data>-<pair>-<part>-<key>`` by key (references by letter, outputs by system), in name order:
    the order systems are mined and listed in."""
    head = f"{data}-{pair}-{part}-"
    return {name[len(head):]: name for name in sorted(catalogue.SOURCES) if name.startswith(head)}


def _pairs(data: str, with_docids: bool = False) -> list[str]:
    """The X-en pairs of ``data`` the registry has (with document ids only, if asked)."""
    pairs = {s.subset for s in catalogue.SOURCES.values() if s.name == f"{data}-{s.subset}-src"}
    if with_docids:
        pairs = {p for p in pairs if f"{data}-{p}-docids" in catalogue.SOURCES}
    return sorted(p for p in pairs if p.endswith("-en"))


def pair_paths(data: str, pair: str, ref: str = "A", root: str | Path | None = None, need_docids: bool = True
               ) -> dict[str, Path]:
    """Source, doc ids and reference ``ref`` of a pair, located (and checked) through the registry; a pair, doc ids
    or reference it does not have is one line listing what there is. ``need_docids=False``: a pair without doc ids
    comes without the ``docids`` entry."""
    check_pair(data, pair)
    source = f"{data}-{pair}-src"
    if source not in catalogue.SOURCES:
        raise InputError(f"unknown pair {pair} for {data} (X-en pairs: {', '.join(_pairs(data))})")
    docids = f"{data}-{pair}-docids"
    if docids not in catalogue.SOURCES and need_docids:
        raise InputError(f"no document ids for {data} {pair} "
                         f"(pairs with document ids: {', '.join(_pairs(data, with_docids=True))})")
    refs = _entries(data, pair, "ref")
    if ref not in refs:
        raise InputError(f"{data} {pair} has no reference {ref!r}{did_you_mean(ref, refs)} "
                         f"(references: {', '.join(refs)})")
    out = {"source": catalogue.locate(source, root), "reference": catalogue.locate(refs[ref], root)}
    if docids in catalogue.SOURCES:
        out["docids"] = catalogue.locate(docids, root)
    return out


def chosen_systems(data: str, pair: str, systems: Sequence[str] | None = None, holdout: str | None = None
                   ) -> dict[str, str]:
    """System -> registry name of the pair's outputs, only ``systems`` when given; a system or ``holdout`` the pair
    does not have is one line listing those it has. From the registry alone (no file is read), so a typo is said
    before any model loads or file is parsed."""
    available = _entries(data, pair, "hyp")
    if systems is not None:
        unknown = [s for s in systems if s not in available]
        if unknown:
            hint = did_you_mean(unknown[0], available) if len(unknown) == 1 else ""
            raise InputError(f"{data} {pair} has no system {', '.join(unknown)}{hint} "
                             f"(systems: {', '.join(available)})")
        available = {s: available[s] for s in systems}
    if holdout is not None and holdout not in available:
        raise InputError(f"--holdout {holdout!r} is not a system of {data} {pair}{did_you_mean(holdout, available)} "
                         f"(systems: {', '.join(available)})")
    return available


def system_paths(data: str, pair: str, root: str | Path | None = None) -> dict[str, Path]:
    """System -> its output of the pair, located (and checked) through the registry."""
    return {system: catalogue.locate(name, root) for system, name in _entries(data, pair, "hyp").items()}


def reference_paths(data: str, pair: str, root: str | Path | None = None) -> dict[str, Path]:
    """Reference letter -> its file of the pair, located (and checked) through the registry."""
    return {ref: catalogue.locate(name, root) for ref, name in _entries(data, pair, "ref").items()}


def group_documents(doc_ids: Sequence[str], path: str | Path = "docids") -> list[Document]:
    """Contiguous runs of equal doc ids; a doc id that comes back later is an error (broken file)."""
    docs: list[Document] = []
    seen: set[str] = set()
    start = 0
    for i in range(1, len(doc_ids) + 1):
        if i == len(doc_ids) or doc_ids[i] != doc_ids[start]:
            doc_id = doc_ids[start]
            if doc_id in seen:
                raise InputError(f"document {doc_id!r} is split into non-contiguous blocks", path, start + 1)
            if not doc_id.strip():
                raise InputError("empty document id", path, start + 1)
            seen.add(doc_id)
            docs.append(Document(doc_id, start, i))
            start = i
    return docs


def load_pair(
    data: str,
    pair: str,
    ref: str = "A",
    root: str | Path | None = None,
    systems: Sequence[str] | None = None,
    max_docs: int | None = None,
    need_docids: bool = True,
) -> PairData:
    """Read a pair; every file must have the source's line count (else InputError naming file and counts).

    ``need_docids=False`` reads a pair without doc ids (WMT21 de-en, zh-en) as one document per file: only for
    mining training data, where a context crossing a document boundary now and then costs little."""
    if max_docs is not None:
        check_int(max_docs, "max-docs")
    paths = pair_paths(data, pair, ref, root, need_docids)
    available = chosen_systems(data, pair, systems)
    hyps = {system: catalogue.locate(name, root) for system, name in available.items()}
    source = read_lines(paths["source"])
    n = len(source)

    def checked(path: Path) -> list[str]:
        lines = read_lines(path)
        if len(lines) != n:
            raise InputError(f"{len(lines)} lines, but the source {paths['source'].name} has {n}", path)
        return lines

    doc_ids = [d.strip() for d in checked(paths["docids"])] if "docids" in paths else [f"{data}.{pair}"] * n
    documents = group_documents(doc_ids, paths.get("docids", paths["source"]))
    if max_docs is not None:
        documents = documents[:max_docs]
    return PairData(
        data=data, pair=pair, ref_name=ref, reference=checked(paths["reference"]), source=source,
        systems={name: checked(path) for name, path in hyps.items()}, doc_ids=doc_ids, documents=documents,
        paths={**paths, **{f"hyp.{name}": p for name, p in hyps.items()}},
    )


def shard_documents(documents: Sequence[Document], size: int | None = None) -> list[list[Document]]:
    """Whole documents in order, a shard closing as soon as it has ``size`` (default ``SHARD_LINES``) lines or more.

    The split depends on the documents alone (never on the engine or its workers), so a shard is one cache entry
    whoever parses it; a ``--max-docs`` prefix of a pair has the whole pair's shards except its last one."""
    size = SHARD_LINES if size is None else size  # read now: a test narrows the shards by setting SHARD_LINES
    if size < 1:
        raise ValueError(f"shard size must be 1 or more, not {size}")
    shards: list[list[Document]] = []
    current: list[Document] = []
    lines = 0
    for doc in documents:
        current.append(doc)
        lines += doc.end - doc.start
        if lines >= size:
            shards.append(current)
            current, lines = [], 0
    if current:
        shards.append(current)
    return shards


def blocks(doc: Document, min_size: int = MIN_BLOCK, max_size: int = MAX_BLOCK) -> list[range]:
    """Split a document into consecutive, non-overlapping blocks of min_size..max_size lines.

    ceil(n / max_size) blocks of near-equal size: for n >= min_size every block has min_size..max_size
    lines (n = 6 gives 3 + 3, n = 11 gives 4 + 4 + 3); documents shorter than min_size give no block.
    Non-overlapping so a repeated word is one item, not one per sliding window.
    """
    n = doc.end - doc.start
    if n < min_size:
        return []
    k = -(-n // max_size)
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    out, start = [], doc.start
    for size in sizes:
        out.append(range(start, start + size))
        start += size
    return out
