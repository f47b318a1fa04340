"""The trained offline pronoun scorer (offline-v2) against offline-v1, out of sample.

Usage: .venv/bin/python bench/dip_pronoun_trained.py [--data-dir DIR] [--test-pairs de-en,ru-en,zh-en,ja-en]
Prints: the WMT21 training pairs and the L2 choice (leave one source language out, WMT21 only); accuracy —
score(reference) > score(other) — on eval-anaphora (4 × 500 pairs, never used for training or choosing) and on
pronoun pairs mined from WMT22 (swap view, the scored pair's files kept out of both scorers' LM); the agreement with
the eval-anaphora user study (Jwalapuram et al. 2019); and how much of the test text the LM saw.
Trains once (mining WMT21 parses every system output: minutes), then everything is cached.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from discotest.dip import pronoun_protocol as protocol
from discotest.dip.documents import DATASETS
from discotest.dip.eval_anaphora import load_eval_anaphora, load_pronoun_pair_list, pronoun_substitution
from discotest.dip.ngram_lm import normalise
from discotest.dip.pronoun_pairs import mine_swap_pairs
from discotest.dip.pronoun_scorer import OfflinePronounScorer
from discotest.dip.pronoun_trained import FEATURES, TrainedPronounScorer, accuracy, choose_l2, pair_differences


def _pct(won: int, n: int) -> str:
    return f"{won / n:6.1%} ({won}/{n})" if n else "   n/a"


def wins(scorer, contexts, first, second) -> tuple[int, int]:
    a, b = scorer.score(contexts, first), scorer.score(contexts, second)
    return sum(x > y for x, y in zip(a, b)), len(a)


def lm_wins(base: OfflinePronounScorer, first, second) -> tuple[int, int]:
    return sum(base.lm_logprob(normalise(x)) > base.lm_logprob(normalise(y)) for x, y in zip(first, second)), len(first)


def training_text(scorer: OfflinePronounScorer) -> set[str]:
    text = set()
    for path in scorer.training_files():
        text.update(" ".join(normalise(line)) for line in path.read_text("utf-8").split("\n") if line.strip())
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--test-pairs", default="de-en,ru-en,zh-en,ja-en")
    args = parser.parse_args()
    start = time.perf_counter()
    trained = TrainedPronounScorer(args.data_dir)
    pairs = trained.training_pairs()
    model = trained.model
    print(f"trained scorer {trained.signature()}  ({time.perf_counter() - start:.0f} s incl. mining/LM/fit)")
    groups = sorted({p.group for p in pairs})
    print("training pairs: " + ", ".join(f"{g} {sum(p.group == g for p in pairs)}" for g in groups)
          + f"; total {len(pairs)}")
    diffs = pair_differences(trained.training_base(), pairs)
    chosen, choices = choose_l2(diffs, [p.group for p in pairs])
    print("L2 choice, WMT21 only (leave one source language out, pooled held-out):  "
          + "  ".join(f"l2={c.l2:g} {_pct(c.wins, c.n)}" for c in choices) + f"  -> l2={chosen:g}")
    print(f"in sample on WMT21: {_pct(*accuracy(np.array(model.weights), diffs))}")
    top = sorted(zip(FEATURES, model.weights), key=lambda fw: -abs(fw[1]))[:12]
    print("largest weights: " + ", ".join(f"{f} {w:+.3f}" for f, w in top))

    v1 = OfflinePronounScorer(args.data_dir)
    data = load_eval_anaphora(args.data_dir)
    print(f"\neval-anaphora (never trained or chosen on), score(ref) > score(sys):   v1 = {v1.signature()}")
    totals = {"v2": [0, 0], "v1": [0, 0], "lm": [0, 0]}
    decisions = {"v2": [], "v1": []}
    for lang, items in data.items():
        contexts = [p.context for p in items]
        refs, syss = [p.reference for p in items], [p.system for p in items]
        row = {}
        for label, scorer in (("v2", trained), ("v1", v1)):
            a, b = scorer.score(contexts, refs), scorer.score(contexts, syss)
            decisions[label] += [x > y for x, y in zip(a, b)]
            row[label] = (sum(x > y for x, y in zip(a, b)), len(a))
        row["lm"] = lm_wins(trained.base, refs, syss)
        for k, (won, n) in row.items():
            totals[k][0] += won
            totals[k][1] += n
        print(f"  {lang:8s} v2 {_pct(*row['v2'])}  v1 {_pct(*row['v1'])}  v2's LM alone {_pct(*row['lm'])}")
    print(f"  overall  v2 {_pct(*totals['v2'])}  v1 {_pct(*totals['v1'])}  v2's LM alone {_pct(*totals['lm'])}")

    study = load_pronoun_pair_list(args.data_dir)
    keys = [pronoun_substitution(p) for lang in data for p in data[lang]]
    for label in ("v2", "v1"):
        rows, missing = protocol.human_agreement(study, keys, decisions[label])
        majority, vote, votes = protocol.overall(rows)
        print(f"user study, {label}: {len(rows)} of {len(study)} pronoun pairs, {votes} votes; agreement with the "
              f"human majority {majority:.2%}, with the votes {vote:.2%}")

    ea_refs = {" ".join(normalise(p.reference)) for lang in data for p in data[lang]}
    ea_ctx = {" ".join(normalise(c)) for lang in data for p in data[lang] for c in p.context}
    lm_text = training_text(trained.base)
    print(f"\nv2's LM training text: {len(lm_text)} distinct sentences; eval-anaphora references in it "
          f"{len(ea_refs & lm_text)}/{len(ea_refs)}, context sentences {len(ea_ctx & lm_text)}/{len(ea_ctx)}; "
          f"WMT21 training references in it {len({' '.join(normalise(p.reference)) for p in pairs} & lm_text)}"
          f"/{len({p.reference for p in pairs})}")

    print("\nWMT22 mined pairs (swap view; the scored pair's files out of both LMs), score(ref) > score(swapped):")
    totals = {"v2": [0, 0], "v1": [0, 0]}
    for pair in args.test_pairs.split(","):
        test = mine_swap_pairs("wmt22", pair, "A", args.data_dir)
        exclude = (f"{DATASETS['wmt22'][1]}.{pair}.",)
        v2p = TrainedPronounScorer(args.data_dir, exclude=exclude)
        v1p = OfflinePronounScorer(args.data_dir, exclude=exclude)
        contexts = [p.context for p in test]
        refs, swapped = [p.reference for p in test], [p.swapped for p in test]
        row = {"v2": wins(v2p, contexts, refs, swapped), "v1": wins(v1p, contexts, refs, swapped)}
        seen = len({" ".join(normalise(r)) for r in refs} & training_text(v2p.base))
        for k, (won, n) in row.items():
            totals[k][0] += won
            totals[k][1] += n
        print(f"  {pair}  v2 {_pct(*row['v2'])}  v1 {_pct(*row['v1'])}  (references in v2's LM text: {seen})")
    print(f"  overall v2 {_pct(*totals['v2'])}  v1 {_pct(*totals['v1'])}")
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
