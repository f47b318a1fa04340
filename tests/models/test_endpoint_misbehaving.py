"""Issue 40 item 7, "served models that misbehave": a real standard-library HTTP server on 127.0.0.1 that misbehaves
on purpose. A server that never answers ends a run after ``--timeout`` per attempt and twice that per request (one
line, not 120 s × 5); a connection closed in the middle of an answer (``http.client.IncompleteRead``) is retried,
then one line, never a traceback; an empty translation is refused and nothing is written; prompt log-probabilities
of the wrong length or null are refused before any score is read. The API key is in no output."""

from __future__ import annotations

import http.server
import json
import re
import time

import pytest

from discotest.errors import InputError
from discotest.models.endpoint import EndpointClient, EndpointScorer
from tests.support.cli_helpers import assert_one_line_error, run_cli, serve_in_thread
from tests.support.files import jazp_file

KEY = "sk-misbehaving-never-written-77"


def _echo(text: str, mode: str) -> dict:
    """An OpenAI completions echo of ``text``, one token per word (its leading space kept), every log-probability
    -1 (the first None); ``mode`` spoils it as a broken server would."""
    tokens = re.findall(r"\s*\S+|\s+", text)
    offsets = [sum(len(t) for t in tokens[:k]) for k in range(len(tokens))]
    values: list = [None] + [-1.0] * (len(tokens) - 1)
    if mode == "short" and "cat" not in text:  # the probe answers well: the candidate's echo does not
        values = values[:-1]
    if mode == "null" and "cat" not in text:
        values = [None] * len(tokens)
    tops = [None] + [{"x": -1.0}] * (len(tokens) - 1)
    return {"choices": [{"text": text, "logprobs": {"tokens": tokens, "token_logprobs": values,
                                                    "text_offset": offsets, "top_logprobs": tops}}]}


class _Misbehaving(http.server.BaseHTTPRequestHandler):
    mode = "ok"
    posts = 0
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 - http.server's name
        self._send({"data": [{"id": "m"}]})

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        type(self).posts += 1
        if self.mode == "hang":
            time.sleep(3)
            return self._send({"choices": [{"message": {"content": "Zu spät."}}]})
        if self.mode == "cut":  # promises 1000 bytes, sends 20, closes
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"choices": [{"messa')
            self.wfile.flush()
            self.close_connection = True
            return None
        if self.path.endswith("/chat/completions"):
            content = "<think>nothing</think>" if self.mode == "empty" else "Hallo."
            return self._send({"choices": [{"message": {"content": content}}]})
        return self._send(_echo(body.get("prompt", ""), self.mode))

    def _send(self, body: dict):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class _Quiet(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # the hanging handler writes to a client that gave up: expected here


@pytest.fixture
def server(monkeypatch, tmp_path):
    monkeypatch.setenv("DISCOTEST_API_KEY", KEY)
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    httpd = _Quiet(("127.0.0.1", 0), _Misbehaving)
    httpd.daemon_threads = True
    _Misbehaving.mode, _Misbehaving.posts = "ok", 0
    with serve_in_thread(httpd):
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"


def _source(tmp_path) -> str:
    path = tmp_path / "en.txt"
    path.write_text("He left.\nShe came.\n", "utf-8")
    return str(path)


def test_a_server_that_never_answers_ends_within_the_bound(server, tmp_path, capsys):
    _Misbehaving.mode = "hang"
    out = tmp_path / "out.txt"
    started = time.monotonic()
    code, _, err = run_cli(capsys, "-q", "translate", "--input", _source(tmp_path), "--lang", "de", "--endpoint",
                           server, "--timeout", "0.4", "--concurrency", "1", "-o", str(out))
    took = time.monotonic() - started
    assert_one_line_error(code, err, "/v1/chat/completions: no answer after", "no answer within the timeout",
                          "--timeout 0.4 s per attempt, 0.8 s per request")
    assert took < 2.5 and not out.exists() and KEY not in err  # twice the timeout, not 120 s × 5
    code, _, err = run_cli(capsys, "-q", "translate", "--input", _source(tmp_path), "--lang", "de", "--endpoint",
                           server, "--timeout", "0", "-o", str(out))
    assert code == 2 and "--timeout" in err and err.count("\n") == 1


def test_a_connection_closed_mid_answer_is_retried_then_one_line(server):
    _Misbehaving.mode = "cut"
    waits: list[float] = []
    client = EndpointClient(server, retries=2, backoff=0.01, sleep=waits.append)
    with pytest.raises(InputError) as error:
        client.call("/chat/completions", {"model": "m"})
    assert _Misbehaving.posts == 3 and len(waits) == 2
    assert "no answer after 3 attempts" in error.value.one_line()
    assert "the connection closed in the middle of the answer (20 bytes read, 980 more expected)" in \
        error.value.one_line()


def test_an_empty_translation_is_refused_and_nothing_written(server, tmp_path, capsys):
    _Misbehaving.mode = "empty"
    out = tmp_path / "out.txt"
    code, _, err = run_cli(capsys, "-q", "translate", "--input", _source(tmp_path), "--lang", "de", "--endpoint",
                           server, "-o", str(out))
    assert_one_line_error(code, err, "(model m): an empty translation (answer '<think>nothing</think>')",
                          "nothing was written")
    assert not out.exists() and KEY not in err
    _Misbehaving.mode = "ok"
    code, _, err = run_cli(capsys, "-q", "translate", "--input", _source(tmp_path), "--lang", "de", "--endpoint",
                           server, "-o", str(out))
    assert code == 0 and out.read_text("utf-8") == "Hallo.\nHallo.\n"  # the refusal was not cached


@pytest.mark.parametrize(("mode", "said"), [
    ("short", "prompt log-probabilities do not fit their tokens ("),
    ("null", "prompt log-probabilities hold None for the candidate's token"),
])
def test_prompt_logprobs_that_do_not_fit_the_request_are_refused(server, tmp_path, capsys, mode, said):
    _Misbehaving.mode = "ok"
    scorer = EndpointScorer(server, use_cache=False, quiet=True)
    total, count = scorer.one("Text\nEnglish:", "He came.")
    assert (total, count) == (-2.0, 2)  # a well-behaved echo is read
    _Misbehaving.mode = mode
    code, _, err = run_cli(capsys, "-q", "run", "jazp", "--suite-file", jazp_file(tmp_path), "--endpoint", server)
    assert_one_line_error(code, err, f"{server.removesuffix('/v1')}/v1/completions: its ", said,
                          "refusing to score")
    assert KEY not in err
