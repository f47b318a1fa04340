"""A tiny Hugging Face Llama or Qwen3 (tests/tiny_llm.py) written as a GGUF file for llama.cpp's servers, offline.

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

ARCHITECTURES = {"LlamaForCausalLM": ("LLAMA", "llama-bpe"), "Qwen3ForCausalLM": ("QWEN3", "qwen2")}


def permute(weights, n_head: int):
    """The converter's ``LlamaModel.permute``: rotate-half rows to interleaved pairs, per head."""
    return (weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
            .swapaxes(1, 2).reshape(weights.shape))


def write_tiny_gguf(model_dir: str | Path, out: str | Path) -> Path:
    """Write the tiny ``LlamaForCausalLM`` or ``Qwen3ForCausalLM`` in ``model_dir`` (with its real tokenizer) as
    float32 GGUF ``out``."""
    import gguf
    from safetensors.numpy import load_file
    from transformers import AutoTokenizer

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
    if rope.get("rope_type", "default") != "default":
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

    tok = AutoTokenizer.from_pretrained(model_dir)
    reverse = {i: t for t, i in tok.get_vocab().items()}
    added, decoder = tok.get_added_vocab(), tok.added_tokens_decoder
    tokens, types = [], []
    for i in range(config["vocab_size"]):
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
    if arch == gguf.MODEL_ARCH.QWEN3 and special.special_token_ids.get("bos") is None:
        special.special_token_ids["bos"] = tok.convert_tokens_to_ids("<|endoftext|>")
    special.add_to_gguf(writer)

    names = gguf.get_tensor_name_map(arch, config["num_hidden_layers"])
    for name, array in sorted(load_file(str(model_dir / "model.safetensors")).items()):
        array = array.astype("float32")
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
