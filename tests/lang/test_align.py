"""The symmetrisation by hand, every aligner on a small made-up corpus, the seeded default, the content-hash
cache."""

from __future__ import annotations

import pytest

from discotest import cache
from discotest.errors import InputError
from discotest.gender.pipeline import align_in_corpus
from discotest.lang.align import ALIGNERS, DEFAULT_ALIGNER, align_cached, make_aligner, start_align_cached
from discotest.lang.align.base import WordAligner, grow_diag_final_and, parse_pharaoh


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


SMALL = [
    ("the doctor came", "der Arzt kam"),
    ("the nurse came", "die Krankenschwester kam"),
    ("the doctor left", "der Arzt ging"),
    ("the nurse left", "die Krankenschwester ging"),
    ("a doctor came", "ein Arzt kam"),
    ("a nurse left", "eine Krankenschwester ging"),
]


@pytest.mark.parametrize("name", ALIGNERS)
def test_every_aligner_aligns_a_small_corpus(name):
    pairs = [(s.split(), t.split()) for s, t in SMALL] * 20
    links = make_aligner(name).align(pairs)
    assert (1, 1) in links[0]  # doctor - Arzt
    assert (1, 1) in links[1]  # nurse - Krankenschwester
    assert (2, 2) in links[3]  # left - ging
    assert all(s < 3 and t < 3 for lk in links for s, t in lk)


def test_the_default_aligner_is_seeded_and_says_so():
    aligner = make_aligner()
    assert aligner.signature().startswith("thot-eflomal-") and "seed1" in aligner.signature()
    assert "seed7" in make_aligner(DEFAULT_ALIGNER, seed=7).signature()
    assert "unseeded" in make_aligner("eflomal").signature()


def test_same_seed_same_links_other_seed_other_links():
    # a corpus where the sampler has real choices to make: every English word could go with every German one
    words_en = ["the", "a", "doctor", "nurse", "came", "left", "saw", "met", "friend", "teacher"]
    words_de = ["der", "ein", "Arzt", "Pflegerin", "kam", "ging", "sah", "traf", "Freund", "Lehrer"]
    pairs = []
    for k in range(300):
        idx = [(k * 7 + j * 3) % 10 for j in range(4 + k % 3)]
        pairs.append(([words_en[i] for i in idx], [words_de[(i + k) % 10] for i in reversed(idx)]))
    first = make_aligner(seed=1).align(pairs)
    again = make_aligner(seed=1).align(pairs)
    other = make_aligner(seed=2).align(pairs)
    assert first == again
    assert first != other


def test_empty_sides_get_no_links():
    pairs = [(("the", "doctor"), ()), ((), ("der",)), (("the", "doctor"), ("der", "Arzt"))] * 5
    links = make_aligner().align(pairs)
    assert links[0] == frozenset() and links[1] == frozenset()
    assert make_aligner().align([]) == []


def test_unknown_aligner_is_an_input_error():
    with pytest.raises(InputError, match="unknown aligner"):
        make_aligner("giza")


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


def test_both_directions_in_child_processes_give_the_links_of_one_process():
    # the same corpus as the seed test: the sampler has choices, so a difference in the children's input or settings
    # (lower-casing, order, seed, samplers, iterations) would show as other links
    words_en = ["the", "a", "doctor", "nurse", "came", "left", "saw", "met", "friend", "teacher"]
    words_de = ["der", "ein", "Arzt", "Pflegerin", "kam", "ging", "sah", "traf", "Freund", "Lehrer"]
    pairs = [([words_en[i] for i in idx], [words_de[(i + k) % 10] for i in reversed(idx)])
             for k in range(300) for idx in [[(k * 7 + j * 3) % 10 for j in range(4 + k % 3)]]]
    pairs[3] = (pairs[3][0], [])  # an empty side travels through the child too
    children = make_aligner()
    assert children.processes == 2
    here = make_aligner(processes=1)
    assert children.align(pairs) == here.align(pairs)
    assert children.signature() == here.signature()  # where it ran never changes a link


def test_a_failing_aligner_process_is_a_clear_error(monkeypatch):
    aligner = make_aligner()
    monkeypatch.setattr(aligner, "settings", lambda: {"model": "giza"})  # the child refuses an unknown model
    pending = aligner.start([(["a"], ["x"])])
    with pytest.raises(RuntimeError, match=r"thot-eflomal aligner process failed \(exit 1\): .*unknown Thot model"):
        pending()


def test_start_returns_before_the_links_and_the_cache_serves_them_after(tmp_path):
    aligner = CountingAligner()
    pairs = [(("a", "b"), ("x", "y"))]
    pending = start_align_cached(aligner, pairs)
    assert aligner.calls == 0  # the base class aligns when the result is asked for
    assert pending() == pending() == [frozenset({(0, 0), (1, 1)})] and aligner.calls == 1
    assert start_align_cached(aligner, pairs)() == pending() and aligner.calls == 1  # from the cache


def test_fewer_fertility_sweeps_are_named_in_the_signature_and_reach_the_child_processes():
    """``rel_fertility`` cuts the fertility sweeps alone (IBM1 and HMM keep theirs); it changes the signature (and so
    every cache key built on it) unless 1.0, and the child processes train with it: the same links as training here,
    which differ from the full schedule's on a corpus where the sampler has choices."""
    from discotest.lang.align.thot_aligner import iterations

    assert iterations(15_544, 1.0) == (10, 10, 40)
    assert iterations(15_544, 1.0, 0.5) == (10, 10, 20)
    words_en = ["the", "a", "doctor", "nurse", "came", "left", "saw", "met", "friend", "teacher"]
    words_de = ["der", "ein", "Arzt", "Pflegerin", "kam", "ging", "sah", "traf", "Freund", "Lehrer"]
    pairs = [([words_en[i] for i in idx], [words_de[(i + k) % 10] for i in reversed(idx)])
             for k in range(300) for idx in [[(k * 7 + j * 3) % 10 for j in range(4 + k % 3)]]]
    full, cut = make_aligner(), make_aligner(rel_fertility=0.25)
    assert "-f" not in full.signature() and cut.signature() == full.signature().replace("+gdfa", "-f0.25+gdfa")
    links = cut.align(pairs)
    assert links == make_aligner(rel_fertility=0.25, processes=1).align(pairs)
    assert links != full.align(pairs)
