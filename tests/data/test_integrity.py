"""Data integrity: a registry file that differs from its pinned sha256 is never used silently, the hash memo,
the ``files:`` signature field, and clean errors from ``data fetch`` (fake openers, no network)."""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import os
import threading
import urllib.error
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.data import catalogue
from discotest.errors import InputError
from tests.support.cli_helpers import one_result, results_of


def _link(shared: Path, root: Path, *names: str) -> None:
    """Symlink registry files of the shared data into a data dir of our own."""
    for name in names:
        rel = catalogue.get_source(name).usable_path
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(shared / rel)


def _flipped_winomt(shared: Path, root: Path, n: int = 400) -> Path:
    """The reported defect: a copy of WinoMT with the first ``n`` gold genders flipped."""
    rel = catalogue.get_source("winomt").path
    swap = {"male": "female", "female": "male"}
    lines = (shared / rel).read_text("utf-8").splitlines(keepends=True)
    out = []
    for i, line in enumerate(lines):
        gold, rest = line.split("\t", 1)
        out.append(f"{swap.get(gold, gold) if i < n else gold}\t{rest}")
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("".join(out), "utf-8")
    return root / rel


@pytest.fixture
def fresh_memo(tmp_path, monkeypatch):
    """An empty hash memo in a cache dir of the test's own."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(catalogue, "_memo", None)
    monkeypatch.delenv(catalogue.ALLOW_MODIFIED_ENV, raising=False)
    return tmp_path / "cache" / catalogue.MEMO_NAME


# -- never used silently ------------------------------------------------------------------------------------------


def test_run_refuses_a_modified_suite_in_one_line(shared_data, tmp_path, capsys, fresh_memo):
    root = tmp_path / "data"
    path = _flipped_winomt(shared_data, root)
    _link(shared_data, root, "winomt-pro", "winomt-anti", "winomt-google-de")
    assert catalogue.verify("winomt", root)[0] == "mismatch"
    code = main(["--data-dir", str(root), "-q", "run", "winomt", "--lang", "de", "--system", "google"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"discotest: error: {path}: ")
    assert "'winomt'" in err and "discotest data verify" in err and "--allow-modified-data" in err


def test_modified_suite_with_the_flag_runs_and_says_so(shared_data, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(catalogue.ALLOW_MODIFIED_ENV, raising=False)  # the environment's cache: alignments reused
    root = tmp_path / "data"
    path = _flipped_winomt(shared_data, root)
    _link(shared_data, root, "winomt-pro", "winomt-anti", "winomt-google-de")
    argv = ["-q", "run", "winomt", "--lang", "de", "--system", "google", "--format", "json"]
    assert main(["--data-dir", str(root), "--allow-modified-data", *argv]) == 0
    modified = one_result(capsys.readouterr().out)
    own = hashlib.sha256(path.read_bytes()).hexdigest()[:8]
    assert f",modified=winomt@{own}" in modified["signature"]
    assert catalogue.ALLOW_MODIFIED_ENV not in os.environ  # the flag lasts one command
    assert main(["--data-dir", str(shared_data), *argv]) == 0
    pristine = one_result(capsys.readouterr().out)
    assert "modified" not in pristine["signature"] and "files:" in pristine["signature"]
    assert pristine["scores"]["accuracy"] != modified["scores"]["accuracy"]
    assert pristine["signature"] != modified["signature"]


def test_contrastive_suite_modified_byte(shared_data, tmp_path, capsys, fresh_memo):
    root = tmp_path / "data"
    rel = catalogue.get_source("bawden-anaphora").path
    data = bytearray((shared_data / rel).read_bytes())
    data[data.index(b"the")] = ord("T")  # one byte
    (root / rel).parent.mkdir(parents=True)
    (root / rel).write_bytes(bytes(data))
    scores = tmp_path / "scores.txt"
    scores.write_text("".join(f"{i % 3}\n" for i in range(400)))
    argv = ["run", "bawden-anaphora", "--scores", str(scores), "--format", "json", "--data-dir", str(root)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(root / rel) in err and "discotest data verify" in err
    assert main([*argv, "--allow-modified-data"]) == 0
    signature = results_of(capsys.readouterr().out)[0]["signature"]
    assert f"modified=bawden-anaphora@{hashlib.sha256(bytes(data)).hexdigest()[:8]}" in signature


def test_locate_records_status_and_the_field(shared_data, tmp_path, fresh_memo, monkeypatch):
    root = tmp_path / "data"
    _link(shared_data, root, "winomt-pro")
    _flipped_winomt(shared_data, root, n=1)
    with catalogue.tracking() as seen:
        catalogue.locate("winomt-pro", root)
        with pytest.raises(InputError, match="differs from its pinned sha256"):
            catalogue.locate("winomt", root)
    assert [c.status for c in seen.values()] == ["ok"]
    pristine = catalogue.data_field(seen)
    assert pristine[0] == "files" and len(pristine[1]) == 8
    monkeypatch.setenv(catalogue.ALLOW_MODIFIED_ENV, "1")
    with catalogue.tracking() as seen:
        catalogue.locate("winomt-pro", root)
        catalogue.locate("winomt", root)
    assert seen["winomt"].status == "modified"
    assert catalogue.data_field(seen)[1].startswith(catalogue.data_field(seen)[1][:8] + ",modified=winomt@")
    assert catalogue.data_field({}) == ("files", "none")


def test_pin_on_first_use_and_unpinned_files(tmp_path, fresh_memo):
    root = tmp_path / "data"
    source = catalogue.get_source("winox-de")  # no published checksum
    path = root / source.path
    path.parent.mkdir(parents=True)
    path.write_text('{"a": 1}\n')
    with catalogue.tracking() as seen:
        catalogue.locate("winox-de", root)  # put by hand, no pin: usable, but not as pristine
    assert seen["winox-de"].status == "unpinned"
    assert ",unpinned=winox-de@" in catalogue.data_field(seen)[1]
    pin = root / (source.path + catalogue.PIN_SUFFIX)
    pin.write_text(hashlib.sha256(path.read_bytes()).hexdigest() + "\n")
    with catalogue.tracking() as seen:
        catalogue.locate("winox-de", root)
    assert seen["winox-de"].status == "ok" and "," not in catalogue.data_field(seen)[1]
    path.write_text('{"a": 2}\n')
    with pytest.raises(InputError, match="discotest data verify"):
        catalogue.locate("winox-de", root)


def test_a_file_read_in_another_thread_is_not_tracked_here(shared_data, tmp_path, fresh_memo):
    """Another thread reads a suite while this run tracks its own files: what that thread reads is not in this run's
    signature, and what it reads inside its own block is in its own."""
    root = tmp_path / "data"
    _link(shared_data, root, "winomt-pro")
    _link(shared_data, root, "wmt22-zh-en-src")
    theirs: dict = {}

    def other_thread() -> None:
        with catalogue.tracking() as seen:
            catalogue.locate("wmt22-zh-en-src", root)
        theirs.update(seen)

    with catalogue.tracking() as mine:
        catalogue.locate("winomt-pro", root)
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
    assert list(mine) == ["winomt-pro"] and list(theirs) == ["wmt22-zh-en-src"]


def test_check_file_inside_and_outside_the_data_dir(shared_data, tmp_path, fresh_memo):
    root = tmp_path / "data"
    _link(shared_data, root, "wmt22-zh-en-src")
    own = root / "wmt22_general" / "txt" / "sources" / "generaltest2022.xx-en.src.xx"
    own.write_text("hand-made\n")
    outside = tmp_path / "mine.txt"
    outside.write_text("x\n")
    with catalogue.tracking() as seen:
        catalogue.check_file(root / catalogue.get_source("wmt22-zh-en-src").path, root)
        catalogue.check_file(own, root)
        catalogue.check_file(outside, root)
    assert seen["wmt22-zh-en-src"].status == "ok"
    assert seen["wmt22_general/txt/sources/generaltest2022.xx-en.src.xx"].status == "unpinned"
    assert len(seen) == 2  # the user's own file is not data-dir data


def test_probes_do_not_skip_a_modified_output(shared_data, tmp_path, fresh_memo):
    """Looking for published outputs as aligner text: a missing one is skipped, a modified one is an error."""
    from discotest.gender.published import available_published

    root = tmp_path / "data"
    _link(shared_data, root, "winomt-google-de")
    rel = catalogue.get_source("winomt-bing-de").usable_path
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("changed\n")
    with pytest.raises(InputError, match="winomt-bing-de"):
        available_published("de", root)
    (root / rel).unlink()
    assert available_published("de", root) == ["google"]


# -- the hash memo ------------------------------------------------------------------------------------------------


def test_memo_skips_rehashing_until_the_file_changes(tmp_path, fresh_memo, monkeypatch):
    calls = []
    real = catalogue._hash_file
    monkeypatch.setattr(catalogue, "_hash_file", lambda path: calls.append(path) or real(path))
    path = tmp_path / "file.txt"
    path.write_text("abc\n")
    first = catalogue.sha256_of(path)
    assert first == hashlib.sha256(b"abc\n").hexdigest() and catalogue.sha256_of(path) == first
    assert len(calls) == 1 and fresh_memo.is_file()
    monkeypatch.setattr(catalogue, "_memo", None)  # a new process: the memo file is read back
    assert catalogue.sha256_of(path) == first and len(calls) == 1
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # touch
    assert catalogue.sha256_of(path) == first and len(calls) == 2
    path.write_text("abcd\n")  # resize
    assert catalogue.sha256_of(path) == hashlib.sha256(b"abcd\n").hexdigest() and len(calls) == 3


def test_memo_survives_a_broken_memo_file(tmp_path, fresh_memo):
    fresh_memo.parent.mkdir(parents=True)
    fresh_memo.write_text("{not json")
    path = tmp_path / "file.txt"
    path.write_text("abc\n")
    assert catalogue.sha256_of(path) == hashlib.sha256(b"abc\n").hexdigest()
    assert str(path.resolve()) in json.loads(fresh_memo.read_text())


# -- data fetch ---------------------------------------------------------------------------------------------------


class Response(io.BytesIO):
    def __init__(self, payload: bytes, length: int | None = None):
        super().__init__(payload)
        self.headers = {} if length is None else {"Content-Length": str(length)}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _fetch_error(tmp_path, opener, name: str = "winomt") -> str:
    with pytest.raises(InputError) as err:
        catalogue.fetch(name, tmp_path, opener=opener)
    assert not (tmp_path / catalogue.get_source(name).path).exists()
    return err.value.one_line()


def test_fetch_passes_the_timeout_and_reports_one(tmp_path):
    seen = {}

    def opener(url, timeout):
        seen["timeout"] = timeout
        raise TimeoutError("timed out")

    message = _fetch_error(tmp_path, opener)
    assert seen["timeout"] == catalogue.FETCH_SILENCE and "timed out" in message and "\n" not in message

    def connect_timeout(url, timeout):
        raise urllib.error.URLError(TimeoutError("timed out"))

    assert "timed out (no answer in 60 s)" in _fetch_error(tmp_path, connect_timeout)


def test_fetch_truncated_download(tmp_path):
    def short(url, timeout):
        return Response(b"half a file", length=5000)

    assert "cut off: 11 of 5000 bytes" in _fetch_error(tmp_path, short)

    class Broken(Response):
        def read(self, *args):
            raise http.client.IncompleteRead(b"12345", 100)

        read1 = read

    assert "cut off after 5 bytes" in _fetch_error(tmp_path, lambda url, timeout: Broken(b""))


def test_fetch_http_error(tmp_path):
    def not_found(url, timeout):
        raise urllib.error.HTTPError(url, 404, "Not Found", {}, None)

    message = _fetch_error(tmp_path, not_found)
    assert "HTTP 404 Not Found" in message and catalogue.get_source("winomt").url in message


def test_fetch_non_zip_archive_pinned_on_first_use(tmp_path, monkeypatch):
    archive = catalogue.Source("fake-zip", "suite", "fake", "", "https://example.org/a.zip", "", "fake/a.zip",
                              extract=catalogue.Extract("a.txt", "fake/a.txt", "0" * 64))
    monkeypatch.setitem(catalogue.SOURCES, "fake-zip", archive)
    message = _fetch_error(tmp_path, lambda url, timeout: Response(b"<html>rate limited</html>"), "fake-zip")
    assert "not a zip archive" in message and not (tmp_path / "fake/a.zip.sha256").exists()


def test_cli_fetch_prints_the_pin_and_one_line_errors(tmp_path, capsys, monkeypatch):
    payload = b'{"sentence": "x"}\n'
    waits = []
    monkeypatch.setattr("urllib.request.urlopen", lambda url, timeout: waits.append(timeout) or Response(
        payload, len(payload)))
    assert main(["--data-dir", str(tmp_path), "data", "fetch", "winox-de", "--silence", "5"]) == 0
    out, err = capsys.readouterr()
    assert f"pinned sha256 {hashlib.sha256(payload).hexdigest()}" in out and waits == [5.0] and not err
    monkeypatch.setattr("urllib.request.urlopen", lambda url, timeout: Response(b"x", 10))
    assert main(["--data-dir", str(tmp_path), "data", "fetch", "winomt"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("discotest: error: ") and "cut off: 1 of 10 bytes" in err


def test_a_table_of_systems_shows_one_signature_per_group_and_keeps_modified_marks():
    from discotest.report.result import Signature, grouped_signatures

    def sig(system: str, lang: str, files: str) -> Signature:
        return Signature((("suite", "winomt"), ("lang", lang), ("system", system), ("files", files)))

    same = grouped_signatures([sig("google", "de", "aaaa1111"), sig("bing", "de", "aaaa1111")], "system")
    assert same == ["suite:winomt|lang:de|system:*|files:aaaa1111"]
    merged = grouped_signatures([sig("google", "de", "aaaa1111"), sig("bing", "de", "bbbb2222,modified=x@12345678"),
                                 sig("google", "fr", "cccc3333")], "system")
    assert len(merged) == 2  # one per language
    assert merged[0].startswith("suite:winomt|lang:de|system:*|files:") and merged[0].endswith(",modified=x@12345678")
    assert "aaaa1111" not in merged[0]  # a hash over both systems' files, not either one's
    assert grouped_signatures([sig("google", "de", "aaaa1111")], "system") == [
        "suite:winomt|lang:de|system:google|files:aaaa1111"]


def test_fetch_timeout_is_the_deprecated_name_of_silence(tmp_path, capsys, monkeypatch):
    """``data fetch --timeout`` (``timeout=`` in Python), the old name of ``--silence``: still the silence limit, with
    one line (a FutureWarning in Python) saying so; given beside a different ``--silence``, a one-line error; not in
    ``--help``, where ``--silence`` is."""
    from discotest import api
    from discotest.registry.commands import TIMEOUT_RENAMED

    payload = b'{"sentence": "x"}\n'
    waits = []
    monkeypatch.setattr("urllib.request.urlopen", lambda url, timeout: waits.append(timeout) or Response(
        payload, len(payload)))
    assert main(["--data-dir", str(tmp_path), "data", "fetch", "winox-de", "--timeout", "7"]) == 0
    err = capsys.readouterr().err
    assert waits == [7.0] and err == f"discotest: warning: {TIMEOUT_RENAMED}\n" and "--silence" in err
    with pytest.warns(FutureWarning, match="--timeout is now --silence"):
        api.data_fetch(["winox-de"], data_dir=str(tmp_path / "python"), timeout=3)  # not fetched there yet
    assert waits == [7.0, 3.0]
    with pytest.raises(InputError, match=r"give --silence only \(--timeout is its old name\)"):
        api.data_fetch(["winox-de"], data_dir=str(tmp_path), timeout=3, silence=9)
    with pytest.raises(SystemExit):
        main(["data", "fetch", "--help"])
    shown = capsys.readouterr().out
    assert "--silence SECONDS" in shown and "--timeout" not in shown
