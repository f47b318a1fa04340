"""Tiny randomly initialised decoder-only LLMs paired with the real tokenizers and chat templates of Qwen3, Llama 3.1
and Gemma 3 (../shared/data/llm_tokenizers, see its PROVENANCE.md), built offline for tests and bench.

The architecture is the real one (``Qwen3ForCausalLM``, ``LlamaForCausalLM``, ``Gemma3ForCausalLM``) with two layers
of width 16, and the vocabulary is the tokenizer's full one, so prompts, special tokens, BOS and padding behave as
with the real models; only the weights are random.
"""

from __future__ import annotations

import shutil
from pathlib import Path

FAMILIES = ("qwen3", "llama3_1", "gemma3")


def build_tiny_llm(family: str, tokenizers: Path, folder: str | Path, seed: int = 0, hidden: int = 16,
                   layers: int = 2, **shape) -> Path:
    """Save a tiny random ``family`` model with its real tokenizer files in ``folder``; ``shape`` overrides config
    fields (``intermediate_size``, ``num_attention_heads``, … : the bench gives a real model's proportions)."""
    import torch
    from transformers import AutoTokenizer

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    source = Path(tokenizers) / family
    tok = AutoTokenizer.from_pretrained(source)
    size = dict(vocab_size=len(tok), hidden_size=hidden, intermediate_size=2 * hidden, num_hidden_layers=layers,
                num_attention_heads=2, num_key_value_heads=1, head_dim=hidden // 2, max_position_embeddings=2048,
                bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
                pad_token_id=tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id)
    if family == "qwen3":
        from transformers import Qwen3Config as Config
        from transformers import Qwen3ForCausalLM as Model
    elif family == "llama3_1":
        from transformers import LlamaConfig as Config
        from transformers import LlamaForCausalLM as Model
    elif family == "gemma3":
        from transformers import Gemma3ForCausalLM as Model
        from transformers import Gemma3TextConfig as Config

        size.update(sliding_window=512)
    else:
        raise ValueError(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")
    size.update(shape)
    torch.manual_seed(seed)
    model = Model(Config(**size)).eval()
    model.save_pretrained(folder)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copyfile(source / name, folder / name)
    return folder


def without_chat_template(model: str | Path, folder: str | Path) -> Path:
    """A copy of a model in ``folder`` without its chat template: the plain completion prompt, what a server's
    ``/v1/completions`` renders (it applies no chat template)."""
    import json

    folder = Path(folder)
    shutil.copytree(model, folder)
    config = json.loads((folder / "tokenizer_config.json").read_text("utf-8"))
    config.pop("chat_template", None)
    (folder / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
    return folder
