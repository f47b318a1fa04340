"""The bench's llama.cpp server (``bench/llm/llama_server_topk.py``: llama-cpp-python's server with a cheaper top-20
selection, a log-softmax without two temporary arrays, and every token's logits kept only for requests that ask for
log-probabilities) answers as the unpatched server does: the replacements against the originals on random values, and
both servers on the same requests (the tiny Llama with its vocabulary cut to 512 tokens: tests/conftest.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("gguf")
pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] (the serve-test extra) is not installed")

import llama_cpp.llama  # noqa: E402
from bench.llm import llama_server_topk  # noqa: E402

from discotest.models.endpoint import EndpointClient  # noqa: E402
from tests.support.served import serve_gguf  # noqa: E402
from tests.support.tiny_gguf import write_tiny_gguf  # noqa: E402
from tests.support.tiny_llm import build_tiny_llm, small_vocabulary  # noqa: E402

ALIAS = "tiny-llama3_1"


def test_the_replacements_give_the_originals_answers(monkeypatch):
    monkeypatch.setattr(llama_server_topk, "_ORIGINAL", llama_cpp.llama.Llama.logits_to_logprobs)
    llama_server_topk.check(trials=60)


def test_a_nan_row_goes_to_the_builtin_sort():
    import numpy as np

    values = np.full(1000, np.nan, dtype=np.float32)
    values[:5] = [1, 2, 3, 4, 5]
    assert llama_server_topk._top(values) is None
    assert len(llama_server_topk.top_sorted(zip(values, range(1000)), reverse=True)) == 1000


@pytest.mark.slow
def test_the_patched_server_answers_as_the_plain_one(shared_data, tmp_path):
    """An echo after a request that asked for no log-probabilities (its prompt prefix evaluated without every
    token's logits) must not read the logits of that prefix: they were not kept. The plain server keeps them always."""
    tokenizer = small_vocabulary("llama3_1", shared_data / "llm_tokenizers", tmp_path / "tokenizers")
    model = write_tiny_gguf(build_tiny_llm("llama3_1", tokenizer.parent, tmp_path / "model"), tmp_path / "tiny.gguf")
    shared = "Translate into German: the doctor asked the nurse whether she had seen"
    requests = [
        {"prompt": "the cat sat on the mat", "max_tokens": 1, "temperature": 0, "echo": True, "logprobs": 1},
        {"prompt": shared + " the", "max_tokens": 6, "temperature": 0},  # no log-probabilities asked
        {"prompt": shared + " him", "max_tokens": 1, "temperature": 0, "echo": True, "logprobs": 1},
        {"prompt": shared + " her", "max_tokens": 1, "temperature": 0, "echo": True, "logprobs": 5},
    ]
    answers = {}
    for module in ("llama_cpp.server", "bench.llm.llama_server_topk"):
        folder = tmp_path / module
        folder.mkdir()
        with serve_gguf(model, ALIAS, folder, module=module) as url:
            client = EndpointClient(url, concurrency=1)
            answers[module] = [client.call("/completions", {"model": ALIAS, **body}) for body in requests]
    for plain, patched in zip(*answers.values(), strict=True):
        a, b = plain["choices"][0], patched["choices"][0]
        assert a["text"] == b["text"] and a["logprobs"] == b["logprobs"]
