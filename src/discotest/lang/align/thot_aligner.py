"""Seeded word alignment with SIL's Thot toolkit (``sil-thot``, LGPL-3.0): the same input and seed give the same
links on every run and machine.

The default model is Thot's eflomal (Östling & Tiedemann 2016: Bayesian IBM with HMM and fertility, Gibbs-sampled)
with ``deterministic`` sampling and a fixed seed; ``fast_align`` (IBM2 with a diagonal prior, EM) and ``hmm`` are
there to compare. Each direction is trained separately and the links are symmetrised by our own
grow-diag-final-and (``base.grow_diag_final_and``), exactly as for the upstream eflomal binary.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import version

from discotest.lang.align.base import Links, Pair, WordAligner, grow_diag_final_and

MODELS = {"eflomal": "EflomalAlignmentModel", "fast_align": "FastAlignModel", "hmm": "HmmAlignmentModel"}


def iterations(n_pairs: int, rel_iterations: float) -> tuple[int, int, int]:
    """Sweeps of IBM1, HMM and fertility: eflomal's schedule (more for small corpora), times ``rel_iterations``."""
    sweeps = max(2, round(rel_iterations * 5000 / max(1, n_pairs) ** 0.5))
    return max(2, sweeps // 4), sweeps // 4, sweeps


class ThotAligner(WordAligner):
    """Trains on the given pairs and aligns them; every setting that can change a link is in ``signature()``.

    ``samplers`` and ``rel_iterations`` apply to the eflomal model: the number of sweeps follows eflomal's own
    schedule (``iterations``), scaled as the eflomal package's ``rel_iterations`` scales it.
    """

    def __init__(
        self,
        model: str = "eflomal",
        seed: int = 1,
        samplers: int = 1,
        rel_iterations: float = 0.5,
    ):
        import thot.alignment  # noqa: F401  (fails here, not mid-run, when the extra is missing)

        if model not in MODELS:
            raise ValueError(f"unknown Thot model {model!r}")
        self.model = model
        self.seed = seed
        self.samplers = samplers
        self.rel_iterations = rel_iterations
        self.name = f"thot-{model}"

    def signature(self) -> str:
        settings = f"seed{self.seed}"
        if self.model == "eflomal":
            settings += f"-s{self.samplers}-i{self.rel_iterations}"
        return f"thot-{self.model}-{version('sil-thot')}-{settings}+gdfa"

    def _train(self, pairs: Sequence[tuple[list[str], list[str]]]):
        import thot.alignment as thot

        model = getattr(thot, MODELS[self.model])()
        if self.model == "eflomal":
            model.seed = self.seed
            model.deterministic = True
            model.num_samplers = self.samplers
            model.set_iterations(*iterations(len(pairs), self.rel_iterations))
        for src, trg in pairs:
            model.add_sentence_pair(src, trg)
        model.start_training()
        for _ in range(model.scheduled_iterations if self.model == "eflomal" else 5):
            model.train()
        model.end_training()
        return model

    def _directional(self, pairs: Sequence[tuple[list[str], list[str]]]) -> list[set[tuple[int, int]]]:
        """Links (source index, target index) of the model trained source→target, for every pair."""
        model = self._train(pairs)
        best = model.get_best_alignments([s for s, _ in pairs], [t for _, t in pairs])
        out = []
        for _, matrix in best:
            grid = matrix.to_numpy()  # rows: source positions, columns: target positions (NULL links are absent)
            out.append({(int(i), int(j)) for i, j in zip(*grid.nonzero())})
        return out

    def align(self, pairs: Sequence[Pair]) -> list[Links]:
        if not pairs:
            return []
        # lowercased like the eflomal binary's input; an empty side gets a placeholder whose links are dropped
        lowered = [([w.lower() for w in s] or ["<empty>"], [w.lower() for w in t] or ["<empty>"]) for s, t in pairs]
        forward = self._directional(lowered)
        reverse = self._directional([(t, s) for s, t in lowered])
        out = []
        for (src, trg), fwd, rev in zip(pairs, forward, reverse):
            links = grow_diag_final_and(fwd, {(s, t) for t, s in rev})
            out.append(frozenset((s, t) for s, t in links if s < len(src) and t < len(trg)))
        return out
