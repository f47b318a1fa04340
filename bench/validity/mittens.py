"""MiTTenS: the English reading on the references (oracle) and on the references swapped (anti-oracle), the
out-of-English reading of the references per readable language, and the hand-checked sample of readings.

    .venv/bin/python -m bench.validity.mittens [--data-dir ../shared/data] [--no-out]

The sample is ``tests/gold/mittens/readings.jsonl``: 153 readings of English texts (93 of the English sources of the
out-of-English passages, every one with a gendered word; 60 distinct into-English references, 45 of them every
reference where the rule leaves a word out as another person's), each with its deciding words marked (``[word+]``
the person's, ``[word-]`` another person's or left out) and labelled ``agree`` (the verdict is a careful reader's
and every deciding word is the person's) or ``disagree``, with why. A reading that no longer matches the sample
is STALE: check it again by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from discotest.gender.mittens.english import read_english, swap_gender
from discotest.gender.mittens.suite import SUITE, SUITE_OUT, load_mittens

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))


GOLD = ROOT / "tests" / "gold" / "mittens" / "readings.jsonl"


def wilson_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre, half = p + z * z / (2 * n), z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def hand_checked(data_dir: str | None = None) -> tuple[list[dict], list[str]]:
    """The hand-checked sample's rows and the ids of those whose reading no longer matches the sample (stale)."""
    rows = [json.loads(line) for line in GOLD.read_text("utf-8").splitlines() if line.strip()]
    texts = {**{f"reference:{i.index}": i for i in load_mittens(SUITE, root=data_dir)},
             **{f"out-source:{i.index}": i for i in load_mittens(SUITE_OUT, root=data_dir)}}
    stale = []
    for r in rows:
        item = texts[r["id"]]
        reading = read_english(item.reference if r["text"] == "reference" else item.source, item.gender)
        if (reading.verdict, [w.text for w in reading.deciding]) != (r["verdict"], r["deciding"]):
            stale.append(r["id"])
    return rows, stale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--no-out", action="store_true", help="skip the out-of-English reading (aligner, analysers)")
    args = parser.parse_args()
    items = load_mittens(SUITE, root=args.data_dir)
    oracle = Counter(read_english(i.reference, i.gender).verdict for i in items)
    swapped = Counter(read_english(swap_gender(i.reference), i.gender).verdict for i in items)
    n = len(items)
    print(f"into English: {n} passages, {len({i.lang for i in items})} languages")
    print(f"references: correct {oracle['correct']}/{n} = {100 * oracle['correct'] / n:.1f}% "
          f"({', '.join(f'{k} {v}' for k, v in sorted(oracle.items()))})")
    print(f"references swapped: correct {swapped['correct']}/{n} = {100 * swapped['correct'] / n:.1f}% "
          f"({', '.join(f'{k} {v}' for k, v in sorted(swapped.items()))})")
    rows, stale = hand_checked(args.data_dir)
    if stale:
        print(f"STALE (the reading changed; check again by hand): {', '.join(stale)}")
    agree = sum(r["label"] == "agree" for r in rows)
    low, high = wilson_interval(agree, len(rows))
    print(f"hand-checked readings: {agree}/{len(rows)} = {100 * agree / len(rows):.1f}% agree "
          f"(95% Wilson {100 * low:.1f}–{100 * high:.1f})")
    for r in rows:
        if r["label"] != "agree":
            print(f"  disagree {r['id']}: {r['why']}")
    if not args.no_out:
        from discotest.gender.mittens.free import readable
        from discotest.gender.mittens.run import run_one

        for lang in sorted({i.lang for i in load_mittens(SUITE_OUT, root=args.data_dir)}):
            if not readable(lang):
                print(f"out of English {lang}: not readable")
                continue
            c = run_one(SUITE_OUT, lang, system="reference", data_dir=args.data_dir).overall
            print(f"out of English {lang}: references correct {c.correct}/{c.n} = {c.pct('correct'):.1f}%, wrong "
                  f"{c.wrong}, both {c.both}, none {c.none}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
