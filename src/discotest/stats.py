"""Significance and agreement statistics: paired sign test, paired bootstrap resampling, Kendall's τ-b.

The tests are generic over per-item statistics so one implementation serves BLEU (per-sentence
sufficient statistics, summed) and accuracy metrics such as AZPT (per-ZP ``[correct, 1]``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

DEFAULT_SEED = 12345  # sacrebleu's default SACREBLEU_SEED


@dataclass(frozen=True)
class SignTest:
    wins_a: int
    wins_b: int
    ties: int
    p_value: float


def sign_test(a: Sequence[float], b: Sequence[float]) -> SignTest:
    """Two-sided exact sign test on paired scores: H0 says each non-tied pair favours A or B with
    probability ½. Ties are dropped (the usual convention); with no untied pair p = 1.

    ``p = min(1, 2 · P[X ≤ min(wins)])`` with X ~ Binomial(wins_a + wins_b, ½), computed exactly.
    """
    if len(a) != len(b):
        raise ValueError("paired scores must have the same length")
    wins_a = int(sum(x > y for x, y in zip(a, b)))
    wins_b = int(sum(y > x for x, y in zip(a, b)))
    n = wins_a + wins_b
    k = min(wins_a, wins_b)
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n) if n else Fraction(1)
    return SignTest(wins_a, wins_b, len(a) - n, float(min(Fraction(1), 2 * tail)))


@dataclass(frozen=True)
class Bootstrap:
    """Paired bootstrap resampling of two systems on the same items (sacrebleu's ``--paired-bs``)."""

    score_a: float
    score_b: float
    mean_a: float
    mean_b: float
    ci_a: float  # half-width of the 95% interval of the resampled scores
    ci_b: float
    p_value: float
    n_samples: int
    seed: int | None


def _ci(scores: np.ndarray) -> tuple[float, float]:
    """Mean and 95% half-interval, as sacrebleu's ``estimate_ci``."""
    ordered = np.sort(scores)
    lower = len(ordered) // 40
    return float(ordered.mean()), float(0.5 * (ordered[len(ordered) - lower - 1] - ordered[lower]))


def paired_bootstrap(
    stats_a: Sequence[Sequence[float]] | np.ndarray,
    stats_b: Sequence[Sequence[float]] | np.ndarray,
    score: Callable[[np.ndarray], float],
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
) -> Bootstrap:
    """Paired bootstrap test of the difference between two systems.

    ``stats_a``/``stats_b`` hold one row of sufficient statistics per item (items paired by row);
    ``score`` turns the column sums of any selection of rows into the metric. Each resample draws
    n items with replacement (the same items for both systems). As in sacrebleu (after Moses'
    ``bootstrap-hypothesis-difference-significance.pl``) the p-value is the share of resamples whose
    absolute difference, centred on the resampled mean difference, reaches the observed absolute
    difference, with add-one smoothing: ``p = (c + 1) / (n_samples + 1)``. "Reaches" (≥, where
    sacrebleu counts >) makes two identical systems p = 1 instead of a spurious 1/(n_samples + 1).
    """
    a = np.asarray(stats_a, dtype=float)
    b = np.asarray(stats_b, dtype=float)
    if a.ndim == 1:
        a, b = a[:, None], b[:, None]
    if a.shape != b.shape or not len(a):
        raise ValueError("paired statistics must have the same, non-zero number of rows")
    rng = np.random.default_rng(seed)
    n = len(a)
    idx = rng.choice(n, size=(n_samples, n), replace=True)
    # counts[r, i] = how often item i is drawn in resample r; sums = counts @ stats
    counts = np.zeros((n_samples, n))
    np.add.at(counts, (np.repeat(np.arange(n_samples), n), idx.ravel()), 1)
    sums_a, sums_b = counts @ a, counts @ b
    scores_a = np.array([score(row) for row in sums_a])
    scores_b = np.array([score(row) for row in sums_b])
    observed_a, observed_b = float(score(a.sum(0))), float(score(b.sum(0)))
    diffs = np.abs(scores_b - scores_a)
    centred = diffs - diffs.mean()
    observed = abs(observed_b - observed_a)
    p = min(1.0, (int(np.sum(centred >= observed - 1e-9)) + 1) / (n_samples + 1))
    mean_a, ci_a = _ci(scores_a)
    mean_b, ci_b = _ci(scores_b)
    return Bootstrap(observed_a, observed_b, mean_a, mean_b, ci_a, ci_b, p, n_samples, seed)


def accuracy_from_sums(row: np.ndarray) -> float:
    """Percent correct from summed ``[correct, count]`` rows (the AZPT statistic)."""
    return 100.0 * row[0] / row[1] if row[1] else 0.0


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's τ-b between two paired rankings (scores), ties corrected; None when undefined.

    τ_b = (C − D) / sqrt((n0 − n1)(n0 − n2)) with C/D concordant/discordant pairs, n0 = n(n−1)/2,
    n1/n2 the pairs tied in x/y. O(n²): rankings here have a dozen systems.
    """
    if len(x) != len(y):
        raise ValueError("paired values must have the same length")
    concordant = discordant = tied_x = tied_y = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            if dx == 0 or dy == 0:
                continue
            if (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    n0 = n * (n - 1) // 2
    denominator = math.sqrt((n0 - tied_x) * (n0 - tied_y))
    return (concordant - discordant) / denominator if denominator else None
