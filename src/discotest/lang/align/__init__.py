"""Word alignment: aligners by name and a content-hash cache around them."""

from __future__ import annotations

from collections.abc import Sequence

from discotest import cache
from discotest.errors import InputError
from discotest.lang.align.base import Links, Pair, WordAligner, parse_pharaoh

ALIGNERS = ("eflomal",)


def make_aligner(name: str = "eflomal") -> WordAligner:
    if name == "eflomal":
        from discotest.lang.align.eflomal_aligner import EflomalAligner

        return EflomalAligner()
    raise InputError(f"unknown aligner {name!r}; choose one of {', '.join(ALIGNERS)}")


def align_cached(aligner: WordAligner, pairs: Sequence[Pair], use_cache: bool = True) -> list[Links]:
    """Align ``pairs`` (training on exactly them), reusing a cached result for identical input."""
    key = cache.content_key([aligner.signature(), *(" ".join(s) + " ||| " + " ".join(t) for s, t in pairs)])
    if use_cache:
        hit = cache.load("align", key)
        if hit is not None:
            lines = hit.split("\n")
            if len(lines) == len(pairs):
                return [frozenset(parse_pharaoh(line)) for line in lines]
    links = aligner.align(pairs)
    cache.store("align", key, "\n".join(" ".join(f"{s}-{t}" for s, t in sorted(lk)) for lk in links))
    return links
