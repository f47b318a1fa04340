"""A WMT pair read into documents: source, reference, every system output, and the doc ids that group lines.

Lines stay addressed by their 0-based index in the pair's files, so mined items point into the files and
a new system's output (same line count) is scored by index. Pairs that share a source keep their own
document order, which is why the pair's own ``.docids`` file is the only grouping used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from discotest.data import registry
from discotest.data.readers import read_lines
from discotest.data.registry import data_dir as resolve_data_dir
from discotest.errors import InputError
from discotest.options import check_int

# --data name -> (folder under the data directory, file prefix)
DATASETS = {"wmt21": ("wmt21_news", "newstest2021"), "wmt22": ("wmt22_general", "generaltest2022")}
MIN_BLOCK, MAX_BLOCK = 3, 5


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
        raise InputError(f"unknown --data {data!r} (known: {', '.join(DATASETS)})")
    src, sep, tgt = pair.partition("-")
    if not sep or not src or not tgt:
        raise InputError(f"--pair must look like de-en, got {pair!r}")
    if tgt != "en":
        raise InputError(f"DiP phenomena are English-target only (X-en); {pair} translates into {tgt!r}")
    return src, tgt


def pair_paths(data: str, pair: str, ref: str = "A", root: str | Path | None = None) -> dict[str, Path]:
    src, tgt = check_pair(data, pair)
    folder, prefix = DATASETS[data]
    base = resolve_data_dir(root) / folder
    source = base / "txt" / "sources" / f"{prefix}.{pair}.src.{src}"
    if not source.is_file():
        known = sorted(p.name.split(".")[1] for p in (base / "txt" / "sources").glob(f"{prefix}.*-en.src.*"))
        if not known:
            raise InputError(f"no {data} data found (looked for {source})")
        raise InputError(f"unknown pair {pair} for {data} (X-en pairs here: {', '.join(known)})")
    docids = base / "docids" / f"{prefix}.{pair}.docids"
    if not docids.is_file():
        raise InputError(f"no document ids for {data} {pair} ({docids} is missing)")
    reference = base / "txt" / "references" / f"{prefix}.{pair}.ref.{ref}.{tgt}"
    if not reference.is_file():
        refs = sorted(p.name.split(".")[3] for p in (base / "txt" / "references").glob(f"{prefix}.{pair}.ref.*"))
        raise InputError(f"{data} {pair} has no reference {ref!r} (references: {', '.join(refs)})")
    return {"source": source, "docids": docids, "reference": reference}


def system_paths(data: str, pair: str, root: str | Path | None = None) -> dict[str, Path]:
    folder, prefix = DATASETS[data]
    outputs = resolve_data_dir(root) / folder / "txt" / "system-outputs"
    head = f"{prefix}.{pair}.hyp."
    return {p.name[len(head):-len(".en")]: p for p in sorted(outputs.glob(f"{head}*.en"))}


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
) -> PairData:
    """Read a pair; every file must have the source's line count (else InputError naming file and counts)."""
    if max_docs is not None:
        check_int(max_docs, "max-docs")
    paths = pair_paths(data, pair, ref, root)
    available = system_paths(data, pair, root)
    if systems is not None:
        unknown = [s for s in systems if s not in available]
        if unknown:
            raise InputError(f"{data} {pair} has no system {', '.join(unknown)} (systems: {', '.join(available)})")
        available = {s: available[s] for s in systems}
    source = read_lines(registry.check_file(paths["source"], root))
    n = len(source)

    def checked(path: Path) -> list[str]:
        lines = read_lines(registry.check_file(path, root))
        if len(lines) != n:
            raise InputError(f"{len(lines)} lines, but the source {paths['source'].name} has {n}", path)
        return lines

    doc_ids = [d.strip() for d in checked(paths["docids"])]
    documents = group_documents(doc_ids, paths["docids"])
    if max_docs is not None:
        documents = documents[:max_docs]
    return PairData(
        data=data, pair=pair, ref_name=ref, reference=checked(paths["reference"]), source=source,
        systems={name: checked(path) for name, path in available.items()}, doc_ids=doc_ids, documents=documents,
        paths={**paths, **{f"hyp.{name}": p for name, p in available.items()}},
    )


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
