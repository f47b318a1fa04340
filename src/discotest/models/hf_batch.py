"""One padded batch of (source, candidate) token ids through a seq2seq model: the arithmetic every engine shares.

The local scorer (``hf_scorer``) and the Ray actors (``hf_ray``) both call ``score_batch`` on the same batches, so a
score does not depend on where it was computed. torch is imported only inside.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Encoded:
    """One (source, candidate) pair as token ids; target positions from ``score_from`` on are scored."""

    source: list[int]
    target: list[int]
    score_from: int


def decoder_inputs(model, labels, pad: int):
    """The decoder's input ids for teacher forcing: the labels shifted right behind the start token."""
    if hasattr(model, "prepare_decoder_input_ids_from_labels"):
        return model.prepare_decoder_input_ids_from_labels(labels=labels)
    start = model.config.decoder_start_token_id
    shifted = labels.new_full(labels.shape, pad)
    shifted[:, 1:] = labels[:, :-1].clone()
    shifted[:, 0] = start if start is not None else pad
    return shifted.masked_fill(shifted == -100, pad)


def score_batch(model, rows: Sequence[Encoded], pad: int, device: str) -> tuple[list[float], list[int]]:
    """Sums of the scored tokens' log-probabilities and their counts for one padded batch (every engine's
    arithmetic: the local loop and the Ray actors both call this)."""
    import torch

    with torch.inference_mode():
        s_len = max(len(r.source) for r in rows)
        t_len = max(len(r.target) for r in rows)
        src = torch.full((len(rows), s_len), pad, dtype=torch.long)
        mask = torch.zeros((len(rows), s_len), dtype=torch.long)
        labels = torch.full((len(rows), t_len), -100, dtype=torch.long)
        scored = torch.zeros((len(rows), t_len), dtype=torch.bool)
        for j, r in enumerate(rows):
            src[j, :len(r.source)] = torch.tensor(r.source)
            mask[j, :len(r.source)] = 1
            labels[j, :len(r.target)] = torch.tensor(r.target)
            scored[j, r.score_from:len(r.target)] = True
        decoder_in = decoder_inputs(model, labels, pad)
        logits = model(input_ids=src.to(device), attention_mask=mask.to(device),
                       decoder_input_ids=decoder_in.to(device)).logits
        logp = torch.log_softmax(logits.float(), dim=-1)
        token_logp = logp.gather(-1, labels.clamp(min=0).to(device).unsqueeze(-1)).squeeze(-1)
        token_logp = token_logp.masked_fill(~scored.to(device), 0.0)
        return token_logp.sum(-1).tolist(), scored.sum(-1).tolist()
