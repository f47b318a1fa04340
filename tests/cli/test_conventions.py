"""The CLI conventions of the field (issue 13 §4): '-' for stdin/stdout, per-suite help, errors that say what to do
about missing data and models, ``data list`` and ``suites`` that say what is there."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from discotest.data import readers
from tests.support.cli_helpers import assert_one_line_error, one_result, run_cli

DEMO = Path(__file__).resolve().parents[2] / "src/discotest/data/bundled/winomt-demo/translations/demo/en-de.txt"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    readers.set_stdin(None)


# -- '-' is standard input and standard output -----------------------------------------------------------------------

def test_input_dash_reads_stdin_and_scores_as_the_file(monkeypatch, capsys):
    code, from_file, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--input", str(DEMO), "-q", "-f",
                                   "json")
    assert code == 0, err
    _stdin(monkeypatch, DEMO.read_bytes())
    code, from_stdin, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--input", "-", "-q", "-f", "json",
                                    "-o", "-")
    assert code == 0, err
    a, b = one_result(from_file), one_result(from_stdin)
    assert a["n"] == b["n"] == 16 and a["scores"] == b["scores"]
    assert b["system"] == "stdin" and "|system:stdin|" in b["signature"]  # not "-"


def test_bad_stdin_names_stdin_and_its_line(monkeypatch, capsys):
    _stdin(monkeypatch, DEMO.read_bytes() + b"caf\xe9\n")
    code, _, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--input", "-", "-q")
    assert_one_line_error(code, err, "<stdin>:17:", "not valid UTF-8")


def test_make_contrastive_from_stdin_to_stdout(monkeypatch, capsys):
    row = {"source": "The cat slept.", "target": "It slept on the mat .", "chain": [0]}
    _stdin(monkeypatch, (json.dumps(row) + "\n").encode())
    code, out, err = run_cli(capsys, "make-contrastive", "-i", "-", "-o", "-", "--replacement", "they")
    assert code == 0, err
    assert json.loads(out)["incorrect"] == ["They slept on the mat ."]
    assert not Path("-").exists()


def test_stdin_serves_one_input_only(monkeypatch, capsys):
    _stdin(monkeypatch, DEMO.read_bytes())
    code, _, err = run_cli(capsys, "compare", "winomt-demo", "--lang", "de", "--input", "-", "--input", "-", "-q")
    assert_one_line_error(code, err, "standard input ('-') can be read by one input only")


def test_output_dash_is_refused_where_it_names_a_folder(capsys, tmp_path):
    code, _, err = run_cli(capsys, "mine", "dip", "--pair", "de-en", "-o", "-")
    assert_one_line_error(code, err, "--output - (standard output) is not possible", "name a folder")
    code, _, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--system", "demo", "--details", "-")
    assert_one_line_error(code, err, "--details -")


# -- help per suite ----------------------------------------------------------------------------------------------------

def _help(capsys, *args: str) -> str:
    code, out, _ = run_cli(capsys, *args, "--help")
    assert code == 0
    return out


def test_run_suite_help_shows_only_its_family(capsys):
    winox = _help(capsys, "run", "winox")
    assert "--input-format" in winox and "--format" in winox and "--data-dir" in winox
    assert "--domain" not in winox and "--measure" not in winox and "--scores" not in winox
    mzprt = _help(capsys, "run", "mzprt")
    assert "--domain" in mzprt and "--measure" not in mzprt and "--markers" not in mzprt
    gender = _help(capsys, "run", "winomt")
    assert "--measure" in gender and "--domain" not in gender
    compare = _help(capsys, "compare", "voita-deixis")
    assert "--bootstrap" in compare and "--measure" not in compare


def test_run_help_without_a_suite_lists_the_families(capsys):
    out = _help(capsys, "run")
    assert "`discotest run SUITE --help`" in out and "winomt" in out and "mzprt" in out and "dip" in out
    assert "--domain" not in out and "--measure" not in out
    # an unknown suite gets the same overview, not an error
    assert "`discotest run SUITE --help`" in _help(capsys, "run", "nope")


def test_help_narrowing_does_not_change_parsing(capsys):
    # without --help every family's options still parse (a foreign one is refused by the family, not argparse)
    code, _, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--system", "demo", "--domain", "QA", "-q")
    assert_one_line_error(code, err, "--domain does not apply to suite 'winomt-demo'")


# -- missing data and models -------------------------------------------------------------------------------------------

def test_missing_data_names_data_dir_env_and_fetch(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("DISCOTEST_DATA", raising=False)
    code, _, err = run_cli(capsys, "run", "voita-deixis", "--data-dir", str(tmp_path), "--scores", str(DEMO), "-q")
    assert_one_line_error(code, err, "--data-dir", "$DISCOTEST_DATA", "discotest data fetch voita-deixis",
                          f"data directory {tmp_path} (from --data-dir)")


def test_missing_model_folder_fails_before_the_resolver(capsys, tmp_path, monkeypatch):
    from discotest.gender.coref import resolvers

    def boom(*_a, **_k):
        raise AssertionError("the resolver ran before the model path was checked")

    monkeypatch.setattr(resolvers.RulesResolver, "resolve", boom)
    code, _, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--model", str(tmp_path / "nope"),
                           "--markers", "predicted", "-q")
    assert_one_line_error(code, err, f"{tmp_path / 'nope'}: model folder not found")
    code, _, err = run_cli(capsys, "translate", "--suite", "winomt-demo", "-l", "de", "-m", "./no-such-model",
                           "-o", str(tmp_path / "out.txt"))
    assert_one_line_error(code, err, "./no-such-model: model folder not found")


def test_model_names_that_are_neither_folder_nor_hub_name(capsys, tmp_path):
    code, _, err = run_cli(capsys, "run", "jazp", "--model", "not a model!", "-q")
    assert_one_line_error(code, err, "neither a model folder nor a Hugging Face hub name")
    code, _, err = run_cli(capsys, "run", "jazp", "--model", str(DEMO), "-q")
    assert_one_line_error(code, err, "is a file; --model takes a model folder")


def test_offline_hub_name_fails_at_once(capsys, monkeypatch, tmp_path):
    import huggingface_hub.constants

    from discotest.models import hf_models

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(hf_models, "_hub_reachable", False)  # as the probe finds it without network
    code, _, err = run_cli(capsys, "run", "jazp", "--model", "no-such-org/no-such-model", "-q")
    assert_one_line_error(code, err, "cannot reach the Hugging Face hub", "'no-such-org/no-such-model'",
                          "HF_HUB_OFFLINE=1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    code, _, err = run_cli(capsys, "run", "jazp", "--model", "no-such-org/no-such-model", "-q")
    assert_one_line_error(code, err, "not in the local Hugging Face cache and HF_HUB_OFFLINE is set")


def test_offline_hub_name_in_the_cache_switches_to_offline_mode(monkeypatch, hub_cache):
    import huggingface_hub.constants

    from discotest.models import hf_models

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(hf_models, "_hub_reachable", False)
    hf_models.check_model("org/mt")
    assert huggingface_hub.constants.HF_HUB_OFFLINE is True
    import os

    assert os.environ["HF_HUB_OFFLINE"] == "1"


def test_hub_probe_without_a_route_says_unreachable(monkeypatch):
    from discotest.models import hf_models

    monkeypatch.setattr(hf_models, "_hub_reachable", None)
    monkeypatch.delenv("HTTPS_PROXY", raising=False)
    monkeypatch.delenv("https_proxy", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "https://no-such-host.invalid")
    assert hf_models.hub_reachable() is False


def test_tiny_local_model_passes_the_check(tmp_path):
    from discotest.models.hf_models import check_model
    from tests.support.tiny_marian import build_tiny_marian

    check_model(str(build_tiny_marian(tmp_path / "tiny")))  # no error, no network


# -- data list and suites ----------------------------------------------------------------------------------------------

def test_data_list_shows_status_size_and_url_by_suite(capsys, shared_data, tmp_path):
    code, out, err = run_cli(capsys, "--data-dir", str(shared_data), "data", "list", "winomt-demo", "bug")
    assert code == 0, err
    assert "\nbug (2 files: 2 verified; licence: MIT)" in out
    assert "https://raw.githubusercontent.com/SLAB-NLP/BUG/" in out and "kB" in out
    assert "bundled   winomt-demo " in out and "winomt-google" not in out
    code, out, _ = run_cli(capsys, "--data-dir", str(tmp_path), "data", "list", "winomt")
    assert "winomt (39 files: 39 missing;" in out and "mt_gender/586292861" in out
    code, _, err = run_cli(capsys, "data", "list", "nope")
    assert_one_line_error(code, err, "no data source or suite 'nope'")


def test_data_verify_checks_the_files_present(capsys, tmp_path):
    """`data verify` with no names checks what is there (a source never fetched is no failure); a named source
    must be there; a modified file (sha256 mismatch) always fails."""
    data = tmp_path / "data"
    code, out, err = run_cli(capsys, "--data-dir", str(data), "data", "verify")
    assert code == 0 and "missing  winox-de" in out and " missing, " in err, (out, err)
    code, out, err = run_cli(capsys, "--data-dir", str(data), "data", "verify", "winox-de")
    assert code == 1 and err.strip() == "1 missing"
    bug = data / "bug" / "49c6c8c" / "en_human_validated.txt"
    bug.parent.mkdir(parents=True)
    bug.write_text("not BUG\n", "utf-8")
    code, out, err = run_cli(capsys, "--data-dir", str(data), "data", "verify")
    assert code == 1 and any(line.split()[:2] == ["mismatch", "bug-gold"] for line in out.splitlines()), out


def test_data_help_is_not_a_shell_pipe(capsys):
    out = " ".join(_help(capsys, "data").split())
    assert "list | fetch" not in out and "list each source by suite" in out
    assert "`data list`, `data fetch NAME`, `data verify`" in " ".join(_help(capsys).split())


def test_suites_lists_every_suite_with_size_languages_licence(capsys, shared_data):
    code, out, err = run_cli(capsys, "--data-dir", str(shared_data), "suites")
    assert code == 0, err
    lines = {line.split(":")[0]: line for line in out.splitlines() if line and not line.startswith((" ", "#"))}
    from discotest.families import all_suites

    assert set(lines) == set(all_suites()) and {"contrapro", "dip", "winox-mt", "winox"} <= set(lines)
    assert lines["jazp"].startswith("jazp: 44 items; ja→en; licence: MIT")
    assert lines["winomt"].startswith("winomt: 3,888 items; en→ar,de")
    assert lines["bug"].startswith("bug: 1,628 items;") and "licence: MIT" in lines["bug"]
    assert "1,500 items; en→ru" in lines["voita-lexcohesion"]
    assert "CC BY-SA 4.0" in lines["bawden-anaphora"]
