"""Outputs never destroy inputs and never fail with a traceback: every output path is checked before the work
(an input of the command, a directory, a device, a FIFO, a socket, a name too long, a missing or unwritable
folder, two outputs on one file, a file of the data directory); writes are atomic with the user's umask; a full
disk is one line with nothing half-written; a closed or broken stdout and a closed stderr are handled."""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from discotest import api, atomic, cache
from discotest.errors import InputError
from tests.support.cli_helpers import assert_one_line_error, run_cli

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_work(monkeypatch):
    """Any evaluation started fails the test: the output checks must come first."""
    def boom(*args, **kwargs):
        raise AssertionError("the work started before the output was checked")

    for name in ("run", "compare"):
        monkeypatch.setattr(api, name, boom)


@pytest.fixture
def hyp(tmp_path) -> Path:
    path = tmp_path / "hyp.txt"
    path.write_text("Der Arzt kam.\n", "utf-8")
    return path


# ---------------------------------------------------------------- an output that is an input

def test_output_equal_to_input_is_refused_and_the_input_kept(capsys, hyp, no_work):
    code, _, err = run_cli(capsys, "run", "winomt", "-l", "de", "--input", str(hyp), "-o", str(hyp), "-q")
    assert_one_line_error(code, err, str(hyp), "also an input")
    assert hyp.read_text("utf-8") == "Der Arzt kam.\n"


@pytest.mark.parametrize("link", ["symlink", "hardlink", "relative"])
def test_output_reaching_the_input_another_way_is_refused(capsys, hyp, tmp_path, monkeypatch, no_work, link):
    if link == "symlink":
        other = tmp_path / "alias.txt"
        other.symlink_to(hyp)
    elif link == "hardlink":
        other = tmp_path / "hard.txt"
        os.link(hyp, other)
    else:
        monkeypatch.chdir(tmp_path)
        other = Path("sub/../hyp.txt")
        (tmp_path / "sub").mkdir()
    code, _, err = run_cli(capsys, "run", "winomt", "-l", "de", "--input", str(hyp), "--details", str(other), "-q")
    assert_one_line_error(code, err, "also an input")
    assert hyp.read_text("utf-8") == "Der Arzt kam.\n"


@pytest.mark.parametrize("argv", [
    ["run", "voita-deixis", "--scores", "{f}", "-o", "{f}"],
    ["run", "jazp", "--suite-file", "{f}", "--details", "{f}"],
    ["run", "jazp", "--suite-file", "{f}", "--baseline", "majority", "--train-text", "{g}", "-o", "{g}"],
    ["make-contrastive", "-i", "{f}", "-o", "{f}"],
    ["augment", "-i", "{f}", "-t", "{g}", "-o", "{g}"],
    ["augment", "-i", "{f}", "-o", "{g}", "--summary", "{f}"],
    ["translate", "-i", "{f}", "-l", "de", "-m", "no-such-model", "-o", "{f}"],
    ["run", "dip", "--tests", "{d}", "--input", "{f}", "--details", "{f}"],
])
def test_every_command_refuses_to_write_over_its_inputs(capsys, tmp_path, argv):
    f, g, d = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "tests"
    f.write_text("keep me\n")
    g.write_text("keep me too\n")
    d.mkdir()
    code, _, err = run_cli(capsys, *[a.format(f=f, g=g, d=d) for a in argv], "-q")
    assert_one_line_error(code, err, "also an input")
    assert f.read_text() == "keep me\n" and g.read_text() == "keep me too\n"


def test_finetune_into_the_base_model_folder_is_refused(capsys, tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    data = tmp_path / "data.jsonl"
    data.write_text("{}\n")
    code, _, err = run_cli(capsys, "finetune", "-m", str(model), "--data", str(data), "-o", str(model))
    assert_one_line_error(code, err, "output folder is also an input")


def test_two_outputs_on_one_file_are_refused(capsys, hyp, tmp_path, no_work):
    out = tmp_path / "out.txt"
    code, _, err = run_cli(capsys, "run", "winomt", "-l", "de", "--input", str(hyp), "-o", str(out),
                           "--details", str(out), "-q")
    assert_one_line_error(code, err, "two outputs")


def test_a_file_of_the_data_directory_is_not_overwritten(capsys, shared_data, no_work):
    target = shared_data / "mt_gender/translations/sota/en-de.txt"
    before = target.stat().st_mtime_ns
    code, _, err = run_cli(capsys, "run", "winomt", "-l", "de", "-s", "google", "-o", str(target), "-q")
    assert_one_line_error(code, err, "a file of the data directory")
    assert target.stat().st_mtime_ns == before


def test_a_new_file_beside_the_data_is_allowed(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_DATA", str(tmp_path))  # e.g. --data-dir . in a working folder
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    report = tmp_path / "report.txt"
    report.write_text("an earlier report\n")
    code, _, err = run_cli(capsys, "run", "winomt-demo", "-l", "de", "-s", "demo", "-o", str(report), "-q")
    assert code == 0, err
    assert "demo" in report.read_text()


# ---------------------------------------------------------------- paths that are not a writable file

def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def _socket(tmp_path: Path) -> Path:
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()
    return path


@pytest.mark.parametrize("make, fragment", [
    (lambda tmp: tmp, "is a directory"),
    (lambda tmp: Path("/dev/null"), "is a device"),
    (_fifo, "FIFO or socket"),
    (_socket, "FIFO or socket"),
    (lambda tmp: tmp / ("x" * 300), "too long"),
    (lambda tmp: tmp / "missing" / "out.txt", "does not exist"),
    (lambda tmp: tmp / "hyp.txt" / "out.txt", "cannot"),
    (lambda tmp: "", "empty output path"),
])
@pytest.mark.parametrize("option", ["-o", "--details"])
def test_unusable_output_paths_fail_before_the_work(capsys, hyp, tmp_path, no_work, make, fragment, option):
    path = make(tmp_path)
    code, _, err = run_cli(capsys, "run", "winomt", "-l", "de", "--input", str(hyp), option, str(path), "-q")
    assert_one_line_error(code, err, fragment)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)  # the device is still a device


@pytest.mark.parametrize("argv", [
    ["validate", "sample", "-l", "de", "-s", "google", "-o", "{dir}"],
    ["translate", "-i", "{hyp}", "-l", "de", "-m", "no-such-model", "-o", "{dir}"],
    ["make-contrastive", "-i", "{hyp}", "-o", "{dir}"],
    ["augment", "-i", "{hyp}", "-o", "{dir}"],
    ["run", "mzprt", "-d", "MS", "-s", "base_tgt", "--format", "html", "-o", "{dir}"],
    ["rank", "dip", "--pair", "de-en", "-o", "{dir}"],
    ["mine", "dip", "--pair", "de-en", "-o", "{hyp}"],
    ["finetune", "-m", "x", "--data", "{dir}/data.jsonl", "-o", "{hyp}"],
])
def test_every_output_option_is_checked(capsys, hyp, tmp_path, argv):
    code, _, err = run_cli(capsys, *[a.format(dir=tmp_path, hyp=hyp) for a in argv], "-q")
    assert_one_line_error(code, err)
    assert "directory" in err or "not a folder" in err


def test_unwritable_folder_is_refused(capsys, hyp, tmp_path, monkeypatch, no_work):
    real_access = os.access

    def access(path, mode, *a, **k):  # root ignores permission bits: simulate the user's view
        return False if Path(path) == tmp_path and mode & os.W_OK else real_access(path, mode, *a, **k)

    monkeypatch.setattr(atomic.os, "access", access)
    code, _, err = run_cli(capsys, "run", "winomt", "-l", "de", "--input", str(hyp), "-o", str(tmp_path / "o.txt"))
    assert_one_line_error(code, err, "permission denied")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_for_real(capsys, hyp, tmp_path, no_work):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code, _, err = run_cli(capsys, "run", "winomt", "-l", "de", "--input", str(hyp), "-o", str(folder / "o"))
    finally:
        folder.chmod(0o755)
    assert_one_line_error(code, err, "permission denied")


# ---------------------------------------------------------------- atomic writes: modes and failures

@pytest.fixture
def umask():
    def set_mask(mask: int) -> None:
        os.umask(mask)
        atomic._UMASK = None

    old = os.umask(0o022)
    os.umask(old)
    yield set_mask
    os.umask(old)
    atomic._UMASK = None


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_output_gets_the_umask_mode(tmp_path, umask, mask, mode):
    umask(mask)
    atomic.write_text_atomic(tmp_path / "new.txt", "x\n")
    assert stat.S_IMODE(os.stat(tmp_path / "new.txt").st_mode) == mode


def test_replaced_output_keeps_its_mode(tmp_path, umask):
    umask(0o022)
    path = tmp_path / "old.txt"
    path.write_text("old")
    path.chmod(0o640)
    atomic.write_text_atomic(path, "new")
    assert path.read_text() == "new"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_symlinked_output_replaces_its_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic.write_text_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


@pytest.fixture
def disk_full(monkeypatch):
    """Every write through a file object opened by discotest.atomic fails with ENOSPC after a few bytes."""
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle):
            self._handle = handle

        def write(self, data):
            self._handle.write(data[:3])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._handle.close()

    monkeypatch.setattr(atomic.os, "fdopen", lambda *a, **k: Full(real_fdopen(*a, **k)))


def test_disk_full_is_one_input_error_and_leaves_nothing_half_written(tmp_path, disk_full):
    path = tmp_path / "report.txt"
    path.write_text("previous report\n")
    with pytest.raises(InputError) as caught:
        atomic.write_text_atomic(path, "new report\n" * 100)
    assert caught.value.one_line() == f"{path}: cannot write: No space left on device"
    assert path.read_text() == "previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]


def test_disk_full_in_a_real_run_is_exit_2_and_one_line(capsys, shared_data, tmp_path, monkeypatch, disk_full):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_warned_unwritable", False)
    out = tmp_path / "report.txt"
    code, _, err = run_cli(capsys, "run", "winomt-demo", "-l", "de", "-s", "demo", "-o", str(out), "-q")
    lines = [line for line in err.splitlines() if "warning" not in line]  # the cache cannot write either
    assert_one_line_error(code, "\n".join(lines), str(out), "No space left on device")
    assert [p.name for p in tmp_path.iterdir() if p.name != "cache"] == []


# ---------------------------------------------------------------- stdout and stderr

def _discotest(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.Popen([sys.executable, "-m", "discotest", *args], env=env, **kwargs)


def test_broken_pipe_ends_quietly():
    proc = _discotest("suites", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before discotest writes (like `| head -0`)
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert err == b""


def test_closed_stdout_is_an_error_not_a_lost_report():
    proc = _discotest("suites", stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 2
    assert err.splitlines() == ["discotest: error: standard output is closed; give --output FILE or redirect it to "
                                "a file"]


def test_stdout_on_a_full_device_is_an_error():
    with open("/dev/full", "w") as full:
        proc = _discotest("suites", stdout=full, stderr=subprocess.PIPE)
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("discotest: error: ") and "No space left on device" in lines[0]


def test_closed_stderr_does_not_stop_a_run_with_progress_bars(shared_data, tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "discotest", "run", "winomt-demo", "-l", "de", "-s", "all"],
                            env={**os.environ, cache.ENV_VAR: str(tmp_path / "cache"), "PYTHONPATH": str(REPO / "src")},
                            stdout=subprocess.PIPE, preexec_fn=lambda: os.close(2))
    out = proc.stdout.read().decode()
    assert proc.wait(timeout=300) == 0
    assert "winomt-demo" in out and "demo" in out and "Traceback" not in out


def test_cache_path_that_is_a_file_costs_one_warning_not_the_run(capsys, shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    code, clean, _ = run_cli(capsys, "run", "winomt-demo", "-l", "de", "-s", "demo", "-q")
    assert code == 0
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker))
    monkeypatch.setattr(cache, "_warned_unwritable", False)
    code, out, err = run_cli(capsys, "run", "winomt-demo", "-l", "de", "-s", "demo", "-q")
    assert code == 0 and out == clean
    assert err.count("discotest: warning: cannot write the cache") == 1 and len(err.splitlines()) == 1


def test_details_inside_an_input_folder_is_refused_and_the_folder_kept(capsys, hyp, tmp_path, no_work):
    """Issue 40 item 9: ``--details`` pointed into DiP's ``--tests`` folder overwrote the mined test set."""
    from tests.support.files import MANIFEST, dip_tests

    tests = Path(dip_tests(tmp_path, MANIFEST, {"lexical.jsonl": b'{"id": "goods"}\n'}))
    before = {p.name: p.read_bytes() for p in tests.iterdir()}
    for inside in (tests / "lexical.jsonl", tests / "new.jsonl", tests / "." / "sub" / ".." / "x.jsonl"):
        code, _, err = run_cli(capsys, "run", "dip", "--tests", str(tests), "--input", str(hyp), "--details",
                               str(inside))
        assert_one_line_error(code, err, str(inside), f"is inside {tests}, a folder this command reads")
    assert {p.name: p.read_bytes() for p in tests.iterdir()} == before
    code, _, err = run_cli(capsys, "run", "dip", "--tests", str(tests), "--input", str(hyp), "--figures",
                           str(tests / "figs"))
    assert_one_line_error(code, err, "figs: --figures is inside a folder this command reads")


def test_figures_on_the_report_path_is_refused_before_the_work(capsys, hyp, tmp_path, no_work):
    """Issue 40 item 9: ``--figures`` given the path of ``-o`` failed only after the whole run."""
    report = tmp_path / "report.html"
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", str(hyp), "-f", "html", "-o",
                           str(report), "--figures", str(report))
    assert_one_line_error(code, err, f"{report}: --figures names the same path as another output")
    details = tmp_path / "d.jsonl"
    code, _, err = run_cli(capsys, "run", "winomt", "--lang", "de", "--input", str(hyp), "--details",
                           str(details), "--figures", str(tmp_path / "." / "d.jsonl"))
    assert_one_line_error(code, err, "--figures names the same path as another output")
    assert not report.exists() and not details.exists()


@pytest.mark.parametrize("to_stdout", [[], ["-o", "-"]], ids=["stdout", "dash"])
def test_stdout_carries_the_report_alone_whatever_a_library_writes(shared_data, tmp_path, to_stdout):
    """A native write to fd 1, a child process's output and a Python print during the run go to stderr; the JSON on
    stdout parses (they broke it before: ``--format json > out.json`` was corrupted the same way)."""
    from tests.support.cli_helpers import results_of
    from tests.support.stray_stdout import assert_report_alone, run_with_strays

    proc = run_with_strays(tmp_path / "cache", "run", "winomt-demo", "-l", "de", "-s", "demo", "--format", "json",
                           "-q", *to_stdout)
    assert proc.returncode == 0, proc.stderr
    assert [(r["lang"], r["n"]) for r in results_of(proc.stdout)] == [("de", 16)]
    assert_report_alone(proc)


def test_a_report_to_a_file_leaves_stdout_empty_and_a_failure_is_one_line(shared_data, tmp_path):
    from tests.support.cli_helpers import results_of
    from tests.support.stray_stdout import STRAYS, assert_report_alone, run_with_strays

    report = tmp_path / "report.json"
    proc = run_with_strays(tmp_path / "cache", "run", "winomt-demo", "-l", "de", "-s", "demo", "--format", "json",
                           "-q", "-o", str(report))
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    assert [(r["lang"], r["n"]) for r in results_of(report.read_text())] == [("de", 16)]
    assert_report_alone(proc)
    proc = run_with_strays(tmp_path / "cache", "run", "winomt-demo", "-l", "de", "-s", "demo", "--format", "json",
                           STRAY_FAIL="1")
    assert proc.returncode == 2 and proc.stdout == ""
    assert [line for line in proc.stderr.splitlines() if line not in STRAYS] == [
        "discotest: error: suite.txt:3: bad row"]
