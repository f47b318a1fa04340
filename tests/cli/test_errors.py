"""Every malformed input ends with exit status 2 and one stderr line naming the file (and line)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.cli_helpers import assert_one_line_error, run_cli

N = 3888  # rows of WinoMT


@pytest.fixture
def translations(tmp_path, shared_data):
    """A valid plain file for the current WinoMT (one line per row), to corrupt per test."""
    def make(lines: list[bytes] | None = None, raw: bytes | None = None):
        path = tmp_path / "hyp.txt"
        path.write_bytes(raw if raw is not None else b"\n".join(lines or [b"Der Arzt kam."] * N) + b"\n")
        return str(path)
    return make


def test_missing_input_file(capsys, tmp_path, shared_data):
    missing = tmp_path / "nope.txt"
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", str(missing), "-q")
    assert_one_line_error(code, err, str(missing), "file not found")


def test_wrong_line_count(capsys, translations):
    path = translations([b"Der Arzt kam."] * (N - 1))
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", path, "-q")
    assert_one_line_error(code, err, f"{path}:{N}", "expected 3888 lines")


def test_undecodable_bytes(capsys, translations):
    lines = [b"Der Arzt kam."] * N
    lines[10] = b"Der \xff Arzt"
    path = translations(lines)
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", path, "-q")
    assert_one_line_error(code, err, f"{path}:11", "UTF-8")


def test_empty_line(capsys, translations):
    lines = [b"Der Arzt kam."] * N
    lines[41] = b"   "
    path = translations(lines)
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", path, "-q")
    assert_one_line_error(code, err, f"{path}:42", "empty line")


def test_missing_separator_in_bitext(capsys, translations):
    lines = [b"The nurse came. ||| Die Pflegerin kam."] * N
    lines[5] = b"The nurse came. Die Pflegerin kam."
    path = translations(lines)
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", path, "-q")
    assert_one_line_error(code, err, f"{path}:6", "missing '|||'")


def test_directory_as_input(capsys, tmp_path, shared_data):
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", str(tmp_path), "-q")
    assert_one_line_error(code, err, str(tmp_path), "is a directory")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("run", "winomt", "--lang", "xx", "--system", "google"), "unknown language 'xx'"),
        (("run", "nosuite", "--lang", "de", "--system", "google"), "unknown suite 'nosuite'"),
        (("run", "winomt", "--lang", "de", "--system", "deepl"), "unknown system 'deepl'"),
        (("run", "winomt", "--lang", "uk", "--system", "aws"), "aws has no published winomt output for 'uk'"),
        (("run", "winomt", "--lang", "all", "--input", "x.txt"), "--input needs exactly one --lang"),
        (("data", "verify", "nope"), "unknown data source 'nope'"),
    ],
)
def test_unknown_names(capsys, shared_data, args, fragment):
    code, _, err = run_cli(capsys, *args, "-q") if args[0] == "run" else run_cli(capsys, "-q", *args)
    assert_one_line_error(code, err, fragment)


def test_missing_data_file_says_where_to_put_it(capsys, tmp_path):
    args = ("--data-dir", str(tmp_path), "-q", "run", "winomt", "--lang", "de", "--system", "google")
    code, _, err = run_cli(capsys, *args)
    assert_one_line_error(code, err, str(tmp_path / "mt_gender/data/aggregates/en.txt"), "discotest data fetch winomt")


def test_console_entry_point_prints_no_traceback(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "discotest", "run", "winomt", "--lang", "de", "--input", str(tmp_path / "x.txt"), "-q"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
