"""Wall time of AZPT on mZPRT: the alignment (cold) and every published system in every domain (warm).

    .venv/bin/python -m bench.speed.bench_mzprt [--data-dir ../shared/data] [--extra wmt|none] [--bleu]

Prints: segmenting + aligning the whole corpus with a fresh cache (the price of the first run, and of
every new input file); the all-domains × all-systems run with that cache warm (goal: under 15 s);
the same with BLEU; peak resident memory. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
from pathlib import Path

from bench.runner import timed
from discotest import cache
from discotest.zero_pronoun.corpus import azpt_aligner, build_corpus
from discotest.zero_pronoun.run import run_mzprt


def _aligned(corpus):
    corpus.links_of(("QA", "reference"))  # aligns the whole background
    return corpus


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=str(Path(__file__).resolve().parents[3] / "shared" / "data"))
    parser.add_argument("--extra", default="wmt")
    parser.add_argument("--aligner", default="default", help="an aligner name (default: the one AZPT uses)")
    args = parser.parse_args()
    aligner = azpt_aligner(args.aligner)
    with tempfile.TemporaryDirectory(prefix="discotest-bench-") as tmp:
        os.environ[cache.ENV_VAR] = tmp
        print(f"aligner {aligner.signature()}")
        corpus = timed(f"cold: segment + align the corpus (extra={args.extra})",
                       lambda: _aligned(build_corpus(aligner, args.data_dir, args.extra)))
        print(f"  corpus: {corpus.description(('QA', 'reference'))}")
        results = timed("warm: all domains × all published systems",
                        lambda: run_mzprt("all", "all", data_dir=args.data_dir, extra=args.extra, aligner=aligner))
        print(f"  {len(results)} results, {sum(r.scores.n for r in results)} scored ZPs")
        timed("warm: the same with BLEU",
              lambda: run_mzprt("all", "all", data_dir=args.data_dir, extra=args.extra, aligner=aligner,
                                bleu=True))
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
