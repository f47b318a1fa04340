"""Contrastive scoring with a decoder-only LLM: the prompt computed once per item (KV cache shared by its candidates)
vs every prompt + candidate scored in full, over batch sizes.

    .venv/bin/python -m bench.speed.bench_causal_scoring [--family qwen3] [--items 100] [--context 3] [--batch 1,4,16]
                                                   [--hidden 256] [--layers 8] [--shape small|qwen3-0.6b]
                                                   [--threads 2] [--repeats 3]

Builds a tiny randomly initialised model of the family with its real tokenizer and chat template
(tests/support/tiny_llm.py, ../shared/data/llm_tokenizers), takes the first N items of the Voita deixis set (2+
candidates each, 3 context sentences; from $DISCOTEST_DATA), and prints, per batch size, the best of ``--repeats``
timings of both modes, their ratio, and the largest difference between their scores. The issue asks for prefix sharing ≥
1.5× faster with 2+ candidates and 3 context sentences; the figures below were taken on a quiet machine.

What sharing saves is the transformer body over the prompt's tokens, once per extra candidate; what both modes pay
alike is the LM head (hidden × vocabulary, 151k-262k here) at the candidates' positions. Two shapes:

- ``--shape small`` (default): ``--hidden`` × ``--layers`` (256 × 8), intermediate 2 × hidden, 2 heads. The head
  is 8× the body per token: a lower bound for what sharing can save.
- ``--shape qwen3-0.6b``: Qwen3-0.6B's own proportions (width 1024, 28 layers, intermediate 3072, 16 heads, 8 key/value
  heads of 128, tied embeddings), random weights: the body is 2.8× the head per token, as in the LLMs people run.
  A 600M-parameter model: about 2.4 GB of RAM, ~1 s per item on 2 cores; use ``--items 20``.

Measured on a quiet machine (stops 25 and 26), qwen3, context 3, 2 threads, full/shared (best of 2 or 3):

| shape | items | batch 1 | batch 4 | batch 16 |
|---|---|---|---|---|
| small | 100 | 0.93× | 0.88× | 0.96× |
| qwen3-0.6b | 20 | 1.71× (17.1 s / 29.3 s) | 1.46× (15.3 s / 22.3 s) | 1.70× (17.6 s / 29.8 s) |
| qwen3-0.6b, stop 26, best of 3 | 20 | 1.59× (14.5 s / 23.0 s) | 1.67× (12.4 s / 20.7 s) | 1.55× (18.8 s / 29.1 s) |

Between two quiet runs a ratio moves by up to 0.2 (the full mode's times by up to 17%). In the second run every batch
size is at or above 1.5×; batch 4, at 1.46× in the first, is at 1.67×. No batch size is reliably faster than another.

With the small shape the LM head is nearly all the work, and both modes pay it alike.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tests.support.tiny_llm import FAMILIES, build_tiny_llm

from discotest.contrastive.run import score_requests
from discotest.contrastive.suites import load_suite
from discotest.models.causal_scorer import CausalScorer
from discotest.models.hf_models import load_causal_lm, load_tokenizer

REPO = Path(__file__).resolve().parents[2]


SHAPES = {
    "small": {},
    "qwen3-0.6b": dict(hidden=1024, layers=28, intermediate_size=3072, num_attention_heads=16, num_key_value_heads=8,
                       head_dim=128, tie_word_embeddings=True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="qwen3", choices=FAMILIES)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--context", type=int, default=3)
    parser.add_argument("--batch", default="1,4,16", help="batch sizes (items per batch), comma-separated")
    parser.add_argument("--hidden", type=int, default=256, help="width of the tiny model")
    parser.add_argument("--layers", type=int, default=8, help="layers of the tiny model")
    parser.add_argument("--shape", default="small", choices=sorted(SHAPES), help="model proportions (see above)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (the same for both modes)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tokenizers", default=str(REPO.parent / "shared" / "data" / "llm_tokenizers"))
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    items = load_suite("voita-deixis")[:args.items]
    shape = dict(hidden=args.hidden, layers=args.layers) | SHAPES[args.shape]
    print(f"{args.family}, shape {args.shape} {shape}, {len(items)} voita-deixis items, "
          f"{sum(len(i.candidates) for i in items) / len(items):.1f} candidates per item, context {args.context}, "
          f"{args.threads} torch threads")
    with tempfile.TemporaryDirectory() as tmp:
        folder = build_tiny_llm(args.family, Path(args.tokenizers), Path(tmp) / args.family, **shape)
        model, tok = load_causal_lm(str(folder), quiet=True), load_tokenizer(str(folder))
        print(f"{'batch':>5} {'shared s':>9} {'full s':>9} {'full/shared':>11} {'max |diff|':>10}")
        for batch in [int(b) for b in args.batch.split(",")]:
            seconds, scores = {}, {}
            for share in (True, False):
                scorer = CausalScorer(str(folder), model=model, tokenizer=tok, batch_size=batch, share_prompt=share,
                                      use_cache=False, quiet=True, src_lang="en", tgt_lang="ru")
                best = float("inf")
                for _ in range(args.repeats):
                    start = time.perf_counter()
                    scores[share] = scorer.score_items(score_requests(items), args.context)
                    best = min(best, time.perf_counter() - start)
                seconds[share] = best
            diff = max(abs(a - b) for x, y in zip(scores[True], scores[False]) for a, b in zip(x, y))
            print(f"{batch:>5} {seconds[True]:>9.3f} {seconds[False]:>9.3f} {seconds[False] / seconds[True]:>10.2f}× "
                  f"{diff:>10.2e}")


if __name__ == "__main__":
    main()
