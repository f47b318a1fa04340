"""A tiny Hugging Face Llama or Qwen3 (tests/support/tiny_llm.py) written as a GGUF file for llama.cpp's servers,
offline.

What llama.cpp's own ``convert_hf_to_gguf.py`` does for a Llama 3 model with a ``tokenizer.json`` (its ``LlamaModel``
and ``TextModel._set_vocab_gpt2``), for the parts a tiny model has, with the ``gguf`` package (the same version as
the converter's own ``gguf-py``): the hyperparameters, the BPE vocabulary with its token types and merges, the
pre-tokenizer name (``llama-bpe``: the one the converter derives from Llama 3's tokenizer hash), and the tensors in
float32 with the query and key projections permuted from Hugging Face's rotate-half layout to llama.cpp's interleaved
one.

Qwen3 (the converter's ``Qwen3Model``, a ``Qwen2Model``): the same hyperparameters and GPT-2 style vocabulary with the
``qwen2`` pre-tokenizer; no permutation (llama.cpp runs Qwen's rotary embedding in the rotate-half "NEOX" layout);
the per-head query and key RMS norms as ``attn_q_norm``/``attn_k_norm``; no BOS is added. The tensor names come from
``gguf``'s own name map for the architecture (what the converter uses). The real Qwen3 configs name
``<|endoftext|>`` as BOS (never added); the tiny config has none, so that token is written as BOS as in the real
GGUFs (else llama.cpp would take token 11, ``,``, for BOS).

The converter is not on PyPI (only the ``llama-cpp-python`` sdist carries it), so the test writes the file
itself. Checked once against that converter (llama-cpp-python 0.3.36's, ``--outtype f32``) on the tiny Llama: the
same tensors, tokens, token types and merges; the metadata differs only in ``general.*`` labels and an explicit
``add_eos_token`` false (the default). The served scores equal to the local ones check it in every run.
"""

from __future__ import annotations

import json
from pathlib import Path

ARCHITECTURES = {"LlamaForCausalLM": ("LLAMA", "llama-bpe"), "Qwen3ForCausalLM": ("QWEN3", "qwen2"),
                 "Gemma3ForCausalLM": ("GEMMA3", "gemma4")}
# llama.cpp's gemma3 takes every 6th layer as global (full) attention, the others as sliding (``load_swa_pattern``)
GEMMA3_SWA_PATTERN = 6


def permute(weights, n_head: int):
    """The converter's ``LlamaModel.permute``: rotate-half rows to interleaved pairs, per head."""
    return (weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
            .swapaxes(1, 2).reshape(weights.shape))


def write_tiny_gguf(model_dir: str | Path, out: str | Path) -> Path:
    """Write the tiny ``LlamaForCausalLM``, ``Qwen3ForCausalLM`` or ``Gemma3ForCausalLM`` in ``model_dir`` (with its
    real tokenizer) as float32 GGUF ``out``."""
    import gguf
    from safetensors.numpy import load_file

    model_dir, out = Path(model_dir), Path(out)
    config = json.loads((model_dir / "config.json").read_text("utf-8"))
    found = (config.get("architectures") or [None])[0]
    if found not in ARCHITECTURES:
        raise ValueError(f"{model_dir}: only {', '.join(ARCHITECTURES)} are written, not {found}")
    arch_name, pre = ARCHITECTURES[found]
    arch = gguf.MODEL_ARCH[arch_name]
    n_head, n_kv = config["num_attention_heads"], config["num_key_value_heads"]
    head_dim = config.get("head_dim") or config["hidden_size"] // n_head
    rope = config.get("rope_parameters") or {}
    if arch == gguf.MODEL_ARCH.GEMMA3:
        local_rope, rope = rope.get("sliding_attention", {}), rope.get("full_attention", {})
        for parameters in (local_rope, rope):
            if parameters.get("rope_type", "default") != "default":
                raise ValueError(f"{model_dir}: rope scaling {parameters.get('rope_type')!r} is not written")
    elif rope.get("rope_type", "default") != "default":
        raise ValueError(f"{model_dir}: rope scaling {rope.get('rope_type')!r} is not written")
    writer = gguf.GGUFWriter(str(out), gguf.MODEL_ARCH_NAMES[arch])
    writer.add_name(model_dir.name)
    writer.add_block_count(config["num_hidden_layers"])
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_head_count(n_head)
    writer.add_head_count_kv(n_kv)
    writer.add_key_length(head_dim)
    writer.add_value_length(head_dim)
    writer.add_rope_freq_base(float(rope.get("rope_theta", config.get("rope_theta", 10000.0))))
    writer.add_layer_norm_rms_eps(config["rms_norm_eps"])
    writer.add_vocab_size(config["vocab_size"])
    writer.add_rope_dimension_count(head_dim)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    if arch == gguf.MODEL_ARCH.GEMMA3:
        _gemma3_parameters(writer, config, local_rope, head_dim, model_dir)
        _gemma3_vocabulary(writer, model_dir, config["vocab_size"])
    else:
        _gpt2_vocabulary(writer, model_dir, config["vocab_size"], pre, arch == gguf.MODEL_ARCH.QWEN3)

    names = gguf.get_tensor_name_map(arch, config["num_hidden_layers"])
    for name, array in sorted(load_file(str(model_dir / "model.safetensors")).items()):
        array = array.astype("float32")
        if arch == gguf.MODEL_ARCH.GEMMA3:
            if name == "lm_head.weight" and config.get("tie_word_embeddings", True):
                continue  # tied: llama.cpp reads the output from the embedding (no ``output`` tensor)
            if name.endswith("norm.weight"):
                array = array + 1.0  # Gemma3RMSNorm multiplies by (1 + weight); llama.cpp's RMS norm by the weight
        target = names.get_name(name, try_suffixes=(".weight", ".bias"))
        if target is None:
            raise ValueError(f"{model_dir}: no GGUF name for tensor {name}")
        if arch == gguf.MODEL_ARCH.LLAMA and name.endswith("self_attn.q_proj.weight"):
            array = permute(array, n_head)
        elif arch == gguf.MODEL_ARCH.LLAMA and name.endswith("self_attn.k_proj.weight"):
            array = permute(array, n_kv)
        writer.add_tensor(target, array)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


def _gpt2_vocabulary(writer, model_dir: Path, vocab_size: int, pre: str, qwen: bool) -> None:
    """Llama 3's and Qwen3's byte-level BPE (the converter's ``_set_vocab_gpt2``)."""
    import gguf
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    reverse = {i: t for t, i in tok.get_vocab().items()}
    added, decoder = tok.get_added_vocab(), tok.added_tokens_decoder
    tokens, types = [], []
    for i in range(vocab_size):
        token = reverse.get(i)
        if token is None:
            tokens.append(f"[PAD{i}]")
            types.append(gguf.TokenType.UNUSED)
            continue
        if token in added:
            if not decoder[i].normalized:
                token = tok.decode(tok.encode(token, add_special_tokens=False))
            types.append(gguf.TokenType.CONTROL if decoder[i].special else gguf.TokenType.USER_DEFINED)
        else:
            types.append(gguf.TokenType.NORMAL)
        tokens.append(token)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(pre)
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    special = gguf.SpecialVocab(model_dir, load_merges=True)
    if qwen and special.special_token_ids.get("bos") is None:
        special.special_token_ids["bos"] = tok.convert_tokens_to_ids("<|endoftext|>")
    special.add_to_gguf(writer)


def _gemma3_parameters(writer, config: dict, local_rope: dict, head_dim: int, model_dir: Path) -> None:
    """What llama.cpp's gemma3 reads beyond a Llama's: the sliding window (its pattern is fixed: every 6th layer
    global), the local layers' rope base, and nothing for the attention scale, which it fixes at 1/sqrt(head_dim)
    (all sizes but 27B) where Hugging Face takes ``query_pre_attn_scalar``^-0.5: real Gemma 3 1B/4B/12B have both
    256; a tiny model must set them equal."""
    if config.get("query_pre_attn_scalar") != head_dim:
        raise ValueError(f"{model_dir}: query_pre_attn_scalar {config.get('query_pre_attn_scalar')} is not head_dim "
                         f"{head_dim}: llama.cpp's gemma3 scales attention by 1/sqrt(head_dim)")
    if config.get("final_logit_softcapping"):
        writer.add_final_logit_softcapping(config["final_logit_softcapping"])
    if config.get("attn_logit_softcapping"):
        raise ValueError(f"{model_dir}: attention logit soft-capping is not in llama.cpp's gemma3")
    pattern = ["full_attention" if (i + 1) % GEMMA3_SWA_PATTERN == 0 else "sliding_attention"
               for i in range(config["num_hidden_layers"])]
    if config.get("layer_types", pattern) != pattern:
        raise ValueError(f"{model_dir}: layer_types are not llama.cpp's gemma3 pattern (every "
                         f"{GEMMA3_SWA_PATTERN}th layer global)")
    writer.add_sliding_window(config["sliding_window"])
    writer.add_sliding_window_pattern(GEMMA3_SWA_PATTERN)
    writer.add_rope_freq_base_swa(float(local_rope.get("rope_theta", 10000.0)))


def _gemma3_vocabulary(writer, model_dir: Path, vocab_size: int) -> None:
    """Gemma 3's ``tokenizer.json`` (no SentencePiece ``tokenizer.model``) as llama.cpp's "gemma4" tokenizer:
    SentencePiece-style BPE on raw UTF-8 (spaces to ▁, merges over the text, ``<0xXX>`` byte fallback), the merges
    from the file. Token types: ``<0xXX>`` BYTE; added tokens marked special CONTROL; other added tokens
    USER_DEFINED (matched in the raw text, as Hugging Face matches them) except the runs of ▁ or line breaks, which
    stay NORMAL so that they print as spaces and are found by the merges as Hugging Face finds them (the converter's
    ``LlamaHfVocab`` types every added token inside the base vocabulary NORMAL, ``<start_of_turn>`` included)."""
    import re

    import gguf
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    reverse = {i: t for t, i in tok.get_vocab().items()}
    decoder = tok.added_tokens_decoder
    tokens, types = [], []
    for i in range(vocab_size):
        token = reverse[i]
        if re.fullmatch(r"<0x[0-9A-F]{2}>", token):
            kind = gguf.TokenType.BYTE
        elif i in decoder and decoder[i].special:
            kind = gguf.TokenType.CONTROL
        elif i in decoder and not re.fullmatch(r"▁+|\n+", token):
            kind = gguf.TokenType.USER_DEFINED
        else:
            kind = gguf.TokenType.NORMAL
        tokens.append(token)
        types.append(kind)
    writer.add_tokenizer_model("gemma4")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    special = gguf.SpecialVocab(model_dir, load_merges=True)
    special.add_to_gguf(writer)
    writer.add_add_space_prefix(False)
