"""How often does a pronoun scorer rate the reference above the system sentence on eval-anaphora (4 × 500 pairs)?

Usage: .venv/bin/python bench/dip_anaphora_agreement.py [--scorer offline|hf:MODEL] [--data-dir DIR] [--ablate]
Prints, per language and overall, the share of pairs with score(ref) > score(sys), ties counted apart.
``--ablate`` also prints the LM alone and the agreement feature alone (offline scorer only).
"""

from __future__ import annotations

import argparse
import time

from discotest.dip.eval_anaphora import load_eval_anaphora
from discotest.dip.pronoun_scorer import OfflinePronounScorer, make_pronoun_scorer


def agreement(ref_scores: list[float], sys_scores: list[float]) -> tuple[int, int, int]:
    wins = sum(r > s for r, s in zip(ref_scores, sys_scores))
    ties = sum(r == s for r, s in zip(ref_scores, sys_scores))
    return wins, ties, len(ref_scores)


def report(label: str, rows: dict[str, tuple[int, int, int]]) -> None:
    total = [sum(v[i] for v in rows.values()) for i in range(3)]
    print(f"\n{label}")
    for lang, (wins, ties, n) in [*rows.items(), ("overall", tuple(total))]:
        print(f"  {lang:8s} ref>sys {wins / n:6.1%}  ties {ties / n:5.1%}  ({wins}/{n})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", default="offline")
    parser.add_argument("--data-dir")
    parser.add_argument("--ablate", action="store_true")
    args = parser.parse_args()
    data = load_eval_anaphora(args.data_dir)
    kwargs = {"data_dir": args.data_dir} if args.scorer == "offline" else {}
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


if __name__ == "__main__":
    main()
