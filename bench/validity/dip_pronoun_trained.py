"""The trained offline pronoun scorer (offline-trained) against offline-v1, out of sample.

Usage: .venv/bin/python -m bench.validity.dip_pronoun_trained [--data-dir DIR] [--test-pairs de-en,ru-en,zh-en,ja-en]
Prints: the WMT21 training pairs and the feature-set and L2 choice (leave one source language out, WMT21 only);
accuracy — score(reference) > score(other) — on eval-anaphora (4 × 500 pairs, never used for training or choosing),
and on pronoun pairs mined from WMT22 (swap view, the scored pair's files kept out of both scorers' LM), each with
a paired sign test against offline-v1; the agreement with the eval-anaphora user study (Jwalapuram et al. 2019); and
how much of the test text the LM saw.
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
from discotest.dip.pronoun_trained import FEATURES, TrainedPronounScorer, accuracy, choose, pair_differences
from discotest.stats import sign_test


def _pct(won: int, n: int) -> str:
    return f"{won / n:6.1%} ({won}/{n})" if n else "   n/a"


def decide(scorer, contexts, first, second) -> list[bool]:
    a, b = scorer.score(contexts, first), scorer.score(contexts, second)
    return [x > y for x, y in zip(a, b)]


def paired(label: str, a: list[bool], b: list[bool]) -> str:
    """Pairs only one of two scorers gets right, and the exact sign test on them."""
    test = sign_test([float(x) for x in a], [float(x) for x in b])
    return (f"{label}: only the trained scorer right {test.wins_a}, only the other {test.wins_b}, "
            f"sign test p = {test.p_value:.2f}")


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
    best, choices = choose(diffs, [p.group for p in pairs])
    print("feature set and L2, chosen on WMT21 only (leave one source language out, pooled held-out):")
    for name in dict.fromkeys(c.features for c in choices):
        print(f"  {name:14s} " + "  ".join(f"l2={c.l2:<6g}{c.wins / c.n:6.1%}" for c in choices if c.features == name))
    print(f"  -> {best.features}, l2={best.l2:g}: {_pct(best.wins, best.n)}")
    v1_rule, lm_only = accuracy(np.array([1.0, 2.0]), diffs[:, :2]), accuracy(np.array([1.0]), diffs[:, :1])
    print(f"  offline-v1's rule (LM + 2 x agreement, tuned on eval-anaphora) on WMT21: {_pct(*v1_rule)}; "
          f"LM alone {_pct(*lm_only)}")
    print(f"in sample on WMT21: {_pct(*accuracy(np.array(model.weights), diffs))}")
    print("weights: " + ", ".join(f"{f} {w:+.4f}" for f, w in zip(FEATURES, model.weights) if w))

    v1 = OfflinePronounScorer(args.data_dir)
    data = load_eval_anaphora(args.data_dir)
    print(f"\neval-anaphora (never trained or chosen on), score(ref) > score(sys):   v1 = {v1.signature()}")
    totals = {"trained": [0, 0], "v1": [0, 0], "lm": [0, 0]}
    decisions = {"trained": [], "v1": []}
    for lang, items in data.items():
        contexts = [p.context for p in items]
        refs, syss = [p.reference for p in items], [p.system for p in items]
        row = {}
        for label, scorer in (("trained", trained), ("v1", v1)):
            a, b = scorer.score(contexts, refs), scorer.score(contexts, syss)
            decisions[label] += [x > y for x, y in zip(a, b)]
            row[label] = (sum(x > y for x, y in zip(a, b)), len(a))
        row["lm"] = lm_wins(trained.base, refs, syss)
        for k, (won, n) in row.items():
            totals[k][0] += won
            totals[k][1] += n
        print(f"  {lang:8s} trained {_pct(*row['trained'])}  v1 {_pct(*row['v1'])}  its LM alone {_pct(*row['lm'])}")
    print(f"  overall  trained {_pct(*totals['trained'])}  v1 {_pct(*totals['v1'])}  its LM alone "
          f"{_pct(*totals['lm'])}")
    features = {lang: protocol.pair_features(v1, items) for lang, items in data.items()}
    held = protocol.held_out_decisions(features)
    decisions["v1 held out"] = [d for lang in data for d in held[lang]]
    print(f"  v1 with its constants tuned on the other languages (leave one out): "
          f"{_pct(sum(decisions['v1 held out']), len(decisions['v1 held out']))}")
    print("  " + paired("trained against v1 (shipped)", decisions["trained"], decisions["v1"]))
    print("  " + paired("trained against v1 (held out)", decisions["trained"], decisions["v1 held out"]))

    study = load_pronoun_pair_list(args.data_dir)
    keys = [pronoun_substitution(p) for lang in data for p in data[lang]]
    for label in ("trained", "v1", "v1 held out"):
        rows, missing = protocol.human_agreement(study, keys, decisions[label])
        majority, vote, votes = protocol.overall(rows)
        print(f"user study, {label}: {len(rows)} of {len(study)} pronoun pairs, {votes} votes; agreement with the "
              f"human majority {majority:.2%}, with the votes {vote:.2%}")

    ea_refs = {" ".join(normalise(p.reference)) for lang in data for p in data[lang]}
    ea_ctx = {" ".join(normalise(c)) for lang in data for p in data[lang] for c in p.context}
    lm_text = training_text(trained.base)
    print(f"\nthe trained scorer's LM training text: {len(lm_text)} distinct sentences; eval-anaphora references in it "
          f"{len(ea_refs & lm_text)}/{len(ea_refs)}, context sentences {len(ea_ctx & lm_text)}/{len(ea_ctx)}; "
          f"WMT21 training references in it {len({' '.join(normalise(p.reference)) for p in pairs} & lm_text)}"
          f"/{len({p.reference for p in pairs})}")

    print("\nWMT22 mined pairs (swap view; the scored pair's files out of both LMs), score(ref) > score(swapped):")
    every: dict[str, list[bool]] = {"trained": [], "v1": []}
    for pair in args.test_pairs.split(","):
        test = mine_swap_pairs("wmt22", pair, "A", args.data_dir)
        exclude = (f"{DATASETS['wmt22'][1]}.{pair}.",)
        trp = TrainedPronounScorer(args.data_dir, exclude=exclude)
        v1p = OfflinePronounScorer(args.data_dir, exclude=exclude)
        contexts = [p.context for p in test]
        refs, swapped = [p.reference for p in test], [p.swapped for p in test]
        row = {"trained": decide(trp, contexts, refs, swapped), "v1": decide(v1p, contexts, refs, swapped)}
        seen = len({" ".join(normalise(r)) for r in refs} & training_text(trp.base))
        for k, got in row.items():
            every[k] += got
        print(f"  {pair}  trained {_pct(sum(row['trained']), len(test))}  v1 {_pct(sum(row['v1']), len(test))}  "
              f"(references in the trained scorer's LM text: {seen})")
    print(f"  overall trained {_pct(sum(every['trained']), len(every['trained']))}  "
          f"v1 {_pct(sum(every['v1']), len(every['v1']))}")
    print("  " + paired("trained against v1", every["trained"], every["v1"]))
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
