"""Seeded word alignment with SIL's Thot toolkit (``sil-thot``, LGPL-3.0): the same input and seed give the same
links on every run and machine.

The default model is Thot's eflomal (Östling & Tiedemann 2016: Bayesian IBM with HMM and fertility, Gibbs-sampled)
with ``deterministic`` sampling and a fixed seed; ``fast_align`` (IBM2 with a diagonal prior, EM) and ``hmm`` are
there to compare. Each direction is trained separately and the links are symmetrised by our own
grow-diag-final-and (``base.grow_diag_final_and``), exactly as for the upstream eflomal binary.

Thot's trainer holds the GIL and uses one core, so the two directions train in two child processes
(``thot_child``: settings and request, then the pairs, on stdin; the links on stdout): on 2 cores the alignment takes
half the wall time, and the parent is free to load an analyser meanwhile. A decode's children load their model as soon
as the header comes, and can be started before the pairs are known (``ThotAligner.start_decode``): their start-up and
loading run beside the caller's.
Children are plain subprocesses, not multiprocessing workers: nothing is forked from a process whose native threads
already ran (a forked Thot trainer waits forever), and a user's script is never imported again. ``processes=1`` trains
both directions here, one after the other; the links are the same either way (tests/lang/test_align.py).
"""

from __future__ import annotations

import marshal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence

from discotest.engine import child_env
from discotest.lang.align.base import Links, Pair, Watch, WordAligner, grow_diag_final_and
from discotest.lang.align.thot_child import MODELS, iterations, known_model, link_sets, run, swapped, train
from discotest.version import package_version as version  # importlib.metadata's, without importing it

# MODELS and iterations are thot_child's, named here too (make_aligner, tests)
__all__ = ["CHILD", "DIRECTIONS", "MODELS", "Decoding", "ThotAligner", "iterations"]


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

        self.model = known_model(model)
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
        """One direction's model trained on ``pairs`` here (``thot_child.train``)."""
        return train(self.settings(), pairs)

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
        lowered = _lowered(pairs)
        lowered_decoded = None if decoded is pairs else _lowered(decoded)
        if self.processes > 1:
            started = children or [_Child(self, {**request, "direction": d}) for d in DIRECTIONS]
            body = marshal.dumps((lowered, lowered_decoded))  # one body for both: the reverse child swaps the pairs
            expected = len(lowered if lowered_decoded is None else lowered_decoded)
            forward_links, reverse_links = (child.send(body, expected) for child in started)
        else:
            def forward_links() -> list[set[tuple[int, int]]]:
                return link_sets(self._flat({**request, "direction": "fwd"}, lowered, lowered_decoded))

            def reverse_links() -> list[set[tuple[int, int]]]:
                return link_sets(self._flat({**request, "direction": "rev"}, swapped(lowered),
                                            lowered_decoded and swapped(lowered_decoded), reverse=True))

        def result() -> list[Links]:
            out = []
            for (src, trg), fwd, rev in zip(decoded, forward_links(), reverse_links()):
                # an empty side was a placeholder word: its links go
                out.append(grow_diag_final_and(fwd, rev) if src and trg else frozenset())
            return out

        return result

    def _run(self, request: dict, pairs: list[tuple[list[str], list[str]]],
             decoded: list[tuple[list[str], list[str]]] | None = None) -> list[set[tuple[int, int]]]:
        """One direction of ``request`` here, on the pairs as that direction's model sees them (``_lowered``): the
        links of ``decoded`` (None: ``pairs`` themselves; for ``train``, the pairs decoded after training, by the model
        read back from its files), as that model's (source, target)."""
        return link_sets(self._flat(request, pairs, decoded))

    def _flat(self, request: dict, pairs: list[tuple[list[str], list[str]]],
              decoded: list[tuple[list[str], list[str]]] | None = None, reverse: bool = False) -> list[list[int]]:
        """``_run``'s links as ``thot_child.best_links`` gives them (flat; turned round with ``reverse``)."""
        return run(self.settings(), request, pairs, decoded, reverse)


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


# the child's command: only its own module and what it imports (``python -m`` of this module would import it all)
CHILD = "from discotest.lang.align.thot_child import serve; serve()"


class _Child:
    """One direction of a request in a child process (``thot_child``), started now
    with a header line (settings and request): a decode's child loads its model at once, and reads its pairs when
    ``send`` writes them. Plain subprocesses, not multiprocessing workers (the module's docstring says why)."""

    def __init__(self, aligner: ThotAligner, request: dict):
        env = child_env()  # the child ends with this process (engine.end_with_parent)
        if request["task"] == "decode":  # the two directions decode side by side: one core each, not two threads each
            env["OMP_NUM_THREADS"] = "1"
        self.name = aligner.name
        # its messages go to a file, not a pipe nobody reads yet; it imports this very copy of discotest
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 - outlives this call; links() or close() closes it
        self.process = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.errors, env=env)
        self._write(marshal.dumps({"settings": aligner.settings(), "request": request}), last=False)

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

    def send(self, body: bytes, expected: int) -> Callable[[], list[set[tuple[int, int]]]]:
        """Give the child its pairs (``body``, written by a thread of its own: a child still loading its model never
        holds this process up); the returned function waits for the links of the ``expected`` pairs, as the forward
        pair's (source, target)."""
        writer = threading.Thread(target=self._write, args=(body,), name="discotest-thot-writer", daemon=True)
        writer.start()
        done: list[list[set[tuple[int, int]]]] = []

        def links() -> list[set[tuple[int, int]]]:
            if not done:
                child = self.process
                assert child.stdout is not None
                out = child.stdout.read()
                child.stdout.close()
                child.wait()
                writer.join()
                try:
                    flat = marshal.loads(out) if child.returncode == 0 else None
                except (EOFError, ValueError, TypeError):
                    flat = None
                if not isinstance(flat, list) or len(flat) != expected:
                    self.errors.seek(0)
                    detail = self.errors.read().decode(errors="replace").strip().splitlines()[-1:]
                    self.errors.close()
                    raise RuntimeError(f"the {self.name} aligner process failed (exit {child.returncode}): "
                                       f"{detail[0] if detail else 'no message'}")
                self.errors.close()
                done.append(link_sets(flat))
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


def _lowered(pairs: Sequence[Pair], direction: str = "fwd") -> list[tuple[list[str], list[str]]]:
    """The pairs as a direction's model sees them: lowercased like the eflomal binary's input, an empty side a
    placeholder whose links are dropped, target first for ``rev``."""
    out = [([w.lower() for w in s] or ["<empty>"], [w.lower() for w in t] or ["<empty>"]) for s, t in pairs]
    return out if direction == "fwd" else swapped(out)
