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


def small_vocabulary(family: str, tokenizers: Path, folder: str | Path, size: int = 512) -> Path:
    """``folder/family``: the real BPE tokenizer of ``family`` cut to its first ``size`` tokens and the tokens their
    merges are made of, its added tokens other than the reserved/unused ones renumbered after them. Llama 3.1 and Qwen3
    (byte-level): every byte is among the first tokens and a rank's parts have lower ranks, so nothing is added. Gemma 3
    (SentencePiece-style, byte fallback): its control tokens, line-break runs and the 256 ``<0xXX>`` byte tokens are
    ids 0-493 and its single characters come last, so the parts of the kept pieces (``▁``, ``t``, …) are added; a
    character cut away is encoded as its bytes (Hugging Face and llama.cpp read the same file). Why:
    llama-cpp-python sorts the whole vocabulary in Python for every echoed token (~0.7 s a token at 128k, more at
    Gemma's 262k), so a served test of *orchestration* (resume, retries, request counts, a card's rows) runs on this
    one; the same normalizer, pre-tokenizer, BOS and template as the real family."""
    import json

    source, out = Path(tokenizers) / family, Path(folder) / family
    out.mkdir(parents=True, exist_ok=True)
    spec = json.loads((source / "tokenizer.json").read_text("utf-8"))
    model = spec["model"]
    if model["type"] != "BPE" or not (spec["decoder"]["type"] == "ByteLevel" or model.get("byte_fallback")):
        raise ValueError(f"{source}: only a byte-level or byte-fallback BPE vocabulary is cut, not {model['type']}")
    if sum(i < size for i in model["vocab"].values()) != size:
        raise ValueError(f"{source}: ids below {size} are not all tokens")
    made_of: dict[str, list[tuple[str, str]]] = {}  # a token -> the merges that make it, first merge first
    for merge in model["merges"]:
        left, right = merge.split(" ", 1) if isinstance(merge, str) else merge
        made_of.setdefault(left + right, []).append((left, right))
    kept = {token for token, i in model["vocab"].items() if i < size}
    todo = list(kept)
    while todo:  # a kept token no merge of kept tokens makes brings its first merge's parts (Gemma: ``▁``, ``t``, …)
        merges = made_of.get(todo.pop(), [])
        if merges and not any(left in kept and right in kept for left, right in merges):
            todo.extend(part for part in merges[0] if part not in kept)
            kept.update(merges[0])
    vocab = {token: k for k, token in enumerate(sorted(kept, key=model["vocab"].__getitem__))}
    if model.get("byte_fallback") and not all(f"<0x{b:02X}>" in vocab for b in range(256)):
        raise ValueError(f"{source}: the byte tokens are not all below {size}")
    renumber = {model["vocab"][token]: k for token, k in vocab.items()}
    moved = [a["id"] for a in spec["added_tokens"] if a["id"] not in renumber and "reserved" not in a["content"]
             and not a["content"].startswith("<unused")]
    renumber.update({i: len(vocab) + k for k, i in enumerate(moved)})
    spec["added_tokens"] = [{**a, "id": renumber[a["id"]]} for a in spec["added_tokens"] if a["id"] in renumber]
    merges = []
    for merge in model["merges"]:
        left, right = merge.split(" ", 1) if isinstance(merge, str) else merge
        if left in vocab and right in vocab and left + right in vocab:
            merges.append(merge)
    model["vocab"], model["merges"] = vocab, merges

    def renumbered(node):
        if isinstance(node, dict):
            return {k: ([renumber[i] for i in v] if k == "ids" else renumbered(v)) for k, v in node.items()}
        return [renumbered(v) for v in node] if isinstance(node, list) else node

    spec["post_processor"] = renumbered(spec["post_processor"])
    (out / "tokenizer.json").write_text(json.dumps(spec, ensure_ascii=False), "utf-8")
    config = json.loads((source / "tokenizer_config.json").read_text("utf-8"))
    config["added_tokens_decoder"] = {str(renumber[int(i)]): v for i, v in config["added_tokens_decoder"].items()
                                      if int(i) in renumber}
    (out / "tokenizer_config.json").write_text(json.dumps(config, ensure_ascii=False), "utf-8")
    return out
