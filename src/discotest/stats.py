"""Significance and agreement statistics: paired sign test, paired bootstrap resampling, Kendall's τ-b,
and nominal agreement (Cohen's κ, Gwet's AC1, Krippendorff's α) with bootstrap confidence intervals; the Wilson
interval of a hand-checked share.

The tests are generic over per-item statistics so one implementation serves BLEU (per-sentence
sufficient statistics, summed) and accuracy metrics such as AZPT (per-ZP ``[correct, 1]``).
The agreement coefficients return None where they are undefined (one label only, nothing pairable), so a
caller never divides by zero and renders the value as "n/a".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads in the resampling functions: a run that resamples nothing (warm) never loads it
    import numpy as np

DEFAULT_SEED = 12345  # sacrebleu's default SACREBLEU_SEED


def tie_order(badness: Sequence[float], names: Sequence[str]) -> list[tuple[int, int]]:
    """The one tie rule of every ranking (``run``'s DiP tables, ``compare``'s rankings and the card): systems in
    order of badness (smaller is better), systems of equal badness by name; each with its rank, one more than the
    systems strictly better, so tied systems share the better rank (1, 2, 2, 4). Returns (index into the inputs,
    rank) in that order. A system's neighbours are the ones just before and after it in this order (a tied one
    too: its paired test says p=1.000 where the items agree)."""
    order = sorted(range(len(badness)), key=lambda i: (badness[i], names[i]))
    return [(i, 1 + sum(b < badness[i] for b in badness)) for i in order]


@dataclass(frozen=True)
class SignTest:
    wins_a: int
    wins_b: int
    ties: int
    p_value: float


def wilson_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n: unlike the normal approximation it stays inside [0, 1]
    for a share near 100% on a hand-checked sample of 100 or 200 items."""
    if n <= 0:
        raise ValueError("a Wilson interval needs at least one item")
    p = k / n
    centre, half = p + z * z / (2 * n), z * math.sqrt((p * (1 - p) + z * z / (4 * n)) / n)
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


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
    import numpy as np

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
    import numpy as np

    a = np.asarray(stats_a, dtype=float)
    b = np.asarray(stats_b, dtype=float)
    if a.ndim == 1:
        a, b = a[:, None], b[:, None]
    if a.shape != b.shape or not len(a):
        raise ValueError("paired statistics must have the same, non-zero number of rows")
    counts = resample_counts(len(a), n_samples, seed)
    sums_a = counts @ a
    scores_a = np.array([score(row) for row in sums_a])
    # one system's interval (``stats_b`` is ``stats_a``: the card's and the contrastive suites' intervals): B's
    # resamples are A's, the same numbers, not computed twice
    scores_b = scores_a if stats_b is stats_a else np.array([score(row) for row in counts @ b])
    observed_a, observed_b = float(score(a.sum(0))), float(score(b.sum(0)))
    diffs = np.abs(scores_b - scores_a)
    centred = diffs - diffs.mean()
    observed = abs(observed_b - observed_a)
    p = min(1.0, (int(np.sum(centred >= observed - 1e-9)) + 1) / (n_samples + 1))
    mean_a, ci_a = _ci(scores_a)
    mean_b, ci_b = _ci(scores_b)
    return Bootstrap(observed_a, observed_b, mean_a, mean_b, ci_a, ci_b, p, n_samples, seed)


# the item counts of the last seeded draws, by (items, resamples, seed), compact (``resample_counts``)
_DRAWS: dict[tuple[int, int, int], np.ndarray] = {}
KEPT_DRAWS = 4
KEPT_DRAW_BYTES = 16 << 20  # a draw larger than this (compact) is drawn again each time rather than kept


def resample_counts(n: int, n_samples: int, seed: int | None) -> np.ndarray:
    """``counts[r, i]``: how often item i is drawn in resample r (floats, for ``counts @ stats``), each resample n
    items drawn with replacement. A seeded draw depends on n, ``n_samples`` and the seed alone, so the last few are
    kept and handed out again: a card's row tests one draw nine times (three metrics, each its interval and a
    paired test against the system above and below), and drawing was most of each test's cost. The same numbers
    as drawing again (tests/house/test_stats.py)."""
    import numpy as np

    key = (n, n_samples, seed) if isinstance(seed, int) else None
    if key is not None and _LAST[0] == key:
        return _LAST[1]
    kept = _DRAWS.get(key) if key is not None else None
    if kept is not None:
        return _handed(key, kept.astype(float))
    rng = np.random.default_rng(seed)
    idx = rng.choice(n, size=(n_samples, n), replace=True)
    # bincount, not np.add.at: the same whole numbers, 2.5× faster (0.35 → 0.14 s a test of 3,886 items; np.add.at
    # was a third of a card's CPU)
    flat = (np.arange(n_samples)[:, None] * n + idx).ravel()
    counts = np.bincount(flat, minlength=n_samples * n).reshape(n_samples, n)
    if key is not None:
        compact = counts.astype(np.min_scalar_type(int(counts.max())))  # whole numbers: exact in the smallest type
        if compact.nbytes <= KEPT_DRAW_BYTES:
            if len(_DRAWS) >= KEPT_DRAWS:
                del _DRAWS[next(iter(_DRAWS))]  # the oldest
            _DRAWS[key] = compact
            return _handed(key, counts.astype(float))
    return counts.astype(float)


# the last kept draw as handed out (floats, read-only): a card's row asks for it nine times in a row, and making the
# floats again from the compact copy was a third of each test (31 MB for 3,886 items)
_LAST: tuple[tuple[int, int, int] | None, np.ndarray | None] = (None, None)


def _handed(key: tuple[int, int, int], counts: np.ndarray) -> np.ndarray:
    global _LAST
    counts.setflags(write=False)
    _LAST = (key, counts)
    return counts


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


# ---------------------------------------------------------------------------------------------------------------
# Nominal agreement. Labels are any hashable values; None means "no label given" (missing).


def _paired(a: Sequence[Hashable | None], b: Sequence[Hashable | None]) -> list[tuple[Hashable, Hashable]]:
    """The items both raters labelled (listwise deletion of missing values)."""
    if len(a) != len(b):
        raise ValueError("the two raters must label the same items")
    return [(x, y) for x, y in zip(a, b) if x is not None and y is not None]


def observed_agreement(a: Sequence[Hashable | None], b: Sequence[Hashable | None]) -> float | None:
    """Share of the items both raters labelled on which they give the same label; None when there is none."""
    pairs = _paired(a, b)
    return sum(x == y for x, y in pairs) / len(pairs) if pairs else None


def cohen_kappa(a: Sequence[Hashable | None], b: Sequence[Hashable | None]) -> float | None:
    """Cohen's (1960) κ for two raters: (p_o − p_e) / (1 − p_e), p_e = Σ_k p_a(k)·p_b(k) from each rater's own
    marginals. None when undefined: no item labelled by both, or p_e = 1 (both raters use one and the same
    label throughout, so agreement beyond chance cannot be measured)."""
    pairs = _paired(a, b)
    if not pairs:
        return None
    n = len(pairs)
    left, right = Counter(x for x, _ in pairs), Counter(y for _, y in pairs)
    p_o = Fraction(sum(x == y for x, y in pairs), n)
    p_e = Fraction(sum(left[k] * right[k] for k in left), n * n)
    return float((p_o - p_e) / (1 - p_e)) if p_e != 1 else None


def gwet_ac1(a: Sequence[Hashable | None], b: Sequence[Hashable | None],
             categories: Sequence[Hashable] | None = None) -> float | None:
    """Gwet's (2008) AC1 for two raters: (p_a − p_e) / (1 − p_e) with p_e = Σ_k π_k(1 − π_k) / (q − 1), π_k the
    mean of the two raters' shares of category k and q the number of categories.

    q is ``len(categories)`` when given (the labels the question offers, as Gwet defines it), else the number of
    distinct labels used. Unlike κ it stays near the observed agreement when one label dominates (the "kappa
    paradox"). None when undefined: no item labelled by both, or q < 2."""
    pairs = _paired(a, b)
    labels = set(categories) if categories is not None else {x for pair in pairs for x in pair}
    if not pairs or len(labels) < 2:
        return None
    n = len(pairs)
    counts = Counter(x for pair in pairs for x in pair)  # each item contributes one label per rater
    if not set(counts) <= labels:
        raise ValueError(f"labels outside the categories: {sorted(map(str, set(counts) - labels))}")
    p_a = Fraction(sum(x == y for x, y in pairs), n)
    p_e = sum(Fraction(counts[k], 2 * n) * (1 - Fraction(counts[k], 2 * n)) for k in labels) / (len(labels) - 1)
    return float((p_a - p_e) / (1 - p_e))


def krippendorff_alpha(units: Sequence[Sequence[Hashable | None]]) -> float | None:
    """Krippendorff's α for nominal data, any number of coders, missing values (None) allowed.

    From the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", §C): every
    unit with m_u ≥ 2 values adds 1/(m_u − 1) to o_ck for each ordered pair of its values from different coders;
    units with fewer than two values are not pairable and are left out. With n_c = Σ_k o_ck and n = Σ_c n_c,
    α = 1 − D_o/D_e = ((n − 1)·Σ_c o_cc − Σ_c n_c(n_c − 1)) / (n(n − 1) − Σ_c n_c(n_c − 1)).
    None when undefined: fewer than two pairable values, or only one value used (D_e = 0)."""
    same_by_m: Counter = Counter()  # m_u -> Σ over units with m_u values of Σ_c k_c(k_c − 1); exact, grouped by m
    totals: Counter = Counter()
    for unit in units:
        m, same, counts = _unit_values(tuple(unit))
        if m < 2:
            continue
        same_by_m[m] += same
        totals.update(counts)
    agree = sum((Fraction(same, m - 1) for m, same in same_by_m.items()), Fraction(0))  # Σ_c o_cc
    n = sum(totals.values())
    expected = n * (n - 1) - sum(k * (k - 1) for k in totals.values())
    if n < 2 or expected == 0:
        return None
    return float(((n - 1) * agree - sum(k * (k - 1) for k in totals.values())) / expected)


@lru_cache(maxsize=4096)
def _unit_values(unit: tuple) -> tuple[int, int, dict]:
    """A unit's number of values m_u, Σ_c k_c(k_c − 1) (ordered pairs of equal values) and its value counts;
    cached because a bootstrap meets the same few units thousands of times."""
    counts = Counter(v for v in unit if v is not None)
    return sum(counts.values()), sum(k * (k - 1) for k in counts.values()), counts


def _pair_statistic(statistic: Callable[..., float | None]) -> Callable[[Sequence[Sequence]], float | None]:
    def on_units(units: Sequence[Sequence]) -> float | None:
        if any(len(unit) != 2 for unit in units):
            raise ValueError(f"{statistic.__name__} needs exactly two labels per item")
        return statistic([u[0] for u in units], [u[1] for u in units])
    return on_units


# Each statistic over units (per item, the labels given; None = missing). κ and AC1 take exactly two per item.
AGREEMENT: dict[str, Callable[[Sequence[Sequence]], float | None]] = {
    "agreement": _pair_statistic(observed_agreement),
    "kappa": _pair_statistic(cohen_kappa),
    "ac1": _pair_statistic(gwet_ac1),
    "alpha": krippendorff_alpha,
}


@dataclass(frozen=True)
class AgreementCI:
    """A coefficient and its 95% bootstrap percentile interval; None wherever undefined (rendered "n/a").

    ``undefined`` counts the resamples on which the coefficient was undefined (e.g. a resample holding one
    label only); they are left out of the interval, which is None when fewer than half the resamples are
    defined."""

    statistic: str
    value: float | None
    low: float | None
    high: float | None
    n: int  # items (units)
    n_samples: int
    seed: int | None
    undefined: int = 0

    def to_json(self) -> dict:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)
        return {"statistic": self.statistic, "value": r(self.value), "low": r(self.low), "high": r(self.high),
                "n": self.n, "n_samples": self.n_samples, "seed": self.seed, "undefined": self.undefined}

    def format(self, digits: int = 2) -> str:
        """``0.62 [0.41, 0.80]``, or ``n/a`` parts where undefined."""
        def f(x: float | None) -> str:
            return "n/a" if x is None else f"{x:.{digits}f}"
        if self.value is None:
            return "n/a"
        return f"{f(self.value)} [{f(self.low)}, {f(self.high)}]"


def bootstrap_agreement(
    statistic: str,
    units: Sequence[Sequence[Hashable | None]],
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
) -> AgreementCI:
    """One of ``AGREEMENT``'s coefficients with a 95% percentile interval from resampling items.

    Each resample draws len(units) items with replacement (``numpy.random.default_rng(seed)``, so a seed gives
    the same interval every time); the bounds are the same order statistics as ``_ci`` uses (the 2.5% and
    97.5% points of the sorted defined resamples).
    """
    if statistic not in AGREEMENT:
        raise ValueError(f"unknown agreement statistic {statistic!r}: one of {', '.join(AGREEMENT)}")
    compute = AGREEMENT[statistic]
    units = [tuple(u) for u in units]
    value = compute(units) if units else None
    if not units or n_samples < 1:
        return AgreementCI(statistic, value, None, None, len(units), n_samples, seed, n_samples)
    import numpy as np

    rng = np.random.default_rng(seed)
    idx = rng.choice(len(units), size=(n_samples, len(units)), replace=True)
    values = [compute([units[i] for i in row]) for row in idx]
    defined = np.sort(np.array([v for v in values if v is not None], dtype=float))
    undefined = n_samples - len(defined)
    if value is None or len(defined) * 2 < n_samples:
        return AgreementCI(statistic, value, None, None, len(units), n_samples, seed, undefined)
    lower = len(defined) // 40
    return AgreementCI(statistic, value, float(defined[lower]), float(defined[len(defined) - lower - 1]),
                       len(units), n_samples, seed, undefined)


def stratified_sample(keys: Sequence[Hashable], strata: Sequence[Hashable], n: int) -> list[int]:
    """Positions of a deterministic stratified sample of ``n`` items (``--limit``): each stratum gets its share of
    ``n`` by largest remainder (at least one item where ``n`` allows), and within a stratum the items come in the
    order of the sha256 of their key, so the same suite and ``n`` always give the same items, spread over the
    suite rather than its first rows. All positions when ``n`` covers the suite."""
    import hashlib

    if n >= len(keys):
        return list(range(len(keys)))
    groups: dict[str, list[int]] = {}
    for position, stratum in enumerate(strata):
        groups.setdefault(repr(stratum), []).append(position)
    names = sorted(groups)
    first = 1 if n >= len(names) else 0  # every stratum present where n allows, however small
    rest = n - first * len(names)
    shares = {name: rest * (len(groups[name]) - first) / (len(keys) - first * len(names)) for name in names}
    take = {name: first + int(shares[name]) for name in names}
    for name in sorted(names, key=lambda m: (-(shares[m] - int(shares[m])), m))[:n - sum(take.values())]:
        take[name] += 1
    chosen = []
    for name in names:
        ordered = sorted(groups[name], key=lambda p: hashlib.sha256(repr(keys[p]).encode()).hexdigest())
        chosen += ordered[:take[name]]
    return sorted(chosen)
