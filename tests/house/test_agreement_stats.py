"""Cohen's κ, Gwet's AC1 and Krippendorff's α against published worked examples, and their bootstrap intervals."""

from __future__ import annotations

import numpy as np
import pytest

from discotest.stats import (
    AGREEMENT,
    DEFAULT_SEED,
    bootstrap_agreement,
    cohen_kappa,
    gwet_ac1,
    krippendorff_alpha,
    observed_agreement,
)

N = None


def table(cells: dict[tuple[str, str], int]) -> tuple[list[str], list[str]]:
    """Two raters' labels from a contingency table {(label_a, label_b): count}."""
    a, b = [], []
    for (x, y), count in cells.items():
        a += [x] * count
        b += [y] * count
    return a, b


# Wikipedia, "Cohen's kappa", worked example: 50 grant proposals, two readers say Yes/No.
# Both Yes 20, A Yes/B No 5, A No/B Yes 10, both No 15. p_o = 35/50 = 0.7; A says Yes 25/50 = 0.5, B 30/50 = 0.6;
# p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4 (the published value).
WIKI = table({("yes", "yes"): 20, ("yes", "no"): 5, ("no", "yes"): 10, ("no", "no"): 15})

# Gwet (2008, Br J Math Stat Psychol 61:29–48) "kappa paradox" table (also van Oest 2019, Psychol Methods, Table 4):
# 125 subjects, both + 118, A+/B− 5, A−/B+ 2, both − 0. High raw agreement, κ below zero, AC1 high.
PARADOX = table({("+", "+"): 118, ("+", "-"): 5, ("-", "+"): 2, ("-", "-"): 0})

# Three categories, 100 subjects (rows rater A, columns rater B):
#            B: 1    2    3
#   A: 1       75    1    4     row 80
#   A: 2        5    4    1     row 10
#   A: 3        0    0   10     row 10
#   columns    80    5   15
THREE = table({("1", "1"): 75, ("1", "2"): 1, ("1", "3"): 4, ("2", "1"): 5, ("2", "2"): 4, ("2", "3"): 1,
               ("3", "1"): 0, ("3", "2"): 0, ("3", "3"): 10})

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", §C (nominal data, 4 observers, 12 units,
# missing values "."), published α_nominal = 0.743. The same data are Gwet's (2014, Handbook of Inter-Rater
# Reliability, 4th ed., pp. 55–56) "unordered" example, α = 0.7434.
KRIPPENDORFF_2011 = list(zip(
    [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],  # observer A
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],  # observer B
    [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],  # observer C
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],  # observer D
))


def test_cohen_kappa_published_two_by_two():
    assert observed_agreement(*WIKI) == pytest.approx(0.7)
    assert cohen_kappa(*WIKI) == pytest.approx(0.4, abs=1e-12)


def test_cohen_kappa_three_categories_by_hand():
    # p_o = (75 + 4 + 10)/100 = 0.89; p_e = (80·80 + 10·5 + 10·15)/100² = 0.66; κ = 0.23/0.34 = 0.676470…
    assert cohen_kappa(*THREE) == pytest.approx(0.23 / 0.34, abs=1e-12)
    assert round(cohen_kappa(*THREE), 3) == 0.676


def test_kappa_paradox_and_ac1_by_hand():
    # κ: p_o = 118/125 = 0.944; marginals A+ 123, B+ 120: p_e = (123·120 + 2·5)/125² = 14770/15625 = 0.94528;
    #    κ = (0.944 − 0.94528)/(1 − 0.94528) = −0.00128/0.05472 = −0.02339…
    assert cohen_kappa(*PARADOX) == pytest.approx(-0.00128 / 0.05472, abs=1e-12)
    # AC1: π+ = (123 + 120)/250 = 0.972, π− = 0.028, q = 2: p_e = (0.972·0.028 + 0.028·0.972)/(2 − 1) = 0.054432;
    #      AC1 = (0.944 − 0.054432)/(1 − 0.054432) = 0.889568/0.945568 = 0.94078…
    assert gwet_ac1(*PARADOX) == pytest.approx(0.889568 / 0.945568, abs=1e-12)


def test_ac1_by_hand_on_the_other_tables():
    # Wikipedia table: π_yes = (25 + 30)/100 = 0.55; p_e = 2·0.55·0.45/1 = 0.495; AC1 = 0.205/0.505 = 0.40594…
    assert gwet_ac1(*WIKI) == pytest.approx(0.205 / 0.505, abs=1e-12)
    # Three categories: π = (160, 15, 25)/200 = 0.8, 0.075, 0.125; Σπ(1−π) = 0.16 + 0.069375 + 0.109375 = 0.33875;
    # p_e = 0.33875/(3 − 1) = 0.169375; AC1 = (0.89 − 0.169375)/(1 − 0.169375) = 0.720625/0.830625 = 0.86757…
    assert gwet_ac1(*THREE) == pytest.approx(0.720625 / 0.830625, abs=1e-12)
    # q counts the categories the question offers: a fourth, unused answer lowers p_e to 0.33875/3 and raises AC1
    assert gwet_ac1(*THREE, categories=["1", "2", "3", "4"]) == pytest.approx(
        (0.89 - 0.33875 / 3) / (1 - 0.33875 / 3), abs=1e-12)
    with pytest.raises(ValueError, match="outside the categories"):
        gwet_ac1(*THREE, categories=["1", "2"])


def test_krippendorff_alpha_published_example():
    assert round(krippendorff_alpha(KRIPPENDORFF_2011), 3) == 0.743
    # Exactly, from the coincidence matrix: unit 12 has one value and is left out; each unit adds
    # Σ_c k_c(k_c − 1)/(m_u − 1) to Σ_c o_cc (k_c = how often value c occurs in it): units 1–11 give
    # 3 + 2 + 4 + 4 + 4 + 0 + 4 + 2 + 4 + 3 + 2 = 32. n_c = 9, 13, 10, 5, 3 for values 1–5, n = 40,
    # Σ n_c(n_c − 1) = 72 + 156 + 90 + 20 + 6 = 344. α = (39·32 − 344)/(40·39 − 344) = 904/1216 = 113/152 = 0.74342.
    assert krippendorff_alpha(KRIPPENDORFF_2011) == pytest.approx(113 / 152, abs=1e-12)


def test_alpha_for_two_coders_by_hand():
    # Wikipedia table as α: n = 100 values, n_yes = 25 + 30 = 55, n_no = 45; the 35 agreeing items give
    # Σ o_cc = 70 (two ordered pairs each, weight 1/(2 − 1)); α = (99·70 − (55·54 + 45·44))/(100·99 − 4950)
    # = (6930 − 4950)/(9900 − 4950) = 0.4.
    assert krippendorff_alpha(list(zip(*WIKI))) == pytest.approx(0.4, abs=1e-12)
    # a missing label makes the unit unpairable: it drops out, it is not an error
    assert krippendorff_alpha(list(zip(*WIKI)) + [("yes", N), (N, N)]) == pytest.approx(0.4, abs=1e-12)


def test_degenerate_cases_are_none_not_errors():
    same = ["male"] * 5
    assert cohen_kappa(same, same) is None  # p_e = 1
    assert gwet_ac1(same, same) is None  # q = 1
    assert krippendorff_alpha(list(zip(same, same))) is None  # D_e = 0
    assert cohen_kappa([], []) is None and gwet_ac1([], []) is None and krippendorff_alpha([]) is None
    assert cohen_kappa([N, "a"], ["b", N]) is None  # nothing labelled by both
    assert krippendorff_alpha([("a", N), (N, "b")]) is None  # no unit with two values
    # one rater constant, the other not: κ is defined (0: agreement is all chance), AC1 too
    assert cohen_kappa(["a", "a", "a", "a"], ["a", "a", "b", "b"]) == 0.0
    with pytest.raises(ValueError, match="same items"):
        cohen_kappa(["a"], ["a", "b"])


def test_bootstrap_is_deterministic_and_a_percentile_interval():
    units = list(zip(*WIKI))
    ci = bootstrap_agreement("kappa", units)
    assert ci == bootstrap_agreement("kappa", units, seed=DEFAULT_SEED)
    assert ci.value == pytest.approx(0.4) and ci.n == 50 and ci.n_samples == 1000 and ci.seed == DEFAULT_SEED
    assert ci.low < 0.4 < ci.high
    assert bootstrap_agreement("kappa", units, seed=1) != ci
    # the contract: default_rng(seed) draws n_samples × n item indexes; the bounds are the 25th and 975th of the
    # 1000 sorted resampled values
    idx = np.random.default_rng(DEFAULT_SEED).choice(50, size=(1000, 50), replace=True)
    values = sorted(cohen_kappa([units[i][0] for i in row], [units[i][1] for i in row]) for row in idx)
    assert (ci.low, ci.high) == (values[25], values[974])
    for name in AGREEMENT:
        assert bootstrap_agreement(name, units).value == AGREEMENT[name](units)


def test_bootstrap_of_undefined_values_is_na():
    ci = bootstrap_agreement("kappa", [("male", "male")] * 6)
    assert ci.value is None and ci.low is None and ci.high is None and ci.undefined == 1000
    assert ci.format() == "n/a" and ci.to_json()["value"] is None
    # all agree on two labels: every defined resample is 1.0; resamples of one label only are counted as undefined
    ci = bootstrap_agreement("alpha", [("a", "a"), ("b", "b"), ("a", "a")], n_samples=200)
    assert ci.value == 1.0 and ci.low == ci.high == 1.0 and 0 < ci.undefined < 200
    assert bootstrap_agreement("alpha", []).value is None
    with pytest.raises(ValueError, match="unknown agreement statistic"):
        bootstrap_agreement("fleiss", [])
    with pytest.raises(ValueError, match="two labels per item"):
        bootstrap_agreement("kappa", KRIPPENDORFF_2011)
    assert bootstrap_agreement("alpha", KRIPPENDORFF_2011).format().startswith("0.74 [")


def test_gwet_published_three_by_three_table():
    """Gwet's own irrCAC package (README, `cont3x3abstractors`, Gwet 2014 Handbook): two abstractors classify 100
    pregnancies as Ectopic / AIU / NIU; rows rater 1, columns rater 2:
        13  0  0
         0 20  7
         0  4 56
    irrCAC prints Cohen's kappa 0.7964094, Gwet's AC1 0.8493305 and Krippendorff's alpha 0.7972585 (percent
    agreement 0.89)."""
    cells = {("E", "E"): 13, ("A", "A"): 20, ("A", "N"): 7, ("N", "A"): 4, ("N", "N"): 56}
    a, b = table(cells)
    assert cohen_kappa(a, b) == pytest.approx(0.7964094, abs=5e-8)
    assert gwet_ac1(a, b) == pytest.approx(0.8493305, abs=5e-8)
    assert krippendorff_alpha(list(zip(a, b))) == pytest.approx(0.7972585, abs=5e-8)
