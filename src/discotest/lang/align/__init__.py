"""Word alignment: aligners by name and a content-hash cache around them.

The default is Thot's eflomal model with a fixed seed and two samplers (``thot_aligner``): the same input gives the
same links on every run and machine. Two samplers found the hand-checked German entity more often than one (exact
93.3% vs 90.0% of 90 gold rows; bench/validity/locate_agreement.py) and more of mZPRT's marked ZP translations.
The upstream eflomal binary (``eflomal``) seeds itself from the OS, so two runs differ; it stays available for
comparison and says ``unseeded`` in its signature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from discotest.errors import InputError
from discotest.lang.align.base import Links, Pair, Watch, WordAligner, parse_pharaoh

DEFAULT_ALIGNER = "thot-eflomal"
ALIGNERS = ("thot-eflomal", "thot-fast_align", "thot-hmm", "eflomal")
DECODERS = ("thot", "fast", "checked")  # how an alignment model decodes (``lang.align.model``)
# the signature's name of the in-process decode (``fast_decode``): its first-order marginal times the fertility factor
FAST_DECODE = "fast-decode-fertility"
DEFAULT_SEED = 1
DEFAULT_SAMPLERS = 2
# eflomal's schedule × this for the aligners trained on each input (``--align-train input``) …
DEFAULT_REL_ITERATIONS = 0.5
# … and × this for the alignment models trained once per suite and language (``lang.align.model``): trained once, they
# can afford twice the sweeps. On the Italian reader gold, a model trained at 0.5 lost one item (#1609, "le" unaligned)
# that 1.0 keeps; the figures of both are in VALIDITY.md.
MODEL_REL_ITERATIONS = 1.0
# … with half the fertility sweeps (10 IBM1 + 10 HMM + 20 fertility for WinoMT's ~15k pairs, not 10 + 10 + 40): the
# fertility sweeps are three quarters of the training's CPU, and at 0.5 every gold and agreement figure holds (at 0.25
# the reader gold loses de #3879); the training CPU falls by a third (issue 39; VALIDITY.md).
MODEL_REL_FERTILITY = 0.5  # WinoMT and BUG (gender.run); MiTTenS and MT-GenEval keep the full schedule (unmeasured)


def make_aligner(
    name: str = DEFAULT_ALIGNER, seed: int = DEFAULT_SEED, samplers: int = DEFAULT_SAMPLERS, processes: int = 2,
    rel_iterations: float = DEFAULT_REL_ITERATIONS, rel_fertility: float = 1.0,
) -> WordAligner:
    """An aligner by name; ``seed``, ``samplers`` and ``rel_iterations`` apply to the Thot models (eflomal's samplers
    and sweeps), and so does ``processes`` (2: each direction trains in a child process; 1: here, one after the other
    — same links)."""
    if name == "eflomal":
        from discotest.lang.align.eflomal_aligner import EflomalAligner

        return EflomalAligner(n_samplers=samplers)
    if name.startswith("thot-"):
        from discotest.lang.align.thot_aligner import MODELS, ThotAligner

        if name[5:] in MODELS:
            return ThotAligner(name[5:], seed=seed, samplers=samplers, rel_iterations=rel_iterations,
                               processes=processes, rel_fertility=rel_fertility)
    raise InputError(f"unknown aligner {name!r}; choose one of {', '.join(ALIGNERS)}")


def align_cached(aligner: WordAligner, pairs: Sequence[Pair], use_cache: bool = True, watch: Watch = None
                 ) -> list[Links]:
    """Align ``pairs`` (training on exactly them), reusing a cached result for identical input; ``watch``: the source
    words the caller reads (``base.Watch``)."""
    return start_align_cached(aligner, pairs, use_cache, watch)()


class PendingLinks:
    """An alignment begun (``start_align_cached``): call it for the links; ``from_cache`` says whether they were
    cached (nothing is being computed, so there is no time to fill meanwhile). A plain class, and the cache imported
    where it is used: Thot's decode children import this package, and need neither (``thot_child``)."""

    __slots__ = ("finish", "from_cache")

    def __init__(self, finish: Callable[[], list[Links]], from_cache: bool):
        self.finish, self.from_cache = finish, from_cache

    def __call__(self) -> list[Links]:
        return self.finish()


def start_align_cached(aligner: WordAligner, pairs: Sequence[Pair], use_cache: bool = True, watch: Watch = None
                       ) -> PendingLinks:
    """``align_cached`` begun now and finished by calling the result (``WordAligner.start``): the caller can do
    other work while the aligner's processes train."""
    from discotest import cache

    key = _key(aligner, pairs, watch)
    if use_cache and (hit := _load(key, pairs)) is not None:
        return PendingLinks(lambda: hit, from_cache=True)
    pending = aligner.start(pairs, watch) if aligner.reads_watch else aligner.start(pairs)
    done: list[list[Links]] = []

    def finish() -> list[Links]:
        if not done:
            done.append(pending())
            cache.store("align", key, "\n".join(" ".join(f"{s}-{t}" for s, t in sorted(lk)) for lk in done[0]))
        return done[0]

    return PendingLinks(finish, from_cache=False)


def cached_links(aligner: WordAligner, pairs: Sequence[Pair], watch: Watch = None) -> list[Links] | None:
    """The cached alignment of ``pairs`` (what ``align_cached`` would reuse), or None: nothing is computed. The
    ray engine asks this before it sends a run to a worker."""
    return _load(_key(aligner, pairs, watch), pairs)


def _key(aligner: WordAligner, pairs: Sequence[Pair], watch: Watch = None) -> str:
    """The pairs and the aligner's signature; the watched words too where the aligner reads them."""
    from discotest import cache

    lines = [" ".join(s) + " ||| " + " ".join(t) for s, t in pairs]
    if aligner.reads_watch:
        marks = [None] * len(pairs) if watch is None else list(watch)
        lines = [f"{line} ||| {'*' if w is None else ' '.join(map(str, sorted(w)))}" for line, w in zip(lines, marks)]
    return cache.content_key([aligner.signature(), *lines])


def _load(key: str, pairs: Sequence[Pair]) -> list[Links] | None:
    from discotest import cache

    return cache.load("align", key, parse=lambda text: _parse_entry(text, pairs))


def _parse_entry(text: str, pairs: Sequence[Pair]) -> list[Links]:
    """A cached alignment, one Pharaoh line per pair; ValueError unless every link indexes a word of its pair."""
    lines = text.split("\n") if text or pairs else []
    if len(lines) != len(pairs):
        raise ValueError(f"{len(lines)} lines for {len(pairs)} pairs")
    out = []
    for line, (src, tgt) in zip(lines, pairs):
        links = parse_pharaoh(line)
        if any(not (0 <= s < len(src) and 0 <= t < len(tgt)) for s, t in links):
            raise ValueError("link outside its sentence pair")
        out.append(frozenset(links))
    return out
