"""eflomal (Östling & Tiedemann 2016): Bayesian IBM model with HMM + fertility, both directions.

The eflomal binary seeds its sampler from the OS and has no seed option: two runs on the same text give different
links (on WinoMT google/de, 2,336 of 3,885 lines). It is kept to compare with; its signature says ``unseeded``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from discotest.lang.align.base import Links, Pair, WordAligner, grow_diag_final_and, parse_pharaoh
from discotest.version import package_version as version  # importlib.metadata's, without importing it


class EflomalAligner(WordAligner):
    """Trains on the given pairs (plus whatever extra text the caller adds) and aligns them.

    Settings from ../shared/COMPONENTS.md: one sampler and half the iterations align WinoMT as well as
    the defaults at a fifth of the time. ``prefix_len`` > 0 conflates words by their first letters,
    which helps inflected target words share statistics (Entwickler/Entwicklerin).
    """

    name = "eflomal"

    def __init__(self, n_samplers: int = 1, rel_iterations: float = 0.5, prefix_len: int = 0):
        import eflomal

        self._eflomal = eflomal
        self.n_samplers = n_samplers
        self.rel_iterations = rel_iterations
        self.prefix_len = prefix_len

    def signature(self) -> str:
        settings = f"s{self.n_samplers}-i{self.rel_iterations}"
        if self.prefix_len:
            settings += f"-p{self.prefix_len}"
        return f"eflomal-{version('eflomal')}-{settings}-unseeded+gdfa"

    def align(self, pairs: Sequence[Pair]) -> list[Links]:
        if not pairs:
            return []
        # eflomal cannot take empty sentences: give them a placeholder and drop its links afterwards
        src_lines = [" ".join(w.lower() for w in src) or "<empty>" for src, _ in pairs]
        trg_lines = [" ".join(w.lower() for w in trg) or "<empty>" for _, trg in pairs]
        aligner = self._eflomal.Aligner(
            n_samplers=self.n_samplers,
            rel_iterations=self.rel_iterations,
            source_prefix_len=self.prefix_len,
            target_prefix_len=self.prefix_len,
        )
        with tempfile.TemporaryDirectory(prefix="discotest-align-") as tmp:
            fwd, rev = Path(tmp) / "fwd", Path(tmp) / "rev"
            aligner.align(src_lines, trg_lines, links_filename_fwd=str(fwd), links_filename_rev=str(rev), quiet=True)
            fwd_lines = fwd.read_text().splitlines()
            rev_lines = rev.read_text().splitlines()
        out = []
        for (src, trg), f, r in zip(pairs, fwd_lines, rev_lines):
            links = grow_diag_final_and(parse_pharaoh(f), parse_pharaoh(r))
            out.append(frozenset((s, t) for s, t in links if s < len(src) and t < len(trg)))
        return out
