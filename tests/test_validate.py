"""The human-validation round trip: stratified sample out, filled CSV in, scores per language."""

from __future__ import annotations

import csv
import json

import pytest

from discotest.errors import InputError
from discotest.phenomena.gender import GenderVerdict, score_gender
from discotest.pipelines.gender_run import run_many
from discotest.report.gender import GenderResult
from discotest.report.result import Signature
from discotest.validate import COLUMNS, _allocate, read_filled, render_scores, sample, score, write_sample


def verdict(index: int, correct: bool) -> GenderVerdict:
    gold = "female"
    predicted = gold if correct else "male"
    return GenderVerdict(index, "The nurse came.", "Die Pflegerin kam.", "nurse", ["Pflegerin"], "aligned",
                         predicted, gold, correct, "because")


def result(system: str, lang: str, n_right: int, n_wrong: int) -> GenderResult:
    vs = [verdict(i, True) for i in range(n_right)] + [verdict(100 + i, False) for i in range(n_wrong)]
    return GenderResult("winomt", "current", lang, system, score_gender(vs), Signature((("suite", "winomt"),)), vs)


def test_allocation_is_proportional_and_exact():
    assert _allocate({"a": 60, "b": 30, "c": 10}, 10) == {"a": 6, "b": 3, "c": 1}
    assert sum(_allocate({"a": 7, "b": 7, "c": 7}, 10).values()) == 10
    assert _allocate({"a": 2, "b": 1}, 50) == {"a": 2, "b": 1}  # never more than a stratum holds


def test_sample_is_stratified_marked_and_reproducible():
    results = [result("google", "de", 30, 10), result("bing", "de", 20, 20)]
    rows = sample(results, 20, seed=1)
    assert len(rows) == 20 and [r["id"] for r in rows] == [str(i) for i in range(1, 21)]
    strata = {(r["system"], r["verdict"]) for r in rows}
    assert strata == {("google", "correct"), ("google", "wrong"), ("bing", "correct"), ("bing", "wrong")}
    counts = {k: sum((r["system"], r["verdict"]) == k for r in rows) for k in strata}
    # quotas 30/80, 10/80, 20/80, 20/80 of 20 = 7.5, 2.5, 5, 5: one of the two halves rounds up
    assert counts[("bing", "correct")] == counts[("bing", "wrong")] == 5
    assert {counts[("google", "correct")], counts[("google", "wrong")]} in ({8, 2}, {7, 3})
    assert all(r["translation_marked"] == "Die [[Pflegerin]] kam." for r in rows)
    assert all(r["aligned_word_correct"] == "" for r in rows)
    assert rows == sample(results, 20, seed=1)


def fill(path, answers):
    """Fill the human columns: answers[i] = (aligned_word_correct, gender_correct)."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row, (a, g) in zip(rows, answers):
        row["aligned_word_correct"], row["gender_correct"] = a, g
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return rows


def test_round_trip_scores_by_hand(tmp_path):
    path = tmp_path / "sample.csv"
    rows = sample([result("google", "de", 2, 2)], 4, seed=3)
    write_sample(path, rows)
    # answers in file order; verdicts in file order decide which "wrong" ones the pipeline caused
    verdicts = [r["verdict"] for r in rows]
    answers = [("yes", "yes"), ("no", "yes"), ("yes", "no"), ("YES", "Yes")]
    fill(path, answers)
    (de, overall) = score(read_filled(path))
    assert de.lang == "de" and overall.lang == "all" and de.n == 4
    assert de.alignment_errors == 25.0 and de.gender_errors == 25.0 and de.correct == 50.0
    wrong_rows = [i for i, v in enumerate(verdicts) if v == "wrong"]
    explained = sum(answers[i][0] == "no" or answers[i][1] == "no" for i in wrong_rows)
    assert de.wrong_verdicts_explained == pytest.approx(100 * explained / len(wrong_rows))
    assert "align err%" in render_scores([de, overall])


def test_half_filled_and_malformed_csvs_name_the_row(tmp_path):
    path = tmp_path / "sample.csv"
    write_sample(path, sample([result("google", "de", 3, 0)], 3, seed=3))
    fill(path, [("yes", "yes"), ("yes", "")])  # third row left empty, second half-filled
    with pytest.raises(InputError, match="gender_correct is empty") as err:
        read_filled(path)
    assert err.value.line == 3
    fill(path, [("yes", "yes"), ("yes", "maybe"), ("no", "no")])
    with pytest.raises(InputError, match="'maybe'"):
        read_filled(path)
    bad = tmp_path / "other.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError, match="missing column"):
        read_filled(bad)
    empty = tmp_path / "empty.csv"
    write_sample(empty, [])
    with pytest.raises(InputError, match="no rows"):
        read_filled(empty)


def test_sample_on_real_outputs(tmp_path, shared_data, monkeypatch):

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    results = run_many("winomt", ["he"], ["google", "bing"], data_dir=shared_data, jobs=1)
    rows = sample(results, 50, seed=7)
    assert len(rows) == 50 and {r["system"] for r in rows} == {"google", "bing"}
    assert {r["verdict"] for r in rows} == {"correct", "wrong"}
    assert all("[[" in r["translation_marked"] for r in rows if r["target_entity"])


def test_cli_round_trip(tmp_path, shared_data, monkeypatch, capsys):
    from discotest.cli import main

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "sample.csv"
    args = ["--data-dir", str(shared_data), "-q", "validate", "sample", "--lang", "de", "--system", "google",
            "-n", "10", "-o", str(path)]
    assert main(args) == 0
    assert main(["validate", "score", str(path)]) == 2  # not filled in yet
    assert f"{path}:2: aligned_word_correct is empty" in capsys.readouterr().err
    fill(path, [("yes", "yes")] * 9 + [("no", "no")])
    assert main(["validate", "score", str(path), "--format", "json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores[0]["lang"] == "de" and scores[0]["n"] == 10 and scores[0]["alignment_errors"] == 10.0
