"""End to end: the pronoun's gender as the pipeline reads it (aligner + analyser) against the gold.

    .venv/bin/python -m bench.validity.pronoun_agreement [--langs de,he] [--aligner thot-eflomal] [--show-misses]

The gold test (tests/lang/test_pronoun_gold.py) gives the analyser the hand-marked pronoun words; here the
aligner finds them, as in a real run. Agreement counts (omitted reason, and gender when not omitted).
``--show-misses`` prints every gold item the pipeline reads differently from the gold (the source, the
translation, the target words aligned to the English pronoun, what the analyser read and why, the gold),
so that two aligners' misses can be compared item by item.
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from pathlib import Path

from tests.support.pronoun_gold import GOLD_DIR, PronounGoldRow, load_pronoun_gold

import discotest
from discotest.gender.judge import GenderVerdict
from discotest.lang.align import DEFAULT_ALIGNER

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))


def _show_miss(lang: str, row: PronounGoldRow, v: GenderVerdict, omitted: str, got_gender: str) -> None:
    """One disagreeing item, with what the aligner linked and what the analyser made of it."""
    gold = row.omitted or row.gender
    print(f"  MISS {lang} {row.system} #{row.index} ({v.pronoun}): read {omitted or got_gender}, gold {gold}")
    print(f"    source:      {v.source}")
    print(f"    translation: {v.translation}")
    print(f"    aligned:     {' '.join(v.target_pronoun) or '-'} | entity: {' '.join(v.target_entity) or '-'}")
    print(f"    analyser:    {v.pronoun_reason}")
    print(f"    gold:        '{row.pronoun_words}' {gold}: {row.justification}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--langs", default=",".join(sorted(p.stem for p in GOLD_DIR.glob("*.tsv"))))
    parser.add_argument("--aligner", default=DEFAULT_ALIGNER, help="an aligner name (discotest.lang.align.ALIGNERS)")
    parser.add_argument("--align-train", default="suite", choices=("suite", "input"),
                        help="the language's alignment model (suite, the default) or an aligner trained on each file")
    parser.add_argument("--show-misses", action="store_true", help="print each item that disagrees with the gold")
    args = parser.parse_args()
    for lang in args.langs.split(","):
        agree, n, how = agreement(lang, args.aligner, args.align_train, args.show_misses)
        print(f"{lang}: end-to-end pronoun agreement {100 * agree / n:5.1f}% of {n} "
              f"({', '.join(f'{k} {c}' for k, c in sorted(how.items()))})")


def agreement(lang: str, aligner: str = DEFAULT_ALIGNER, align_train: str = "suite", show_misses: bool = False
              ) -> tuple[int, int, Counter]:
    """(rows that agree, rows, aligned/not aligned counts) of the language's pronoun gold, read by a real run."""
    gold = load_pronoun_gold(lang)
    systems = sorted({r.system for r in gold})
    results = discotest.run("winomt", lang=lang, system=systems, jobs=1, suite_version="2019",
                            measure="all", aligner=aligner, align_train=align_train, quiet=True)
    by_key = {(r.system, v.index): v for r in results for v in r.verdicts}
    agree, how = 0, Counter()
    for row in gold:
        v = by_key[(row.system, row.index)]
        omitted = v.omitted if v.omitted not in ("pronoun-unreadable", "entity-unreadable") else ""
        got_gender = v.pronoun_gender if not omitted else "unknown"
        ok = (omitted or "") == row.omitted and (row.omitted or got_gender == row.gender)
        agree += bool(ok)
        if show_misses and not ok:
            _show_miss(lang, row, v, omitted, got_gender)
        how["aligned" if v.target_pronoun else "not aligned"] += 1
    return agree, len(gold), how


if __name__ == "__main__":
    main()
