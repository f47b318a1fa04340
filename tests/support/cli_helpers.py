"""Running the CLI in-process and checking its one-line errors: shared by the CLI error and output tests; starting a
real OpenAI-compatible server on 127.0.0.1 for the ``--endpoint`` tests."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import socketserver
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from discotest.cli import main


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# How often a test's in-process server looks whether it is told to stop: ``serve_forever``'s default (0.5 s) was
# half a second of idle teardown for every test with such a server (the durations list of 2026-11-29)
SHUTDOWN_POLL = 0.02


@contextlib.contextmanager
def serve_in_thread(server: socketserver.BaseServer) -> Iterator[socketserver.BaseServer]:
    """``server`` serving from a daemon thread until the block ends, then shut down and closed without the
    half-second wait of ``serve_forever``'s default poll."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def serving(command: list[str], url: str, log: Path, seconds: float = 240) -> Iterator[str]:
    """Run a server ``command`` (output to ``log``) until ``url/models`` lists a model, yield ``url``, stop it after;
    a server that exits or is not up within ``seconds`` fails the test with the end of its log."""
    import pytest

    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, "HF_HUB_OFFLINE": "1"})
    try:
        deadline = time.monotonic() + seconds
        while True:
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=5) as answer:
                    if json.loads(answer.read()).get("data"):
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{command[0]} {command[1]} {command[2]} did not start: {log.read_text()[-2000:]}")
            time.sleep(0.1)  # a tiny model's server is up in seconds: a finer poll finds it sooner
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``discotest ARGS``; an argparse error ends with its status, as on a shell."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def same_bytes_twice(capsys, *args: str) -> dict:
    """``discotest ARGS`` (a ``--format json`` run) twice in this process: both succeed with the same stdout; the
    report's first result."""
    outputs = []
    for _ in range(2):
        code, out, err = run_cli(capsys, *args)
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1]  # the same bytes twice
    return json.loads(outputs[0])["results"][0]


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Exit status 2 and exactly one stderr line, ``discotest: error: …``, holding every fragment."""
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("discotest: error: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def results_of(text: str) -> list[dict]:
    """The results of a ``--format json`` report (the one schema: ``{"discotest", "results": [...], …}``)."""
    import json

    return json.loads(text)["results"]


def one_result(text: str) -> dict:
    """The only result of a ``--format json`` report."""
    (result,) = results_of(text)
    return result


def valid_report(report: str | dict) -> dict:
    """A ``--format json`` report (text or parsed), checked against the one schema (``report/schema.json``)."""
    import json
    from importlib import resources

    import jsonschema

    doc = json.loads(report) if isinstance(report, str) else report
    jsonschema.validate(doc, json.loads(resources.files("discotest.report").joinpath("schema.json").read_text("utf-8")))
    for result in doc["results"]:  # each field once: a component must not repeat what the base adds
        keys = [field.split(":", 1)[0] for field in result["signature"].split("|")]
        assert len(keys) == len(set(keys)), result["signature"]
    return doc
