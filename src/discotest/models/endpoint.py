"""Served LLMs behind an OpenAI-compatible API (vLLM, llama.cpp's server, TGI, Ollama, ``transformers serve``):
translation through ``/v1/chat/completions``, contrastive scoring through ``/v1/completions`` prompt log-probabilities.

The client is the standard library's (no SDK): ``concurrency`` requests at once, each with a ``timeout``; a 429 or 5xx
answer, a refused connection or a timeout is retried up to ``retries`` times, waiting ``backoff · 2^attempt`` seconds
(or the server's ``Retry-After``); any other 4xx is one error line with the server's own message. The API key is read
only from the environment (``DISCOTEST_API_KEY``, else ``OPENAI_API_KEY``) and sent as a bearer token: it is never
in a signature, a log line or a cache key. The model is named as the server reports it (``/v1/models``).

Translation: the request template of ``models.llm_prompt`` is one user message (the server applies the model's chat
template), greedy (``temperature 0``), at most ``max_length`` tokens; the answer goes through the same
post-processing rules as a local model's (``causal_translator.postprocess``: U+FFFD and reasoning blocks
stripped, first line). For a sentence suite the server is asked to stop at the first line break (``LINE_STOP``): a base
model goes on after its translation to ``max_length``, and the first line is all that is kept; an answer the stop left
without its translation is asked again without it (``stopped_short``), so the kept text is the whole answer's. An
answer stopped at ``max_length`` before its first line ended is counted as cut (``cut_by_length``) and flagged beside
its cached translation (``answers.CACHE_ENDS``).
Turn reasoning off on the server where it has a switch (``transformers serve --reasoning off``; vLLM's default chat
template arguments).

Scoring: the server sees text only, and no chat template is applied to ``/v1/completions``, so the prompt is the plain
completion prompt (request, line break, ``Language:``) and the candidate follows after a space. The request asks for
the prompt's log-probabilities both ways servers offer them — ``echo`` + ``logprobs`` (the OpenAI completions format:
``tokens``, ``token_logprobs``, ``text_offset``) and vLLM's ``prompt_logprobs`` — with ``max_tokens`` 1. The
candidate's tokens are those that start at or after the end of the prompt (by ``text_offset``); a token that starts
in the prompt and ends in the candidate (a merge across the boundary) is counted as the candidate's and reported. A
server that returns neither (``transformers serve``, whose ``/v1/completions`` ignores both fields) is refused with
one line; llama.cpp's own ``llama-server`` rejects ``echo`` ('Only no echo is supported' in its source), an error
line with its message. llama.cpp through ``llama-cpp-python[server]`` returns the OpenAI format
(tests/models/test_served_scoring.py: the local model's scores), but only for a model that adds BOS: without one (Qwen),
version 0.3.36 pairs each echoed token with the log-probability of it being the *next* token (the distribution one
position late), which no single answer shows.

So before the first echoed score, once per server and model in a process (``check_echo_alignment``), two prompts that
differ only in their last word are sent, and the distributions echoed *at* that word (its ``top_logprobs``) are
compared: a correct echo gives the distribution of the token given the tokens before it, the same for both prompts;
an echo one position late gives the distribution after the word, which depends on the word. A server that fails is
refused with one line (the shift cannot be undone exactly: only the top entries of the needed distribution are
echoed); one that echoes no ``top_logprobs`` cannot be checked and is refused too. The same probe checks that the
echoed tokens spell the prompt and that each ``text_offset`` is the length of the tokens before it
(``echo_offsets_wrong``), from the request's first token on (``echo_start``: vLLM echoes Llama's BOS,
``<|begin_of_text|>``, before it and counts its characters): offsets that do not follow the tokens would put the
candidate's boundary in the wrong place. A passed probe is cached beside the scores, so a resumed run does not probe
again.

Every scored echo must also put a token boundary exactly where the request ends (``echo_wrong``). llama-cpp-python
0.3.36 drops a token whose text is longer than 32 bytes (Gemma 3's ありがとうございました is 33) from the echoed tokens
and from every ``text_offset`` after it (abetlen/llama-cpp-python#2362): the offsets then place the boundary too early
and would give the candidate's sum the prompt's last tokens. Such an echo is read from its end instead
(``tokens_from_the_end``), where its tokens, each with its whole text, spell the request's last characters back to the
boundary: each echoed value stays paired with its token by position, so those values are the candidate's; an echo
that proves less is refused with one line naming the candidate.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import accumulate
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from discotest import cache
from discotest.errors import InputError
from discotest.models.answers import Asking, cached
from discotest.models.interface import DEFAULT_MAX_LENGTH, LogProb, Scorer, ScoreRequest, split_by_item
from discotest.models.llm_prompt import PromptBuilder

API_KEY_VARIABLES = ("DISCOTEST_API_KEY", "OPENAI_API_KEY")
CACHE_TRANSLATIONS = "translations"
CACHE_SCORES = "candidate-logprobs"
CACHE_ALIGNMENT = "endpoint-alignment"  # servers and models that passed the alignment probe
# Fields outside the OpenAI API that make a served translation the local one:
# - greedy means no sampler that reshapes the logits: llama.cpp's servers (llama-cpp-python's, llama-server) apply a
#   repetition penalty of 1.1 unless told otherwise;
# - the chat template is rendered with reasoning off, as locally (llm_prompt): Qwen3's takes ``enable_thinking``, and
#   vLLM, SGLang and ``transformers serve`` pass ``chat_template_kwargs`` to it (a template without it ignores it).
# Both are sent; a server that refuses a field (naming it in its 4xx answer) is asked again without that field, and
# the translator does not send it again.
CHAT_EXTRAS: dict[str, Any] = {"repeat_penalty": 1.0, "chat_template_kwargs": {"enable_thinking": False}}
# A sentence suite keeps an answer's first line only (postprocess), and a base model goes on after its translation to
# --max-length: the server is asked to stop at the line break (OpenAI's ``stop``). The kept text is the same (greedy:
# the same tokens up to the break; ``stopped_short`` asks again without the stop where it could differ), so the cache
# keys do not change. Sent as an extra: a server that refuses it is asked without it.
LINE_STOP: dict[str, Any] = {"stop": ["\n"]}
VERSION = "4"  # part of the cache keys: bump when requests or their reading change (3: repeat_penalty 1; 4: reasoning
# off through chat_template_kwargs)
SCORES_VERSION = "4"  # 2: cached only from servers that passed the alignment probe; 3: one entry per candidate; 4: a
# token must start where the request ends (read_echo: a lost token's text no longer hides behind a long generated one)
# The alignment probe: two prompts that differ in their last word only (several tokens before it in any tokenizer).
ALIGNMENT_PROBE = ("Translate into French: the cat sat", "Translate into French: the cat ran")
# the same prefix through the same server: equal up to arithmetic noise when aligned. A reduced-precision (bf16) server
# computes the shared prefix inside sequences of other lengths, so the bound leaves it room; an echo one position late
# reports the distributions after two different words: other top tokens, values apart by far more (the probe asks for
# the top 5, and at least half of them must be shared)
ALIGNMENT_TOLERANCE = 0.02
ALIGNMENT_TOP = 5
LOGPROB_SLACK = 1e-3  # a log-probability above 0 by more than rounding is not one
TOTAL_TIMES = 2  # one request's attempts and waits take at most this many times --timeout
_aligned: dict[tuple[str, str], str] = {}  # (server, model) -> "" (aligned) or the refusal line, per process
_aligned_lock = threading.Lock()


def _base(url: str) -> str:
    """``http://host:port`` (or with a path prefix) without a trailing ``/v1``: the paths below add it."""
    url = url.rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"--endpoint must be an http(s) URL such as http://127.0.0.1:8000/v1, not {url!r}")
    return url.removesuffix("/v1")


class EndpointClient:
    """JSON over HTTP to an OpenAI-compatible server, with retries, backoff and a concurrency limit."""

    def __init__(self, url: str, *, concurrency: int = 4, timeout: float = 120.0, retries: int = 4,
                 backoff: float = 1.0, sleep: Callable[[float], None] = time.sleep, total: float | None = None):
        """``timeout``: seconds one attempt may wait for the server (``--timeout``); ``total``: seconds one request
        may take over all its attempts and waits between them (default ``TOTAL_TIMES`` × ``timeout``), so a server
        that never answers ends a run in minutes, not ``timeout`` × attempts."""
        if not (isinstance(timeout, int | float) and timeout > 0 and timeout != float("inf")):
            raise InputError(f"--timeout must be a number of seconds above 0, not {timeout!r}")
        self.base = _base(url)
        self.concurrency, self.timeout, self.retries, self.backoff = max(1, concurrency), timeout, retries, backoff
        self.total = total if total is not None else TOTAL_TIMES * timeout
        self._sleep = sleep
        self.requests = 0  # HTTP requests sent (retries included), for callers and tests

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        key = next((os.environ[v] for v in API_KEY_VARIABLES if os.environ.get(v)), None)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def call(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """GET (no body) or POST ``path`` under ``/v1``; the decoded JSON answer. A 429/5xx answer, a refused or
        dropped connection, an answer cut short (``http.client.IncompleteRead``) or a timeout is retried while
        attempts and ``total`` last; then one InputError line."""
        url = f"{self.base}/v1{path}"
        data = json.dumps(body).encode("utf-8") if body is not None else None
        started, slept = time.monotonic(), 0.0
        attempt = 0
        for attempt in range(self.retries + 1):  # noqa: B007 - read after the loop
            left = self.total - (time.monotonic() - started) - slept
            request = urllib.request.Request(url, data=data, headers=self._headers(),
                                             method="POST" if data is not None else "GET")
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=min(self.timeout, max(left, 0.001))) as response:  # noqa: S310
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as exc:
                if exc.code != 429 and exc.code < 500:
                    raise InputError(f"{url}: HTTP {exc.code}: {_server_message(exc)}") from None
                after = _retry_after(exc)
                wait = after if after is not None else self.backoff * 2 ** attempt
                last = f"HTTP {exc.code}: {_server_message(exc)}"
            except http.client.IncompleteRead as exc:
                wait = self.backoff * 2 ** attempt
                last = (f"the connection closed in the middle of the answer ({len(exc.partial)} bytes read"
                        f"{f', {exc.expected} more expected' if exc.expected is not None else ''})")
            except (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                wait = self.backoff * 2 ** attempt
                last = "no answer within the timeout" if isinstance(reason, TimeoutError) else \
                    f"{type(reason).__name__}: {reason}" if not str(reason) else f"{reason}"
            except ValueError:
                raise InputError(f"{url}: the answer is not JSON (is this an OpenAI-compatible server?)") from None
            left = self.total - (time.monotonic() - started) - slept
            if attempt == self.retries or wait >= left:
                break
            self._sleep(wait)
            slept += wait
        raise InputError(f"{url}: no answer after {attempt + 1} attempt{'s' if attempt else ''} in "
                         f"{time.monotonic() - started + slept:.0f} s ({last}); --timeout {self.timeout:g} s per "
                         f"attempt, {self.total:g} s per request")

    def map(self, function: Callable[[Any], Any], inputs: Sequence[Any]) -> list[Any]:
        """``function`` over ``inputs`` with at most ``concurrency`` requests under way; results in order."""
        if self.concurrency == 1 or len(inputs) < 2:
            return [function(x) for x in inputs]
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            return list(pool.map(function, inputs))

    def served_model(self, wanted: str | None) -> str:
        """The model id as the server reports it: ``wanted`` if listed (or the server lists none), else the only one
        served; several and none chosen is an error naming them."""
        listed = [m.get("id") for m in self.call("/models").get("data", []) if isinstance(m, dict) and m.get("id")]
        if wanted:
            if listed and wanted not in listed:
                raise InputError(f"{self.base}: the server does not serve {wanted!r} (it serves: {', '.join(listed)})")
            return wanted
        if len(listed) != 1:
            served = ", ".join(listed) or "none listed"
            raise InputError(f"{self.base}: name the model with --model (the server serves: {served})")
        return listed[0]


def _server_message(exc: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(exc.read().decode("utf-8", "replace"))
        error = body.get("error", body) if isinstance(body, dict) else body
        message = error.get("message") if isinstance(error, dict) else error
        message = message if message is not None else body.get("detail", body)
    except (ValueError, AttributeError, OSError):
        message = exc.reason
    return " ".join(str(message).split())[:300]


def _retry_after(exc: urllib.error.HTTPError) -> float | None:
    try:
        return max(0.0, float(exc.headers.get("Retry-After", "")))
    except (TypeError, ValueError):
        return None


class EndpointTranslator:
    """A served model as a translation system (what ``translate.ModelSystem`` drives)."""

    backend = "endpoint"  # named "engine" in the signature (recorded signatures stay the same)
    context_prompt = True

    def __init__(self, url: str, tgt_lang: str, src_lang: str = "en", *, model: str | None = None,
                 max_length: int = DEFAULT_MAX_LENGTH, context: int = 0, prompt_file: str | None = None,
                 use_cache: bool = True, quiet: bool = False, concurrency: int = 4, timeout: float = 120.0,
                 client: EndpointClient | None = None, src_code: str | None = None, tgt_code: str | None = None,
                 sentence: bool = True):
        if context < 0:
            raise InputError(f"--context must be 0 or more, not {context}")
        self.client = client or EndpointClient(url, concurrency=concurrency, timeout=timeout)
        self.url, self.model = url, self.client.served_model(model)
        self.name = self.model
        self.src_lang, self.tgt_lang = src_code or src_lang, tgt_code or tgt_lang
        self.max_length, self.context, self.sentence = max_length, context, sentence
        self.use_cache, self.quiet = use_cache, quiet
        self.prompts = PromptBuilder.from_file(None, prompt_file)
        self.translated = self.cache_hits = 0
        self.cut: set[str] = set()  # translations the server stopped at max_tokens before their first line ended
        self._extras = {**CHAT_EXTRAS, **(LINE_STOP if sentence else {})}
        self.restarted = 0  # answers the line-break stop left without their translation, asked again without it

    def fingerprint(self) -> str:
        """The server and the model it reports: all a served model's translations can be keyed by."""
        return f"openai-api:{self.client.base}:{self.model}"

    def signature_fields(self) -> list[tuple[str, str]]:
        return [("model", self.model), ("served", "openai-api"), ("lm", "causal"),
                ("prompt", f"chat:{self.prompts.template_hash}"), ("decoding", "greedy"),
                ("max_len", str(self.max_length)), ("context", str(self.context))]

    def request(self, text: str, source_context: Sequence[str] = (), target_context: Sequence[str] = ()) -> str:
        return self.prompts.request(text, self.src_lang, self.tgt_lang, source_context, target_context)

    def complete(self, message: str) -> str:
        """One chat completion, post-processed (uncached)."""
        from discotest.models.causal_translator import postprocess

        body = {"model": self.model, "messages": [{"role": "user", "content": message}], "max_tokens": self.max_length,
                "temperature": 0, "n": 1}
        answer, stopped = self._chat(body, stop=True)
        if stopped and stopped_short(answer):
            # the model opened with a line break (or reasoning): the whole answer's first line is further on
            self.restarted += 1
            answer, _ = self._chat(body, stop=False)
        out = checked_translation(answer, f"{self.client.base}/v1/chat/completions (model {self.model})", message,
                                  lambda content: postprocess(content, self.sentence))
        if cut_by_length(answer, self.sentence):
            self.cut.add(out)
        return out

    def _chat(self, body: dict[str, Any], stop: bool) -> tuple[dict[str, Any], bool]:
        """One chat answer, with the extras the server takes (``stop``: the line-break stop among them, for a sentence
        suite), and whether the stop was sent."""
        while True:
            extras = self._extras if stop else {k: v for k, v in self._extras.items() if k not in LINE_STOP}
            try:
                return self.client.call("/chat/completions", {**body, **extras}), any(k in extras for k in LINE_STOP)
            except InputError as exc:
                refused = [name for name in extras if name in str(exc)]
                if not refused:
                    raise
                # a strict server (OpenAI's own API, transformers serve) refuses fields it does not know
                self._extras = {k: v for k, v in self._extras.items() if k not in refused}

    def _key(self, message: str) -> str:
        return cache.content_key([CACHE_TRANSLATIONS, "endpoint", VERSION, self.client.base, self.model,
                                  str(self.max_length), str(self.sentence), message])

    def ask(self, messages: Sequence[str]) -> list[str]:
        """``answers.cached`` (the one cache wrapper): the messages not cached sent with at most ``concurrency``
        under way, each stored as it is answered, and beside it whether the server cut it at ``--max-length``
        (``self.cut``, kept as ``answers.CACHE_ENDS``)."""
        asking = Asking(CACHE_TRANSLATIONS, self._key, concurrently(self.client, self.complete))
        answered = cached(asking, messages, self.use_cache, self.cut)
        self.cache_hits += answered.hits
        self.translated += answered.sent
        return answered.answers

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]:
        """Translations in order: concurrent requests without context; one after the other with ``context=N``
        (each prompt holds the model's own previous translations)."""
        if not self.context:
            return self.ask([self.request(text) for text in sources])
        out: list[str] = []
        for i, text in enumerate(sources):
            start = max(0, i - self.context)
            out.extend(self.ask([self.request(text, sources[start:i], out[start:i])]))
        return out

    def translate_in_context(self, sources: Sequence[str], contexts: Sequence[Sequence[str]],
                             desc: str | None = None) -> list[str]:
        """Each source with its own context sentences in the request (the source side only), concurrent requests,
        each cached as it is answered."""
        return self.ask([self.request(text, context) for text, context in zip(sources, contexts, strict=True)])


def checked_translation(answer: dict[str, Any], where: str, message: str, postprocess: Callable[[str], str]) -> str:
    """The post-processed translation in a chat answer; an answer without one, or an empty one (nothing left after
    post-processing: a translation file with an empty line, which ``run --input`` refuses), is one InputError line
    naming the server and the request, and nothing is written or cached."""
    try:
        content = answer["choices"][0]["message"].get("content") or ""
    except (KeyError, IndexError, TypeError, AttributeError):
        raise InputError(f"{where}: no choices[0].message in the answer") from None
    out = postprocess(str(content))
    if not out.strip():
        shown = " ".join(message.split())
        raise InputError(f"{where}: an empty translation (answer {_shorten(str(content))!r}) for the request "
                         f"{_shorten(shown)!r}; nothing was written")
    return out


def stopped_short(answer: dict[str, Any]) -> bool:
    """Whether an answer asked with the line-break stop may keep less than the whole answer would (``postprocess``):
    the stop fired before any text (nothing left: the model opened with a line break) or inside a reasoning block
    (an unclosed ``<think>`` cuts the line where it opens, and the block may close after the break). Otherwise the
    text before the first line break is the whole answer's first line, and a cut answer (``finish_reason: length``,
    no break) is cut the same. A server that ignored the stop (a line break in the answer) gave the whole answer."""
    from discotest.models.causal_translator import open_reasoning, postprocess

    try:
        content = str(answer["choices"][0]["message"].get("content") or "")
    except (KeyError, IndexError, TypeError, AttributeError):
        return False  # no answer at all: checked_translation says so
    if "\n" in content:
        return False
    return not postprocess(content) or open_reasoning(content.replace("\ufffd", ""))


def cut_by_length(answer: dict[str, Any], sentence: bool = True) -> bool:
    """The server stopped at ``max_tokens`` (``finish_reason: length``) before the translation ended: for a sentence
    suite, before the answer's first line ended (a base model goes on after its translation, which the first line
    keeps whole); otherwise at all."""
    try:
        choice = answer["choices"][0]
        content = str(choice["message"].get("content") or "")
    except (KeyError, IndexError, TypeError, AttributeError):
        return False
    return choice.get("finish_reason") == "length" and not (sentence and "\n" in content.lstrip())


def _shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# A special token (BOS) a server echoes before the request's own text: vLLM echoes Llama's '<|begin_of_text|>' and
# counts its characters in ``text_offset``; llama-cpp-python leaves BOS out.
_SPECIAL = re.compile(r"<[^<>\s]+>")


def echo_start(logprobs: dict[str, Any], echoed_text: str) -> int:
    """The index of the first echoed token of the request's own text: past the special tokens (``<...>``) echoed
    before it that the echoed text does not start with."""
    tokens = logprobs.get("tokens") or []
    k = 0
    while k < len(tokens) - 1 and isinstance(tokens[k], str) and _SPECIAL.fullmatch(tokens[k]) \
            and not echoed_text.startswith(tokens[k]):
        k += 1
    return k


class EchoReading(NamedTuple):
    """A candidate's reading from an echo: the sum of its tokens' log-probabilities, their number, whether a token
    crossed the prompt/candidate boundary, and whether it was read from the echo's end (``tokens_from_the_end``)."""

    total: float
    count: int
    merged: bool
    from_end: bool


def read_prompt_logprobs(answer: dict[str, Any], prompt_chars: int, end_chars: int,
                         request: str | None = None, where: str = "the server") -> tuple[float, int, bool] | None:
    """(sum of the candidate tokens' log-probabilities, their number, whether a token crossed the boundary) from a
    completions answer to ``prompt + candidate`` (``read_echo`` without the way it was read), or None when it has no
    prompt log-probabilities."""
    found = read_echo(answer, prompt_chars, end_chars, request, where)
    return None if found is None else (found.total, found.count, found.merged)


def read_echo(answer: dict[str, Any], prompt_chars: int, end_chars: int, request: str | None = None,
              where: str = "the server") -> EchoReading | None:
    """A candidate's log-probabilities from a completions answer to ``prompt + candidate`` (echoed; ``prompt_chars``
    and ``end_chars`` the characters up to the boundary and in all, counted from the first token of the request's
    text, ``echo_start``; what was generated after them is not read), or None when it has no prompt
    log-probabilities. The candidate's tokens are placed by ``text_offset``; where those offsets do not fit the
    request (``echo_wrong``: the echo ends short of it, or no token starts where it ends — a token's text lost before
    the candidate moves every offset after it), they are placed from the echo's end instead, but only where its
    tokens spell the request's last characters there (``tokens_from_the_end``). Log-probabilities that fit neither
    way (lists of different lengths, an echo that does not spell ``request``, a null or non-number where a candidate
    token's value should be) are an InputError naming ``where`` and the candidate, never a score."""
    try:
        choice = answer["choices"][0]
    except (KeyError, IndexError, TypeError):
        return None
    logprobs = choice.get("logprobs") if isinstance(choice, dict) else None
    if not (isinstance(logprobs, dict) and logprobs.get("text_offset") and logprobs.get("token_logprobs")):
        return None
    echoed_text = choice.get("text")
    start = echo_start(logprobs, str(echoed_text or ""))
    generated = echoed_text[len(request):] if isinstance(echoed_text, str) and request is not None and \
        echoed_text.startswith(request) else None
    unlisted = echo_lists_wrong(logprobs)
    wrong = unlisted or echo_wrong(logprobs, start, request, end_chars, generated)
    spans = None
    if wrong is None:
        base = logprobs["text_offset"][start] if start < len(logprobs["text_offset"]) else 0
        offsets = [o - base for o in logprobs["text_offset"][start:]]
        tokens = (logprobs.get("tokens") or [])[start:]
        spans = [(o, offsets[k + 1] if k + 1 < len(offsets) else o + len(tokens[k] if k < len(tokens) else ""))
                 for k, o in enumerate(offsets)]
    elif unlisted is None and generated is not None:  # with the generated text echoed, or without (llama-cpp-python
        # leaves it out for a model without BOS)
        spans = tokens_from_the_end(logprobs, start, request + generated, prompt_chars) or \
            (tokens_from_the_end(logprobs, start, request, prompt_chars) if generated else None)
    if spans is None:
        candidate = request[prompt_chars:end_chars].strip() if request is not None else ""
        said = f" for the candidate {_shorten(candidate)!r}" if candidate else ""
        raise InputError(f"{where}: its prompt log-probabilities {wrong}{said}; refusing to score with them")
    tokens, values = (logprobs.get("tokens") or [])[start:], logprobs["token_logprobs"][start:]
    total, count, merged = 0.0, 0, False
    for k, ((offset, end), value) in enumerate(zip(spans, values)):
        if end <= prompt_chars or offset >= end_chars:
            continue
        if not isinstance(value, int | float) or isinstance(value, bool) or value != value or value > LOGPROB_SLACK:
            raise InputError(f"{where}: its prompt log-probabilities hold {value!r} for the candidate's token "
                             f"{tokens[k]!r} (a log-probability is a number at most 0); refusing to score")
        if offset < prompt_chars:
            merged = True
        total, count = total + float(value), count + 1
    echoed = sum(1 for offset, _ in spans if offset >= prompt_chars)
    return EchoReading(total, count, merged, wrong is not None) if echoed else None


def tokens_from_the_end(logprobs: dict[str, Any], start: int, whole: str, prompt_chars: int
                        ) -> list[tuple[int, int]] | None:
    """Each echoed token's (first, last + 1) character in ``whole`` (the request and the text generated after it),
    placed from the echo's end back to the prompt/candidate boundary, where the echo's offsets cannot place them; None
    unless every token placed is proven its own: its text is not empty, it is ``whole``'s text just before the tokens
    after it, and the offsets step by its length to the next token's. A token whose text the server lost (llama-cpp-
    python 0.3.36 detokenizes into a 32-byte buffer and drops a longer piece — Gemma 3's ありがとうございました is 33
    bytes — from the token's text and from every offset after it: abetlen/llama-cpp-python#2362) or cut (a character
    split over byte tokens echoes as empty or partial text) in that stretch fails the proof. Tokens before the
    boundary's are left unplaced ((-1, -1): not the candidate's)."""
    tokens, offsets = logprobs["tokens"], logprobs["text_offset"]
    spans = [(-1, -1)] * (len(tokens) - start)
    position = len(whole)
    for k in range(len(tokens) - 1, start - 1, -1):
        text = tokens[k]
        if not text or not whole.endswith(text, 0, position) or \
                (k + 1 < len(tokens) and offsets[k + 1] - offsets[k] != len(text)):
            return None
        position -= len(text)
        spans[k - start] = (position, position + len(text))
        if position <= prompt_chars:
            return spans
    return None


def echo_lists_wrong(logprobs: dict[str, Any]) -> str | None:
    """What is wrong with an echo's three lists as lists (None if nothing): ``tokens``, ``token_logprobs`` and
    ``text_offset`` of different lengths (a value would be read for the wrong token), a token that is not text or an
    offset that is not a whole number. Such an echo cannot be read either way."""
    tokens, values, offsets = (logprobs.get(k) for k in ("tokens", "token_logprobs", "text_offset"))
    if not all(isinstance(x, list) for x in (tokens, values, offsets)) or not len(tokens) == len(values) == \
            len(offsets):
        sizes = ", ".join(f"{len(x) if isinstance(x, list) else type(x).__name__} {k}" for k, x in
                          (("tokens", tokens), ("token_logprobs", values), ("text_offset", offsets)))
        return f"do not fit their tokens ({sizes})"
    if not all(isinstance(t, str) for t in tokens) or not all(isinstance(o, int) for o in offsets):
        return "hold a token that is not text or an offset that is not a whole number"
    return None


def echo_wrong(logprobs: dict[str, Any], start: int, request: str | None, end_chars: int,
               generated: str | None = None) -> str | None:
    """What does not fit between an echo and the request it answers (None if nothing): ``tokens``,
    ``token_logprobs`` and ``text_offset`` of different lengths (a value would be read for the wrong token), an echo
    that ends before the request does, for an ASCII request (one character per token character) tokens that do not
    spell it, or, where the answer's text gives what was generated after the request, no token starting where the
    request ends though something was generated (a token's text lost before it moves every offset after it: the
    candidate's boundary would be read in the wrong place), or an echo that ends elsewhere though nothing was."""
    unlisted = echo_lists_wrong(logprobs)
    if unlisted:
        return unlisted
    tokens, offsets = logprobs["tokens"], logprobs["text_offset"]
    echoed = "".join(tokens[start:])
    if request is not None and request.isascii() and not echoed.startswith(request):
        return f"echo {_shorten(echoed)!r}, not the request {_shorten(request)!r}"
    end = offsets[-1] - offsets[start] + len(tokens[-1])
    if end < end_chars:
        return f"end at character {end}, before the request's {end_chars}"
    if generated is not None and end_chars not in {o - offsets[start] for o in offsets[start:]} and \
            not (generated == "" and end == end_chars):
        return (f"end at character {end} with no token starting at the request's end, character {end_chars} "
                f"(the answer's text goes on to {end_chars + len(generated)})")
    return None


def echo_offsets_wrong(answer: dict[str, Any], text: str) -> str | None:
    """What is wrong with the text offsets of an echo of ``text`` (ASCII, one character per byte), None if nothing: from
    ``echo_start`` on, the tokens must spell ``text`` and each offset be the length of the tokens before it, or the
    boundary between prompt and candidate would be read in the wrong place."""
    try:
        choice = answer["choices"][0]
        logprobs = choice["logprobs"]
        start = echo_start(logprobs, str(choice.get("text") or ""))
        tokens, offsets = logprobs["tokens"][start:], logprobs["text_offset"][start:]
        lengths_before = list(accumulate((len(t) for t in tokens[:-1]), initial=0))
        if "".join(tokens).startswith(text) and [o - offsets[0] for o in offsets] == lengths_before:
            return None
    except (KeyError, IndexError, TypeError, AttributeError):
        pass
    return f"its echoed tokens and text_offset do not spell the prompt {text!r} from its first character"


def echo_misalignment(first: dict[str, Any], second: dict[str, Any]) -> str | None:
    """What is wrong with two echoed answers to ``ALIGNMENT_PROBE`` (None: aligned). At the first token where they
    differ, an aligned echo reports the same distribution in both (the next-token distribution given the shared tokens
    before it): at least half of the top tokens are in both ``top_logprobs``, each with the same value (within
    ``ALIGNMENT_TOLERANCE``). An echo one position late reports the distributions after two different tokens: the top
    tokens or their values differ."""
    try:
        a, b = first["choices"][0]["logprobs"], second["choices"][0]["logprobs"]
        tokens_a, tokens_b = a["tokens"], b["tokens"]
        at = next(k for k, (x, y) in enumerate(zip(tokens_a, tokens_b)) if x != y)
        top_a, top_b = a["top_logprobs"][at], b["top_logprobs"][at]
    except (KeyError, IndexError, TypeError, StopIteration):
        top_a = top_b = None
        at = -1
    if at < 1 or not isinstance(top_a, dict) or not isinstance(top_b, dict) or not top_a or not top_b:
        return "its echo has no top_logprobs where the two probe prompts differ, so its alignment cannot be checked"
    shared = set(top_a) & set(top_b)
    if len(shared) < max(1, min(len(top_a), len(top_b)) // 2) or any(
            abs(float(top_a[t]) - float(top_b[t])) > ALIGNMENT_TOLERANCE for t in shared):
        def shown(top: dict) -> str:
            return ", ".join(f"{t!r}: {float(v):.4f}" for t, v in top.items())

        return (f"its echoed log-probabilities are one token late (the top log-probabilities echoed at "
                f"{tokens_a[at]!r} and at {tokens_b[at]!r} after the same tokens differ: {shown(top_a)} vs "
                f"{shown(top_b)}); llama-cpp-python does this for models without BOS (Qwen)")
    return None


def check_echo_alignment(client: EndpointClient, model: str, use_cache: bool = True) -> None:
    """Refuse (one InputError line naming the server) a server whose echoed prompt log-probabilities are not those of
    the echoed tokens (``echo_misalignment``); two short requests, once per server and model in a process. A passed
    probe is also kept in the cache (``CACHE_ALIGNMENT``, keyed as the scores it vouches for: server and model), so a
    run resumed after Ctrl-C or ``kill -9`` asks the server nothing it was asked before; a refusal is not kept (the
    next run probes again)."""
    key = (client.base, model)
    stored = cache.content_key([CACHE_ALIGNMENT, VERSION, SCORES_VERSION, client.base, model])
    with _aligned_lock:
        if key not in _aligned and use_cache and cache.load(CACHE_ALIGNMENT, stored) == "aligned":
            _aligned[key] = ""
        if key not in _aligned:
            answers = [client.call("/completions", {"model": model, "prompt": text, "max_tokens": 1,
                                                    "temperature": 0, "echo": True, "logprobs": ALIGNMENT_TOP})
                       for text in ALIGNMENT_PROBE]
            wrong = echo_misalignment(*answers) or echo_offsets_wrong(answers[0], ALIGNMENT_PROBE[0])
            _aligned[key] = "" if wrong is None else (
                f"{client.base}/v1/completions (model {model}) cannot score: {wrong}")
            if wrong is None and use_cache:
                cache.store(CACHE_ALIGNMENT, stored, "aligned")
        verdict = _aligned[key]
    if verdict:
        raise InputError(verdict)


class EndpointScorer(Scorer):
    """Scores candidate translations with a served model's prompt log-probabilities (``/v1/completions``)."""

    kind = "endpoint"

    def __init__(self, url: str, *, model: str | None = None, normalise: bool = False, use_target_context: bool = True,
                 src_lang: str | None = None, tgt_lang: str | None = None, prompt_file: str | None = None,
                 use_cache: bool = True, quiet: bool = False, concurrency: int = 4, timeout: float = 120.0,
                 client: EndpointClient | None = None):
        self.client = client or EndpointClient(url, concurrency=concurrency, timeout=timeout)
        self.model = self.client.served_model(model)
        self.name = self.model
        self.normalise, self.use_target_context = normalise, use_target_context
        self.src_lang, self.tgt_lang = src_lang or "en", tgt_lang or "en"
        self.use_cache, self.quiet = use_cache, quiet
        self.prompts = PromptBuilder.from_file(None, prompt_file)
        self.boundary_merges = 0
        self.read_from_end = 0  # candidates placed from the echo's end (read_echo): the server lost a token's text
        self._mode: str | None = None  # "echo" or "vllm" once a request returned prompt log-probabilities

    def fingerprint(self) -> str:
        """The server and the model it reports: all a served model's scores can be keyed by."""
        return f"openai-api:{self.client.base}:{self.model}"

    def cannot_score(self) -> str | None:
        """None when the server returns prompt log-probabilities the way ``one`` reads them (echoed and aligned, or
        vLLM's ``prompt_logprobs``), else why not: one short request, and the alignment probe for an echo."""
        try:
            self.one(ALIGNMENT_PROBE[0], "le chat")
        except InputError as exc:
            return exc.one_line()
        return None

    def signature_fields(self, k: int) -> list[tuple[str, str]]:
        return [("model", self.model), ("served", "openai-api"), ("lm", "causal"),
                ("prompt", f"plain:{self.prompts.template_hash}"), ("context", str(k)),
                ("tgtctx", "yes" if self.use_target_context else "no"),
                ("logprob", "mean" if self.normalise else "sum")]

    def one(self, prompt: str, candidate: str) -> tuple[float, int]:
        """(sum, token count) of a candidate after ``prompt``: ``echo`` + ``logprobs`` first (the OpenAI format), then
        vLLM's ``prompt_logprobs`` (a field other servers reject); the first way that works is kept for the run."""
        body = {"model": self.model, "prompt": prompt + " " + candidate, "max_tokens": 1, "temperature": 0,
                "echo": True, "logprobs": 1}
        found: EchoReading | tuple[float, int, bool] | None = None
        if self._mode in (None, "echo"):
            found = read_echo(self.client.call("/completions", body), len(prompt),
                              len(prompt) + 1 + len(candidate), body["prompt"],
                              f"{self.client.base}/v1/completions")
            if found is not None:
                check_echo_alignment(self.client, self.model, self.use_cache)
            self._mode = "echo" if found is not None else self._mode
        if found is None and self._mode in (None, "vllm"):
            try:
                answer = self.client.call("/completions", {**body, "echo": False, "logprobs": None,
                                                           "prompt_logprobs": 0})
            except InputError:  # a server without the field answers 400/422
                answer = {}
            found = _vllm_prompt_logprobs(answer, prompt, candidate, f"{self.client.base}/v1/completions")
            self._mode = "vllm" if found is not None else self._mode
        if found is None:
            raise InputError(f"{self.client.base}/v1/completions returns no prompt log-probabilities (echo + "
                             "logprobs, or prompt_logprobs): scoring needs a server that does (vLLM, llama.cpp's)")
        total, count, merged = found[:3]
        self.boundary_merges += merged
        self.read_from_end += isinstance(found, EchoReading) and found.from_end
        return total, count

    def logprobs(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[list[list[LogProb]]]:
        out = []
        for k in contexts:
            if k < 0:
                raise InputError(f"--context must be 0 or more, not {k}")
            rows = []
            for request in requests:
                src_ctx, tgt_ctx = request.context(k, self.use_target_context)
                message = self.prompts.request(request.source, self.src_lang, self.tgt_lang, src_ctx, tgt_ctx)
                prompt = f"{message}\n{self.prompts_language()}:"
                rows.extend((prompt, c) for c in request.candidates)
            before, from_end = self.boundary_merges, self.read_from_end
            asking = Asking(CACHE_SCORES, self._score_key, concurrently(self.client, lambda row: list(self.one(*row))),
                            json.dumps, _read_scored)
            raw = cached(asking, rows, self.use_cache).answers
            if self.boundary_merges > before and not self.quiet:
                print(f"discotest: {self.boundary_merges - before} candidates: a served token crossed the "
                      "prompt/candidate boundary; it was counted as the candidate's", file=sys.stderr)
            if self.read_from_end > from_end and not self.quiet:
                print(f"discotest: {self.read_from_end - from_end} candidates: the server's echo lost a token's text "
                      "before the candidate (its offsets fall short); read from the echo's end, where its tokens spell "
                      "the request", file=sys.stderr)
            out.append(split_by_item([(float(s), int(n)) for s, n in raw], requests))
        return out

    def _score_key(self, row: tuple[str, str]) -> str:
        """One (prompt, candidate)'s cache key: each answer is stored as it arrives, so a run stopped halfway (Ctrl-C,
        ``kill -9``) asks the server again only for what it had not answered."""
        return cache.content_key([CACHE_SCORES, "endpoint", VERSION, SCORES_VERSION, self.client.base, self.model,
                                  json.dumps(row, ensure_ascii=False)])

    def prompts_language(self) -> str:
        from discotest.models.llm_prompt import language_name

        return language_name(self.tgt_lang)


def _read_scored(text: str, _row: tuple[str, str]) -> list:
    """A cached score: [log-probability sum, token count]; anything else is damage (asked again)."""
    value = json.loads(text)
    if not (isinstance(value, list) and len(value) == 2):
        raise ValueError("not a cached score")
    return value


def concurrently(client: EndpointClient, function: Callable[[Any], Any]
                 ) -> Callable[[Sequence[Any], Callable[[int, Any], None]], None]:
    """An ``Asking.answer`` for a server: ``function`` over the requests with at most the client's ``concurrency``
    under way (``EndpointClient.map``), each answer handed on as it arrives."""

    def answer(requests: Sequence[Any], done: Callable[[int, Any], None]) -> None:
        client.map(lambda n: done(n, function(requests[n])), range(len(requests)))

    return answer


def _vllm_prompt_logprobs(answer: dict[str, Any], prompt: str, candidate: str, where: str = "the server"
                          ) -> tuple[float, int, bool] | None:
    """vLLM's ``prompt_logprobs``: one {token id: {logprob, decoded_token}} per prompt token (None for the first).
    The candidate's tokens are the trailing ones whose decoded text adds up to ``' ' + candidate``."""
    try:
        entries = answer["choices"][0].get("prompt_logprobs") or answer.get("prompt_logprobs")
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    if not entries:
        return None
    tail, total, count = " " + candidate, 0.0, 0
    for entry in reversed(entries):
        if not tail or not isinstance(entry, dict) or not entry:
            break
        first = next(iter(entry.values()))  # the prompt's own token is listed first
        text = (first.get("decoded_token") or "") if isinstance(first, dict) else ""
        value = first.get("logprob") if isinstance(first, dict) else None
        if not isinstance(value, int | float) or isinstance(value, bool) or value != value or value > LOGPROB_SLACK:
            raise InputError(f"{where}: its prompt_logprobs hold {value!r} for the candidate's token {text!r} (a "
                             "log-probability is a number at most 0); refusing to score")
        total, count = total + float(value), count + 1
        if len(text) >= len(tail):
            return total, count, len(text) > len(tail)
        tail = tail[:len(tail) - len(text)] if tail.endswith(text) else ""
    return None
