"""How often does a pronoun scorer rate the reference above the system sentence on eval-anaphora (4 × 500 pairs)?

Usage: .venv/bin/python -m bench.validity.dip_anaphora_agreement [--scorer offline-v1|offline|hf:MODEL] [--data-dir DIR]
                                                         [--ablate] [--protocol cv] [--show-pairs]
Prints, per language and overall, the share of pairs with score(ref) > score(sys), ties counted apart.
``--ablate`` also prints the LM alone and the agreement feature alone (offline-v1 only).
``--protocol cv`` (offline-v1, the default here): the figure with the agreement weight and beta tuned on other
languages than the ones counted (leave one language out, and every two against two), beside the in-sample figure; the
agreement with the user study of Jwalapuram et al. (2019) for the shipped and the held-out constants
(``--show-pairs``: per pronoun pair); and how many eval-anaphora sentences occur in the scorer's LM training text.
"""

from __future__ import annotations

import argparse
import time

from discotest.dip import pronoun_protocol as protocol
from discotest.dip.eval_anaphora import AnaphoraPair, load_eval_anaphora, load_pronoun_pair_list
from discotest.dip.ngram_lm import normalise
from discotest.dip.pronoun_factory import OFFLINE_NAMES, make_pronoun_scorer
from discotest.dip.pronoun_scorer import OfflinePronounScorer


def agreement(ref_scores: list[float], sys_scores: list[float]) -> tuple[int, int, int]:
    wins = sum(r > s for r, s in zip(ref_scores, sys_scores))
    ties = sum(r == s for r, s in zip(ref_scores, sys_scores))
    return wins, ties, len(ref_scores)


def report(label: str, rows: dict[str, tuple[int, int, int]]) -> None:
    total = [sum(v[i] for v in rows.values()) for i in range(3)]
    print(f"\n{label}")
    for lang, (wins, ties, n) in [*rows.items(), ("overall", tuple(total))]:
        print(f"  {lang:8s} ref>sys {wins / n:6.1%}  ties {ties / n:5.1%}  ({wins}/{n})")


def _pct(won: int, n: int) -> str:
    return f"{won / n:6.1%} ({won}/{n})"


def report_cv(scorer: OfflinePronounScorer, data: dict[str, list[AnaphoraPair]], data_dir: str | None,
              show_pairs: bool) -> None:
    features = {lang: protocol.pair_features(scorer, pairs) for lang, pairs in data.items()}
    every = [f for lang in sorted(features) for f in features[lang]]
    shipped = (scorer.weight, scorer.beta)
    best = protocol.tune(every)
    print(f"\nin sample: shipped w={shipped[0]} beta={shipped[1]} on all pairs "
          f"{_pct(protocol.wins(every, *shipped), len(every))}; best of the grid on all pairs (w, beta) = {best} "
          f"{_pct(protocol.wins(every, *best), len(every))}")
    for scheme, title in (("loo", "leave one language out"), ("half", "two languages against two")):
        print(f"\nout of sample, {title} (grid w 0..4 step 0.25 x beta {protocol.BETAS}):")
        held = n = 0
        for fold in protocol.cross_validate(features, scheme):
            held, n = held + fold.test_wins, n + fold.test_n
            print(f"  tune {'+'.join(fold.tuned_on):22s} w={fold.weight:<4} beta={fold.beta:<3}  "
                  f"tune {_pct(fold.tune_wins, fold.tune_n)}  held-out {'+'.join(fold.tested_on):16s} "
                  f"{_pct(fold.test_wins, fold.test_n)}")
        print(f"  pooled held-out {_pct(held, n)}")
    study = load_pronoun_pair_list(data_dir)
    keys = [f.substitution for f in every]
    held_out = protocol.held_out_decisions(features)
    for label, decisions in (("shipped constants (in sample)", [f.prefers_reference(*shipped) for f in every]),
                             ("leave-one-language-out constants (held out)",
                              [d for lang in sorted(held_out) for d in held_out[lang]]),
                             ("baseline: always the reference", [True] * len(every))):
        rows, missing = protocol.human_agreement(study, keys, decisions)
        majority, vote, votes = protocol.overall(rows)
        covered = sum(r.scored for r in rows)
        print(f"\nuser study (Jwalapuram et al. 2019), {label}: {len(rows)} of {len(study)} pronoun pairs, "
              f"{votes} votes, {covered} eval-anaphora pairs; agreement with the human majority {majority:.2%}, "
              f"with the votes {vote:.2%}" + (f"; not covered: {', '.join(missing)}" if missing else ""))
        if show_pairs:
            for r in sorted(rows, key=lambda r: -sum(r.votes.values())):
                total = sum(r.votes.values())
                print(f"  {r.key:16s} scorer {r.label:3s} ({r.prefer_ref}/{r.scored} ref)  votes REF {r.votes['REF']}"
                      f" SYS {r.votes['SYS']} Tie {r.votes['Tie']}  majority {r.majority_votes / total:6.1%}"
                      f"  votes {r.agreeing_votes / total:6.1%}")
    training = set()
    for path in scorer.training_files():
        training.update(" ".join(normalise(line)) for line in path.read_text("utf-8").split("\n") if line.strip())
    pairs = [p for lang in sorted(data) for p in data[lang]]
    ref_hits = sum(" ".join(normalise(p.reference)) in training for p in pairs)
    ctx_hits = sum(" ".join(normalise(c)) in training for p in pairs for c in p.context)
    contexts = sum(len(p.context) for p in pairs)
    print(f"\noverlap with the LM training text ({len(training)} distinct sentences): reference sentences "
          f"{ref_hits}/{len(pairs)}, context sentences {ctx_hits}/{contexts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", default="offline-v1", help="default offline-v1: the scorer --protocol cv tunes")
    parser.add_argument("--data-dir")
    parser.add_argument("--ablate", action="store_true")
    parser.add_argument("--protocol", choices=("cv",), help="out-of-sample figures (offline scorer)")
    parser.add_argument("--show-pairs", action="store_true", help="with --protocol cv: per pronoun pair")
    args = parser.parse_args()
    data = load_eval_anaphora(args.data_dir)
    kwargs = {"data_dir": args.data_dir} if args.scorer in OFFLINE_NAMES else {}
    scorer = make_pronoun_scorer(args.scorer, **kwargs)
    start = time.perf_counter()
    rows, parts = {}, {"lm": {}, "agreement": {}}
    for lang, pairs in data.items():
        contexts = [p.context for p in pairs]
        ref = scorer.score(contexts, [p.reference for p in pairs])
        sys_ = scorer.score(contexts, [p.system for p in pairs])
        rows[lang] = agreement(ref, sys_)
        if args.ablate and isinstance(scorer, OfflinePronounScorer):
            rc = [scorer.components(p.context, p.reference) for p in pairs]
            sc = [scorer.components(p.context, p.system) for p in pairs]
            for i, part in enumerate(parts):
                parts[part][lang] = agreement([r[i] for r in rc], [s[i] for s in sc])
    print(f"scorer {scorer.signature()}  ({time.perf_counter() - start:.1f} s incl. training/loading)")
    report("score(ref) > score(sys)", rows)
    if args.ablate and isinstance(scorer, OfflinePronounScorer):
        for part, part_rows in parts.items():
            report(f"{part} alone", part_rows)
    if args.protocol == "cv":
        if not isinstance(scorer, OfflinePronounScorer):
            parser.error("--protocol cv tunes the offline scorer's constants: use --scorer offline-v1")
        report_cv(scorer, data, args.data_dir, args.show_pairs)


if __name__ == "__main__":
    main()
