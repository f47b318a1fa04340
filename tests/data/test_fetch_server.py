"""``data fetch`` against a real HTTP server on 127.0.0.1 (http.server in a thread; urllib's own responses, no
mock): a symbolic link in the data directory is never written through, a body bigger than the registry's size or
``--max-size`` is stopped, a trickling server meets the overall deadline, and the body is hashed as it streams
(memory stays flat)."""

from __future__ import annotations

import hashlib
import http.server
import time
import tracemalloc
from collections.abc import Iterator

import pytest

from discotest.cli import main
from discotest.data import catalogue
from discotest.errors import InputError
from tests.support.cli_helpers import serve_in_thread

PAYLOAD = b"The nurse said she left.\n" * 40


class _Handler(http.server.BaseHTTPRequestHandler):
    """/file: PAYLOAD; /huge-announced: claims 3 GB; /endless: no length, 1 MB chunks forever; /trickle: one byte
    every 0.1 s; /big: 40 MB with its length."""

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        try:
            if self.path == "/file":
                self._head(len(PAYLOAD))
                self.wfile.write(PAYLOAD)
            elif self.path == "/huge-announced":
                self._head(3_000_000_000)
                self.wfile.write(b"x" * 1000)
            elif self.path == "/endless":
                self._head(None)
                chunk = b"y" * 2**20
                for _ in range(200):
                    self.wfile.write(chunk)
            elif self.path == "/trickle":
                self._head(10_000)
                for _ in range(100):
                    self.wfile.write(b"z")
                    self.wfile.flush()
                    time.sleep(0.1)
            elif self.path == "/big":
                self._head(40 * 2**20)
                chunk = b"b" * 2**20
                for _ in range(40):
                    self.wfile.write(chunk)
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should

    def _head(self, length: int | None) -> None:
        self.send_response(200)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    with serve_in_thread(httpd):
        yield f"http://127.0.0.1:{httpd.server_address[1]}"


def _source(monkeypatch, url: str, sha256: str = "", size: int | None = None, path: str = "fake/a.txt") -> str:
    monkeypatch.setitem(catalogue.SOURCES, "fake", catalogue.Source("fake", "suite", "fake", "", url, sha256, path,
                                                                  size=size))
    return "fake"


def test_a_link_in_the_data_directory_is_replaced_not_written_through(server, tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim, victim_pin = outside / "victim.txt", outside / "new.sha256"
    victim.write_text("mine\n")
    data = tmp_path / "data"
    (data / "fake").mkdir(parents=True)
    (data / "fake" / "a.txt").symlink_to(victim)
    (data / "fake" / "a.txt.sha256").symlink_to(victim_pin)  # dangling: following it would create a file outside
    path = catalogue.fetch(_source(monkeypatch, f"{server}/file"), data)
    assert victim.read_text() == "mine\n" and not victim_pin.exists()  # untouched, not created
    assert not path.is_symlink() and path.read_bytes() == PAYLOAD
    pin = data / "fake" / "a.txt.sha256"
    assert not pin.is_symlink() and pin.read_text() == hashlib.sha256(PAYLOAD).hexdigest() + "\n"
    assert not list((data / "fake").glob(".*part"))  # no temporary file left


def test_a_linked_folder_in_the_data_directory_is_refused(server, tmp_path, monkeypatch, capsys):
    outside = tmp_path / "outside"
    outside.mkdir()
    data = tmp_path / "data"
    data.mkdir()
    (data / "fake").symlink_to(outside, target_is_directory=True)
    _source(monkeypatch, f"{server}/file")
    assert main(["--data-dir", str(data), "data", "fetch", "fake"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{data / 'fake'}: is a symbolic link (to {outside})" in err
    assert list(outside.iterdir()) == []


def test_size_caps(server, tmp_path, monkeypatch):
    with pytest.raises(InputError, match=r"announces 3.0 GB, more than 250.0 MB \(the limit; raise it with "):
        catalogue.fetch(_source(monkeypatch, f"{server}/huge-announced"), tmp_path)
    with pytest.raises(InputError, match=r"passed 5.0 MB \(the limit; raise it with --max-size\); stopped"):
        catalogue.fetch(_source(monkeypatch, f"{server}/endless"), tmp_path,
                       limits=catalogue.Limits(max_size=5_000_000))
    digest = hashlib.sha256(PAYLOAD).hexdigest()
    with pytest.raises(InputError, match=r"announces 1.0 kB, more than 999 B \(the registry's size"):
        catalogue.fetch(_source(monkeypatch, f"{server}/file", digest, size=len(PAYLOAD) - 1), tmp_path)
    assert catalogue.fetch(_source(monkeypatch, f"{server}/file", digest, size=len(PAYLOAD)), tmp_path).is_file()
    assert not list((tmp_path / "fake").glob(".*part"))


def test_a_trickling_server_meets_the_deadline(server, tmp_path, monkeypatch, capsys):
    _source(monkeypatch, f"{server}/trickle")
    started = time.monotonic()
    assert main(["--data-dir", str(tmp_path), "data", "fetch", "fake", "--deadline", "1", "--timeout", "5"]) == 2
    assert time.monotonic() - started < 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "still running after 1 s" in err and "raise --deadline" in err
    assert not (tmp_path / "fake" / "a.txt").exists() and not list((tmp_path / "fake").glob(".*part"))


def test_the_body_streams_to_disk(server, tmp_path, monkeypatch):
    """40 MB through fetch with Python's allocations traced: the peak stays a few chunk sizes, not the body."""
    tracemalloc.start()
    try:
        path = catalogue.fetch(_source(monkeypatch, f"{server}/big"), tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert path.stat().st_size == 40 * 2**20
    assert peak < 8 * 2**20, peak
    assert (tmp_path / "fake" / "a.txt.sha256").read_text().strip() == hashlib.sha256(b"b" * 40 * 2**20).hexdigest()


def test_cli_fetch_through_the_server(server, tmp_path, monkeypatch, capsys):
    _source(monkeypatch, f"{server}/file")
    assert main(["--data-dir", str(tmp_path), "data", "fetch", "fake", "--timeout", "5", "--max-size", "1"]) == 0
    assert f"pinned sha256 {hashlib.sha256(PAYLOAD).hexdigest()}" in capsys.readouterr().out
    _source(monkeypatch, f"{server}/missing")
    assert main(["--data-dir", str(tmp_path / "b"), "data", "fetch", "fake"]) == 2
    assert "HTTP 404" in capsys.readouterr().err


def test_a_trickling_server_is_stopped_without_a_deadline(server, tmp_path, monkeypatch, capsys):
    """Issue 40 item 8: with the default deadline (30 minutes) a server trickling a byte at a time held a fetch that
    long; the default minimum rate stops it once --timeout seconds have passed."""
    _source(monkeypatch, f"{server}/trickle")  # 10 bytes a second
    started = time.monotonic()
    assert main(["--data-dir", str(tmp_path), "data", "fetch", "fake", "--timeout", "1"]) == 2
    assert time.monotonic() - started < 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is too slow: " in err and "under 1.0 kB/s; lower --min-rate" in err
    assert not (tmp_path / "fake" / "a.txt").exists() and not list((tmp_path / "fake").glob(".*part"))
