"""Seeded word alignment with SIL's Thot toolkit (``sil-thot``, LGPL-3.0): the same input and seed give the same
links on every run and machine.

The default model is Thot's eflomal (Östling & Tiedemann 2016: Bayesian IBM with HMM and fertility, Gibbs-sampled)
with ``deterministic`` sampling and a fixed seed; ``fast_align`` (IBM2 with a diagonal prior, EM) and ``hmm`` are
there to compare. Each direction is trained separately and the links are symmetrised by our own
grow-diag-final-and (``base.grow_diag_final_and``), exactly as for the upstream eflomal binary.

Thot's trainer holds the GIL and uses one core, so the two directions train in two child processes
(``python -m discotest.lang.align.thot_aligner``: a header line of settings and request, then the pairs, as JSON on
stdin; one Pharaoh line per pair on stdout): on 2 cores the alignment takes half the wall time, and the parent is free
to load an analyser meanwhile. A decode's children load their model as soon as the header comes, and can be started
before the pairs are known (``ThotAligner.start_decode``): their start-up and loading run beside the caller's.
Children are plain subprocesses, not multiprocessing workers: nothing is forked from a process whose native threads
already ran (a forked Thot trainer waits forever), and a user's script is never imported again. ``processes=1`` trains
both directions here, one after the other; the links are the same either way (tests/lang/test_align.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence

from discotest.engine import child_env, end_with_parent
from discotest.lang.align.base import Links, Pair, Watch, WordAligner, grow_diag_final_and, parse_pharaoh
from discotest.version import package_version as version  # importlib.metadata's, without importing it

MODELS = {"eflomal": "EflomalAlignmentModel", "fast_align": "FastAlignModel", "hmm": "HmmAlignmentModel"}


def iterations(n_pairs: int, rel_iterations: float, rel_fertility: float = 1.0) -> tuple[int, int, int]:
    """Sweeps of IBM1, HMM and fertility: eflomal's schedule (more for small corpora), times ``rel_iterations``; the
    fertility sweeps (three quarters of the training's CPU) times ``rel_fertility`` as well."""
    sweeps = max(2, round(rel_iterations * 5000 / max(1, n_pairs) ** 0.5))
    return max(2, sweeps // 4), sweeps // 4, max(2, round(sweeps * rel_fertility))


class ThotAligner(WordAligner):
    """Trains on the given pairs and aligns them; every setting that can change a link is in ``signature()``.

    ``samplers`` and ``rel_iterations`` apply to the eflomal model: the number of sweeps follows eflomal's own
    schedule (``iterations``), scaled as the eflomal package's ``rel_iterations`` scales it; ``rel_fertility`` scales
    the fertility sweeps alone (named in the signature as ``-f…`` unless 1.0).
    """

    def __init__(
        self,
        model: str = "eflomal",
        seed: int = 1,
        samplers: int = 1,
        rel_iterations: float = 0.5,
        processes: int = 2,
        rel_fertility: float = 1.0,
    ):
        import thot.alignment  # noqa: F401  (fails here, not mid-run, when the extra is missing)

        if model not in MODELS:
            raise ValueError(f"unknown Thot model {model!r}")
        self.model = model
        self.seed = seed
        self.samplers = samplers
        self.rel_iterations = rel_iterations
        self.rel_fertility = rel_fertility
        self.processes = processes  # 2: each direction in its own child process; never changes a link
        self.name = f"thot-{model}"

    def signature(self) -> str:
        settings = f"seed{self.seed}"
        if self.model == "eflomal":
            settings += f"-s{self.samplers}-i{self.rel_iterations}"
            if self.rel_fertility != 1.0:
                settings += f"-f{self.rel_fertility}"
        return f"thot-{self.model}-{version('sil-thot')}-{settings}+gdfa"

    def _train(self, pairs: Sequence[tuple[list[str], list[str]]]):
        import thot.alignment as thot

        model = getattr(thot, MODELS[self.model])()
        if self.model == "eflomal":
            model.seed = self.seed
            model.deterministic = True
            model.num_samplers = self.samplers
            model.set_iterations(*iterations(len(pairs), self.rel_iterations, self.rel_fertility))
        for src, trg in pairs:
            model.add_sentence_pair(src, trg)
        model.start_training()
        for _ in range(model.scheduled_iterations if self.model == "eflomal" else 5):
            model.train()
        model.end_training()
        return model

    def _directional(self, pairs: Sequence[tuple[list[str], list[str]]]) -> list[set[tuple[int, int]]]:
        """Links (source index, target index) of the model trained source→target, for every pair."""
        return _best_links(self._train(pairs), pairs)

    def settings(self) -> dict:
        """What a child process needs to build the same aligner (``processes`` aside)."""
        return {"model": self.model, "seed": self.seed, "samplers": self.samplers,
                "rel_iterations": self.rel_iterations, "rel_fertility": self.rel_fertility}

    def align(self, pairs: Sequence[Pair]) -> list[Links]:
        return self.start(pairs)()

    def start(self, pairs: Sequence[Pair], watch: Watch = None) -> Callable[[], list[Links]]:
        """Train on ``pairs`` and align them (each direction in a child process when ``processes`` > 1)."""
        return self._both_directions({"task": "align"}, pairs, pairs)

    def train_model(self, pairs: Sequence[Pair], prefix: str) -> None:
        """Train both directions on ``pairs`` and write them as Thot model files ``<prefix>.fwd.*`` and
        ``<prefix>.rev.*`` (``decode`` reads them back: a read-back model aligns exactly as the trained one)."""
        self.start_training(pairs, prefix)()

    def start_training(self, pairs: Sequence[Pair], prefix: str, decoded: Sequence[Pair] = ()
                       ) -> Callable[[], list[Links]]:
        """``train_model`` begun now (in the child processes; the caller is free meanwhile), and ``decoded`` aligned by
        the model read back from the files it wrote — the links ``decode`` gives them later — in those same processes,
        each direction as soon as it is trained: no process is started and no model read twice. The returned
        function waits for the model files and the links of ``decoded``."""
        return self._both_directions({"task": "train", "prefix": prefix}, pairs, decoded)

    def decode(self, pairs: Sequence[Pair], prefix: str) -> Callable[[], list[Links]]:
        """Align ``pairs`` with the models ``train_model`` wrote at ``prefix``; nothing is trained, so each pair's
        links depend on that pair and the model alone."""
        return self._both_directions({"task": "decode", "prefix": prefix}, pairs, pairs)

    def start_decode(self, prefix: str) -> Decoding:
        """``decode`` begun before its pairs are known: both directions' child processes start now and load the
        models at ``prefix`` beside the caller's own work (reading and tokenising its text); ``Decoding.send`` gives
        them the pairs (the links are ``decode``'s), ``Decoding.close`` ends them unused."""
        request = {"task": "decode", "prefix": prefix}
        return Decoding(self, request, [_Child(self, {**request, "direction": d}) for d in DIRECTIONS])

    def _both_directions(self, request: dict, pairs: Sequence[Pair], decoded: Sequence[Pair],
                         children: Sequence[_Child] = ()) -> Callable[[], list[Links]]:
        """Run ``request`` (align, train or decode) on ``pairs`` for both directions, here or in two child processes
        (``children``: started already, by ``start_decode``), and symmetrise the links of ``decoded``
        (grow-diag-final-and): for align and decode the same pairs as ``pairs``, for train those aligned after it
        (none: training alone)."""
        if not pairs:
            for child in children:
                child.close()
            return list
        jobs = [({**request, "direction": d}, _lowered(pairs, d),
                 None if decoded is pairs else _lowered(decoded, d)) for d in DIRECTIONS]
        if self.processes > 1:
            started = children or [_Child(self, job[0]) for job in jobs]
            forward_links, reverse_links = (child.send(*job[1:]) for child, job in zip(started, jobs))
        else:
            def forward_links() -> list[set[tuple[int, int]]]:
                return self._run(*jobs[0])

            def reverse_links() -> list[set[tuple[int, int]]]:
                return self._run(*jobs[1])

        def result() -> list[Links]:
            fwd_all, rev_all = forward_links(), reverse_links()
            out = []
            for (src, trg), fwd, rev in zip(decoded, fwd_all, rev_all):
                both = grow_diag_final_and(fwd, {(s, t) for t, s in rev})
                out.append(frozenset((s, t) for s, t in both if s < len(src) and t < len(trg)))
            return out

        return result

    def _run(self, request: dict, pairs: list[tuple[list[str], list[str]]],
             decoded: list[tuple[list[str], list[str]]] | None = None, model=None) -> list[set[tuple[int, int]]]:
        """One direction of ``request`` here: the links of ``decoded`` (None: ``pairs`` themselves; for ``train``, the
        pairs decoded after training, by the model read back from its files); ``model``: a decode's, loaded already."""
        if request["task"] == "align":
            return self._directional(pairs)
        prefix = f"{request['prefix']}.{request['direction']}"
        if request["task"] == "train":
            self._train(pairs).print(prefix)
            if not decoded:
                return []
            pairs = decoded
        return _best_links(self._load(prefix) if model is None else model, pairs)

    def _load(self, prefix: str):
        """The Thot model of one direction read from its files at ``prefix``."""
        import thot.alignment as thot

        model = getattr(thot, MODELS[self.model])()
        if not model.load(prefix):
            raise RuntimeError(f"cannot read the alignment model at {prefix}")
        return model


DIRECTIONS = ("fwd", "rev")


class Decoding:
    """A decode whose two child processes were started before its pairs were known (``ThotAligner.start_decode``)."""

    def __init__(self, aligner: ThotAligner, request: dict, children: list[_Child]):
        self.aligner, self.request, self.children = aligner, request, children

    def send(self, pairs: Sequence[Pair]) -> Callable[[], list[Links]]:
        """The children's links of ``pairs`` (begun now; call the result to wait for them)."""
        children, self.children = self.children, []
        if not children:
            raise RuntimeError("this decode's processes were given their pairs already, or closed")
        return self.aligner._both_directions(self.request, pairs, pairs, children)

    def close(self) -> None:
        """End the children if no pairs were sent them (a caller that found its links in the cache)."""
        children, self.children = self.children, []
        for child in children:
            child.close()


class _Child:
    """One direction of a request in a child process (``python -m discotest.lang.align.thot_aligner``), started now
    with a header line (settings and request): a decode's child loads its model at once, and reads its pairs when
    ``send`` writes them. Plain subprocesses, not multiprocessing workers (the module's docstring says why)."""

    def __init__(self, aligner: ThotAligner, request: dict):
        env = child_env()  # the child ends with this process (engine.end_with_parent)
        if request["task"] == "decode":  # the two directions decode side by side: one core each, not two threads each
            env["OMP_NUM_THREADS"] = "1"
        self.name = aligner.name
        # its messages go to a file, not a pipe nobody reads yet; it imports this very copy of discotest
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 - outlives this call; links() or close() closes it
        self.process = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.errors, env=env)
        header = {"settings": aligner.settings(), "request": request}
        self._write(json.dumps(header, ensure_ascii=False).encode() + b"\n", last=False)

    def _write(self, data: bytes, last: bool = True) -> None:
        """Write to the child's stdin (closing it after the ``last`` part); a child that died at start-up is reported
        when its links are read."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            stdin.close() if last else stdin.flush()
        except (BrokenPipeError, ValueError):  # ValueError: closed already (by close)
            pass

    def send(self, pairs: list[tuple[list[str], list[str]]], decoded: list[tuple[list[str], list[str]]] | None = None
             ) -> Callable[[], list[set[tuple[int, int]]]]:
        """Give the child its pairs (written by a thread of its own: a child still loading its model never holds
        this process up); the returned function waits for its links."""
        body = json.dumps({"pairs": pairs, "decoded": decoded}, ensure_ascii=False).encode()
        writer = threading.Thread(target=self._write, args=(body,), name="discotest-thot-writer", daemon=True)
        writer.start()
        expected = len(pairs if decoded is None else decoded)
        done: list[list[set[tuple[int, int]]]] = []

        def links() -> list[set[tuple[int, int]]]:
            if not done:
                child = self.process
                assert child.stdout is not None
                out = child.stdout.read().decode()
                child.stdout.close()
                child.wait()
                writer.join()
                lines = out.split("\n")[:expected]
                if child.returncode != 0 or len(lines) != expected:
                    self.errors.seek(0)
                    detail = self.errors.read().decode(errors="replace").strip().splitlines()[-1:]
                    self.errors.close()
                    raise RuntimeError(f"the {self.name} aligner process failed (exit {child.returncode}): "
                                       f"{detail[0] if detail else 'no message'}")
                self.errors.close()
                done.append([parse_pharaoh(line) for line in lines])
            return done[0]

        return links

    def close(self) -> None:
        """End a child that was given no pairs."""
        self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.errors.close()


def _lowered(pairs: Sequence[Pair], direction: str) -> list[tuple[list[str], list[str]]]:
    """The pairs as a direction's model sees them: lowercased like the eflomal binary's input, an empty side a
    placeholder whose links are dropped, target first for ``rev``."""
    out = [([w.lower() for w in s] or ["<empty>"], [w.lower() for w in t] or ["<empty>"]) for s, t in pairs]
    return out if direction == "fwd" else [(t, s) for s, t in out]


def _best_links(model, pairs: Sequence[tuple[list[str], list[str]]]) -> list[set[tuple[int, int]]]:
    """The model's best alignment of every pair as (source index, target index) links (NULL links are absent).

    A directional model aligns each target word to one source position (0: NULL, else 1 + its index), which is what
    the matrix's ``to_list`` gives per target position: no numpy import and array per pair in the child (a tenth of
    its CPU; the same links as ``to_numpy().nonzero()``, tests/lang/test_align_model.py)."""
    best = model.get_best_alignments([s for s, _ in pairs], [t for _, t in pairs])
    return [{(s - 1, j) for j, s in enumerate(matrix.to_list()) if s > 0} for _, matrix in best]


def _serve() -> None:
    """The child's side: a header line (settings and request) on stdin, a decode's model loaded at once, then the
    pairs as JSON; the links of that one direction on stdout. Stdin closed after the header: nothing is asked."""
    end_with_parent()
    import thot.alignment  # noqa: F401  (counted with the start-up)

    stamps = _Stamps()
    header = json.loads(sys.stdin.buffer.readline())
    aligner = ThotAligner(**header["settings"], processes=1)
    request = header["request"]
    stamps("read request")
    model = aligner._load(f"{request['prefix']}.{request['direction']}") if request["task"] == "decode" else None
    stamps("model load")
    body = sys.stdin.buffer.read()
    if not body:
        return
    asked = json.loads(body)
    pairs = [(list(s), list(t)) for s, t in asked["pairs"]]
    stamps("read request")
    found = aligner._run(request, pairs, asked.get("decoded"), model)
    stamps("decode")
    lines = [" ".join(f"{s}-{t}" for s, t in sorted(links)) for links in found]
    sys.stdout.write("\n".join(lines) + ("\n" if lines else ""))
    sys.stdout.flush()
    stamps("write links")
    stamps.record()


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
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"pid": os.getpid(), "wall": {}, "cpu": self.cpu}) + "\n")


if __name__ == "__main__":
    _serve()
