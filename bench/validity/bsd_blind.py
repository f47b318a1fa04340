"""Print the BSD zero-pronoun hand-check items blind, for a second reader (issue 51 item 5).

    .venv/bin/python -m bench.validity.bsd_blind --round 5 [--claims] [--data-dir ../shared/data]
    .venv/bin/python -m bench.validity.bsd_blind --round 7 --draw 518 --n 150 --rules4 [--claims]
    .venv/bin/python -m bench.validity.bsd_blind --round 8 --draw 519 --n 200 --split all --rules4 [--claims]
    .venv/bin/python -m bench.validity.bsd_blind --round 9 --draw 520 --n 200 --split all --rules5 [--claims]

A round already in ``zp_validity.jsonl`` is printed from its rows. ``--draw SEED --n N`` draws a fresh round (``draw``):
``random.Random(SEED).sample`` of N test items, in the suite's order, among those no earlier round read (either file),
listed back in the suite's order. It is how round 6 was drawn (``--round 6 --draw 517 --n 100`` gives it back, id for
id; the earlier rounds were drawn from older suites) and how round 7 was (``--round 7 --draw 518 --n 150``).
Rounds 6, 7 and 8 (``--round 8 --draw 519 --n 200 --split all``: dev and test) were drawn from the rules4 suite: since
rules5 took items out, add ``--rules4`` to draw from its ids (``bsd_rules4_ids.txt``: split and id of every rules4
item, dev before test), which gives all three back. Round 9 (``--round 9 --draw 520 --n 200 --split all``) was drawn
from the rules5 suite as it was then; ``--rules5`` draws from its ids (``bsd_rules5_ids.txt``), which gives it back
after a later rule takes items out.

For each sampled id of the round: the Japanese sentence, up to five turns before it from the corpus (speakers, Japanese
and English), and the two English candidates as A and B in an order drawn from ``random.Random(f"{id}|{seed}")``, so
the reader cannot tell which one the suite calls correct. The first reader's ``label``, ``why`` and
``context_needed`` are dropped on reading and never printed. ``--claims`` prints, per id, only what the suite claims
(which letter it calls correct, pronoun, distance): run it after the labels are written down.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from pathlib import Path

from discotest.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))
GOLD = ROOT / "tests" / "gold" / "bsd" / "zp_validity.jsonl"
SECOND = ROOT / "tests" / "gold" / "bsd" / "zp_second_reader.jsonl"
HIDDEN = ("label", "why", "context_needed")
CONTEXT = 5


def blind_rows(round_: int) -> list[dict]:
    """The round's rows with the first reader's judgement removed."""
    rows = [json.loads(line) for line in GOLD.read_text("utf-8").splitlines() if line.strip()]
    return [{k: v for k, v in r.items() if k not in HIDDEN} for r in rows if r.get("round") == round_]


def read_before(round_: int) -> set[str]:
    """The ids any reader read in a round before ``round_`` (a row with no round is round 1)."""
    rows = [json.loads(line) for path in (GOLD, SECOND) for line in path.read_text("utf-8").splitlines()
            if line.strip()]
    return {r["id"] for r in rows if r.get("round", 1) < round_}


RULES4_IDS = ROOT / "bench" / "validity" / "bsd_rules4_ids.txt"  # the suite rounds 6 to 8 were drawn from
RULES5_IDS = ROOT / "bench" / "validity" / "bsd_rules5_ids.txt"  # the suite round 9 was drawn from


def suite_ids(path: Path = RULES4_IDS) -> list[tuple[str, str]]:
    """The (split, id) of every item of an earlier suite, in its order, dev before test (a later rule takes items out,
    which changes any draw from the suite as it is); a bad line names the file and line."""
    out = []
    for n, text in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not text.strip() or text.startswith("#"):
            continue
        split, _, id_ = text.partition("\t")
        if split not in ("dev", "test") or not id_.strip():
            raise InputError("needs 'dev' or 'test', a tab and an item id", path, n)
        out.append((split, id_.strip()))
    return out


def draw(items: list, seed: int, n: int, read: set[str], splits: tuple[str, ...] = ("test",),
         pool_ids: list[tuple[str, str]] | None = None) -> list[dict]:
    """N items of ``splits`` no one has read, drawn with ``random.Random(seed).sample`` from the suite's items in the
    suite's order (dev before test), or from ``pool_ids``, the (split, id) of the suite the round was drawn from
    (``suite_ids``: the same ids in the same order give the same picks), back in that order: each as a gold row (id,
    split, pronoun, distance, source, candidates); an id the suite no longer holds comes back with ``left_out``.
    Rounds 6 and 7 were drawn from the test split alone; by round 8 only 19 test items were unread, so round 8 draws
    from both splits (``--split all``)."""
    by_id = {i.meta["id"]: i for i in items if i.meta["split"] in splits}
    ids = pool_ids if pool_ids is not None else [(i.meta["split"], i.meta["id"]) for i in items]
    pool = [(s, k) for s, k in ids if s in splits and k not in read]
    if n > len(pool):
        raise InputError(f"{n} items asked, {len(pool)} unread in {'+'.join(splits)} (--split all takes both)", GOLD)
    picked = set(random.Random(seed).sample(pool, n))
    return [{"id": k, "split": s, "pronoun": by_id[k].meta["pronoun"], "distance": by_id[k].distance,
             "source": by_id[k].src, "correct": by_id[k].correct, "incorrect": by_id[k].incorrect[0]}
            if k in by_id else {"id": k, "split": s, "left_out": "not in the suite now"}
            for s, k in pool if (s, k) in picked]


def order(row: dict, seed: int) -> tuple[str, str]:
    """The candidates as (A, B), in a seeded random order per id."""
    pair = [row["correct"], row["incorrect"]]
    random.Random(f"{row['id']}|{seed}").shuffle(pair)
    return pair[0], pair[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=int, required=True)
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--claims", action="store_true")
    parser.add_argument("--draw", type=int, metavar="SEED", help="draw a fresh round with random.Random(SEED)")
    parser.add_argument("--n", type=int, default=100, help="items a drawn round takes")
    parser.add_argument("--split", choices=("test", "all"), default="test",
                        help="the splits a drawn round takes its items from (round 8: all)")
    ids = parser.add_mutually_exclusive_group()
    ids.add_argument("--rules4", action="store_true", help="draw from the rules4 suite (rounds 6 to 8 were)")
    ids.add_argument("--rules5", action="store_true", help="draw from the rules5 suite (round 9 was)")
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    data = Path(args.data_dir or os.environ["DISCOTEST_DATA"]) / "bsd"
    if args.draw is not None:
        from bench.validity.bsd_zp import load_items

        splits = ("dev", "test") if args.split == "all" else ("test",)
        try:
            rows = draw(load_items(args.data_dir), args.draw, args.n, read_before(args.round), splits,
                        suite_ids(RULES4_IDS if args.rules4 else RULES5_IDS) if args.rules4 or args.rules5 else None)
        except InputError as exc:
            print(exc.one_line(), file=sys.stderr)
            return 2
    else:
        rows = blind_rows(args.round)
    turns = {}
    for split in ("dev", "test"):
        for scenario in json.loads((data / f"{split}.json").read_text("utf-8")):
            turns[scenario["id"]] = scenario["conversation"]
    for row in rows:
        if "correct" not in row:  # drawn from an earlier suite, taken out since: nothing to read
            print(f"{row['id']}\tleft_out={row['left_out']}")
            continue
        a, b = order(row, args.seed)
        if args.claims:
            print(f"{row['id']}\tcorrect={'A' if a == row['correct'] else 'B'}\t{row['pronoun']}\td{row['distance']}"
                  + (f"\tleft_out={row['left_out']}" if row.get("left_out") else ""))
            continue
        scenario, no = row["id"].split("#")
        conv = turns[scenario]
        t = next(k for k, c in enumerate(conv) if c["no"] == int(re.match(r"\d+", no).group()))
        print(f"=== {row['id']}")
        for c in conv[max(0, t - CONTEXT):t]:
            print(f"  [{c['en_speaker']}] {c['ja_sentence']}  | {c['en_sentence']}")
        print(f"  >> [{conv[t]['en_speaker']}] {conv[t]['ja_sentence']}")
        print(f"  A: {a}\n  B: {b}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
