"""Contrastive scoring with a decoder-only LLM: the prompt computed once per item (KV cache shared by its candidates)
vs every prompt + candidate scored in full, over batch sizes.

    .venv/bin/python bench/speed/bench_causal_scoring.py [--family qwen3] [--items 100] [--context 3] [--batch 1,4,16]
                                                   [--hidden 256] [--layers 8] [--threads 2] [--repeats 3]

Builds a tiny randomly initialised model of the family with its real tokenizer and chat template (tests/tiny_llm.py,
../shared/data/llm_tokenizers), takes the first N items of the Voita deixis set (2+ candidates each, 3 context
sentences; from $DISCOTEST_DATA), and prints, per batch size, the best of ``--repeats`` timings of both modes, their
ratio, and the largest difference between their scores. The issue asks for prefix sharing ≥ 1.5× faster with 2+
candidates and 3 context sentences. No figures are recorded here yet: they are to be measured on a quiet machine.

What sharing saves is the transformer body over the prompt's tokens, once per extra candidate; what both modes pay
alike is the LM head (hidden × vocabulary, 151k-262k here) at the candidates' positions. With a body as small as the
tests' (2 layers of width 16) the head dominates and sharing cannot win; hence the default width 256 and 8 layers,
where, by multiply-adds, a Voita item (~100 prompt tokens, two candidates of ~8) costs about 1.35 G shared against
2 G in full (~1.5×). Smoke runs on this machine under a load average near 20 gave 0.5-1.0×, meaningless as timings:
measure on a quiet machine before drawing anything from them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.tiny_llm import FAMILIES, build_tiny_llm  # noqa: E402

from discotest.contrastive.suites import load_suite  # noqa: E402
from discotest.models.causal_scorer import CausalScorer  # noqa: E402
from discotest.models.hf_models import load_causal_lm, load_tokenizer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="qwen3", choices=FAMILIES)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--context", type=int, default=3)
    parser.add_argument("--batch", default="1,4,16", help="batch sizes (items per batch), comma-separated")
    parser.add_argument("--hidden", type=int, default=256, help="width of the tiny model")
    parser.add_argument("--layers", type=int, default=8, help="layers of the tiny model")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (the same for both modes)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tokenizers", default=str(REPO.parent / "shared" / "data" / "llm_tokenizers"))
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    items = load_suite("voita-deixis")[:args.items]
    print(f"{args.family}, hidden {args.hidden}, {args.layers} layers, {len(items)} voita-deixis items, "
          f"{sum(len(i.candidates) for i in items) / len(items):.1f} candidates per item, context {args.context}, "
          f"{args.threads} torch threads")
    with tempfile.TemporaryDirectory() as tmp:
        folder = build_tiny_llm(args.family, Path(args.tokenizers), Path(tmp) / args.family, hidden=args.hidden,
                                layers=args.layers)
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
                    scores[share] = scorer.score_items(items, args.context)
                    best = min(best, time.perf_counter() - start)
                seconds[share] = best
            diff = max(abs(a - b) for x, y in zip(scores[True], scores[False]) for a, b in zip(x, y))
            print(f"{batch:>5} {seconds[True]:>9.3f} {seconds[False]:>9.3f} {seconds[False] / seconds[True]:>10.2f}× "
                  f"{diff:>10.2e}")


if __name__ == "__main__":
    main()
