"""``python -m llama_cpp.server`` with the per-token work of its echoed log-probabilities made cheaper (same
answers), and every long token's text kept: llama-cpp-python 0.3.36 answers an echo (``echo`` + ``logprobs``: how
discotest scores a candidate through the OpenAI API) by a log-softmax of every prompt token's logits
(``Llama.logits_to_logprobs``: 262,144 per token for Gemma 3) and then, for every token, a sort of all
(log-probability, token id) pairs in Python, of which it keeps ``[:logprobs]`` (``top_logprobs``). Measured in one
process on a jazp item's 81-token prompt (the shared 2-core machine): the sort 3.6 ms a token, the log-softmax 58-128
ms a request.

    python -m bench.llm.llama_server_topk --model M.gguf …     # the server's own options

Three replacements that answer the same; the first two are checked at start-up against the originals (``check()``), or
the server does not start, the third by ``tests/models/test_llama_server_patch.py`` (both servers, the same requests):

- ``top_sorted`` replaces the module's own ``sorted``, only for the call it makes there, ``sorted(zip(values,
  range(n)), reverse=True)``: the values are read back from the zip (a sequence iterator reduces to its sequence), and
  the ``TOP`` largest pairs are returned in the order ``sorted`` gives them (ties: the larger token id first). It
  takes the largest value of each ``CHUNK`` of the vocabulary; the ``TOP``-th largest of those is at most the
  ``TOP``-th largest value (``TOP`` chunks each hold a value at least as large), so the values at or above it hold
  the ``TOP`` largest and every tie among them, and only those are sorted (0.26 ms a token, was 3.6). Anything else,
  and a row with a NaN, goes to the built-in ``sorted``.
- ``logits_to_logprobs`` computes the same float32 operations in the same order (the maximum, the shifted logits,
  their exponentials, the sum, its logarithm, the difference: bit for bit the original's, ``check()`` compares the
  bits) without two of the original's four full-size temporary arrays (40 ms a request, was 58-128).
- ``create_completion`` keeps every token's logits (``logits_all``) only for a request that asks for
  log-probabilities: a translation reads the last token's, and the rest cost 25-37% of its CPU (a WinoMT sentence
  0.59 -> 0.44 s in one process; MiTTenS 1.62 -> 1.02 s an item served, ``bench/figures/score_identity.json``). The
  server must be started with ``logits_all`` (else llama-cpp-python's own behaviour is kept).

And one mend, the only change to what the server answers: ``detokenize`` gives a token whose text is longer than 32
bytes its text (llama-cpp-python 0.3.36 drops it: abetlen/llama-cpp-python#2362). Gemma 3 has 379 such tokens of
262,144, one of them ありがとうございました, common in BSD's dialogues: the plain server echoes that token as "" and
every ``text_offset`` after it 11 characters short (the BSD row at ``--limit 200`` was refused for it, issue 54), and
drops it from a translation. Every other token's text is the original's (``tests/models/test_llama_server_patch.py``
compares the two over the real model's whole vocabulary); the log-probabilities do not move.

A request for more than ``TOP`` log-probabilities is refused by the check at start-up; discotest asks for 5 at most
(``models/endpoint.py``'s alignment probe).
"""

from __future__ import annotations

import builtins
import inspect
from typing import Any

import numpy as np

TOP = 20  # more than any request asks for (OpenAI's API allows 5 prompt log-probabilities)
CHUNK = 256  # the vocabulary is read in chunks of this many values for the threshold (1,024 chunks for Gemma 3)


def _values(pairs: Any) -> np.ndarray | None:
    """The values of ``zip(values, range(len(values)))``, or None for any other argument."""
    if type(pairs) is not zip:
        return None
    _, iterators = pairs.__reduce__()
    if len(iterators) != 2:
        return None
    first, second = iterators
    reduced = first.__reduce__()
    if len(reduced) < 3 or reduced[2] != 0 or type(second) is not type(iter(range(0))):
        return None  # not a fresh iterator over a sequence, or not over range(n)
    values = np.asarray(reduced[1][0])  # a llama.cpp row stays float32: compared as sorted compares its scalars
    if values.ndim != 1 or values.dtype.kind != "f" or second.__reduce__()[1][0] != range(len(values)):
        return None
    return values


def _top(values: np.ndarray) -> list[tuple[float, int]] | None:
    """The ``TOP`` largest (value, index) pairs, value descending then index descending (``sorted``'s order with
    ``reverse=True``); None for a row with a NaN (a chunk's maximum is NaN: ``sorted``'s order is the built-in's)."""
    n = len(values)
    k = min(TOP, n)
    whole = n - n % CHUNK
    maxima = values[:whole].reshape(-1, CHUNK).max(axis=1)
    if n > whole:
        maxima = np.append(maxima, values[whole:].max())
    if np.isnan(maxima).any():
        return None
    if len(maxima) > k:
        threshold = np.partition(maxima, len(maxima) - k)[len(maxima) - k]
        ids = np.flatnonzero(values >= threshold)
    else:
        ids = np.arange(n)
    picked = ids[np.lexsort((-ids, -values[ids]))[:k]]  # value descending, then id descending
    return [(float(values[i]), int(i)) for i in picked]


def top_sorted(iterable: Any, *, key: Any = None, reverse: bool = False) -> list:
    """``sorted``'s first ``TOP`` entries for ``sorted(zip(values, range(n)), reverse=True)``; else ``sorted``."""
    values = _values(iterable) if key is None and reverse else None
    found = _top(values) if values is not None and len(values) else None
    if found is None:
        return builtins.sorted(iterable if values is None else zip(values, range(len(values))), key=key,
                               reverse=reverse)
    return found


def logits_to_logprobs(logits: Any, axis: int = -1) -> np.ndarray:
    """``Llama.logits_to_logprobs``, bit for bit (the same float32 operations in the same order), with the
    exponentials written into one reused array and the result into the shifted logits."""
    if not isinstance(logits, np.ndarray):
        return _ORIGINAL(logits, axis)
    maxima = np.amax(logits, axis=axis, keepdims=True)
    if maxima.ndim > 0:
        maxima[~np.isfinite(maxima)] = 0
    elif not np.isfinite(maxima):
        maxima = 0
    shifted = np.subtract(logits, maxima, dtype=np.single)
    exps = _scratch(shifted.shape)
    np.exp(shifted, out=exps)
    with np.errstate(divide="ignore"):
        summed = np.sum(exps, axis=axis, keepdims=True)
        out = np.log(summed)
    return np.subtract(shifted, out, out=shifted)


_SCRATCH: list[np.ndarray] = []


def _scratch(shape: tuple[int, ...]) -> np.ndarray:
    """A float32 array of ``shape`` kept between requests (the server answers one at a time: one lock)."""
    size = int(np.prod(shape))
    if not _SCRATCH or _SCRATCH[0].size < size:
        _SCRATCH[:] = [np.empty(max(size, 1), dtype=np.single)]
    return _SCRATCH[0][:size].reshape(shape)


_ORIGINAL: Any = None
_CREATE: Any = None


def create_completion(self: Any, *args: Any, **kwargs: Any) -> Any:
    """``Llama.create_completion`` with llama.cpp's logits kept for every token only when the request asks for
    log-probabilities (``logits_all``): a translation needs the last token's only, and computing and copying the
    262,144 logits of every prompt token costs a quarter to a third of its CPU. A request that asks for them after
    one that did not evaluates its whole prompt again: the kept logits of a reused prompt prefix would be missing (the
    test fails without it)."""
    wanted = _CREATE_SIGNATURE.bind(self, *args, **kwargs).arguments.get("logprobs") is not None
    if self.scores.shape[0] < self._n_ctx:  # started without logits_all: as llama-cpp-python does
        return _CREATE(self, *args, **kwargs)
    if wanted and not getattr(self, "_every_row_kept", True):
        self.n_tokens = 0  # no prefix reuse: the rows of the previous prompt were not kept
    self._logits_all = wanted
    self._every_row_kept = wanted
    return _CREATE(self, *args, **kwargs)


_CREATE_SIGNATURE: Any = None


def detokenize(self: Any, tokens: list[int], special: bool = False) -> bytes:
    """``LlamaModel.detokenize`` with every token's whole text: llama-cpp-python 0.3.36 reads each piece into a
    32-byte buffer and keeps ``buffer[:n]``, but ``llama_token_to_piece`` answers a longer piece with ``n = -(its
    size)`` and writes nothing, so the piece is dropped (abetlen/llama-cpp-python#2362; Gemma 3's
    ありがとうございました, 33 bytes): from a translation's text, from an echoed token and from every ``text_offset``
    after it. Here such a piece is read again into a buffer of its size; every other piece as before."""
    import ctypes

    import llama_cpp

    output = b""
    size = 32
    buffer = (ctypes.c_char * size)()
    for token in tokens:
        n = llama_cpp.llama_token_to_piece(self.vocab, llama_cpp.llama_token(token), buffer, size, 0, special)
        if n < 0:  # the piece did not fit: a buffer of its size
            size = -n
            buffer = (ctypes.c_char * size)()
            n = llama_cpp.llama_token_to_piece(self.vocab, llama_cpp.llama_token(token), buffer, size, 0, special)
            if n < 0:
                raise RuntimeError(f"llama_token_to_piece: token {token} needs {-n} bytes, given {size}")
        output += bytes(buffer[:n])
    # as the original: a leading space after BOS is not the text's (Llama 1's SentencePiece added it)
    return output[1:] if len(tokens) > 0 and tokens[0] == self.token_bos() and output[0:1] == b" " else output


def check(trials: int = 200) -> None:
    """Both replacements give the original's answers: ``top_sorted`` ``sorted``'s first ``TOP`` pairs (random values
    with many ties, -inf, NaN, short and long rows, float32 rows and lists), ``logits_to_logprobs`` the original's
    bits (rows with -inf and a row all -inf)."""
    rng = np.random.default_rng(0)
    for trial in range(trials):
        n = int(rng.integers(1, 3000)) if trial % 5 else int(rng.integers(20_000, 70_000))
        values = rng.integers(-8, 0, n).astype(np.float32) if trial % 2 else rng.normal(size=n).astype(np.float32)
        if trial % 7 == 0:
            values[rng.integers(0, n, 3)] = -np.inf
        if trial % 11 == 0:
            values[rng.integers(0, n)] = np.nan
        source = values if trial % 3 else values.tolist()
        expected = builtins.sorted(zip(source, range(len(source))), reverse=True)[:TOP]
        got = top_sorted(zip(source, range(len(source))), reverse=True)[:TOP]
        if trial % 11:  # NaN: sorted's order is not defined, only that the built-in gives it
            assert [(float(v), i) for v, i in expected] == [(float(v), i) for v, i in got], (trial, expected[:3])
    for rows, width in ((1, 1), (3, 7), (9, 5000), (40, 262_144)):
        logits = (rng.normal(size=(rows, width)) * 8).astype(np.float32)
        logits[0, 0] = -np.inf
        if rows > 2:
            logits[2, :] = -np.inf
        with np.errstate(invalid="ignore"):
            a, b = _ORIGINAL(logits), logits_to_logprobs(logits)
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32)), \
            (rows, width)


def main() -> None:
    import runpy

    import llama_cpp.llama

    global _ORIGINAL, _CREATE, _CREATE_SIGNATURE
    _ORIGINAL = llama_cpp.llama.Llama.logits_to_logprobs
    check()
    llama_cpp.llama.sorted = top_sorted  # the module's global: only its three top_logprobs sorts use it
    llama_cpp.llama.Llama.logits_to_logprobs = staticmethod(logits_to_logprobs)
    _CREATE = llama_cpp.llama.Llama.create_completion
    _CREATE_SIGNATURE = inspect.signature(_CREATE)
    llama_cpp.llama.Llama.create_completion = create_completion
    llama_cpp._internals.LlamaModel.detokenize = detokenize
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
