"""Issue 24, "numbers and formats read too loosely" and "a repeated option silently keeps only the last value": one
number grammar (JSON's) in every reader and numeric option, JSON-array lines refused as plain translations, and a
single-value option given twice refused by the parser itself (every family, every command), naming the option and
the command that does what the user meant."""

from __future__ import annotations

import pytest

from discotest.data.readers import finite_number, whole_number
from discotest.errors import InputError
from tests.support.cli_helpers import assert_one_line_error, run_cli
from tests.support.files import jazp_file, write

# Python's float()/int() read every one of these; JSON (and now discotest) reads none
LOOSE = ["1_000", "+1", ".5", "1.", "0x10", "١٢", "１２", "²", "nan", "-inf", "Infinity", "1 000", "01", "1e", "--1",
         "\u00a01"]
STRICT = {"0": 0.0, "-0.5": -0.5, "12": 12.0, "1e3": 1000.0, "2.5E-1": 0.25, " 7\t": 7.0}


@pytest.mark.parametrize("text", LOOSE)
def test_loose_numbers_are_refused_by_the_readers(text):
    with pytest.raises(InputError) as error:
        finite_number(text, "score", "f.txt", 3)
    assert error.value.one_line().startswith("f.txt:3: ")
    if text not in ("1e", "--1", "1 000") and "inf" not in text.lower() and text != "nan":
        with pytest.raises(InputError, match="whole number, written as in JSON"):
            whole_number(text, "the entity index", "f.txt", 3)


def test_json_numbers_are_read():
    assert {t: finite_number(t, "score") for t in STRICT} == STRICT
    assert whole_number("0", "x") == 0 and whole_number("42", "x", minimum=0) == 42
    with pytest.raises(InputError, match="at least 0"):
        whole_number("-1", "the entity index", minimum=0)


CASES = {
    "score 1_000": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t), "--scores",
                               write(t, "sc.txt", "1_000\n0\n")],
                    "sc.txt:1: expected a score (one number, written as in JSON", "'1_000'"),
    "full-width score": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t), "--scores",
                                    write(t, "sc.txt", "0\n１\n")], "sc.txt:2", "'１'"),
    "option 1_0": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t), "--scores", "x", "--context", "1_0"],
                   "--context: expected a whole number (written as in JSON", "'1_0'"),
    "option in Arabic digits": (lambda t: ["compare", "winomt", "-l", "de", "--bootstrap", "١٠٠"], "--bootstrap"),
    "option +5": (lambda t: ["run", "winomt", "-l", "de", "-s", "google", "--jobs", "+5"], "--jobs", "'+5'"),
    "JSON-array lines as --input": (lambda t: ["run", "winomt", "-l", "de", "--input",
                                               write(t, "arr.txt", '["Die Ärztin kam."]\n["Er ging."]\n')],
                                    "arr.txt:1: a JSON array, not a plain translation", "--input-format"),
    "JSON-array pairs as --input": (lambda t: ["run", "ctxpro-auxiliary-en-de-test", "--input",
                                               write(t, "arr.txt", 'Hallo.\n["Hi.", "Hallo."]\n')], "arr.txt:2"),
    # repeated single-value options
    "--input twice": (lambda t: ["run", "winomt", "-l", "de", "--input", "a", "--input", "b"],
                      "argument --input/-i: given twice", "`discotest compare winomt --input A --input B`"),
    "--scores twice": (lambda t: ["run", "voita-deixis", "--scores", "A", "--scores", "B", "--compare"],
                       "argument --scores: given twice", "`discotest compare voita-deixis --input A --input B`"),
    "--lang twice": (lambda t: ["run", "winomt", "--lang", "de", "-l", "fr", "-s", "google"],
                     "argument --lang/-l: given twice", "--lang de,fr"),
    "--system twice": (lambda t: ["run", "mzprt", "-d", "QA", "-s", "a", "-s", "b"], "--system/-s: given twice",
                       "discotest compare mzprt --system a --system b"),
    "--domain twice": (lambda t: ["run", "mzprt", "-d", "QA", "-d", "Fiction"], "argument --domain/-d: given twice"),
    "--format twice": (lambda t: ["rank", "dip", "--pair", "de-en", "-f", "json", "-f", "text"],
                       "argument --format/-f: given twice"),
    "--data-dir twice": (lambda t: ["--data-dir", "x", "--data-dir", "y", "suites"],
                         "argument --data-dir: given twice"),
    "--output twice": (lambda t: ["validate", "sample", "-l", "de", "-o", "a.csv", "-o", "b.csv"],
                       "argument --output/-o: given twice"),
    "--timeout twice": (lambda t: ["data", "fetch", "x", "--timeout", "1", "--timeout", "2"], "--timeout"),
    "--compare with one system": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t), "--scores",
                                             write(t, "sc.txt", "1\n0\n"), "--compare"],
                                  "got 1", "`discotest compare jazp --input A --input B`"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_names_its_cause(capsys, tmp_path, shared_data, name):
    make_args, *fragments = CASES[name]
    code, _, err = run_cli(capsys, *make_args(tmp_path), "-q")
    assert_one_line_error(code, err, *fragments)


def test_repeatable_options_still_repeat(capsys, tmp_path, shared_data):
    """``action="append"`` options (compare's --input, --context, --baseline) keep every value."""
    scores = [write(tmp_path, f"s{k}.txt", f"{k}\n0\n") for k in (1, 2)]
    code, out, err = run_cli(capsys, "-q", "compare", "jazp", "--suite-file", jazp_file(tmp_path), "--input",
                             scores[0], "--input", scores[1])
    assert code == 0, err
    assert "s1.txt" in out and "s2.txt" in out


def test_suite_and_released_files_use_the_same_grammar(tmp_path):
    """A WinoMT-format entity index, an mZPRT .details sentence number, a WMT DA score: '²', '٣', '1_0' were read by
    int()/float() (or crashed it after str.isdigit() said yes)."""
    from discotest.dip.coherence_eval import read_da_scores
    from discotest.gender.winomt import read_gender_tsv
    from discotest.zero_pronoun.outputs import read_details

    tsv = tmp_path / "w.txt"
    tsv.write_text("female\t²\tThe nurse said she left.\tnurse\n", "utf-8")
    with pytest.raises(InputError, match=r"w.txt:1: expected the entity index \(a whole number"):
        read_gender_tsv(tsv)
    details = tmp_path / "d.details"
    details.write_text("٣\t1\tzp\tit\tit\tx\t1\n", "utf-8")
    with pytest.raises(InputError, match="d.details:1: expected 7 tab-separated columns"):
        read_details(details)
    da = tmp_path / "da.txt"
    da.write_text("SYS SID RAW.SCR Z.SCR N\nsys.1 1 50 1_0 1\n", "utf-8")
    with pytest.raises(InputError, match="da.txt:2: malformed DA row"):
        read_da_scores(da)
    da.write_text("SYS SID RAW.SCR Z.SCR N\nsys.1 1 50 -0.25 1\n", "utf-8")
    assert read_da_scores(da) == {"sys": {0: -0.25}}


@pytest.mark.parametrize("segment", ["1_2", 2.7, True, "+3"])
def test_contrapro_segment_ids_are_whole_numbers(tmp_path, segment):
    """``int()`` read "1_2" as 12 and 2.7 as 2: the context of another sentence."""
    from discotest.contrastive.contrapro_context import opus_context

    with pytest.raises(InputError, match="item 0: missing or bad document/segment id"):
        opus_context([{"document id": "d", "segment id": segment}], tmp_path / "OpenSubtitles", 1)
