"""Issue 24, "messages that point the wrong way" and "verdicts a reader can misread": each case ends with one line
naming the real cause (or, for verdicts, shows what happened), as a user meets it through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.engine import own_pythonpath
from tests.support.cli_helpers import assert_one_line_error, run_cli
from tests.support.files import JAZP_ROW, write

WINOX = Path(__file__).resolve().parents[1] / "fixtures" / "winox"


def _dip_manifest(tmp: Path, **fields) -> str:
    folder = tmp / "dip"
    folder.mkdir()
    manifest = {"data": "wmt22", "pair": "de-en", "ref": "A", "pair_lines": 5, "counts": {}, **fields}
    (folder / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    return str(folder)


CASES = {
    "--lang of commas": (lambda t: ["run", "winomt", "--lang", ",,", "--system", "google"],
                         "--lang ',,' names nothing (only commas and spaces)"),
    "--system of commas": (lambda t: ["run", "winomt", "--lang", "de", "--system", " , "], "--system ' , ' names"),
    "data dir is a file": (lambda t: ["--data-dir", write(t, "data", "x"), "run", "winomt", "-l", "de", "-s", "google"],
                           "data: the data directory (from --data-dir) is not a folder but a file"),
    "CR-only line ends": (lambda t: ["run", "winomt-demo", "-l", "de", "--input",
                                     write(t, "cr.txt", "Er kam.\rSie ging.\rEs regnet.\r")],
                          "cr.txt:1: line ends are CR only (3 lines end in CR, none in LF)"),
    "UTF-16 to augment": (lambda t: ["augment", "-i", write(t, "a.en", "He came.\nShe left.\n".encode("utf-16")),
                                     "-t", write(t, "a.de", b"Er kam.\nSie ging.\n"), "-o", str(t / "o.jsonl")],
                          "a.en:1: file is UTF-16; save it as UTF-8"),
    "UTF-16 without BOM to augment": (lambda t: ["augment", "-i", write(t, "a.en", "He came.\n".encode("utf-16-le")),
                                                 "-t", write(t, "a.de", b"Er kam.\n"), "-o", str(t / "o.jsonl")],
                                      "a.en:1: file is UTF-16 (a NUL byte every other byte)"),
    "UTF-16 to run": (lambda t: ["run", "winomt-demo", "-l", "de", "--input",
                                 write(t, "u.txt", "Er kam.\n".encode("utf-16"))], "u.txt:1: file is UTF-16"),
    "unknown data in a DiP manifest": (lambda t: ["run", "dip", "--tests", _dip_manifest(t, data="wmt99"), "--input",
                                                  "x"],
                                       "manifest.json: unknown 'data' 'wmt99'", "(read from the manifest, not the"),
    "bad pair in a DiP manifest": (lambda t: ["run", "dip", "--tests", _dip_manifest(t, pair="deen"), "--input", "x"],
                                   "manifest.json: 'pair' must look like de-en"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_message_names_the_real_cause(capsys, tmp_path, shared_data, name):
    make_args, *fragments = CASES[name]
    code, _, err = run_cli(capsys, *make_args(tmp_path), "-q")
    assert_one_line_error(code, err, *fragments)


def test_a_full_disk_on_stdout_names_stdout():
    with open("/dev/full", "w") as full:
        for args in (["suites"], ["-q", "run", "winox", "-l", "fr", "--suite-file", str(WINOX / "en_fr_test.jsonl"),
                                  "--input", str(WINOX / "system.fr.txt")]):
            done = subprocess.run([sys.executable, "-m", "discotest", *args], stdout=full, stderr=subprocess.PIPE,
                                  text=True, env={**os.environ, "PYTHONPATH": own_pythonpath()}, timeout=300)
            assert done.returncode == 2
            assert done.stderr == "discotest: error: standard output: No space left on device\n"


def test_a_contrastive_tie_is_shown_as_a_tie(capsys, tmp_path):
    """Both candidates scored alike: wrong, nothing chosen (not "chosen 0", the correct one by position)."""
    suite = write(tmp_path, "s.jsonl", json.dumps(JAZP_ROW) + "\n" + json.dumps({**JAZP_ROW, "source": "t"}) + "\n")
    scores = write(tmp_path, "sc.txt", "-1.5\n-1.5\n-1\n-2\n")
    details, page = tmp_path / "d.jsonl", tmp_path / "p.html"
    assert main(["-q", "run", "jazp", "--suite-file", suite, "--scores", scores, "--details", str(details),
                 "-f", "html", "-o", str(page)]) == 0
    rows = [json.loads(line) for line in details.read_text("utf-8").splitlines()]
    assert rows[0]["correct"] is False and rows[0]["chosen"] is None and rows[0]["tied"] == [0, 1]
    assert rows[1]["correct"] is True and rows[1]["chosen"] == 0 and "tied" not in rows[1]
    text = page.read_text("utf-8")
    assert '"tie: 0, 1"' in text and "tied for the top score (counts as wrong)" in text


def test_rank_dip_says_the_ranked_systems_were_the_mining_pool(capsys, tmp_path, monkeypatch):
    pytest.importorskip("spacy")
    from tests.support.wmt_fakes import BAD, GOOD, write_pair

    data = write_pair(monkeypatch, tmp_path / "data", {"Good": GOOD, "Bad": BAD})
    args = ["-q", "rank", "dip", "--pair", "de-en", "--data-dir", str(data), "--phenomena", "lexical", "-f", "json"]
    code, out, err = run_cli(capsys, *args)
    assert code == 0
    warning = ("warning: the 2 ranked systems were also the mining pool (their outputs chose the test items: the "
               "signature's mined_from); the DiP paper scores systems held out of mining: give --holdout SYSTEM")
    assert warning in err and any(w.startswith(warning) for w in json.loads(out)["warnings"])
    code, out, err = run_cli(capsys, *args, "--holdout", "Bad")
    assert code == 0 and "mining pool" not in err and "warnings" not in json.loads(out)
