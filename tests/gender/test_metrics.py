"""Gender accuracy, P/R/F1, ΔG and ΔS on a small set computed by hand."""

from __future__ import annotations

import pytest

from discotest.gender.judge import GenderVerdict, score_gender


def verdict(gold: str, predicted: str, stereotype: str | None = None) -> GenderVerdict:
    return GenderVerdict(0, "", "", "", [], "aligned", predicted, gold, gold == predicted, "", [], stereotype)


def test_scores_by_hand():
    verdicts = [
        verdict("male", "male", "pro"),  # correct
        verdict("male", "male", "anti"),  # correct
        verdict("male", "female", "pro"),  # wrong
        verdict("female", "female", "pro"),  # correct
        verdict("female", "male", "anti"),  # wrong
        verdict("female", "male", "anti"),  # wrong
        verdict("female", "unknown"),  # wrong, unknown
        verdict("neutral", "male"),  # wrong
    ]
    s = score_gender(verdicts)
    assert s.n == 8
    assert s.accuracy == pytest.approx(100 * 3 / 8)
    # male: gold 3, predicted male 5 (rows 1,2,5,6,8), correct 2
    assert s.precision_male == pytest.approx(100 * 2 / 5)
    assert s.recall_male == pytest.approx(100 * 2 / 3)
    f1_m = 2 * 40 * (200 / 3) / (40 + 200 / 3)
    assert s.f1_male == pytest.approx(f1_m)
    # female: gold 4, predicted female 2 (rows 3,4), correct 1
    assert s.precision_female == pytest.approx(50.0)
    assert s.recall_female == pytest.approx(25.0)
    assert s.f1_female == pytest.approx(2 * 50 * 25 / 75)
    assert s.delta_g == pytest.approx(f1_m - 2 * 50 * 25 / 75)
    # pro: rows 1,3,4 -> 2/3 correct; anti: rows 2,5,6 -> 1/3 correct
    assert s.accuracy_pro == pytest.approx(200 / 3)
    assert s.accuracy_anti == pytest.approx(100 / 3)
    assert s.delta_s == pytest.approx(100 / 3)
    assert s.unknown == pytest.approx(12.5)


def test_no_stereotype_tags_means_no_delta_s():
    s = score_gender([verdict("male", "male")])
    assert s.delta_s is None and s.accuracy == 100.0
    assert s.to_json()["delta_s"] is None


def test_zero_divisions_are_zero():
    s = score_gender([verdict("female", "unknown")])
    assert s.precision_male == 0.0 and s.f1_female == 0.0 and s.accuracy == 0.0
