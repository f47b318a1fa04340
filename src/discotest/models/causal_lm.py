"""Decoder-only LLMs (Hugging Face ``AutoModelForCausalLM``): detection, and the arithmetic of scoring candidate
continuations of a prompt, in full or with the prompt computed once per item.

A candidate's score is the sum of the log-probabilities of exactly its own tokens given the prompt. Two ways give
the same numbers (up to float rounding; tests check both against a direct forward pass):

- ``score_full``: every (prompt + candidate) row through the model, padded on either side with an attention mask and
  explicit position ids (so a left-padded row sees the positions an unpadded one does);
- ``score_shared``: each item's prompt once and every candidate's tokens after it, packed in one row of one forward
  pass, under a 4D mask by which a candidate sees the prompt and its own earlier tokens, at the positions it has
  after the prompt. One pass (not a prompt pass and a candidate pass over a copied key/value cache) because on a CPU
  a pass over a few candidate tokens costs nearly as much as the prompt's: it reads every weight all the same.

Only the logits the scores need are computed (``logits_to_keep``): an LLM's vocabulary is 128k-262k entries. torch
is imported only inside.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.models.hf_models import LazyModel, load_causal_lm
from discotest.models.interface import split_by_item
from discotest.models.llm_prompt import PromptBuilder


@dataclass(frozen=True)
class CausalItem:
    """One item's prompt and its candidates as token ids (the prompt is shared by every candidate)."""

    prompt: list[int]
    candidates: list[list[int]]


class CausalLazyModel(LazyModel):
    """``LazyModel`` for a decoder-only LLM, shared by ``CausalScorer`` and ``CausalTranslator``: the model loads as
    ``AutoModelForCausalLM`` and the prompt builder (``--prompt`` file or the tokenizer's chat template) is made on
    first use. A subclass sets ``prompt_file`` and ``_prompts = None`` in ``__init__``."""

    prompt_file: str | None
    _prompts: PromptBuilder | None
    share_tokenizer = True  # nothing here changes it: loaded once per process (hf_models.LOADED_TOKENIZERS)

    def load(self):
        """The model, as ``AutoModelForCausalLM`` in eval mode."""
        return load_causal_lm(self.name, self.revision, self.quiet)

    @property
    def prompts(self) -> PromptBuilder:
        """The prompt builder, made once (it needs the tokenizer: nothing is loaded before a run asks)."""
        if self._prompts is None:
            self._prompts = PromptBuilder.from_file(self.tokenizer, self.prompt_file)
        return self._prompts


def is_causal_lm_dir(path: str | Path) -> bool:
    """Whether a local model folder is a decoder-only LM, from its config.json alone: its model type maps to
    ``AutoModelForCausalLM`` and not to ``AutoModelForSeq2SeqLM`` (Marian and mBART have both: they stay seq2seq), and
    its listed architectures include that class (a BERT is ``BertForMaskedLM``, though ``BertLMHeadModel`` exists);
    a config listing none must not be an encoder (masked LM) type."""
    try:
        config = json.loads((Path(path) / "config.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(config, dict):
        return False
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
        MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES,
    )

    kind = config.get("model_type")
    if kind not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES or kind in MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES:
        return False
    causal = MODEL_FOR_CAUSAL_LM_MAPPING_NAMES[kind]
    causal = {causal} if isinstance(causal, str) else set(causal)
    architectures = config.get("architectures") or []
    if architectures:
        return any(a in causal or str(a).endswith("ForCausalLM") for a in architectures)
    return kind not in MODEL_FOR_MASKED_LM_MAPPING_NAMES


def is_causal_lm(name_or_path: str) -> bool:
    """A local folder by its config; a hub name by its cached config, if any (else: not known to be one)."""
    path = Path(str(name_or_path)).expanduser()
    if path.is_dir():
        return is_causal_lm_dir(path)
    try:
        from huggingface_hub import try_to_load_from_cache

        found = try_to_load_from_cache(str(name_or_path), "config.json")
    except Exception:  # noqa: BLE001 - a malformed name: not a causal LM we know of
        return False
    return isinstance(found, str) and is_causal_lm_dir(Path(found).parent)


def _logp_at(logits, targets):
    """log-softmax of ``logits`` (..., V) read at ``targets`` (...)."""
    import torch

    logits = logits.float()
    return torch.gather(logits, -1, targets.unsqueeze(-1)).squeeze(-1) - torch.logsumexp(logits, dim=-1)


def pad_id(tokenizer) -> int:
    """The padding id (masked out everywhere): the tokenizer's pad token, else its EOS, else 0."""
    for value in (tokenizer.pad_token_id, tokenizer.eos_token_id):
        if isinstance(value, int):
            return value
    return 0


def score_full(model, rows: Sequence[tuple[list[int], list[int]]], pad: int, device: str = "cpu",
               padding_side: str = "left") -> list[float]:
    """Sum of the candidate tokens' log-probabilities for each (prompt ids, candidate ids) row, all in one padded
    batch."""
    import torch

    if not rows:
        return []
    lengths = [len(p) + len(c) for p, c in rows]
    width = max(lengths)
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    starts = []  # position of the logits that predict a row's first candidate token
    for j, (p, c) in enumerate(rows):
        offset = width - lengths[j] if padding_side == "left" else 0
        ids[j, offset:offset + lengths[j]] = torch.tensor(p + c)
        mask[j, offset:offset + lengths[j]] = 1
        starts.append(offset + len(p) - 1)
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    keep = width - min(starts)  # logits of the last ``keep`` positions cover every candidate token
    with torch.inference_mode():
        logits = model(input_ids=ids.to(device), attention_mask=mask.to(device), position_ids=positions.to(device),
                       logits_to_keep=keep, use_cache=False).logits
    first = width - keep
    out = []
    for j, (_, c) in enumerate(rows):
        if not c:
            out.append(0.0)
            continue
        at = starts[j] - first
        out.append(float(_logp_at(logits[j, at:at + len(c)], torch.tensor(c, device=logits.device)).sum()))
    return out


def _packed_mask(segments, attention: str, dtype):
    """The 4D attention mask of packed rows: a token sees the earlier tokens of its own segment and the prompt
    (segment 0); padding (segment -1) sees itself only, so that no row of the attention is empty. Boolean (True: may
    attend) for SDPA, additive (0 or the dtype's minimum) for the eager implementation."""
    import torch

    n = segments.shape[1]
    index = torch.arange(n)
    q, kv = segments[:, :, None], segments[:, None, :]
    allowed = (index[:, None] >= index[None, :])[None] & (kv >= 0) & (q >= 0) & ((kv == 0) | (kv == q))
    allowed |= torch.eye(n, dtype=torch.bool)[None]
    if attention == "eager":
        return torch.zeros(allowed.shape, dtype=dtype).masked_fill(~allowed, torch.finfo(dtype).min)[:, None]
    return allowed[:, None]


def packed_fits(model, items: Sequence[CausalItem]) -> bool:
    """Whether ``score_shared`` can pack these items: the model takes a custom mask (SDPA or eager attention) and no
    row reaches a sliding attention window the config declares (the packed mask applies none)."""
    config = model.config
    if getattr(config, "_attn_implementation", "sdpa") not in ("sdpa", "eager"):
        return False
    window = getattr(config, "sliding_window", None)
    if not isinstance(window, int) or window <= 0:
        return True
    return all(len(item.prompt) + max((len(c) for c in item.candidates), default=0) <= window for item in items)


def score_shared(model, items: Sequence[CausalItem], pad: int, device: str = "cpu") -> list[list[float]]:
    """Per item, the sums of its candidates' token log-probabilities, in one forward pass for the batch: each item is
    one row, its prompt once and then every candidate's tokens but the last (each candidate at the positions it has
    after the prompt), under a mask by which a candidate sees the prompt and its own earlier tokens only. The
    logits kept are the last ones of each left-padded row: the prompt's last token (it predicts every candidate's
    first token) and the candidates' own."""
    import torch

    if not items:
        return []
    rows, segments, positions = [], [], []
    for item in items:
        fed = [c[:-1] for c in item.candidates]
        rows.append(item.prompt + [t for f in fed for t in f])
        segments.append([0] * len(item.prompt) + [k + 1 for k, f in enumerate(fed) for _ in f])
        positions.append(list(range(len(item.prompt))) + [len(item.prompt) + i for f in fed for i in range(len(f))])
    width = max(len(r) for r in rows)
    ids = torch.full((len(items), width), pad, dtype=torch.long)
    seg = torch.full((len(items), width), -1, dtype=torch.long)
    pos = torch.zeros((len(items), width), dtype=torch.long)
    for j, (r, g, p) in enumerate(zip(rows, segments, positions)):
        ids[j, width - len(r):], seg[j, width - len(r):], pos[j, width - len(r):] = (
            torch.tensor(r), torch.tensor(g), torch.tensor(p))
    keep = 1 + max(len(r) - len(item.prompt) for r, item in zip(rows, items))
    mask = _packed_mask(seg, model.config._attn_implementation, model.dtype)
    with torch.inference_mode():
        logits = model(input_ids=ids.to(device), attention_mask=mask.to(device), position_ids=pos.to(device),
                       logits_to_keep=keep, use_cache=False).logits
    picks: list[tuple[int, int]] = []  # (row, kept position) of the logits that predict each candidate token
    targets: list[int] = []
    spans: list[tuple[int, int, int]] = []  # (item, first pick, pick count) per candidate
    for j, item in enumerate(items):
        last = keep - 1 - (len(rows[j]) - len(item.prompt))  # the prompt's last token, in kept coordinates
        after = last + 1
        for c in item.candidates:
            spans.append((j, len(picks), len(c)))
            for i, token in enumerate(c):
                picks.append((j, last if i == 0 else after + i - 1))
                targets.append(token)
            after += max(len(c) - 1, 0)
    out: list[list[float]] = [[] for _ in items]
    if not picks:
        return [[0.0 for _ in item.candidates] for item in items]
    at = torch.tensor(picks, device=logits.device)
    logp = _logp_at(logits[at[:, 0], at[:, 1]], torch.tensor(targets, device=logits.device))
    for j, first, n in spans:
        out[j].append(float(logp[first:first + n].sum()) if n else 0.0)
    return out


def score_items_batch(model, batch: Sequence[CausalItem], pad: int, device: str = "cpu",
                      share_prompt: bool = True) -> list[list[float]]:
    """Per item, its candidates' sums: prompt shared (``score_shared``) or each candidate in full (``score_full``,
    one padded batch of every candidate row; also where ``packed_fits`` says the packed mask cannot serve). Every
    engine (the local loop, the Ray actors) calls this."""
    if share_prompt and packed_fits(model, batch):
        return score_shared(model, batch, pad, device)
    flat = score_full(model, [(item.prompt, c) for item in batch for c in item.candidates], pad, device)
    return split_by_item(flat, batch)
