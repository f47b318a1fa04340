"""BSD zero-pronoun suite: its size by pronoun, distance, original language and split, and the hand-checked validity.

    .venv/bin/python -m bench.validity.bsd_zp [--data-dir ../shared/data]

The validity sample is ``tests/gold/bsd/zp_validity.jsonl``, each row read with its context and labelled ``valid``
(the correct candidate is right and the incorrect one wrong in context) or ``invalid``, with why. Round 1: 210 items
(180 I/you, 30 he/she; in sample: they shaped the first rules). Round 2 (``"round": 2``, issue 51): 90 test items
never checked before, drawn (``random.Random(51)``) after the first rules2 fixes; round 3: 80 more, drawn
(``random.Random(513)``) after the next; round 4: 85 more under the final rules (``random.Random(514)``, 60, then
``random.Random(515)``, 25); round 5 ("out2", issue 51): 100 more test items never read, drawn
(``random.Random(516)``) under the rules3 generic-"you" rules and labelled blind (Japanese, turns, candidates; the
code's pronoun, distance and flags read only afterwards, to check the distance); round 6 ("out3"): 100 more, drawn
(``random.Random(517)``) under rules4 (shaped on round 5) and labelled the same way; each also read for whether its
incorrect candidate is wrong with no context (``context_needed``). A row whose item a later rule left out carries
``left_out`` (why) and is not counted. Every other sampled item must still be in the suite with the same candidates
and distance (a rule change that alters one makes it stale, and the script says so: check it again by hand). The
figures go to VALIDITY.md (``tests/zero_pronoun/test_bsd_zp.py`` checks they are the ones quoted there).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from discotest.contrastive.suites import load_suite
from discotest.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))


GOLD = ROOT / "tests" / "gold" / "bsd" / "zp_validity.jsonl"
SUITES = ("bsd-zp-ja-en-dev", "bsd-zp-ja-en-test")


def read_gold(path: Path = GOLD) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def figure(rows: list[dict]) -> tuple[int, int, float, float]:
    """(valid, n, Wilson low %, high %) of the rows still in the suite."""
    valid = sum(r["label"] == "valid" for r in rows)
    low, high = wilson_interval(valid, len(rows))
    return valid, len(rows), 100 * low, 100 * high


def line(name: str, rows: list[dict]) -> str:
    valid, n, low, high = figure(rows)
    return f"validity {name}: {valid}/{n} = {100 * valid / n:.1f}% (95% Wilson {low:.1f}–{high:.1f})"


def _table(title: str, counts: Counter, order=None) -> None:
    keys = order if order is not None else sorted(counts, key=lambda k: (-counts[k], str(k)))
    print(f"{title}: " + ", ".join(f"{k} {counts[k]}" for k in keys))


def hand_checked(items: list) -> tuple[list[dict], list[str]]:
    """The validity sample's rows and the ids of the rows kept in the suite whose item changed since it was read
    (stale: check it again by hand). Rows marked ``left_out`` were left out of the suite by a later rule."""
    by_id = {i.meta["id"]: i for i in items}
    rows = read_gold()
    stale = [r["id"] for r in rows if not r.get("left_out") and (r["id"] not in by_id or (
        by_id[r["id"]].correct, by_id[r["id"]].incorrect[0], by_id[r["id"]].distance) != (
        r["correct"], r["incorrect"], r.get("distance", by_id[r["id"]].distance)))]
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
    for split in ("dev", "test"):
        alone = Counter(i.distance for i in items if i.meta["split"] == split and i.meta.get("context_needed") is False)
        _table(f"no context needed ({split}, {sum(alone.values())}), by d", alone, sorted(alone))
    by_id = {i.meta["id"]: i for i in items}
    rows, stale = hand_checked(items)
    gone = [r for r in rows if r.get("left_out")]
    wrongly_gone = [r["id"] for r in gone if r["id"] in by_id]
    kept = [r for r in rows if not r.get("left_out")]
    if stale:
        print(f"STALE (not in the suite as checked; check again by hand): {', '.join(stale)}")
    if wrongly_gone:
        print(f"marked left out but still in the suite: {', '.join(wrongly_gone)}")
    print(f"left out by a later rule (not counted): {len(gone)} of {len(rows)} read")
    first = [r for r in kept if r.get("round", 1) == 1]
    print(line("all", kept))
    print(line("round 1 (in sample)", first))
    print(line("round 1 I/you", [r for r in first if r["pronoun"] not in ("he", "she")]))
    print(line("round 1 he/she", [r for r in first if r["pronoun"] in ("he", "she")]))
    for rnd in (2, 3, 4, 5, 6):
        drawn = [r for r in rows if r.get("round", 1) == rnd]
        print(line(f"round {rnd} as drawn (out of sample for the rules it was drawn under)", drawn))
        print(line(f"round {rnd} (test items still in the suite)", [r for r in drawn if not r.get("left_out")]))
    fresh = [r for r in kept if r.get("round", 1) >= 2]
    flags = [(r["context_needed"], by_id[r["id"]].meta.get("context_needed", True)) for r in fresh]
    print(f"rounds 2-6 'no context needed' read by hand {sum(not a for a, _ in flags)}, flagged by the rule "
          f"{sum(not b for _, b in flags)}, agree {sum(a == b for a, b in flags)}/{len(flags)}")
    for r in kept:
        if r["label"] != "valid":
            print(f"  invalid {r['id']}: {r['why']}")
    return 1 if stale or wrongly_gone else 0


if __name__ == "__main__":
    sys.exit(main())
