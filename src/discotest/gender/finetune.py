"""Fine-tune a Marian (Opus-MT) model on the Coref/Gender data ``discotest augment`` selects (Yehudai et al. 2023, §4).

The recipe: add the ``<ENT1>`` … ``</ENT9>`` markers to the tokenizer as special tokens (so each is one id, never
split into pieces), resize the embeddings, and train with AdamW on teacher-forced cross-entropy for a fixed number of
steps over shuffled, length-bucketed batches; then save model and tokenizer. ``discotest run SUITE --model OUT
--markers gold|predicted`` measures the result. A plain torch loop (no Trainer) keeps it small and dependency-free;
for real runs use a GPU (``device``) and thousands of steps.
"""

from __future__ import annotations

import json
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from discotest.atomic import write_text_atomic
from discotest.errors import InputError
from discotest.gender.coref.markers import MARKER_TOKENS
from discotest.values import check_int, check_positive_float


@dataclass
class FinetuneReport:
    steps: int
    examples: int
    losses: list[float]
    output: str
    added_tokens: int

    def to_json(self) -> dict:
        return {"steps": self.steps, "examples": self.examples, "first_loss": self.losses[0] if self.losses else None,
                "last_loss": self.losses[-1] if self.losses else None, "output": self.output,
                "added_tokens": self.added_tokens}


def read_jsonl(path: str | Path) -> list[tuple[str, str]]:
    """(src, tgt) pairs of an augment output (or any JSONL with those keys)."""
    from discotest.data.readers import json_objects, require

    pairs = []
    for number, obj in json_objects(path):
        src, tgt = require(obj, "src", str, path, number), require(obj, "tgt", str, path, number)
        if not (src.strip() and tgt.strip()):
            raise InputError("'src' and 'tgt' must be non-empty strings", path, number)
        pairs.append((src, tgt))
    if not pairs:
        raise InputError("no training pairs", path)
    return pairs


def add_markers(model, tokenizer) -> int:
    """Markers as special tokens and embeddings resized; returns the number of tokens added."""
    vocab = tokenizer.get_vocab()
    new = [t for t in MARKER_TOKENS if t not in vocab]
    added = tokenizer.add_tokens(new, special_tokens=True) if new else 0
    if added:
        model.resize_token_embeddings(len(tokenizer))
    return added


def finetune(model: str, data: str | Path, output: str | Path, *, steps: int = 1000, batch_size: int = 16,
             lr: float = 5e-5, max_length: int = 128, markers: bool = True, device: str = "cpu", seed: int = 1,
             revision: str | None = None, quiet: bool = False) -> FinetuneReport:
    """Fine-tune ``model`` (a Marian directory or hub name) on ``data`` (augment JSONL); save to ``output``."""
    import torch
    from tqdm import tqdm

    from discotest.models.hf_models import family_of, load_seq2seq

    for value, name in ((steps, "steps"), (batch_size, "batch-size"), (max_length, "max-length"), (seed, "seed")):
        check_int(value, name)
    check_positive_float(lr, "lr")
    pairs = read_jsonl(data)
    net, tok = load_seq2seq(model, revision)
    if family_of(net, tok, model) != "marian":
        raise InputError(f"finetune supports Marian (Opus-MT) models; {model!r} is not one")
    added = add_markers(net, tok) if markers else 0
    torch.manual_seed(seed)
    rng = random.Random(seed)
    net.to(device).train()
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr)
    losses: list[float] = []
    order: list[int] = []
    with tqdm(total=steps, desc="fine-tuning", unit="step", disable=quiet, file=sys.stderr) as bar:
        for _ in range(steps):
            if len(order) < batch_size:
                order = list(range(len(pairs)))
                rng.shuffle(order)
            batch = [pairs[order.pop()] for _ in range(min(batch_size, len(pairs)))]
            enc = tok([s for s, _ in batch], text_target=[t for _, t in batch], return_tensors="pt", padding=True,
                      truncation=True, max_length=max_length)
            labels = enc["labels"].masked_fill(enc["labels"] == tok.pad_token_id, -100)
            loss = net(input_ids=enc["input_ids"].to(device), attention_mask=enc["attention_mask"].to(device),
                       labels=labels.to(device)).loss
            if not math.isfinite(loss.item()):
                raise InputError(f"loss became {loss.item()} at step {len(losses) + 1}; lower --lr")
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimiser.step()
            losses.append(float(loss.item()))
            bar.update(1)
            bar.set_postfix(loss=f"{losses[-1]:.3f}")
    out = Path(output)
    report = FinetuneReport(steps, len(pairs), losses, str(out), added)
    try:  # a full disk or a read-only folder after training is one line, not a traceback
        out.mkdir(parents=True, exist_ok=True)
        net.eval().save_pretrained(out)
        tok.save_pretrained(out)
    except OSError as exc:
        raise InputError(f"cannot write the fine-tuned model: {exc.strerror or exc}", out) from None
    write_text_atomic(out / "discotest-finetune.json",
                      json.dumps({**report.to_json(), "base": model, "data": str(data), "lr": lr,
                                  "batch_size": batch_size, "markers": markers}, indent=1) + "\n")
    return report
