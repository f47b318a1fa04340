"""The word-aligner interface and the symmetrisation shared by directional aligners.

An aligner takes tokenised sentence pairs and returns, per pair, the set of (source index, target
index) links. Anything that can do that (eflomal, fast_align, a neural aligner) plugs in here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

Links = frozenset[tuple[int, int]]
Pair = tuple[Sequence[str], Sequence[str]]
# per pair, the source positions whose links the caller reads (None for a pair, or for all: every word); an aligner
# that decides where to spend its effort by them says so with ``reads_watch`` (the links then depend on them too)
Watch = Sequence[frozenset[int] | None] | None


class WordAligner(ABC):
    name: str = ""
    reads_watch: bool = False

    @abstractmethod
    def signature(self) -> str:
        """Name, version and settings: part of the cache key and of the result signature."""

    @abstractmethod
    def align(self, pairs: Sequence[Pair]) -> list[Links]:
        """Links for every pair, in order."""

    def start(self, pairs: Sequence[Pair], watch: Watch = None) -> Callable[[], list[Links]]:
        """Begin aligning ``pairs``; the returned function waits for and returns the links. Aligners that work in
        other processes override this, so the caller can load an analyser meanwhile; here the work happens when
        the result is asked for. ``watch`` matters only to an aligner that ``reads_watch``."""
        return lambda: self.align(pairs)

    def warm_up(self) -> None:  # noqa: B027 - a hook: most aligners have nothing to begin early
        """Begin now what the next ``start`` needs before it can work (an aligner's processes starting and loading
        their model), beside the caller's own work; ``cool_down`` ends it where that ``start`` never comes. Nothing
        here."""

    def cool_down(self) -> None:  # noqa: B027 - warm_up's other half
        """End what ``warm_up`` began and no ``start`` used (the links were cached)."""


def parse_pharaoh(line: str) -> set[tuple[int, int]]:
    """``0-0 1-2`` -> {(0, 0), (1, 2)}."""
    links = set()
    for item in line.split():
        s, t = item.split("-")
        links.add((int(s), int(t)))
    return links


# the eight neighbours of a link, in the order the growing tries them
NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def grow_diag_final_and(forward: set[tuple[int, int]], reverse: set[tuple[int, int]]) -> Links:
    """Koehn's grow-diag-final-and: the intersection, grown by neighbouring union links, then
    union links whose source *and* target words are still unaligned (the "-and" variant, which
    keeps precision for the entity words we read gender from).

    Run on every pair of a decode in the parent process (3,886 for a WinoMT language), so it skips what cannot add a
    link, and adds exactly what the plain loops add: nothing when the directions agree, no neighbour tried around a
    link with no union link left within one source word, and at the end only union links not taken yet."""
    alignment = set(forward & reverse)
    pending = (forward | reverse) - alignment  # the union links not taken yet
    if not pending:  # every union link is taken: both its words are aligned, nothing more can come
        return frozenset(alignment)
    aligned_src = {s for s, _ in alignment}
    aligned_trg = {t for _, t in alignment}
    added = True
    while added and pending:
        added = False
        near = {s for s, _ in pending}  # pending only shrinks in a pass: this stays a superset
        for s, t in sorted(alignment):
            if s not in near and s - 1 not in near and s + 1 not in near:
                continue
            for ds, dt in NEIGHBOURS:
                cand = (s + ds, t + dt)
                if cand in pending and (cand[0] not in aligned_src or cand[1] not in aligned_trg):
                    alignment.add(cand)
                    pending.discard(cand)
                    aligned_src.add(cand[0])
                    aligned_trg.add(cand[1])
                    added = True
    for directional in (forward & pending, reverse & pending):  # a link taken already has both its words aligned
        for s, t in sorted(directional):
            if s not in aligned_src and t not in aligned_trg:
                alignment.add((s, t))
                aligned_src.add(s)
                aligned_trg.add(t)
    return frozenset(alignment)
