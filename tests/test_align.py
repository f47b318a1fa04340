"""The symmetrisation by hand, eflomal on a small made-up corpus, and the content-hash cache."""

from __future__ import annotations

import pytest

from discotest import cache
from discotest.lang.align import align_cached, make_aligner
from discotest.lang.align.base import WordAligner, grow_diag_final_and, parse_pharaoh
from discotest.pipelines.gender import align_in_corpus


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))


def test_parse_pharaoh():
    assert parse_pharaoh("0-0 1-2 2-1") == {(0, 0), (1, 2), (2, 1)}
    assert parse_pharaoh("") == set()


def test_gdfa_grows_to_neighbours_with_an_unaligned_end():
    forward = {(0, 0), (1, 1), (2, 2)}
    reverse = {(0, 0), (1, 1), (1, 2)}
    # intersection {(0,0),(1,1)}; (1,2) and (2,2) neighbour (1,1) and each touches an unaligned word
    assert grow_diag_final_and(forward, reverse) == {(0, 0), (1, 1), (1, 2), (2, 2)}


def test_gdfa_drops_union_links_between_aligned_words():
    forward = {(0, 0), (1, 1), (3, 3)}
    reverse = {(0, 0), (1, 1), (0, 1)}
    # (0,1) neighbours the intersection but both its words are aligned already: dropped;
    # (3,3) is far from everything but joins two unaligned words: added by "final-and"
    assert grow_diag_final_and(forward, reverse) == {(0, 0), (1, 1), (3, 3)}


def test_gdfa_final_and_adds_links_between_unaligned_words():
    links = grow_diag_final_and({(0, 0), (3, 3)}, {(0, 0)})
    assert links == {(0, 0), (3, 3)}


def test_eflomal_aligns_a_small_corpus():
    base = [
        ("the doctor came", "der Arzt kam"),
        ("the nurse came", "die Krankenschwester kam"),
        ("the doctor left", "der Arzt ging"),
        ("the nurse left", "die Krankenschwester ging"),
        ("a doctor came", "ein Arzt kam"),
        ("a nurse left", "eine Krankenschwester ging"),
    ]
    pairs = [(s.split(), t.split()) for s, t in base] * 20
    links = make_aligner().align(pairs)
    assert (1, 1) in links[0]  # doctor - Arzt
    assert (1, 1) in links[1]  # nurse - Krankenschwester
    assert (2, 2) in links[3]  # left - ging


class CountingAligner(WordAligner):
    name = "counting"

    def __init__(self):
        self.calls = 0

    def signature(self) -> str:
        return "counting-1"

    def align(self, pairs):
        self.calls += 1
        return [frozenset((i, i) for i in range(min(len(s), len(t)))) for s, t in pairs]


def test_cache_serves_the_second_run():
    aligner = CountingAligner()
    pairs = [(("a", "b"), ("x", "y")), (("c",), ("z",))]
    first = align_cached(aligner, pairs)
    second = align_cached(aligner, pairs)
    assert first == second and aligner.calls == 1
    align_cached(aligner, pairs, use_cache=False)
    assert aligner.calls == 2


def test_align_in_corpus_reuses_a_block_and_slices_the_right_links():
    aligner = CountingAligner()
    block_a = [(("a",), ("x",))]
    block_b = [(("b", "c"), ("y", "z"))]
    got = align_in_corpus(aligner, block_b, [block_a, block_b])
    assert got == [frozenset({(0, 0), (1, 1)})]
    align_in_corpus(aligner, block_a, [block_a, block_b])  # same corpus: served from the cache
    assert aligner.calls == 1
