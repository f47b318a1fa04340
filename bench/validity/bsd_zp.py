"""BSD zero-pronoun suite: its size by pronoun, distance, original language and split, and the hand-checked validity.

    .venv/bin/python -m bench.validity.bsd_zp [--data-dir ../shared/data]

The validity sample is ``tests/gold/bsd/zp_validity.jsonl``: 210 items (180 I/you, 30 he/she), each read with its
context and labelled ``valid`` (the correct candidate is right and the incorrect one wrong in context) or
``invalid``, with why. Every sampled item must still be in the suite with the same candidates (a rule change that
alters one makes it stale, and the script says so: check it again by hand). The figures go to VALIDITY.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from discotest.contrastive.suites import load_suite

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))


GOLD = ROOT / "tests" / "gold" / "bsd" / "zp_validity.jsonl"
SUITES = ("bsd-zp-ja-en-dev", "bsd-zp-ja-en-test")


def wilson_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n (a share near 100% on 200 items)."""
    p = k / n
    centre, half = p + z * z / (2 * n), z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def _table(title: str, counts: Counter, order=None) -> None:
    keys = order if order is not None else sorted(counts, key=lambda k: (-counts[k], str(k)))
    print(f"{title}: " + ", ".join(f"{k} {counts[k]}" for k in keys))


def hand_checked(items: list) -> tuple[list[dict], list[str]]:
    """The validity sample's rows and the ids of those no longer in the suite as checked (stale)."""
    by_id = {i.meta["id"]: i for i in items}
    rows = [json.loads(line) for line in GOLD.read_text("utf-8").splitlines() if line.strip()]
    stale = [r["id"] for r in rows if r["id"] not in by_id
             or (by_id[r["id"]].correct, by_id[r["id"]].incorrect[0]) != (r["correct"], r["incorrect"])]
    return rows, stale


def load_items(data_dir: str | None = None) -> list:
    """Every item of the BSD zero-pronoun suites (dev, then test)."""
    return [item for suite in SUITES for item in load_suite(suite, data_dir)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    items = load_items(args.data_dir)
    splits = Counter(i.meta["split"] for i in items)
    print(f"items: {len(items)} ({', '.join(f'{s} {splits[s.rsplit(chr(45), 1)[1]]}' for s in SUITES)})")
    _table("by pronoun", Counter(i.meta["pronoun"] for i in items))
    _table("by pair", Counter(i.pair for i in items))
    distances = Counter(i.distance for i in items)
    _table("by distance d", distances, sorted(distances))
    _table("by original language", Counter(i.meta["original_language"] for i in items))
    rows, stale = hand_checked(items)
    if stale:
        print(f"STALE (not in the suite as checked; check again by hand): {', '.join(stale)}")
    for name, group in (("all", rows), ("I/you", [r for r in rows if r["pronoun"] not in ("he", "she")]),
                        ("he/she", [r for r in rows if r["pronoun"] in ("he", "she")])):
        valid = sum(r["label"] == "valid" for r in group)
        low, high = wilson_interval(valid, len(group))
        print(f"validity {name}: {valid}/{len(group)} = {100 * valid / len(group):.1f}% "
              f"(95% Wilson {100 * low:.1f}–{100 * high:.1f})")
    for r in rows:
        if r["label"] != "valid":
            print(f"  invalid {r['id']}: {r['why']}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
