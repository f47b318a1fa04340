"""Sign test, paired bootstrap and Kendall's τ-b on cases checkable by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from discotest import stats
from discotest.stats import accuracy_from_sums, kendall_tau_b, paired_bootstrap, resample_counts, sign_test


def test_sign_test_by_hand():
    # 5 wins for A, 1 for B, 2 ties: P[X <= 1] with X ~ Bin(6, 1/2) = 7/64; two-sided 14/64
    result = sign_test([1, 1, 1, 1, 1, 0, 2, 2], [0, 0, 0, 0, 0, 1, 2, 2])
    assert (result.wins_a, result.wins_b, result.ties) == (5, 1, 2)
    assert result.p_value == pytest.approx(14 / 64)


def test_sign_test_extremes():
    assert sign_test([1] * 10, [0] * 10).p_value == pytest.approx(2 / 2**10)
    assert sign_test([0, 1], [1, 0]).p_value == 1.0  # balanced: capped at 1
    assert sign_test([3, 3], [3, 3]).p_value == 1.0  # only ties
    big = sign_test([1] * 1500, [0] * 1500)  # exact arithmetic, no underflow to nonsense
    assert 0 < big.p_value < 1e-300 or big.p_value == 0.0
    with pytest.raises(ValueError):
        sign_test([1], [1, 2])


def test_sign_test_matches_the_binomial_sum():
    n, k = 20, 6
    expected = 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    assert sign_test([1] * k + [0] * (n - k), [0] * k + [1] * (n - k)).p_value == pytest.approx(expected)


def test_bootstrap_of_identical_systems_is_not_significant():
    stats = [[1, 1], [0, 1], [1, 1], [1, 1]]
    result = paired_bootstrap(stats, stats, accuracy_from_sums, n_samples=200, seed=1)
    assert result.score_a == result.score_b == 75.0
    assert result.p_value == 1.0  # every centred resample difference (0) reaches the observed one (0)
    assert result.mean_a == result.mean_b


def test_bootstrap_of_a_clearly_better_system():
    a = [[0, 1]] * 50 + [[1, 1]] * 50
    b = [[1, 1]] * 100
    result = paired_bootstrap(a, b, accuracy_from_sums, n_samples=1000, seed=7)
    assert (result.score_a, result.score_b) == (50.0, 100.0)
    assert result.p_value == pytest.approx(1 / 1001)  # no centred resample reaches a 50-point gap
    assert result.mean_b == 100.0 and result.ci_b == 0.0
    assert 40 < result.mean_a < 60 and 5 < result.ci_a < 15  # ±1.96·5 points for a 50% rate on 100 items


def test_bootstrap_is_seeded_and_accepts_one_column():
    a = np.array([1.0, 0, 1, 0, 1, 1, 0, 1])
    b = np.array([1.0, 1, 1, 0, 0, 1, 1, 1])

    def mean(row):
        return float(row[0])

    first = paired_bootstrap(a, b, mean, n_samples=300, seed=3)
    again = paired_bootstrap(a, b, mean, n_samples=300, seed=3)
    assert first == again
    assert first.score_a == 5.0 and first.score_b == 6.0
    with pytest.raises(ValueError):
        paired_bootstrap(a, b[:3], mean)


def _drawn_afresh(n: int, n_samples: int, seed: int) -> np.ndarray:
    """The counts as paired_bootstrap drew them before draws were kept: a fresh generator each time."""
    idx = np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)
    flat = (np.arange(n_samples)[:, None] * n + idx).ravel()
    return np.bincount(flat, minlength=n_samples * n).reshape(n_samples, n).astype(float)


def test_a_kept_draw_is_the_draw_itself(monkeypatch):
    # the card tests one draw nine times a row: the kept draw must be the very numbers a fresh draw gives, for the
    # same seed, and another seed or size another draw (the oldest kept one let go)
    monkeypatch.setattr(stats, "_DRAWS", {})
    monkeypatch.setattr(stats, "_LAST", (None, None))
    first = resample_counts(3886, 1000, 12345)
    again = resample_counts(3886, 1000, 12345)
    assert again.dtype == float and np.array_equal(first, again)
    assert np.array_equal(again, _drawn_afresh(3886, 1000, 12345))
    assert not again.flags.writeable  # handed out again and again: no caller may change it for the next
    with pytest.raises(ValueError):
        again[0, 0] = 2.0
    monkeypatch.setattr(stats, "_LAST", (None, None))  # the floats made again from the kept compact draw
    assert np.array_equal(resample_counts(3886, 1000, 12345), first)
    for seed in range(1, stats.KEPT_DRAWS + 1):
        assert np.array_equal(resample_counts(50, 200, seed), _drawn_afresh(50, 200, seed))
    assert len(stats._DRAWS) == stats.KEPT_DRAWS and (3886, 1000, 12345) not in stats._DRAWS
    assert not np.array_equal(resample_counts(50, 200, 1), resample_counts(50, 200, 2))


def test_an_unseeded_draw_is_never_kept(monkeypatch):
    monkeypatch.setattr(stats, "_DRAWS", {})
    resample_counts(40, 100, None)
    assert stats._DRAWS == {}


def test_one_systems_interval_equals_the_paired_runs(monkeypatch):
    # stats_b is stats_a (the card's and the contrastive suites' intervals): B's resamples are taken as A's
    rows = np.random.default_rng(5).integers(0, 2, size=(300, 2)).astype(float)
    rows[:, 1] = 1
    monkeypatch.setattr(stats, "_DRAWS", {})
    alone = paired_bootstrap(rows, rows, accuracy_from_sums, n_samples=500, seed=9)
    monkeypatch.setattr(stats, "_DRAWS", {})
    copied = paired_bootstrap(rows, rows.copy(), accuracy_from_sums, n_samples=500, seed=9)
    assert alone == copied and alone.p_value == 1.0


def test_bootstrap_resamples_draw_with_replacement_the_same_items_for_both():
    # B = A + 1 on every item: every resample's difference is exactly n, so nothing exceeds it
    a = np.arange(10.0)[:, None]
    result = paired_bootstrap(a, a + 1, lambda row: float(row[0]), n_samples=100, seed=0)
    assert result.score_b - result.score_a == 10
    assert result.p_value == pytest.approx(1 / 101)


def test_kendall_tau_b_by_hand():
    assert kendall_tau_b([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert kendall_tau_b([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # pairs: (1,2) C, (1,3) C, (2,3) D  ->  (2 - 1) / 3
    assert kendall_tau_b([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    # ties in x: x=[1,1,2], y=[1,2,3]: pairs (1,2) tied in x, (1,3) C, (2,3) C
    # n0 = 3, n1 = 1, n2 = 0 -> 2 / sqrt(2 * 3)
    assert kendall_tau_b([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / math.sqrt(6))
    assert kendall_tau_b([1, 1], [1, 2]) is None  # all tied in x: undefined
    assert kendall_tau_b([5], [5]) is None


def test_kendall_tau_b_against_a_reference_value():
    # scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) -> -0.47140452079103173 (its docs' example)
    assert kendall_tau_b([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) == pytest.approx(-0.47140452079103173)


def test_stratified_sample_keeps_every_stratum_where_n_allows():
    from discotest.stats import stratified_sample

    strata = ["big"] * 90 + ["mid"] * 9 + ["tiny"]  # largest remainder alone gives "tiny" (0.1 of 10) nothing
    keys = list(range(len(strata)))
    chosen = stratified_sample(keys, strata, 10)
    assert len(chosen) == 10 and {strata[p] for p in chosen} == {"big", "mid", "tiny"}
    assert chosen == stratified_sample(keys, strata, 10)  # the same items every time
    assert len(stratified_sample(keys, strata, 2)) == 2  # fewer than the strata: the largest shares
    assert stratified_sample(keys, strata, 500) == keys
