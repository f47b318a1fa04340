"""A tiny Hugging Face Llama (tests/tiny_llm.py) written as a GGUF file for llama.cpp's servers, offline.

What llama.cpp's own ``convert_hf_to_gguf.py`` does for a Llama 3 model with a ``tokenizer.json`` (its ``LlamaModel``
and ``TextModel._set_vocab_gpt2``), for the parts a tiny model has, with the ``gguf`` package (the same version as
the converter's own ``gguf-py``): the hyperparameters, the BPE vocabulary with its token types and merges, the
pre-tokenizer name (``llama-bpe``: the one the converter derives from Llama 3's tokenizer hash), and the tensors in
float32 with the query and key projections permuted from Hugging Face's rotate-half layout to llama.cpp's interleaved
one. The converter is not on PyPI (only the ``llama-cpp-python`` sdist carries it), so the test writes the file
itself. Checked once against that converter (llama-cpp-python 0.3.36's, ``--outtype f32``) on the tiny Llama: the
same tensors, tokens, token types and merges; the metadata differs only in ``general.*`` labels and an explicit
``add_eos_token`` false (the default). The served scores equal to the local ones check it in every run.
"""

from __future__ import annotations

import json
from pathlib import Path

LAYER_NAMES = {"self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k", "self_attn.v_proj": "attn_v",
               "self_attn.o_proj": "attn_output", "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up",
               "mlp.down_proj": "ffn_down", "input_layernorm": "attn_norm", "post_attention_layernorm": "ffn_norm"}


def permute(weights, n_head: int):
    """The converter's ``LlamaModel.permute``: rotate-half rows to interleaved pairs, per head."""
    return (weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
            .swapaxes(1, 2).reshape(weights.shape))


def write_tiny_llama_gguf(model_dir: str | Path, out: str | Path) -> Path:
    """Write the tiny ``LlamaForCausalLM`` in ``model_dir`` (with its Llama 3.1 tokenizer) as float32 GGUF ``out``."""
    import gguf
    from safetensors.numpy import load_file
    from transformers import AutoTokenizer

    model_dir, out = Path(model_dir), Path(out)
    config = json.loads((model_dir / "config.json").read_text("utf-8"))
    if config.get("architectures") != ["LlamaForCausalLM"]:
        raise ValueError(f"{model_dir}: only a LlamaForCausalLM is written, not {config.get('architectures')}")
    n_head, n_kv = config["num_attention_heads"], config["num_key_value_heads"]
    head_dim = config.get("head_dim") or config["hidden_size"] // n_head
    rope = config.get("rope_parameters") or {}
    if rope.get("rope_type", "default") != "default":
        raise ValueError(f"{model_dir}: rope scaling {rope.get('rope_type')!r} is not written")
    writer = gguf.GGUFWriter(str(out), "llama")
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
    writer.add_tokenizer_pre("llama-bpe")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    gguf.SpecialVocab(model_dir, load_merges=True).add_to_gguf(writer)

    for name, array in sorted(load_file(str(model_dir / "model.safetensors")).items()):
        array = array.astype("float32")
        if name == "model.embed_tokens.weight":
            target = "token_embd.weight"
        elif name == "lm_head.weight":
            target = "output.weight"
        elif name == "model.norm.weight":
            target = "output_norm.weight"
        else:
            _, _, block, rest = name.split(".", 3)
            module, kind = rest.rsplit(".", 1)
            target = f"blk.{block}.{LAYER_NAMES[module]}.{kind}"
            if module == "self_attn.q_proj":
                array = permute(array, n_head)
            elif module == "self_attn.k_proj":
                array = permute(array, n_kv)
        writer.add_tensor(target, array)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out
