"""``python -m llama_cpp.server`` with its per-token sort of the whole vocabulary replaced by a top-k selection that
gives the same first ``TOP`` entries: llama-cpp-python 0.3.36 builds ``top_logprobs`` by sorting (log-probability,
token id) pairs of the whole vocabulary in Python for every echoed token (262,144 for Gemma 3: about 0.5 s a token
on an idle core here, minutes per scored candidate on the shared 2-core machine), then keeps ``[:logprobs]`` of them.

    python -m bench.llm.llama_server_topk --model M.gguf …     # the server's own options

Only the module's own ``sorted`` is replaced, and only for the call it makes there, ``sorted(zip(values,
range(n)), reverse=True)``: the values are read back from the zip (a sequence iterator reduces to its sequence), and
the ``TOP`` largest pairs are returned in the order ``sorted`` gives them (ties: the larger token id first). Anything
else goes to the built-in ``sorted``. A request for more than ``TOP`` log-probabilities is refused by the check at
start-up; discotest asks for 5 at most (``models/endpoint.py``'s alignment probe). ``check()`` compares both on random
values with ties before the server starts.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

TOP = 20  # more than any request asks for (OpenAI's API allows 5 prompt log-probabilities)


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
    values = np.asarray(reduced[1][0], dtype=np.float64)
    if values.ndim != 1 or second.__reduce__()[1][0] != range(len(values)):
        return None
    return values


def top_sorted(iterable: Any, *, key: Any = None, reverse: bool = False) -> list:
    """``sorted``'s first ``TOP`` entries for ``sorted(zip(values, range(n)), reverse=True)``; else ``sorted``."""
    values = _values(iterable) if key is None and reverse else None
    if values is None:
        return builtins.sorted(iterable, key=key, reverse=reverse)
    k = min(TOP, len(values))
    ids = np.arange(len(values))
    chosen = np.argpartition(-values, k - 1)[:k] if k < len(values) else ids
    threshold = values[chosen].min()
    candidates = ids[values >= threshold]  # every tie at the cut, so the order below decides among them
    order = np.lexsort((-candidates, -values[candidates]))[:k]  # value descending, then id descending
    picked = candidates[order]
    return [(float(values[i]), int(i)) for i in picked]


def check(trials: int = 200) -> None:
    """The replacement gives ``sorted``'s first ``TOP`` pairs (random values with many ties, and a list input)."""
    rng = np.random.default_rng(0)
    for trial in range(trials):
        n = int(rng.integers(1, 3000))
        values = rng.integers(-8, 0, n).astype(np.float32) if trial % 2 else rng.normal(size=n).astype(np.float32)
        source = values if trial % 3 else values.tolist()
        expected = builtins.sorted(zip(source, range(len(source))), reverse=True)[:TOP]
        got = top_sorted(zip(source, range(len(source))), reverse=True)
        assert [(float(v), i) for v, i in expected] == got, (trial, expected[:3], got[:3])


def main() -> None:
    import runpy

    import llama_cpp.llama

    check()
    llama_cpp.llama.sorted = top_sorted  # the module's global: only its three top_logprobs sorts use it
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
