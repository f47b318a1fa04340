"""Where our AZPT and the released one part ways, ZP by ZP (the released ``.details`` verdicts).

    .venv/bin/python -m bench.validity.mzprt_released_diff [--data-dir ../shared/data] [--domain all] [--examples 0]

For every published system: our score, the released one, and the ZPs on which the verdicts differ,
sorted into the causes the per-ZP details show:

- ``far``: the released verdict was "correct" from a word more than ``reach`` words away from our
  candidate span (the original's span for an unaligned ZP runs to the end of the sentence, so any
  later pronoun of the right form counted, often one that translates an overt pronoun);
- ``near``: released "correct" from a word close to our span that we did not credit: a different
  alignment, or the word is aligned to an overt pronoun of the source (so it is not the ZP's);
- ``no-ref``: we judge correct what the original counted wrong because the reference has no
  counterpart for the ZP (its ``_n`` rows are always wrong);
- ``other``: we judge correct, the original wrong, with a reference counterpart.

``Δ`` = (ours-only − released-only) / n, in points; it accounts for the score difference up to the few
ZPs whose annotation changed after the outputs were scored. Figures, not assertions.
"""

from __future__ import annotations

import argparse
from collections import Counter

from discotest.zero_pronoun.judge import DEFAULT_REACH
from discotest.zero_pronoun.run import run_mzprt


def released_position(v, their_words: list[str]) -> int | None:
    """Our position of the word the original matched (its index is into the .tagged line's words)."""
    try:
        at = int(v.released_target_position)
    except (TypeError, ValueError):
        return None
    if not 0 <= at < len(their_words):
        return None
    word = their_words[at].lower()
    k = [w.lower() for w in their_words[:at]].count(word)
    ours = [p for p, w in enumerate(v.hypothesis) if w.lower() == word]
    return ours[k] if k < len(ours) else None


def causes(result, reach: int = DEFAULT_REACH) -> Counter:
    counts: Counter = Counter()
    for v in result.verdicts:
        if v.correct is None:
            continue
        if v.released_correct is None:
            counts["unmatched"] += 1
        elif v.released_correct and not v.correct:
            at = released_position(v, result.hypotheses[v.segment].split())
            near = at is not None and v.span and min(abs(at - p) for p in v.span) <= reach
            counts["near" if near else "far"] += 1
        elif v.correct and not v.released_correct:
            counts["no-ref" if v.released_reference_word is None else "other"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--domain", default="all")
    parser.add_argument("--examples", type=int, default=0, help="print this many differing ZPs per system")
    args = parser.parse_args()
    domains = "all" if args.domain == "all" else args.domain.split(",")
    results = run_mzprt(domains, "all", data_dir=args.data_dir)
    print(f"{'domain':<6} {'system':<15} {'ours':>5} {'rel':>5} {'diff':>6} {'n':>5} | released-only: "
          f"{'far':>4} {'near':>5} | ours-only: {'no-ref':>6} {'other':>5} | {'Δ':>6}")
    total: Counter = Counter()
    for r in results:
        c = causes(r)
        total.update(c)
        delta = 100 * (c["no-ref"] + c["other"] - c["far"] - c["near"]) / r.scores.n
        print(f"{r.domain:<6} {r.system:<15} {r.scores.accuracy:5.1f} {r.released:5.1f} {r.difference:+6.1f} "
              f"{r.scores.n:5d} | {'':15}{c['far']:4d} {c['near']:5d} | {'':11}{c['no-ref']:6d} {c['other']:5d} "
              f"| {delta:+6.1f}")
        shown = 0
        for v in r.verdicts:
            if shown >= args.examples or v.correct is None or v.released_correct in (None, v.correct):
                continue
            shown += 1
            print(f"    line {v.line} {v.tag}: ours {v.correct} {v.candidates} ({v.found_by}); "
                  f"released {v.released_correct} {v.released_target}")
            print(f"      {' '.join(v.hypothesis)}")
    print("all:", dict(total))


if __name__ == "__main__":
    main()
