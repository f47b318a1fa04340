"""MiTTenS: the English reading of the person's gender (hand-made passages and the real references), the oracle and
the swapped anti-oracle, translation files by position and by source, the hand-checked sample still current, the
out-of-English reading on German, a tiny LLM translating the authors' prompts, and bad input in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.data import catalogue
from discotest.errors import InputError
from discotest.gender.mittens.english import gendered_words, read_english, swap_gender
from discotest.gender.mittens.run import run_one
from discotest.gender.mittens.suite import SUITE, SUITE_OUT, load_mittens
from tests.support.cli_helpers import assert_one_line_error, one_result, run_cli, valid_report

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("text, gender, read, person, other", [
    ("Benjamin is my brother. I really like his jokes.", "male", "male", ["brother", "his"], []),
    ("Yassin's mother was Zainab and her father was Mohammed. She was married to Hassan.", "female", "female",
     ["She"], ["mother", "her", "father"]),  # "her" after another woman's noun could be hers: left out
    ("He was survived by his mother Lija, father Arvidas.", "male", "male", ["He", "his"], ["mother", "father"]),
    ("His mother was a nun.", "male", "male", ["His"], ["mother", "nun"]),  # another person's complement
    ("Yes, I'm his uncle.", "male", "male", ["uncle"], ["his"]),  # "his" is the nephew's
    ("I am Milo's wife. Nice to meet you.", "female", "female", ["wife"], []),
    ("She's a good actress.", "female", "female", ["She", "actress"], []),
    ("He is a good actor.", "female", "male", ["He"], []),  # "actor" is not a masculine word in English
    ("Sarah is my aunt. I really like his jokes.", "female", "both", ["aunt", "his"], []),
    ("They came right away when they found out.", "male", "none", [], []),
])
def test_the_persons_words_by_hand(text, gender, read, person, other):
    words = gendered_words(text)
    assert [w.text for w in words if w.person] == person and [w.text for w in words if not w.person] == other
    assert all(text[w.start:w.end] == w.text for w in words)
    reading = read_english(text, gender)
    assert reading.gender == read
    assert reading.verdict == (read if read in ("both", "none") else "correct" if read == gender else "wrong")


def test_swap_turns_every_gendered_word():
    assert swap_gender("She told her mother about herself; Her son's wife is hers.") == \
        "He told his father about himself; His daughter's husband is his."
    assert swap_gender("I met her. He saw him.") == "I met him. She saw her."


def test_suite_rows_and_registry(shared_data):
    into, out = load_mittens(SUITE, root=shared_data), load_mittens(SUITE_OUT, root=shared_data)
    assert (len(into), len(out)) == (1744, 1888)
    assert len({i.lang for i in into}) == 26 and len({i.lang for i in out}) == 16
    assert all(i.prompt.startswith("Translate the following text from") and i.source in i.prompt for i in into)
    assert catalogue.suite_licence(SUITE).startswith("CC BY 4.0")
    with pytest.raises(InputError, match="no language 'xx'"):
        load_mittens(SUITE, ["xx"], shared_data)


def test_oracle_and_swapped_references_on_every_language(shared_data):
    for lang in sorted({i.lang for i in load_mittens(SUITE, root=shared_data)}):
        ref = run_one(SUITE, lang, system="reference", data_dir=str(shared_data))
        anti = run_one(SUITE, lang, system="reference-swapped", data_dir=str(shared_data))
        assert ref.overall.correct == ref.n and anti.overall.wrong == anti.n, lang


def test_input_by_position_and_by_source_several_languages(shared_data, tmp_path, capsys):
    items = load_mittens(SUITE, ["ja", "fi"], shared_data)
    plain = tmp_path / "plain.txt"
    # the Finnish half swapped: ja all correct, fi all wrong
    plain.write_text("".join((swap_gender(i.reference) if i.lang == "fi" else i.reference).replace("\n", " ") + "\n"
                             for i in items), "utf-8")
    code, out, err = run_cli(capsys, "run", "mittens", "--lang", "ja,fi", "--input", str(plain), "--format", "json",
                             "--data-dir", str(shared_data), "-q")
    assert code == 0, err
    results = {r["lang"]: r for r in valid_report(out)["results"]}
    assert results["ja"]["scores"]["correct_pct"] == 100.0 and results["fi"]["scores"]["wrong_pct"] == 100.0
    assert set(results["ja"]["scores"]["by_eval_set_key"]) == {i.key for i in items if i.lang == "ja"}
    # by source: the authors' prompts as sources, a subset (the rest listed as unmatched)
    bitext = tmp_path / "bitext.txt"
    bitext.write_text("".join(json.dumps({"source": i.prompt, "translation": i.reference}) + "\n"
                              for i in items if i.lang == "fi")[:-1] + "\n", "utf-8")
    code, out, err = run_cli(capsys, "run", "mittens", "--lang", "fi", "--input", str(bitext), "--text", "prompt",
                             "--format", "json", "--data-dir", str(shared_data), "-q")
    assert code == 0, err
    assert one_result(out)["scores"]["correct"] == 18


def test_details_mark_the_deciding_words(shared_data):
    result = run_one(SUITE, "fi", system="reference", data_dir=str(shared_data))
    for row, item_row in zip(result.details(), result.item_rows()):
        assert row["deciding"] and all(row["translation"][m.start:m.end] in row["deciding"] for m in item_row.marks
                                       if m.kind == "cue")
    assert [m.name for m in result.paired_metrics()] == ["accuracy", "wrong_rate"]


def test_hand_checked_sample_is_current_and_meets_the_goal(shared_data):
    proc = subprocess.run([sys.executable, "-m", "bench.validity.mittens", "--data-dir", str(shared_data), "--no-out"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "references: correct 1744/1744 = 100.0%" in proc.stdout
    assert "references swapped: correct 0/1744 = 0.0%" in proc.stdout
    agree, total = (int(x) for x in proc.stdout.split("hand-checked readings: ")[1].split(" ")[0].split("/"))
    assert total >= 150 and agree / total >= 0.97


def test_out_of_english_anchors_of_groups_epithets_and_titles():
    from discotest.gender.mittens.person import person_anchors

    both, all_, king, champion = person_anchors([
        "Mark and Spencer work at different houses. They are sitters. Both are super caring and sweet.",
        "We are all very good athletes.",
        "The former Wall Street junk bond king founded the foundation after his diagnosis in 1993.",
        "The 2004 Asian Junior Champion won a gold medal."])
    assert [(a.text, a.why) for a in both if a.kind == "pronoun"] == [("They", "group"), ("Both", "group")]
    assert "all" in {"We are all very good athletes."[s:e] for s, e in all_[0].predicate}
    assert [(a.text, a.why) for a in king] == [("king", "person-noun-subject"), ("his", "pronoun-after-epithet")]
    assert [(a.kind, a.text) for a in champion] == [("noun", "Champion")]  # a title, not a name


def test_out_of_english_german_references(shared_data):
    result = run_one(SUITE_OUT, "de", system="reference", data_dir=str(shared_data))
    c = result.overall
    assert c.n == 118 and c.wrong == 0 and c.correct >= 114  # the person read wherever German marks it (issue 51)
    assert all(bool(v.reason) == (v.verdict == "none") for v in result.verdicts)  # every none says why
    marc = next(v for v in result.verdicts if v.source.startswith("My name is Marc. I am a nurse."))
    assert marc.verdict == "correct" and [w["word"] for w in marc.words] == ["Pfleger"]  # "Ich bin Pfleger"
    assert "reader:thot" in result.signature.format() and "person-anchors-v3" in result.signature.format()


# the hand-read sample of out-of-English readings (VALIDITY.md, MiTTenS): rows whose reading is a careful reader's,
# per draw and language, as bench.validity.mittens prints them; es out:14 (48 of 50 with it) reads none since the
# retry of a Romance noun stops at a preposition: "atleta de lanzamiento de disco iraní" was read male by "disco"
OUT_OF_ENGLISH_AGREE = {1: {"ar": 47, "de": 50, "es": 48, "fr": 47, "it": 48, "ru": 47},
                        2: {"ar": 20, "de": 20, "es": 17, "fr": 19, "it": 18, "ru": 20},
                        3: {"ar": 30, "de": 30, "es": 30, "fr": 30, "it": 30, "ru": 30},
                        4: {"ar": 32}}
DRAW_SIZE = {1: 50, 2: 20, 3: 30, 4: 48}


def test_out_of_english_hand_checked_sample(shared_data):
    proc = subprocess.run([sys.executable, "-m", "bench.validity.mittens", "--data-dir", str(shared_data),
                           "--out-only"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # no reading changed since the sample was recorded
    names = {1: "draw 1 (in sample)", 2: "draw 2 (out of sample)", 3: "draw 3 (out of sample)",
             4: "draw 4 (out of sample)"}
    for draw, by_lang in OUT_OF_ENGLISH_AGREE.items():
        n = DRAW_SIZE[draw]
        for lang, agree in by_lang.items():
            assert f"{names[draw]} {lang}: {agree}/{n} = " in proc.stdout, (draw, lang)
    assert "when drawn (2ef20c3) 103/120 = 85.8%" in proc.stdout
    gold = ROOT / "tests" / "gold" / "mittens" / "readings_out.jsonl"
    rows = [json.loads(line) for line in gold.read_text("utf-8").splitlines()]
    assert len({r["id"] for r in rows}) == len(rows) == 648
    assert "draw 3 (out of sample) all: 180/180 = 100.0%" in proc.stdout
    assert "when drawn (c8c88b1) 179/180 = 99.4%" in proc.stdout  # blind-read before the last fix (it out:1825)
    # draw 4 (ar, read blind under ff27516): the 18 references in no earlier draw, and 30 into-English pairs (the
    # English reference read as the source, the Arabic passage as the translation) on which two rules were shaped since
    assert "references: 18/18 = 100.0%" in proc.stdout
    assert "into-English pairs: 14/30 = 46.7%" in proc.stdout and "when drawn 10/30 = 33.3%" in proc.stdout
    assert all(r["person"] in ("female", "male", "both", "none") and r["why"] for r in rows)


def test_unreadable_language_and_bad_input_in_one_line(shared_data, tmp_path, capsys):
    code, _, err = run_cli(capsys, "run", "mittens-out", "--lang", "ja", "--system", "reference", "--data-dir",
                           str(shared_data))
    assert_one_line_error(code, err, "mittens-out cannot read 'ja'", "Japanese")
    short = tmp_path / "short.txt"
    short.write_text("one line\n", "utf-8")
    code, _, err = run_cli(capsys, "run", "mittens", "--lang", "fi", "--input", str(short), "--data-dir",
                           str(shared_data))
    assert_one_line_error(code, err, str(short))
    code, _, err = run_cli(capsys, "run", "mittens", "--lang", "fi", "--data-dir", str(shared_data))
    assert_one_line_error(code, err, "--input")


def test_suites_lists_both_with_the_licence(shared_data, capsys):
    code, out, _ = run_cli(capsys, "suites", "--data-dir", str(shared_data))
    assert code == 0 and "mittens-out" in out and "CC BY 4.0" in out


def test_tiny_llm_translates_the_authors_prompt(shared_data, tiny_llms, tmp_path, capsys):
    code = main(["run", "mittens", "--lang", "fi", "--model", str(tiny_llms["qwen3"]), "--text", "prompt",
                 "--max-length", "8", "--format", "json", "--data-dir", str(shared_data), "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = one_result(out)
    assert result["n"] == 18 and "text:prompt" in result["signature"]
    assert sum(result["scores"][k] for k in ("correct", "wrong", "both", "none")) == 18
