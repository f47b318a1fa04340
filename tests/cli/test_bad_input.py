"""Bad invocations as a new user makes them, through ``discotest.cli.main`` in-process: each ends with exit status 2
and exactly one stderr line ``discotest: error: …``, never a traceback or argparse's usage block."""

from __future__ import annotations

import json

import pytest

from discotest.gender.validate import COLUMNS
from tests.support.cli_helpers import assert_one_line_error, run_cli
from tests.support.files import MANIFEST, dip_tests, jazp_file, write

CASES = {
    # numeric options, checked at parse time
    "bootstrap zero": (lambda t: ["compare", "mzprt", "-d", "QA", "--bootstrap", "0"], "--bootstrap"),
    "bootstrap absurd": (lambda t: ["rank", "dip", "--pair", "de-en", "--bootstrap", "1000000000"], "--bootstrap"),
    "negative max-docs": (lambda t: ["mine", "dip", "--pair", "de-en", "-o", str(t), "--max-docs", "-3"],
                          "--max-docs"),
    "jobs zero": (lambda t: ["run", "winomt", "-l", "de", "-s", "google", "-j", "0"], "--jobs"),
    "negative window": (lambda t: ["run", "mzprt", "-d", "QA", "-s", "all", "--window", "-1"], "--window"),
    "negative context": (lambda t: ["run", "jazp", "--context", "-2"], "--context"),
    "seed too big": (lambda t: ["validate", "sample", "-l", "de", "-s", "all", "-o", str(t / "s.csv"), "--seed",
                                "99" * 20], "--seed"),
    "sample size zero": (lambda t: ["validate", "sample", "-l", "de", "-s", "all", "-o", str(t / "s.csv"), "-n",
                                    "0"], "-n"),
    "lr not a number": (lambda t: ["finetune", "-m", "x", "--data", "y", "-o", str(t / "m"), "--lr", "nan"], "--lr"),
    "steps zero": (lambda t: ["finetune", "-m", "x", "--data", "y", "-o", str(t / "m"), "--steps", "0"], "--steps"),
    # argparse usage errors
    "unknown command": (lambda t: ["frobnicate"], "invalid choice"),
    "missing suite": (lambda t: ["run"], "required"),
    "unknown option": (lambda t: ["run", "winomt", "--colour"], "unrecognized"),
    # suite files of the wrong shape
    "suite JSONL holds a number": (lambda t: ["run", "contrastive-jsonl", "--suite-file", write(t, "s.jsonl", "5\n"),
                                              "--scores", "x"], "s.jsonl:1"),
    "correct is a number": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t, correct=5), "--scores", "x"],
                            "suite.jsonl:1"),
    "meta is a list": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t, meta=[1]), "--scores", "x"],
                       "suite.jsonl:1"),
    "source is an object": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t, source={"a": 1}), "--scores",
                                       "x"], "suite.jsonl:1"),
    "NaN in a suite": (lambda t: ["run", "jazp", "--suite-file", write(t, "n.jsonl", '{"distance": NaN}\n'),
                                  "--scores", "x"], "n.jsonl:1"),
    "NUL in a suite": (lambda t: ["run", "jazp", "--suite-file", write(t, "z.jsonl", b'{"source": "a\0"}\n'),
                                  "--scores", "x"], "z.jsonl:1"),
    "suite file is a folder": (lambda t: ["run", "jazp", "--suite-file", str(t), "--scores", "x"], "directory"),
    "contrapro is an object": (lambda t: ["run", "contrapro", "--suite-file", write(t, "c.json", {"a": 1}),
                                          "--scores", "x"], "c.json"),
    "winox answer is text": (lambda t: ["run", "winox-mt", "--suite-file",
                                        write(t, "w.jsonl", json.dumps({
                                            "sentence": "s", "translation1": "a", "translation2": "b",
                                            "answer": "first", "pronoun1": "er", "pronoun2": "sie"}) + "\n"),
                                        "--scores", "x"], "w.jsonl:1"),
    # scores files
    "infinite score": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t), "--scores",
                                  write(t, "sc.txt", "inf\n0\n")], "sc.txt:1: score is 'inf'"),
    "NaN score": (lambda t: ["run", "jazp", "--suite-file", jazp_file(t), "--scores",
                             write(t, "sc.txt", "0\nnan\n")], "sc.txt:2"),
    "training text with NUL": (lambda t: ["run", "jazp", "--baseline", "majority", "--train-text",
                                          write(t, "tr.txt", b"he\0came\n")], "tr.txt:1"),
    # DiP test folders
    "manifest is a list": (lambda t: ["run", "dip", "--tests", dip_tests(t, [1, 2]), "--input", "x"],
                           "manifest.json"),
    "manifest path leaves its folder": (lambda t: ["run", "dip", "--tests",
                                                   dip_tests(t, {**MANIFEST, "counts": {"../x": 1}}), "--input",
                                                   "x"], "manifest.json"),
    "item without keys": (lambda t: ["run", "dip", "--tests", dip_tests(t, MANIFEST, {"lexical.jsonl": b"{}\n"}),
                                     "--input", "x"], "lexical.jsonl:1"),
    "item index out of range": (lambda t: ["run", "dip", "--tests", dip_tests(t, MANIFEST, {"lexical.jsonl": json.dumps(
        {"id": "a", "sentences": [0, 99], "lemma": "x", "ref_count": 2}).encode()}), "--input", "x"],
                                "lexical.jsonl:1"),
    # make-contrastive, validate, augment, finetune inputs
    "chain index out of range": (lambda t: ["make-contrastive", "-i", write(t, "ch.jsonl", json.dumps(
        {"target": "He came .", "chain": [-1]}) + "\n"), "-o", str(t / "out.jsonl")], "ch.jsonl:1"),
    "huge CSV cell": (lambda t: ["validate", "score", write(t, "v.csv", ",".join(COLUMNS) + "\n1,\"" + "x" * 200_000
                                                             + "\"\n")], "v.csv:2: malformed CSV"),
    "undecodable augment input": (lambda t: ["augment", "-i", write(t, "a.en", b"He came.\n\xff\n"), "-t",
                                             write(t, "a.de", b"Er kam.\nSie.\n"), "-o", str(t / "o.jsonl")],
                                  "a.en:2"),
    "augment input is a folder": (lambda t: ["augment", "-i", str(t), "-o", str(t / "o.jsonl")], "directory"),
    "finetune data of wrong type": (lambda t: ["finetune", "-m", "x", "--data",
                                               write(t, "f.jsonl", '{"src": ["a"], "tgt": "b"}\n'), "-o",
                                               str(t / "m")], "f.jsonl:1"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_invocation_is_one_line_exit_2(capsys, tmp_path, shared_data, name):
    make_args, fragment = CASES[name]
    code, _, err = run_cli(capsys, *make_args(tmp_path), "-q")
    assert_one_line_error(code, err, fragment)


def test_python_api_checks_numbers_too(tmp_path, shared_data):
    """The API takes the same numbers as the CLI and refuses the same bad values, before any work is done."""
    import discotest
    from discotest.dip import run as dip_api
    from discotest.errors import InputError
    from discotest.gender.augment import augment
    from discotest.gender.validate import sample

    calls = [
        (lambda: discotest.run("winomt", lang="de", system="google", jobs=0), "--jobs"),
        (lambda: discotest.run("mzprt", domain="QA", input="x", window=-1), "--window"),
        (lambda: discotest.run("mzprt", domain="QA", input="x", reach=1.5), "--reach must be a whole number"),
        (lambda: discotest.compare("mzprt", domain="QA", input=["a", "b"], bootstrap=0), "--bootstrap"),
        (lambda: discotest.compare("mzprt", domain="QA", input=["a", "b"], seed=-1), "--seed"),
        (lambda: dip_api.rank("wmt22", "de-en", n_bootstrap=10**9), "--bootstrap"),
        (lambda: dip_api.mine("wmt22", "de-en", tmp_path / "t", max_docs=-3), "--max-docs"),
        (lambda: sample([], n=0), "-n"),
        (lambda: augment("x", tmp_path / "o.jsonl", chunk_size=0), "--chunk-size"),
    ]
    for call, fragment in calls:
        with pytest.raises(InputError, match=fragment):
            call()
