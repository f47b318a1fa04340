"""A real llama.cpp server (``llama_cpp.server``, the serve-test extra) on a tiny GGUF model, and a recording proxy in
front of a server: the request log a test reads (which bodies the server was sent, in order), with a request that
can be held (the client is stopped while it waits) or answered with a server error. The server behind it answers
every request it forwards; nothing is mocked."""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.support.cli_helpers import SHUTDOWN_POLL, free_port, serving


@contextlib.contextmanager
def serve_gguf(model: str | Path, alias: str | Sequence[str], folder: Path, seconds: float = 120,
               module: str = "llama_cpp.server", port: int | None = None, **overrides: object) -> Iterator[str]:
    """``python -m llama_cpp.server`` on 127.0.0.1 with one GGUF file served as ``alias`` (one thread, prompt
    log-probabilities on); its base URL (``…/v1``), stopped after; its output in ``folder/server.log``. Several
    aliases: the server's config file lists the file once per alias (``/v1/models`` lists them all; it loads the
    first). ``overrides``: other server settings (``verbose=True`` logs llama.cpp's timings per request: the real-model
    bench reads its throughput there); ``module``: the server's module (the bench's ``bench.llm.llama_server_topk``);
    ``port``: a fixed one (a served model's answers are cached under its URL: the context-gains bench reruns free)."""
    port = port or free_port()
    settings = {"n_ctx": 1024, "n_threads": 1, "n_threads_batch": 1, "logits_all": True, "verbose": False,
                **overrides}
    if isinstance(alias, str):
        command = [sys.executable, "-m", module, "--model", str(model), "--model_alias", alias,
                   *(x for key, value in settings.items() for x in (f"--{key}", str(value).lower())),
                   "--host", "127.0.0.1", "--port", str(port)]
    else:
        config = folder / "server.json"
        config.write_text(json.dumps({"host": "127.0.0.1", "port": port, "models": [
            {"model": str(model), "model_alias": name, **settings} for name in alias]}), "utf-8")
        command = [sys.executable, "-m", module, "--config_file", str(config)]
    with serving(command, f"http://127.0.0.1:{port}/v1", folder / "server.log", seconds=seconds) as url:
        yield url


class RecordingProxy:
    """An HTTP proxy to ``upstream`` (a ``…/v1`` URL) recording every POST body it forwards (``forwarded``, in order).

    ``hold_at``: the n-th POST (1-based) is not forwarded: ``held`` is set and the handler waits until ``release()``
    (``forward=True``: then forwards it; else drops the connection), so a test can stop the client while its request
    is under way. ``fail``: a POST body for which it answers 500 (with ``Retry-After: 0``) instead of forwarding.
    ``seconds``: how long the server took over each forwarded POST (its busy time, one request at a time)."""

    def __init__(self, upstream: str, hold_at: int | None = None, fail: Callable[[dict], bool] | None = None):
        self.upstream = upstream.rstrip("/").removesuffix("/v1")
        self.hold_at, self.fail = hold_at, fail
        self.forwarded: list[bytes] = []
        self.seconds: list[float] = []
        self.exchanges: list[tuple[bytes, bytes]] = []  # (request body, the server's answer) of each forwarded POST
        self.failed: list[bytes] = []
        self.posts = 0
        self.held = threading.Event()
        self.held_body: bytes | None = None
        self._release = threading.Event()
        self._forward_held = False
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL},
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> RecordingProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()

    def release(self, forward: bool = False) -> None:
        self._forward_held = forward
        self._release.set()

    def bodies(self) -> list[dict]:
        return [json.loads(b) for b in self.forwarded]

    def _forward(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes, str]:
        request = urllib.request.Request(self.upstream + path, data=body, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=600) as answer:  # noqa: S310 - 127.0.0.1
                return answer.status, answer.read(), answer.headers.get("Content-Type", "application/json")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), exc.headers.get("Content-Type", "application/json")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def _answer(self, status: int, payload: bytes, kind: str = "application/json", **headers: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self._answer(*proxy._forward("GET", self.path, None))

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with proxy._lock:
                    proxy.posts += 1
                    number = proxy.posts
                if proxy.fail is not None and proxy.fail(json.loads(body)):
                    proxy.failed.append(body)
                    message = json.dumps({"error": {"message": "proxy: a server error for this suite"}}).encode()
                    self._answer(500, message, **{"Retry-After": "0"})
                    return
                if number == proxy.hold_at:
                    proxy.held_body = body
                    proxy.held.set()
                    proxy._release.wait()
                    if not proxy._forward_held:
                        self.close_connection = True
                        return
                with proxy._lock:
                    proxy.forwarded.append(body)
                started = time.perf_counter()
                answer = proxy._forward("POST", self.path, body)
                with proxy._lock:
                    proxy.seconds.append(time.perf_counter() - started)
                    proxy.exchanges.append((body, answer[1]))
                self._answer(*answer)

        return Handler
