"""The human-validation round trip: stratified sample out, filled CSV in, scores per language."""

from __future__ import annotations

import csv
import json

import pytest

from discotest.errors import InputError
from discotest.gender.judge import GenderVerdict, score_gender
from discotest.gender.result import GenderResult
from discotest.gender.run import run_many
from discotest.gender.validate import (
    COLUMNS,
    VERDICT_TYPES,
    _allocate,
    read_filled,
    render_scores,
    sample,
    score,
    sheet_columns,
    write_sample,
)
from discotest.report.result import Signature


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


def fill(path, answers, **columns):
    """Fill the human columns: answers[i] = (aligned_word_correct, gender_correct); columns[name][i] = a cell."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        rows, header = list(reader), reader.fieldnames
    for i, (row, (a, g)) in enumerate(zip(rows, answers)):
        row["aligned_word_correct"], row["gender_correct"] = a, g
        for name, values in columns.items():
            row[name] = values[i]
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
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


def write_sheet(path, kind: str, rows: list[dict[str, str]], annotators: int = 1) -> None:
    """A filled sheet written by hand: every column of the verdict type's sheet, cells from ``rows``."""
    header = sheet_columns(VERDICT_TYPES[kind], annotators)
    full = [{c: "" for c in header} | {"id": str(i), "verdict_type": kind, "suite": "winomt", "lang": "de",
                                       "system": "google", "index": str(i), "aligned_word_correct": "yes"} | row
            for i, row in enumerate(rows, start=1)]
    write_sample(path, full, header)


# A noun sheet of 8 items, written by hand. tool = predicted_gender, person = person_gender (the gender the person
# reads for the entity), person2 = person_gender_2 (a second person), gold = gold_gender.
NOUN_TOOL = ["male", "male", "female", "female", "male", "female", "male", "female"]
NOUN_PERSON = ["male", "male", "female", "male", "male", "female", "female", "female"]
NOUN_PERSON2 = ["male", "male", "female", "male", "female", "female", "female", "female"]
NOUN_GOLD = ["male", "female", "female", "male", "male", "female", "female", "male"]


def noun_rows(second: bool = False) -> list[dict[str, str]]:
    rows = []
    for i, (tool, person, gold) in enumerate(zip(NOUN_TOOL, NOUN_PERSON, NOUN_GOLD)):
        row = {"predicted_gender": tool, "person_gender": person, "gold_gender": gold,
               "verdict": "correct" if tool == gold else "wrong", "gender_correct": "yes" if tool == person else "no"}
        if second:
            row |= {"person_gender_2": NOUN_PERSON2[i]}
        rows.append(row)
    return rows


def test_noun_agreement_by_hand(tmp_path):
    path = tmp_path / "noun.csv"
    write_sheet(path, "noun", noun_rows(second=True), annotators=2)
    de, overall = score(read_filled(path), n_samples=200)
    assert de.verdict_type == "noun" and de.lang == "de" and overall.lang == "all" and de.n == 8
    assert de.gender_errors == 25.0 and de.correct == 75.0  # two of eight readings differ from the person's
    found = {a.compared: a for a in de.agreement}
    assert list(found) == ["tool~person predicted_gender/person_gender", "tool~person verdict/person_gender",
                           "person~person person_gender"]  # the empty *_2 yes/no columns are not scored
    # tool vs person gender: 6 of 8 equal (p_o = 0.75); tool male 4 / female 4, person male 4 / female 4.
    # κ: p_e = (4·4 + 4·4)/8² = 0.5, κ = 0.25/0.5 = 0.5. AC1: π_m = π_f = 0.5, p_e = 2·0.25/(2 − 1) = 0.5, AC1 = 0.5.
    # α: n = 16 values, n_m = n_f = 8, Σo_cc = 2·6 = 12: α = (15·12 − 2·8·7)/(16·15 − 112) = 68/128 = 0.53125.
    label = found["tool~person predicted_gender/person_gender"]
    assert (label.n, label.observed) == (8, 0.75)
    assert (label.kappa.value, label.ac1.value) == (pytest.approx(0.5), pytest.approx(0.5))
    assert label.alpha.value == pytest.approx(68 / 128)
    # verdicts: tool correct/wrong (predicted == gold) c w c w c c w w; person's (person == gold) c w c c c c c w.
    # p_o = 6/8; tool c 4 w 4, person c 6 w 2: p_e = (4·6 + 4·2)/64 = 0.5, κ = 0.5.
    # AC1: π_c = 10/16, π_w = 6/16, p_e = 2·(10/16)(6/16) = 0.46875, AC1 = 0.28125/0.53125 = 9/17.
    # α: n_c = 10, n_w = 6, Σo_cc = 12: α = (15·12 − (90 + 30))/(240 − 120) = 0.5.
    verdict_ = found["tool~person verdict/person_gender"]
    assert verdict_.kappa.value == pytest.approx(0.5) and verdict_.ac1.value == pytest.approx(9 / 17)
    assert verdict_.alpha.value == pytest.approx(0.5)
    # person vs person: 7 of 8 equal; person m 4 f 4, person 2 m 3 f 5. κ: p_e = (4·3 + 4·5)/64 = 0.5,
    # κ = 0.375/0.5 = 0.75. AC1: π_m = 7/16, π_f = 9/16, p_e = 2·63/256, AC1 = (0.875 − 126/256)/(130/256) = 49/65.
    # α: n_m = 7, n_f = 9, Σo_cc = 14: α = (15·14 − (42 + 72))/(240 − 114) = 96/126 = 16/21.
    people = found["person~person person_gender"]
    assert people.observed == 0.875 and people.kappa.value == pytest.approx(0.75)
    assert people.ac1.value == pytest.approx(49 / 65) and people.alpha.value == pytest.approx(16 / 21)
    assert people.kappa.low <= 0.75 <= people.kappa.high and people.kappa.n_samples == 200
    text = render_scores([de, overall])
    assert "tool~person predicted_gender/person_gender" in text and "0.50 [" in text and "seed 12345" in text
    as_json = de.to_json()
    assert as_json["agreement"][0]["kappa"]["value"] == 0.5 and as_json["correct"] == 75.0  # percentages kept
    assert score(read_filled(path), n_samples=200) == [de, overall]  # deterministic


def test_yes_no_only_sheet_says_why_there_is_no_agreement(tmp_path):
    path = tmp_path / "old.csv"
    rows = [{c: "" for c in COLUMNS} | {"lang": "de", "verdict": v, "aligned_word_correct": "yes",
                                        "gender_correct": g} for v, g in [("correct", "yes"), ("wrong", "no")]]
    write_sample(path, rows, COLUMNS)  # a sheet from before verdict types: no verdict_type, no person_gender
    de, _ = score(read_filled(path))
    assert de.verdict_type == "noun" and de.agreement == () and de.correct == 50.0
    assert "tool~person: n/a" in de.notes[0] and "degenerate" in de.notes[0]
    assert "noun de: tool~person: n/a" in render_scores([de])


def test_consistency_agreement_by_hand(tmp_path):
    path = tmp_path / "consistency.csv"
    tool = ["agree", "agree", "agree", "disagree", "disagree", "agree"]
    person = ["agree", "agree", "disagree", "disagree", "agree", "agree"]
    write_sheet(path, "consistency", [{"verdict": t, "person_consistency": p, "gender_correct": "yes"}
                                      for t, p in zip(tool, person)])
    de, _ = score(read_filled(path), n_samples=100)
    assert de.verdict_type == "consistency"
    (label,) = de.agreement  # the label is the verdict: one comparison
    # p_o = 4/6; tool agree 4 disagree 2, person agree 4 disagree 2: p_e = (4·4 + 2·2)/36 = 20/36;
    # κ = (24/36 − 20/36)/(16/36) = 0.25.
    # AC1: π_a = 8/12, π_d = 4/12, p_e = 2·(2/3)(1/3) = 4/9, AC1 = (2/3 − 4/9)/(1 − 4/9) = (2/9)/(5/9) = 0.4.
    # α: n = 12, n_a = 8, n_d = 4, Σo_cc = 8: α = (11·8 − (56 + 12))/(12·11 − 68) = 20/64 = 0.3125.
    assert label.compared == "tool~person verdict/person_consistency"
    assert label.kappa.value == pytest.approx(0.25) and label.ac1.value == pytest.approx(0.4)
    assert label.alpha.value == pytest.approx(0.3125)


def test_bad_label_sheets_name_file_and_line(tmp_path):
    path = tmp_path / "bad.csv"
    rows = noun_rows()
    rows[2]["person_gender"] = ""  # half filled: the third item (line 4) is missing
    write_sheet(path, "noun", rows)
    with pytest.raises(InputError, match="person_gender is empty") as err:
        read_filled(path)
    assert (err.value.path, err.value.line) == (str(path), 4)
    rows[2]["person_gender"] = "feminine"
    write_sheet(path, "noun", rows)
    with pytest.raises(InputError, match="'feminine': answer one of male, female, neutral, unknown"):
        read_filled(path)
    write_sheet(path, "consistency", [{"verdict": "agree", "person_consistency": "agree", "gender_correct": "yes"},
                                      {"verdict": "agree", "person_consistency": "", "gender_correct": "yes"}])
    with pytest.raises(InputError, match="person_consistency is empty") as err:
        read_filled(path)
    assert err.value.line == 3
    write_sheet(path, "consistency", [{"verdict": "correct", "person_consistency": "agree", "gender_correct": "yes"}])
    with pytest.raises(InputError, match="verdict must be agree or disagree"):
        read_filled(path)
    write_sheet(path, "noun", [{"verdict_type": "pronoun", "verdict": "correct", "gender_correct": "yes"}])
    with pytest.raises(InputError, match="unknown verdict_type 'pronoun'") as err:
        read_filled(path)
    assert err.value.line == 2
    no_person = [{c: "" for c in COLUMNS} | {"verdict_type": "consistency", "lang": "de", "verdict": "agree",
                                             "aligned_word_correct": "yes", "gender_correct": "yes"}]
    write_sample(path, no_person, [*COLUMNS, "verdict_type"])
    with pytest.raises(InputError, match="needs the column person_consistency"):
        read_filled(path)


def test_cli_consistency_sheet_with_two_annotators(tmp_path, shared_data, monkeypatch, capsys):
    from discotest.cli import main

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "sample.csv"
    args = ["--data-dir", str(shared_data), "-q", "validate", "sample", "--lang", "de", "--system", "google",
            "--verdict", "consistency", "--annotators", "2", "-n", "10", "-o", str(path)]
    assert main(args) == 0
    assert "person_consistency: do the [[entity]] and the {{pronoun}} agree" in capsys.readouterr().out
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 10 and {r["verdict_type"] for r in rows} == {"consistency"}
    assert {r["verdict"] for r in rows} == {"agree", "disagree"}  # stratified by the consistency verdict
    assert all("{{" in r["translation_marked"] and r["pronoun_gender"] for r in rows)
    assert "person_consistency_2" in rows[0] and "gender_correct_2" in rows[0]
    # both people answer as the tool did, except person 2 on the first item
    tool = [r["verdict"] for r in rows]
    second = ["disagree" if tool[0] == "agree" else "agree"] + tool[1:]
    fill(path, [("yes", "yes")] * 10, person_consistency=tool, person_consistency_2=second,
         aligned_word_correct_2=["yes"] * 10, gender_correct_2=["yes"] * 10)
    assert main(["validate", "score", str(path), "--format", "json", "--n-samples", "50"]) == 0
    (de, _) = json.loads(capsys.readouterr().out)
    found = {a["compared"]: a for a in de["agreement"]}
    assert found["tool~person verdict/person_consistency"]["kappa"]["value"] == 1.0
    assert found["person~person person_consistency"]["observed"] == 0.9
    # every yes/no answer is "yes" for both people: one label only, so κ/AC1/α are undefined, shown as null / n/a
    assert found["person~person aligned_word_correct"]["kappa"]["value"] is None
    assert main(["validate", "score", str(path), "--n-samples", "50"]) == 0
    assert "n/a" in capsys.readouterr().out
    assert main(["--data-dir", str(shared_data), "-q", "validate", "sample", "--lang", "de", "--system", "google",
                 "--verdict", "reader?", "-o", str(path)]) == 2
    assert "unknown verdict type 'reader?'" in capsys.readouterr().err


def test_marks_whole_words_entity_and_pronoun():
    from discotest.gender.validate import mark_words

    v = GenderVerdict(0, "The doctor came because he was tired.", "Der Arzt kam, weil er müde war.", "doctor",
                      ["Arzt"], "aligned", "male", "male", True, "")
    # "er" is marked as the pronoun, not inside "Der"
    assert mark_words(v, ["er"]) == "Der [[Arzt]] kam, weil {{er}} müde war."
    assert mark_words(v) == "Der [[Arzt]] kam, weil er müde war."


def test_reader_sheet_asks_for_the_conveyed_gender(tmp_path):
    """A reader-level sheet: only items of a reader run, the tool's label is conveyed_gender and its verdict is
    conveyed_gender == gold; the person's label is scored against the same column."""
    from dataclasses import replace

    def conveyed(index: int, gender: str) -> GenderVerdict:
        base = verdict(index, gender == "female")
        return replace(base, conveyed_gender=gender, conveyed_reason="noun and pronoun agree", pronoun="she",
                       target_pronoun=["sie"], pronoun_gender=gender, consistent=True)

    noun_only = result("google", "de", 2, 1)
    assert sample([noun_only], 10, verdict_type="reader") == []  # a noun run has no reader verdict: nothing to ask
    vs = [conveyed(0, "female"), conveyed(1, "female"), conveyed(2, "mixed"), conveyed(3, "male")]
    reader = GenderResult("winomt", "current", "de", "google", score_gender(vs), Signature((("suite", "winomt"),)),
                          vs)
    rows = sample([reader], 10, verdict_type="reader")
    assert sorted((r["conveyed_gender"], r["verdict"]) for r in rows) == [
        ("female", "correct"), ("female", "correct"), ("male", "wrong"), ("mixed", "wrong")]
    assert list(rows[0]) == sheet_columns(VERDICT_TYPES["reader"]) and VERDICT_TYPES["reader"].run_verdict == "reader"
    for row in rows:  # the person reads what the tool read, except on the mixed item, which they call female
        row.update(aligned_word_correct="yes", gender_correct="yes",
                   person_gender="female" if row["conveyed_gender"] == "mixed" else row["conveyed_gender"])
    path = tmp_path / "reader.csv"
    write_sample(path, rows, sheet_columns(VERDICT_TYPES["reader"]))
    (scores,) = [s for s in score(read_filled(path)) if s.lang == "de"]
    gender = scores.to_json()["agreement"][0]
    assert gender["compared"].startswith("tool~person conveyed_gender/person_gender") and gender["n"] == 4
    assert gender["observed"] == 0.75  # 3 of 4 labels the same
