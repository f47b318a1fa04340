"""The card of a served model is interruptible (issue 37): ``discotest card --endpoint`` stopped with ``kill -9`` or
Ctrl-C while a request is under way, then run again, asks the server nothing it had answered and prints a card
byte-identical to an uninterrupted one's, whether it was scoring or translating; a suite whose requests the server
fails fails its row in one line and the others finish. The card asks the server what the rows' own runs ask, in
their order.
Without ``--model`` the card is named (and cached) after the model the server lists.

The server is the real llama.cpp one (the serve-test extra) on a tiny Llama 3.1 whose real tokenizer is cut to its
first 512 tokens (``small_llama_server`` in tests/conftest.py): these tests check orchestration, not the tokenizer
family (tests/models/test_served_scoring.py serves the full Llama 3.1, Gemma 3 and Qwen3 ones), and
llama-cpp-python sorts the whole vocabulary in Python for every echoed token (~0.7 s a token at 128k, nothing at
517). Behind a recording proxy (tests/support/served.py) whose log of forwarded request bodies is the server's request
log. The card runs as a subprocess (a killed process keeps nothing but its cache): jazp's quick look of 2 items (4
candidates) with a short request template."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("gguf")
pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] (the serve-test extra) is not installed")

from discotest.models.endpoint import ALIGNMENT_PROBE  # noqa: E402
from tests.support.served import RecordingProxy, serve_gguf  # noqa: E402
from tests.support.tiny_gguf import write_tiny_gguf  # noqa: E402

ALIAS = "tiny-llama3_1"
STOP_WITHIN = 600  # seconds the held request waits for the card to reach it (a busy machine's worst)


@pytest.fixture(scope="module")
def llama_server(small_llama_server):
    """The tiny Llama 3.1 of 517 tokens served (tests/conftest.py; BOS added: its echo passes the alignment probe)."""
    return small_llama_server


@pytest.fixture(scope="module")
def prompt(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("prompt") / "short.j2"
    path.write_text("{{ source }}", "utf-8")
    return path


def _card(url: str, prompt: Path, cache: Path, suites: str = "jazp", limit: int = 2,
          pairs: str = "ja-en") -> subprocess.Popen:
    """``discotest card`` for the served model (a quick look of ja-en rows, one request at a time) in a process of
    its own."""
    command = [sys.executable, "-m", "discotest", "card", "--endpoint", url, "--model", ALIAS, "--pairs", pairs,
               "--suites", suites, "--limit", str(limit), "--context", "0", "--prompt", str(prompt),
               "--concurrency", "1", "--format", "json", "-q"]
    # Ctrl-C reaches the card as it reaches a user's: a test run started in the background (``cmd &`` without job
    # control, as CI scripts are) ignores SIGINT, and a child would inherit that and never see the signal
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "DISCOTEST_CACHE": str(cache)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509


def _finished(process: subprocess.Popen) -> tuple[int, bytes, bytes]:
    out, err = process.communicate(timeout=STOP_WITHIN)
    return process.returncode, out, err


@pytest.fixture(scope="module")
def uninterrupted(llama_server, prompt, tmp_path_factory) -> tuple[bytes, list[bytes]]:
    """The card run once, whole, in a cache of its own: its JSON and the request bodies the server was sent."""
    with RecordingProxy(llama_server) as proxy:
        code, out, err = _finished(_card(proxy.url, prompt, tmp_path_factory.mktemp("whole-cache")))
    assert code == 0, err.decode()
    assert json.loads(out)["rows"][0]["status"] == "ok"
    return out, list(proxy.forwarded)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_a_stopped_card_resumes_asking_nothing_twice_and_is_byte_identical(stop, llama_server, prompt,
                                                                           uninterrupted, tmp_path):
    """Stopped while the server holds the request after half of the candidates' (``kill -9``: the process keeps
    nothing but its cache; Ctrl-C: it ends with ``interrupted``), then the same command: between the two runs the
    server is sent each request of the uninterrupted run exactly once (the scores and the passed alignment probe come
    from the cache), and the card is byte for byte the uninterrupted one."""
    whole, asked = uninterrupted
    scoring = [i for i, body in enumerate(asked) if json.loads(body)["prompt"] not in ALIGNMENT_PROBE]
    assert len(scoring) == 4 and len(asked) == 6  # 2 items x 2 candidates, and the probe's two prompts
    hold_at = scoring[len(scoring) // 2] + 1  # the third candidate's request (1-based count of requests)
    cache = tmp_path / "cache"
    with RecordingProxy(llama_server, hold_at=hold_at) as proxy:
        card = _card(proxy.url, prompt, cache)
        assert proxy.held.wait(STOP_WITHIN), card.communicate()[1].decode()
        card.send_signal(stop)
        code, _, err = _finished(card)
        first = list(proxy.forwarded)
        assert first == asked[:hold_at - 1]  # the answered half; the held request never reached the server
        assert code == (-signal.SIGKILL if stop == signal.SIGKILL else 130)
        if stop == signal.SIGINT:
            assert err.decode().strip().splitlines() == ["discotest: interrupted"]
        proxy.forwarded.clear()
        code, out, err = _finished(_card(proxy.url, prompt, cache))
        again = list(proxy.forwarded)
    assert code == 0, err.decode()
    assert again == asked[hold_at - 1:]  # only what had not been answered, the held request first
    assert Counter(first + again) == Counter(asked) and len(set(asked)) == len(asked)
    assert out == whole


def test_a_suite_the_server_fails_fails_its_row_in_one_line_and_the_others_finish(llama_server, prompt, tmp_path):
    """The proxy answers 500 to every request of the BSD dialogue suite (its sources name the speaker, ``NAME：``, a
    full-width colon no jazp sentence has): that row fails with the server's one line after the client's retries, no
    later request of that suite is sent, and jazp's row is filled."""
    with RecordingProxy(llama_server, fail=lambda body: "：" in str(body.get("prompt"))) as proxy:
        code, out, err = _finished(_card(proxy.url, prompt, tmp_path / "cache", "jazp,bsd-zp-ja-en-test", 1))
    assert code == 1, err.decode()  # some row failed (docs/card.md, "Exit status")
    jazp, bsd = json.loads(out)["rows"]
    assert jazp["status"] == "ok" and jazp["lines"][0]["n"] == 1
    assert bsd["status"] == "failed" and "\n" not in bsd["reason"]
    assert "HTTP 500: proxy: a server error for this suite" in bsd["reason"] and "5 attempts" in bsd["reason"]
    assert len(proxy.failed) == 5 and len(set(proxy.failed)) == 1  # the first candidate, tried 5 times, then no more
    assert not any("：" in str(body.get("prompt")) for body in proxy.bodies())


def test_a_card_without_model_is_named_after_the_model_the_server_serves(llama_server, prompt, tmp_path,
                                                                        monkeypatch):
    """``--endpoint`` without ``--model``: the card asks the server which model it serves (``GET /v1/models``) and
    is named, and cached, after it: the same card with ``--model`` names the same model, so it reads every row back
    and the server is sent nothing more."""
    import discotest

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    options = dict(pairs="ja-en", suites="jazp", limit=1, context=[0], prompt_file=str(prompt), concurrency=1,
                   quiet=True)
    with RecordingProxy(llama_server) as proxy:
        unnamed = discotest.card(endpoint=proxy.url, **options)
        sent = len(proxy.forwarded)
        named = discotest.card(endpoint=proxy.url, model=ALIAS, **options)
        assert len(proxy.forwarded) == sent > 0  # the same cache fingerprint: nothing asked twice
    assert unnamed.system == ALIAS and unnamed.rows[0].status == "ok", unnamed.rows[0].reason
    assert f"card:{ALIAS}|kind:endpoint" in unnamed.signature()
    assert unnamed.to_json() == named.to_json()


def test_a_server_of_several_models_asks_for_model_in_one_line(tiny_llms, prompt, tmp_path, capsys):
    """A server that lists two models and no ``--model``: exit 2 and one line naming both, before any row."""
    from tests.support.cli_helpers import run_cli

    folder = tmp_path / "gguf"
    folder.mkdir()
    gguf = write_tiny_gguf(tiny_llms["llama3_1"], folder / "tiny.f32.gguf")
    with serve_gguf(gguf, ["tiny-a", "tiny-b"], folder) as url:
        code, out, err = run_cli(capsys, "card", "--endpoint", url, "--pairs", "ja-en", "--suites", "jazp", "-q")
    assert code == 2 and not out
    assert err.strip().splitlines() == [f"discotest: error: {url.removesuffix('/v1')}: name the model with --model "
                                        "(the server serves: tiny-a, tiny-b)"]


# two translating rows: MiTTenS into English from Japanese and from Chinese, 2 passages each (4 translations; a random
# tiny model writes its 256 tokens in about 1-3 s a request here)
TRANSLATING = {"pairs": "ja-en,zh-en", "suites": "mittens", "limit": 2}


def _run_mittens(url: str, prompt: Path, cache: Path, lang: str) -> None:
    command = [sys.executable, "-m", "discotest", "run", "mittens", "--lang", lang, "--endpoint", url, "--model", ALIAS,
               "--limit", "2", "--prompt", str(prompt), "--concurrency", "1", "-q"]
    done = subprocess.run(command, capture_output=True, env={**os.environ, "DISCOTEST_CACHE": str(cache)},
                          timeout=STOP_WITHIN)
    assert done.returncode == 0, done.stderr.decode()


@pytest.fixture(scope="module")
def translated(llama_server, prompt, tmp_path_factory) -> tuple[bytes, list[bytes]]:
    """The translating card run once, whole: its JSON and the request bodies the server was sent."""
    with RecordingProxy(llama_server) as proxy:
        code, out, err = _finished(_card(proxy.url, prompt, tmp_path_factory.mktemp("whole-cache"), **TRANSLATING))
    assert code == 0, err.decode()
    assert [row["status"] for row in json.loads(out)["rows"]] == ["ok", "ok"]
    return out, list(proxy.forwarded)


def test_the_card_asks_what_the_rows_own_runs_ask_in_their_order(llama_server, prompt, translated, tmp_path):
    """The server sees the card's requests as those of ``run mittens --lang ja`` then ``--lang zh`` (the suite's own
    runs, one after the other), each once, in order."""
    _, asked = translated
    with RecordingProxy(llama_server) as proxy:
        for lang in ("ja", "zh"):
            _run_mittens(proxy.url, prompt, tmp_path / "cache", lang)
    assert len(asked) == 4 and all("messages" in json.loads(body) for body in asked)  # chat: translations
    assert proxy.forwarded == asked


@pytest.mark.parametrize(("hold_at", "stop"), [(2, signal.SIGKILL), (4, signal.SIGKILL), (4, signal.SIGINT)],
                         ids=["first-row", "second-row", "second-row-ctrl-c"])
def test_a_card_stopped_while_translating_resumes_asking_nothing_twice(hold_at, stop, llama_server, prompt,
                                                                       translated, tmp_path):
    """``kill -9`` while the server holds a translation request (the second of the first row's, or of the second
    row's), or Ctrl-C while the card waits for that second row's answer (the card ends with ``interrupted`` at once,
    not when the held request would end), then the same command: each
    translation is requested once over the two runs, and the card is byte for byte the uninterrupted one."""
    whole, asked = translated
    cache = tmp_path / "cache"
    with RecordingProxy(llama_server, hold_at=hold_at) as proxy:
        card = _card(proxy.url, prompt, cache, **TRANSLATING)
        assert proxy.held.wait(STOP_WITHIN), card.communicate()[1].decode()
        card.send_signal(stop)
        code, _, err = _finished(card)
        first = list(proxy.forwarded)
        assert first == asked[:hold_at - 1]
        assert code == (-signal.SIGKILL if stop == signal.SIGKILL else 130), err.decode()
        if stop == signal.SIGINT:
            assert err.decode().strip().splitlines() == ["discotest: interrupted"]
        proxy.forwarded.clear()
        code, out, err = _finished(_card(proxy.url, prompt, cache, **TRANSLATING))
        again = list(proxy.forwarded)
    assert code == 0, err.decode()
    assert again == asked[hold_at - 1:]
    assert Counter(first + again) == Counter(asked) and len(set(asked)) == len(asked)
    assert out == whole


def test_an_endpoints_rows_are_scored_in_workers_and_the_card_is_the_same(llama_server, prompt, translated, tmp_path,
                                                                          monkeypatch):
    """The translating card in this process, each time in a fresh cache: with one job its two rows are scored here;
    with two, each row's score phase goes to a worker as soon as its answers are in (its first phase and answers,
    the served model stood in for by what names it: a worker reaches no server). The JSON is byte for byte the same,
    and the server is sent the requests of the card run as a user runs it (``translated``), each once, in order."""
    import discotest
    from discotest.cards import parallel

    options = {"endpoint": None, "model": ALIAS, "context": [0], "prompt_file": str(prompt), "concurrency": 1,
               "quiet": True, **TRANSLATING}
    real = parallel.RowPool.submit
    seen = {}
    with RecordingProxy(llama_server) as proxy:
        for jobs in (1, 2):
            monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{jobs}"))
            submitted: list[int] = []
            monkeypatch.setattr(parallel.RowPool, "submit",
                                lambda self, index, *a, into=submitted: into.append(index) or real(self, index, *a))
            proxy.forwarded.clear()
            card = discotest.card(**{**options, "endpoint": proxy.url}, jobs=jobs)
            seen[jobs] = (json.dumps(card.to_json(), ensure_ascii=False, sort_keys=True), submitted,
                          list(proxy.forwarded))
    monkeypatch.setattr(parallel.RowPool, "submit", real)
    _, asked = translated
    assert seen[1][1] == [] and seen[2][1] == [0, 1]  # one job: no pool; two: both rows scored in the workers
    assert seen[2][0] == seen[1][0]
    assert [row["status"] for row in json.loads(seen[2][0])["rows"]] == ["ok", "ok"]
    assert seen[1][2] == seen[2][2] == asked and len(set(asked)) == len(asked)


def test_an_endpoints_ranked_row_is_prepared_in_a_worker_before_the_first_request(llama_server, prompt, tmp_path,
                                                                                  monkeypatch):
    """A row ranked among published systems (CTXPRO's auxiliary row: DeepL's two outputs), each card in a fresh cache:
    with two jobs, the published runs it is ranked among are handed to a worker before the card sends its first
    request (``RowPool.ahead``, ``cards.build._prepare``), and its score phase ranks it with their results: the JSON
    is the one-job card's, byte for byte, and the server is sent the same requests, each once, in order."""
    import discotest
    from discotest.cards import parallel

    options = {"model": ALIAS, "context": [0], "prompt_file": str(prompt), "concurrency": 1, "quiet": True,
               "pairs": "en-de", "suites": "ctxpro-auxiliary-en-de-test", "limit": 2, "skip_language_check": True}
    real = parallel.RowPool.ahead
    seen = {}
    with RecordingProxy(llama_server) as proxy:
        for jobs in (1, 2):
            monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{jobs}"))
            ahead: list[tuple[int, int]] = []  # (row, requests the server was sent by then)
            monkeypatch.setattr(parallel.RowPool, "ahead", lambda self, index, *a, into=ahead: into.append(
                (index, len(proxy.forwarded))) or real(self, index, *a))
            proxy.forwarded.clear()
            card = discotest.card(**options, endpoint=proxy.url, jobs=jobs)
            seen[jobs] = (json.dumps(card.to_json(), ensure_ascii=False, sort_keys=True), ahead,
                          list(proxy.forwarded))
    assert seen[1][1] == [] and seen[2][1] == [(0, 0)]  # one job: no pool; two: prepared before any request
    assert seen[2][0] == seen[1][0]
    row = json.loads(seen[2][0])["rows"][0]
    assert row["status"] == "ok" and {line["of"] for line in row["lines"]} == {3}  # ranked among DeepL's two
    assert seen[2][2] == seen[1][2] and len(seen[1][2]) == len(set(seen[1][2])) > 0
