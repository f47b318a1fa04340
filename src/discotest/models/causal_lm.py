"""Decoder-only LLMs (Hugging Face ``AutoModelForCausalLM``): detection, and the arithmetic of scoring candidate
continuations of a prompt, in full or with the prompt computed once per item.

A candidate's score is the sum of the log-probabilities of exactly its own tokens given the prompt. Two ways give
the same numbers (up to float rounding; tests check both against a direct forward pass):

- ``score_full``: every (prompt + candidate) row through the model, padded on either side with an attention mask and
  explicit position ids (so a left-padded row sees the positions an unpadded one does);
- ``score_shared``: each item's prompt through the model once (left-padded, ``use_cache``), its key/value cache
  repeated for each candidate row, and only the candidates' tokens run on top of it (right-padded). The prompt's last
  logits give the first candidate token's log-probability.

Only the logits the scores need are computed (``logits_to_keep``): an LLM's vocabulary is 128k-262k entries. torch
is imported only inside.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.data.contrastive_item import split_by_item
from discotest.models.hf_models import LazyModel, load_causal_lm
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


def _cache_argument(model) -> str:
    """The forward argument a key/value cache goes in: ``cache`` (Transformers 5.2x), ``past_key_values`` before."""
    import inspect

    return "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"


def _cache_of(output):
    """The key/value cache a forward pass returned, under either name."""
    try:
        found = output.cache
    except AttributeError:
        found = None
    return found if found is not None else output.past_key_values


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


def score_shared(model, items: Sequence[CausalItem], pad: int, device: str = "cpu") -> list[list[float]]:
    """Per item, the sums of its candidates' token log-probabilities; each prompt is run once and its cache shared
    by the item's candidates."""
    import torch

    if not items:
        return []
    width = max(len(item.prompt) for item in items)
    ids = torch.full((len(items), width), pad, dtype=torch.long)
    mask = torch.zeros((len(items), width), dtype=torch.long)
    for j, item in enumerate(items):
        ids[j, width - len(item.prompt):] = torch.tensor(item.prompt)
        mask[j, width - len(item.prompt):] = 1
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    owner = [j for j, item in enumerate(items) for _ in item.candidates]
    cands = [c for item in items for c in item.candidates]
    with torch.inference_mode():
        first = model(input_ids=ids.to(device), attention_mask=mask.to(device), position_ids=positions.to(device),
                      use_cache=True, logits_to_keep=1)
        last_logits, cache = first.logits[:, -1], _cache_of(first)
        c_width = max((len(c) for c in cands), default=0)
        rest = None
        if c_width > 1:  # a candidate's tokens after the first are predicted from the candidate's own positions
            index = torch.tensor(owner, device=device)
            cache.reorder_cache(index)  # row j of the cache for every candidate of item j
            c_ids = torch.full((len(cands), c_width - 1), pad, dtype=torch.long)
            c_mask = torch.zeros((len(cands), c_width - 1), dtype=torch.long)
            for r, c in enumerate(cands):
                c_ids[r, :len(c) - 1] = torch.tensor(c[:-1], dtype=torch.long)
                c_mask[r, :len(c) - 1] = 1
            lengths = torch.tensor([len(items[j].prompt) for j in owner])
            c_pos = lengths[:, None] + torch.arange(c_width - 1)[None, :]
            full_mask = torch.cat([mask[owner], c_mask], dim=1)
            rest = model(input_ids=c_ids.to(device), attention_mask=full_mask.to(device),
                         position_ids=c_pos.to(device), use_cache=True, **{_cache_argument(model): cache}).logits
    out: list[list[float]] = [[] for _ in items]
    for r, c in enumerate(cands):
        if not c:
            out[owner[r]].append(0.0)
            continue
        target = torch.tensor(c, device=last_logits.device)
        total = _logp_at(last_logits[owner[r]], target[0])
        if len(c) > 1:
            total = total + _logp_at(rest[r, :len(c) - 1], target[1:]).sum()
        out[owner[r]].append(float(total))
    return out


def score_items_batch(model, batch: Sequence[CausalItem], pad: int, device: str = "cpu",
                      share_prompt: bool = True) -> list[list[float]]:
    """Per item, its candidates' sums: prompt shared (``score_shared``) or each candidate in full (``score_full``,
    one padded batch of every candidate row). Every engine (the local loop, the Ray actors) calls this."""
    if share_prompt:
        return score_shared(model, batch, pad, device)
    flat = score_full(model, [(item.prompt, c) for item in batch for c in item.candidates], pad, device)
    return split_by_item(flat, batch)
