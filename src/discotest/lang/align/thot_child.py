"""The child process's side of ``thot_aligner``: one direction of a request (train, align or decode) with Thot.

Started as ``python -c "from discotest.lang.align.thot_child import serve; serve()"`` by ``thot_aligner._Child``. On
stdin, two ``marshal`` objects (both processes run the same interpreter): a header (settings and request), then, to
the end of stdin, the pairs, lowercased, source first, as the forward model sees them (a reverse child swaps them
itself: the parent encodes one body for both). A decode loads its model as soon as the header comes, so the loading
runs while the parent still reads and tokenises its text (``ThotAligner.start_decode``); stdin closed after the
header: nothing is asked, it ends. On stdout, one ``marshal`` list: per pair its links as flat (source, target)
indices of the forward pair (a reverse child turns its links round), so the parent neither parses text nor turns
links.

A decode imports what it needs and no more (this module, ``engine.end_with_parent`` and Thot: 0.03 s of CPU, not the
0.06 s of the whole aligner module); training imports ``thot_aligner`` for its schedule.
"""

from __future__ import annotations

import marshal
import os
import sys
import time

from discotest.engine import end_with_parent

MODELS = {"eflomal": "EflomalAlignmentModel", "fast_align": "FastAlignModel", "hmm": "HmmAlignmentModel"}

Pairs = list[tuple[list[str], list[str]]]


def load_model(model: str, prefix: str):
    """One direction's Thot model read from its files at ``prefix``."""
    import thot.alignment as thot

    loaded = getattr(thot, MODELS[model])()
    if not loaded.load(prefix):
        raise RuntimeError(f"cannot read the alignment model at {prefix}")
    return loaded


def swapped(pairs: Pairs) -> Pairs:
    """The pairs as the reverse model sees them: target first."""
    return [(t, s) for s, t in pairs]


def best_links(model, pairs: Pairs, reverse: bool = False) -> list[list[int]]:
    """The model's best alignment of every pair as flat (source index, target index) links (NULL links are absent:
    ``link_sets`` makes them sets); ``reverse``: the model is the reverse one, ``pairs`` are as it sees them, and the
    links are turned round to the forward pair's (source, target).

    A directional model aligns each target word to one source position (0: NULL, else 1 + its index), which is what
    the matrix's ``to_list`` gives per target position: no numpy import and array per pair in the child (a tenth of
    its CPU; the same links as ``to_numpy().nonzero()``, tests/lang/test_align_model.py)."""
    best = model.get_best_alignments([s for s, _ in pairs], [t for _, t in pairs])
    if reverse:
        return [[k for j, s in enumerate(matrix.to_list()) if s for k in (j, s - 1)] for _, matrix in best]
    return [[k for j, s in enumerate(matrix.to_list()) if s for k in (s - 1, j)] for _, matrix in best]


def link_sets(flat: list[list[int]]) -> list[set[tuple[int, int]]]:
    """``best_links``'s flat links as sets of (source, target)."""
    return [set(zip(links[::2], links[1::2])) for links in flat]


def serve() -> None:
    """The child's side: the header, a decode's model loaded at once, the pairs; the links on stdout."""
    end_with_parent()
    import thot.alignment  # noqa: F401  (counted with the start-up)

    stamps = _Stamps()
    stdin = sys.stdin.buffer
    header = marshal.load(stdin)
    settings, request = header["settings"], header["request"]
    reverse = request["direction"] == "rev"
    stamps("read request")
    model = None
    if request["task"] == "decode":
        model = load_model(settings["model"], f"{request['prefix']}.{request['direction']}")
    stamps("model load")
    body = stdin.read()  # read whole, then decoded: ``marshal.load`` of a stream reads it a string at a time
    if not body:  # closed after the header: a decode begun early whose links were found in the cache
        return
    pairs, decoded = marshal.loads(body)
    if reverse:
        pairs, decoded = swapped(pairs), decoded and swapped(decoded)
    stamps("read request")
    if model is not None:
        found = best_links(model, pairs, reverse)
    else:
        from discotest.lang.align.thot_aligner import ThotAligner

        found = ThotAligner(**settings, processes=1)._flat(request, pairs, decoded, reverse)
    stamps("decode")
    sys.stdout.buffer.write(marshal.dumps(found))
    sys.stdout.buffer.flush()
    stamps("write links")
    stamps.record()
    os._exit(0)  # all is written: no teardown of the interpreter and the model's tables (CPU for nothing)


class _Stamps:
    """The child's CPU seconds by phase (start-up and imports: all before the first stamp), written to
    ``$DISCOTEST_TIMING`` as ``discotest.timing`` writes a process's stages (bench/speed/thot_child.py reads them)."""

    def __init__(self) -> None:
        self.last = time.process_time()
        self.cpu = {"start and imports": self.last}

    def __call__(self, phase: str) -> None:
        now = time.process_time()
        self.cpu[phase] = self.cpu.get(phase, 0.0) + now - self.last
        self.last = now

    def record(self) -> None:
        path = os.environ.get("DISCOTEST_TIMING")
        if path:
            import json

            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"pid": os.getpid(), "wall": {}, "cpu": self.cpu}) + "\n")
