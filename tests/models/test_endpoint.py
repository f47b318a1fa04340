"""Served LLMs (``--endpoint``): a REAL OpenAI-compatible server on 127.0.0.1 — ``transformers serve`` from the
installed Transformers, serving the tiny random Qwen3 of tests/support/tiny_llm.py — translates; its ``/v1/completions``
returns no prompt log-probabilities, so scoring against it is refused with one line. Retries and error lines are
checked against a small standard-library HTTP server that answers 503, 429 and 400 on purpose."""

from __future__ import annotations

import http.server
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("transformers")

from discotest.errors import InputError  # noqa: E402
from discotest.models.causal_translator import CausalTranslator  # noqa: E402
from discotest.models.endpoint import (  # noqa: E402
    EndpointClient,
    EndpointTranslator,
    echo_misalignment,
    echo_offsets_wrong,
    read_prompt_logprobs,
)
from tests.support.cli_helpers import free_port, one_result, run_cli, serve_in_thread, serving  # noqa: E402

SOURCES = ["The doctor asked the nurse to help her.", "He left."]


@pytest.fixture(scope="module")
def served(tiny_llms, tmp_path_factory):
    """``transformers serve MODEL --host 127.0.0.1``: (base URL, model path); the server is stopped afterwards."""
    from transformers.utils.import_utils import is_serve_available

    if not is_serve_available():
        pytest.skip("transformers serve needs transformers[serving] (fastapi, uvicorn, openai)")
    port, model = free_port(), str(tiny_llms["qwen3"])
    command = [str(Path(sys.executable).parent / "transformers"), "serve", model, "--host", "127.0.0.1", "--port",
               str(port)]
    with serving(command, f"http://127.0.0.1:{port}/v1", tmp_path_factory.mktemp("serve") / "serve.log") as url:
        yield url, model


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_served_translation_equals_the_local_one(served, tiny_llms):
    """The server applies the same chat template (reasoning off: asked per request through chat_template_kwargs, the
    server's own default left on) and decodes greedily: after the same post-processing, the served translations are
    the local model's."""
    url, model = served
    remote = EndpointTranslator(url, "de", max_length=8, quiet=True)
    assert remote.model == model and dict(remote.signature_fields())["model"] == model
    local = CausalTranslator(model, "de", max_length=8, use_cache=False, quiet=True)
    assert remote.translate(SOURCES) == local.translate(SOURCES)
    # /models + two completions; `transformers serve` refuses repeat_penalty (naming it) and takes chat_template_kwargs
    # and the line-break stop (the local model stops at the line break too): each of the two concurrent first
    # requests may be refused once before the translator drops the field
    assert remote.translated == 2 and remote.client.requests in (4, 5)
    assert remote._extras == {"chat_template_kwargs": {"enable_thinking": False}, "stop": ["\n"]}
    again = EndpointTranslator(url, "de", max_length=8, quiet=True)
    assert again.translate(SOURCES) == remote.translate(SOURCES) and again.translated == 0


def test_run_winomt_demo_on_the_server_key_never_written(served, tmp_path, monkeypatch, capsys):
    url, model = served
    monkeypatch.setenv("DISCOTEST_API_KEY", "sk-test-never-written-4242")
    args = ("run", "winomt-demo", "--lang", "de", "--endpoint", url, "--max-length", "6", "--format", "json",
            "--concurrency", "2")
    # the served random model answers in no German: the run is refused in one line, its answers cached …
    code, refused, err_refused = run_cli(capsys, *args)
    assert code == 2 and refused == "" and err_refused.count("\n") == 1
    assert f"the output of model {model} is mostly" in err_refused and "not German (de" in err_refused
    # … and scored from the cache when the check is skipped, the signature saying so
    code, out, err = run_cli(capsys, *args, "--skip-language-check")
    assert code == 0, err
    result = one_result(out)
    assert result["scores"]["n"] == 16
    for part in (f"|model:{model}|", "|served:openai-api|", "|lm:causal|", "|prompt:chat:", "|max_len:6|",
                 "|langcheck:off"):
        assert part in result["signature"]
    written = out + err + err_refused + "".join(p.read_text("utf-8", "replace") for p in (tmp_path / "cache").rglob("*")
                                  if p.is_file())
    assert "sk-test-never-written-4242" not in written


def test_scoring_is_refused_by_a_server_without_prompt_logprobs(served, capsys):
    url, _ = served
    code, _, err = run_cli(capsys, "run", "jazp", "--endpoint", url, "-q")
    assert code == 2 and err.count("\n") == 1
    assert "/v1/completions returns no prompt log-probabilities" in err
    from discotest.models.door import open_scorer
    from discotest.models.spec import ModelSpec

    scorer = open_scorer(ModelSpec.of(endpoint=url, quiet=True))  # what a caller can ask before any work: the same line
    assert scorer.kind == "endpoint" and "/v1/completions returns no prompt log-probabilities" in scorer.cannot_score()


def test_a_4xx_is_one_line_and_an_unknown_model_is_named(served, tmp_path, capsys):
    url, model = served
    source = tmp_path / "doc.txt"
    source.write_text("He left.\n", "utf-8")
    with pytest.raises(InputError, match="HTTP 404"):
        EndpointClient(url).call("/no-such-route", {})
    code, _, err = run_cli(capsys, "translate", "--input", str(source), "--lang", "de", "--endpoint", url, "--model",
                           "other", "-o", "-")
    assert code == 2 and err.count("\n") == 1 and f"it serves: {model}" in err


class _Flaky(http.server.BaseHTTPRequestHandler):
    """Answers the n-th POST from a script: 503, 429 (Retry-After 0), then a completion; '/bad' is a 400."""

    script: list[int] = []
    strict = False  # refuse fields outside the OpenAI API, as OpenAI's own server does
    bodies: list[dict] = []
    content = "<think>x</think>Hallo.\nmore"
    honour_stop = False  # cut the answer where a ``stop`` string starts (finish_reason "stop"), as llama.cpp does

    def do_GET(self):  # noqa: N802 - http.server's name
        return self._send(200, {"data": [{"id": "m"}]})

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        self.bodies.append(body)
        unknown = [name for name in ("repeat_penalty", "chat_template_kwargs") if name in body]
        if self.strict and unknown:  # OpenAI names one field at a time
            return self._send(400, {"error": {"message": f"Unrecognized request argument supplied: {unknown[0]}"}})
        if self.path.endswith("/bad"):
            return self._send(400, {"error": {"message": "max_tokens must be positive"}})
        status = self.script.pop(0) if self.script else 200
        if status != 200:
            return self._send(status, {"error": {"message": "busy"}}, {"Retry-After": "0"} if status == 429 else {})
        content, reason = self.content, "length"
        for stop in body.get("stop") or [] if self.honour_stop else []:
            if stop in content:
                content, reason = content[:content.index(stop)], "stop"
        return self._send(200, {"choices": [{"message": {"content": content}, "finish_reason": reason}]})

    def _send(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        for k, v in {"Content-Type": "application/json", **(headers or {})}.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def flaky():
    with serve_in_thread(http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"


def test_retries_with_backoff_then_one_line_errors(flaky):
    waits = []
    _Flaky.script = [503, 429]
    client = EndpointClient(flaky, retries=3, backoff=0.5, sleep=waits.append)
    answer = client.call("/chat/completions", {"model": "m"})
    assert answer["choices"][0]["message"]["content"].endswith("more") and client.requests == 3
    assert waits == [0.5, 0.0]  # 503: backoff · 2^0; 429: the server's Retry-After
    with pytest.raises(InputError, match=r"HTTP 400: max_tokens must be positive$"):
        client.call("/bad", {})
    _Flaky.script = [503] * 5
    with pytest.raises(InputError, match=r"no answer after 3 attempts in \d+ s \(HTTP 503: busy\)"):
        EndpointClient(flaky, retries=2, backoff=0.5, sleep=waits.append).call("/chat/completions", {})
    assert waits[-2:] == [0.5, 1.0]
    _Flaky.script = []
    translator = EndpointTranslator(flaky, "de", model="m", client=client, use_cache=False)
    assert translator.complete("x") == "Hallo."  # reasoning stripped, first line kept


def test_greedy_reasoning_off_and_a_strict_server_is_asked_without_what_it_refuses(flaky):
    """``repeat_penalty`` 1 (llama.cpp's servers default to 1.1: not greedy) and ``enable_thinking`` off for the chat
    template (as locally) are sent; a server that refuses an unknown field, naming it, is asked again without that
    field, and the translator does not send it again."""
    _Flaky.script, _Flaky.bodies = [], []
    translator = EndpointTranslator(flaky, "de", model="m", use_cache=False)
    assert translator.complete("x") == "Hallo." and _Flaky.bodies[-1]["repeat_penalty"] == 1.0
    assert _Flaky.bodies[-1]["chat_template_kwargs"] == {"enable_thinking": False}
    _Flaky.strict, _Flaky.bodies = True, []
    try:
        strict = EndpointTranslator(flaky, "de", model="m", use_cache=False)
        assert strict.complete("x") == "Hallo." and strict.complete("y") == "Hallo."
        assert [sorted(set(b) & {"repeat_penalty", "chat_template_kwargs"}) for b in _Flaky.bodies] == [
            ["chat_template_kwargs", "repeat_penalty"], ["chat_template_kwargs"], [], []]
    finally:
        _Flaky.strict = False


def test_openai_echo_logprobs_are_read_from_the_boundary_on():
    """The OpenAI completions format: the candidate's tokens start at or after the prompt's last character."""
    prompt = "Text\nGerman:"
    answer = {"choices": [{"logprobs": {"tokens": ["Text", "\n", "German", ":", " Hal", "lo", "!"],
                                        "token_logprobs": [None, -1.0, -2.0, -0.5, -3.0, -0.25, -4.0],
                                        "text_offset": [0, 4, 5, 11, 12, 16, 18]}}]}
    assert read_prompt_logprobs(answer, len(prompt), 18) == (-3.0 - 0.25, 2, False)  # the generated '!' is past it
    merged = {"choices": [{"logprobs": {"tokens": ["Text", "\n", "German", ": Hal", "lo"],
                                        "token_logprobs": [None, -1.0, -2.0, -0.5, -0.25],
                                        "text_offset": [0, 4, 5, 11, 16]}}]}
    assert read_prompt_logprobs(merged, len(prompt), 18) == (-0.75, 2, True)
    assert read_prompt_logprobs({"choices": [{"text": " x"}]}, len(prompt), 14) is None


def test_an_echoed_bos_is_skipped_and_offsets_that_do_not_spell_the_prompt_are_refused():
    """vLLM echoes Llama's BOS ('<|begin_of_text|>', not in the echoed text) and counts its 17 characters in
    text_offset: the candidate is read from the request's own first token, as without it. The alignment probe's
    check refuses offsets that do not follow the tokens (a boundary read in the wrong place)."""
    prompt, bos = "Text\nGerman:", "<|begin_of_text|>"
    tokens = ["Text", "\n", "German", ":", " Hal", "lo", "!"]
    plain = {"choices": [{"text": "Text\nGerman: Hallo!", "logprobs": {
        "tokens": tokens, "token_logprobs": [None, -1.0, -2.0, -0.5, -3.0, -0.25, -4.0],
        "text_offset": [0, 4, 5, 11, 12, 16, 18]}}]}
    with_bos = {"choices": [{"text": "Text\nGerman: Hallo!", "logprobs": {
        "tokens": [bos, *tokens], "token_logprobs": [None, -7.0, -1.0, -2.0, -0.5, -3.0, -0.25, -4.0],
        "text_offset": [0, 17, 21, 22, 28, 29, 33, 35]}}]}
    assert read_prompt_logprobs(with_bos, len(prompt), 18) == read_prompt_logprobs(plain, len(prompt), 18) == \
        (-3.0 - 0.25, 2, False)
    assert echo_offsets_wrong(plain, prompt) is None and echo_offsets_wrong(with_bos, prompt) is None
    # a text that starts with what looks like a special token is the text, not a BOS
    html = {"choices": [{"text": "<b>Hi", "logprobs": {"tokens": ["<b>", "Hi"], "token_logprobs": [None, -1.0],
                                                       "text_offset": [0, 3]}}]}
    assert echo_offsets_wrong(html, "<b>Hi") is None
    shifted = json.loads(json.dumps(plain))  # offsets one character further than the tokens from the second on
    shifted["choices"][0]["logprobs"]["text_offset"] = [0, 5, 6, 12, 13, 17, 19]
    assert "do not spell the prompt" in echo_offsets_wrong(shifted, prompt)
    assert "do not spell the prompt" in echo_offsets_wrong({"choices": [{"text": "x"}]}, prompt)


# Gemma 3 270M (Q4_K_M) served by llama-cpp-python 0.3.36, asked to score " Thank you." after
# "Japanese: ありがとうございました。\nEnglish:" (max_tokens 1; top_logprobs left out): the raw answer. The 33-byte
# token ありがとうございました echoes as "" and every offset after it is 11 characters short (llama-cpp-python
# drops a piece over 32 bytes: abetlen/llama-cpp-python#2362), as in the BSD row refused at --limit 200 (issue 54).
LOST_TOKEN_VALUES = [None, -5.926182746887207, -1.8587002754211426, -13.326637268066406, -1.2029764652252197,
                     -1.4049172401428223, -2.8555421829223633, -0.1706310212612152, -0.7327576279640198,
                     -0.05482226982712746, -0.37751293182373047, -0.44648051261901855]
LOST_TOKEN = {"choices": [{"text": "Japanese: ありがとうございました。\nEnglish: Thank you.\n", "logprobs": {
    "tokens": ["Japanese", ":", " ", "", "。", "\n", "English", ":", " Thank", " you", ".", "\n"],
    "text_offset": [0, 8, 9, 10, 10, 11, 12, 19, 20, 26, 30, 31], "token_logprobs": LOST_TOKEN_VALUES}}]}
# the same request through the bench's server with its detokenize mend (bench/llm/llama_server_topk.py)
WHOLE_TOKEN = {"choices": [{"text": "Japanese: ありがとうございました。\nEnglish: Thank you.\n", "logprobs": {
    "tokens": ["Japanese", ":", " ", "ありがとうございました", "。", "\n", "English", ":", " Thank", " you", ".", "\n"],
    "text_offset": [0, 8, 9, 10, 21, 22, 23, 30, 31, 37, 41, 42], "token_logprobs": LOST_TOKEN_VALUES}}]}


def test_an_echo_that_lost_a_token_before_the_candidate_is_read_from_its_end():
    """The offsets of an echo that lost a token's text place the boundary 11 characters early; its tokens from the
    end, each whole, spell the request back to the boundary, and their values are the candidate's: the same reading
    as the whole echo's. A lost token hidden behind a long generated one (the echo no longer ends short: the old
    check passed it and read the generated token as the candidate) is caught by the request's end, where no token
    starts. A lost token inside the candidate cannot be placed: one line naming the candidate."""
    import copy

    from discotest.models.endpoint import echo_wrong, read_echo

    prompt = "Japanese: ありがとうございました。\nEnglish:"
    text = prompt + " Thank you."
    whole = read_echo(WHOLE_TOKEN, len(prompt), len(text), text)
    lost = read_echo(LOST_TOKEN, len(prompt), len(text), text)
    assert whole == (-0.7327576279640198 - 0.05482226982712746 - 0.37751293182373047, 3, False, False)
    assert lost[:3] == whole[:3] and lost.from_end
    assert read_prompt_logprobs(LOST_TOKEN, len(prompt), len(text), text) == whole[:3]
    hidden = copy.deepcopy(LOST_TOKEN)
    hidden["choices"][0]["text"] = text + " It was great"
    hidden["choices"][0]["logprobs"]["tokens"][-1] = " It was great"  # 13 characters: the echo ends past 42
    wrong = echo_wrong(hidden["choices"][0]["logprobs"], 0, text, len(text), " It was great")
    assert "no token starting at the request's end, character 42" in wrong
    assert read_echo(hidden, len(prompt), len(text), text) == lost
    unechoed = copy.deepcopy(LOST_TOKEN)  # the generated "\n" in the text only (llama-cpp-python, a model without BOS)
    for key in ("tokens", "text_offset", "token_logprobs"):
        del unechoed["choices"][0]["logprobs"][key][-1]
    assert read_echo(unechoed, len(prompt), len(text), text) == lost
    with pytest.raises(InputError, match="end at character 32, before the request's 42 for the candidate "
                                         "'ありがとうございました。\\\\nEnglish: Thank you.'; refusing"):
        read_echo(LOST_TOKEN, len("Japanese:"), len(text), text)




def _echo(tokens: list[str], tops: list[dict | None]) -> dict:
    return {"choices": [{"logprobs": {"tokens": tokens, "top_logprobs": tops}}]}


def test_echo_alignment_compares_the_distributions_where_the_probes_differ():
    """Aligned: the same distribution at the differing token (the shared entries equal); late: other top tokens or
    other values there; no top_logprobs: cannot be checked (refused too)."""
    tokens_a, tokens_b = ["The", " cat", " sat"], ["The", " cat", " ran"]
    same = {"x": -1.0}
    assert echo_misalignment(_echo(tokens_a, [None, same, {"x": -1.0, " sat": -3.0}]),
                             _echo(tokens_b, [None, same, {"x": -1.0, " ran": -2.5}])) is None
    assert "one token late" in echo_misalignment(_echo(tokens_a, [None, same, {"x": -1.0}]),
                                                 _echo(tokens_b, [None, same, {"x": -1.2}]))
    assert "one token late" in echo_misalignment(_echo(tokens_a, [None, same, {"x": -1.0}]),
                                                 _echo(tokens_b, [None, same, {"y": -1.0}]))
    # a reduced-precision server's noise passes; tops that share less than half their tokens do not
    top_a = {"x": -1.0, "y": -2.0, "z": -2.5, "w": -3.0, " sat": -3.1}
    top_b = {"x": -1.004, "y": -2.006, "z": -2.5, "w": -3.001, " ran": -2.9}
    assert echo_misalignment(_echo(tokens_a, [None, same, top_a]), _echo(tokens_b, [None, same, top_b])) is None
    top_late = {"x": -1.0, "q": -2.0, "r": -2.5, "s": -3.0, " ran": -2.9}
    assert "one token late" in echo_misalignment(_echo(tokens_a, [None, same, top_a]),
                                                 _echo(tokens_b, [None, same, top_late]))
    assert "cannot be checked" in echo_misalignment(_echo(tokens_a, [None, None, None]),
                                                    _echo(tokens_b, [None, None, None]))
    assert "cannot be checked" in echo_misalignment({"choices": [{"text": "x"}]}, {"choices": []})


def test_an_interrupted_map_sends_none_of_the_requests_not_yet_under_way():
    """Ctrl-C (or a failed request) while requests run ``concurrency`` at a time: those not yet sent are dropped
    (``Executor.map`` cancels its pending calls when its results stop being read), not sent before the process ends;
    those under way finish (their answers are cached)."""
    import time

    started: list[int] = []

    def one(x: int) -> int:
        started.append(x)
        if x == 0:
            raise KeyboardInterrupt
        time.sleep(0.05)
        return x

    client = EndpointClient("http://127.0.0.1:9/v1", concurrency=2)
    with pytest.raises(KeyboardInterrupt):
        client.map(one, list(range(40)))
    time.sleep(0.2)
    assert 1 <= len(started) <= 4  # the failed one and at most the few already taken by the other worker


@pytest.mark.parametrize(("content", "asked", "kept"), [
    ("Hallo.\nEnglish: more", 1, "Hallo."),  # the stop ends the answer at the break: one request
    ("Hallo. <think>x</think> Welt.\nmore", 1, "Hallo.  Welt."),  # a closed block before the break
    ("\n\nHallo.\nmore", 2, "Hallo."),  # the model opens with a break: the stop leaves nothing, asked again
    ("  \ufffd\nHallo.", 2, "Hallo."),  # nothing but spaces and a broken character before the break
    ("<think>plan\n</think>Hallo.\nx", 2, "Hallo."),  # the break falls in a reasoning block
    ("Hallo <think>\n</think> Welt\nx", 2, "Hallo  Welt"),  # … that opened after text
    ("Der Arzt fragte", 1, "Der Arzt fragte"),  # no break within max_tokens: cut, the same with or without the stop
])
def test_a_sentence_suite_stops_at_the_line_break_and_keeps_what_the_whole_answer_keeps(flaky, content, asked, kept):
    """For a sentence suite the server is asked to stop at the first line break; where the stopped answer could keep
    less than the whole one (nothing before the break, or an open reasoning block), it is asked again without the
    stop: the kept translation is the whole answer's, and its cut flag too."""
    from discotest.models.causal_translator import postprocess

    _Flaky.script, _Flaky.bodies, _Flaky.content, _Flaky.honour_stop = [], [], content, True
    try:
        translator = EndpointTranslator(flaky, "de", model="m", use_cache=False)
        assert translator.complete("x") == kept == postprocess(content)
        assert [b.get("stop") for b in _Flaky.bodies] == [["\n"], None][:asked]
        assert translator.restarted == asked - 1 and (kept in translator.cut) == ("\n" not in content)
        whole = EndpointTranslator(flaky, "de", model="m", use_cache=False, sentence=False)
        _Flaky.bodies = []
        whole.complete("x")
        assert len(_Flaky.bodies) == 1 and "stop" not in _Flaky.bodies[0]  # a document is kept whole: no stop
    finally:
        _Flaky.content, _Flaky.honour_stop = "<think>x</think>Hallo.\nmore", False


def test_the_cut_flag_is_kept_beside_the_cached_translation(flaky, tmp_path):
    """A translation cut at --max-length is flagged when answered and again when read back from the cache (through
    ``answers.cached``, under the translation's own key)."""
    _Flaky.script, _Flaky.bodies, _Flaky.content, _Flaky.honour_stop = [], [], "Der Arzt fragte", True
    try:
        first = EndpointTranslator(flaky, "de", model="m")
        assert first.translate(["a"]) == ["Der Arzt fragte"] and first.cut == {"Der Arzt fragte"}
        _Flaky.content = "Hallo.\nmore"
        assert first.translate(["b"]) == ["Hallo."] and "Hallo." not in first.cut
        again = EndpointTranslator(flaky, "de", model="m")
        assert again.translate(["a", "b"]) == ["Der Arzt fragte", "Hallo."] and again.cache_hits == 2
        assert again.cut == {"Der Arzt fragte"} and len(_Flaky.bodies) == 2
    finally:
        _Flaky.content, _Flaky.honour_stop = "<think>x</think>Hallo.\nmore", False
