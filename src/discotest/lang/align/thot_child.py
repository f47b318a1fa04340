"""The child process's side of ``thot_aligner``: one direction of a request (train, align or decode) with Thot.

Started as ``python -c "from discotest.lang.align.thot_child import serve; serve()"`` by ``thot_aligner._Child``. On
stdin, two ``marshal`` objects (both processes run the same interpreter): a header (settings and request), then, to
the end of stdin, the pairs, lowercased, source first, as the forward model sees them (a reverse child swaps them
itself: the parent encodes one body for both). A decode loads its model as soon as the header comes, so the loading
runs while the parent still reads and tokenises its text (``ThotAligner.start_decode``); stdin closed after the
header: nothing is asked, it ends. On stdout, one ``marshal`` list: per pair its links as flat (source, target)
indices of the forward pair (a reverse child turns its links round), so the parent neither parses text nor turns
links.

It imports what it needs and no more (this module, ``engine.end_with_parent`` and Thot: 0.03 s of CPU, not the 0.06 s
of the whole aligner module), so the training lives here too, and ``thot_aligner`` (the parent's side) calls it.
"""

from __future__ import annotations

import marshal
import os
import sys
import time

from discotest.engine import end_with_parent

MODELS = {"eflomal": "EflomalAlignmentModel", "fast_align": "FastAlignModel", "hmm": "HmmAlignmentModel"}

Pairs = list[tuple[list[str], list[str]]]


def known_model(model: str) -> str:
    """``model`` itself, a name of ``MODELS`` (ValueError otherwise)."""
    if model not in MODELS:
        raise ValueError(f"unknown Thot model {model!r}")
    return model


def iterations(n_pairs: int, rel_iterations: float, rel_fertility: float = 1.0) -> tuple[int, int, int]:
    """Sweeps of IBM1, HMM and fertility: eflomal's schedule (more for small corpora), times ``rel_iterations``; the
    fertility sweeps (three quarters of the training's CPU) times ``rel_fertility`` as well."""
    sweeps = max(2, round(rel_iterations * 5000 / max(1, n_pairs) ** 0.5))
    return max(2, sweeps // 4), sweeps // 4, max(2, round(sweeps * rel_fertility))


def train(settings: dict, pairs: Pairs):
    """One direction's model trained on ``pairs`` with ``ThotAligner.settings()``."""
    import thot.alignment as thot

    name = known_model(settings["model"])
    model = getattr(thot, MODELS[name])()
    if name == "eflomal":
        model.seed = settings["seed"]
        model.deterministic = True
        model.num_samplers = settings["samplers"]
        model.set_iterations(*iterations(len(pairs), settings["rel_iterations"], settings["rel_fertility"]))
    for src, trg in pairs:
        model.add_sentence_pair(src, trg)
    model.start_training()
    for _ in range(model.scheduled_iterations if name == "eflomal" else 5):
        model.train()
    model.end_training()
    return model


def run(settings: dict, request: dict, pairs: Pairs, decoded: Pairs | None = None, reverse: bool = False
        ) -> list[list[int]]:
    """One direction of ``request`` (align, train or decode), on the pairs as its model sees them: the links of
    ``decoded`` (None: ``pairs`` themselves; for ``train``, the pairs decoded after training, by the model read back
    from its files), as ``best_links`` gives them."""
    if request["task"] == "align":
        return best_links(train(settings, pairs), pairs, reverse)
    prefix = f"{request['prefix']}.{request['direction']}"
    if request["task"] == "train":
        train(settings, pairs).print(prefix)
        if not decoded:
            return []
        pairs = decoded
    return best_links(load_model(settings["model"], prefix), pairs, reverse)


def load_model(model: str, prefix: str):
    """One direction's Thot model read from its files at ``prefix``."""
    import thot.alignment as thot

    loaded = getattr(thot, MODELS[known_model(model)])()
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
    found = best_links(model, pairs, reverse) if model is not None else run(settings, request, pairs, decoded, reverse)
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
