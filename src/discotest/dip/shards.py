"""DiP's heavy work cut into shards of whole documents: parsing and coherence scoring, run here or as Ray tasks.

A shard (``documents.shard_documents``) is the unit of parsing, of its cache entry and of a Ray task, on both
engines: the parse of a sentence does not depend on the other sentences of its call (checked on WMT22 de-en, see
tests/engine/test_engine_dip.py), so a text parsed shard by shard is the text parsed whole, and a shard a Ray worker
parsed is a cache hit for a local run. ``run_tasks`` runs a function over argument tuples in this process
(``engine=None``) or on the given RayEngine; results come back in the order of the arguments either way, so results are
byte-identical.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from discotest.dip import documents as _documents
from discotest.dip.documents import Document, shard_documents
from discotest.dip.parse import Sentence, cached, parse

if TYPE_CHECKING:
    from discotest.engine import RayEngine

Parses = dict[int, Sentence]
Progress = Callable[[int], None] | None


def run_tasks(fn: Callable[..., Any], args_list: Sequence[tuple], engine: RayEngine | None = None,
              on_done: Callable[[int, Any], None] | None = None) -> list:
    """``fn(*args)`` for every tuple, here (``engine=None``) or as Ray tasks; results in the order of ``args_list``.
    ``on_done(position, result)`` is called as each finishes (progress bars)."""
    if engine is not None and args_list:  # nothing to run starts no Ray
        return engine.map_ordered(fn, args_list, on_done=on_done)
    results = []
    for position, args in enumerate(args_list):
        results.append(result := fn(*args))
        if on_done:
            on_done(position, result)
    return results


class Shared:
    """An object put in Ray's object store once and fetched by each worker once (at its first task), then kept: a
    model whose lazily loaded parts (the coherence model's n-gram LM, read from the disk cache at first use) then
    load once per worker process, not once per task (50 tasks × 2 s on WMT22 de-en)."""

    _kept: dict[str, Any] = {}  # in a worker: the one Shared object it last fetched

    def __init__(self, engine: RayEngine, value: Any):
        self.ref = engine.start().put(value)  # a ref inside an object: Ray hands the task the ref, not the value

    def get(self) -> Any:
        key = self.ref.hex()
        if key not in Shared._kept:
            import ray

            Shared._kept = {key: ray.get(self.ref)}
        return Shared._kept[key]


def line_shards(wanted: Sequence[int], documents: Sequence[Document], size: int | None = None) -> list[list[int]]:
    """The wanted lines (sorted, once each) grouped by the document shard they are in, shards with none dropped; lines
    outside every document (none in a pair read by ``load_pair``) follow, ``size`` at a time."""
    size = _documents.SHARD_LINES if size is None else size
    lines = sorted(set(wanted))
    shard_of = {i: k for k, shard in enumerate(shard_documents(documents, size)) for doc in shard for i in doc.lines}
    grouped: dict[int, list[int]] = {}
    for i in lines:
        if i in shard_of:
            grouped.setdefault(shard_of[i], []).append(i)
    outside = [i for i in lines if i not in shard_of]
    return [grouped[k] for k in sorted(grouped)] + [outside[at:at + size] for at in range(0, len(outside), size)]


def parse_texts(texts: dict[str, Sequence[str]], wanted: Sequence[int], documents: Sequence[Document],
                use_cache: bool = True, engine: RayEngine | None = None, progress: Progress = None
                ) -> dict[str, Parses]:
    """The parses of the wanted lines of every text (name -> lines), one ``parse`` call (and cache entry) per shard of
    each text; ``progress(1)`` as each text is complete."""
    shards = line_shards(wanted, documents)
    names = list(texts)
    args = [(name, shard) for name in names for shard in shards]
    sentences = [[texts[name][i] for i in shard] for name, shard in args]
    left = {name: len(shards) for name in names}

    def done(name: str) -> None:
        left[name] -= 1
        if progress and not left[name]:
            progress(1)

    # cache hits are read here: only the shards not parsed yet become tasks (a warm run sends Ray nothing)
    parsed: list[list[Sentence] | None] = [cached(s) if use_cache else None for s in sentences]
    for k in range(len(args)):
        if parsed[k] is not None:
            done(args[k][0])
    missing = [k for k, p in enumerate(parsed) if p is None]
    fresh = run_tasks(parse, [(sentences[k], use_cache) for k in missing], engine,
                      lambda position, _: done(args[missing[position]][0]))
    for k, sents in zip(missing, fresh):
        parsed[k] = sents
    out: dict[str, Parses] = {name: {} for name in names}
    for (name, shard), sents in zip(args, parsed):
        out[name].update(zip(shard, sents or []))
    if progress and not shards:
        progress(len(names))
    return out
