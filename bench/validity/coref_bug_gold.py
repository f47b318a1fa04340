"""The hand check of the English resolvers' decisions on BUG items without a distractor (issue 54 item 4: the rule
``gender.coref.resolvers.NO_DISTRACTOR_RULE``). Two seeded draws over the BUG items with a pronoun and no distractor
the suite's finder accepts: 30 where either resolver decides (``random.Random(54004)``), then 20 more where the rule
resolver decides (``random.Random(54005)``; the first draw gave it only 8). Each item was read for what its marked
pronoun (the one discotest picks) refers to, the entity or another person, before the rows were labelled;
``tests/gold/coref_bug/validity.jsonl`` keeps one row per resolver that decided the item (its decision, agree or
disagree). Two drawn items have no clear referent and are left out (155: "his efforts", the entity "Coach" is in an
award's name; 1130: "A friend challenged de Vivie to ride his new bicycle").

    scripts/neuralcoref-env                                       # once: the neuralcoref environment
    .venv/bin/python -m bench.validity.coref_bug_gold

It runs both resolvers on BUG again and fails when a decision on a read row changed (read it again), or when the
draws no longer give the read rows. Beside each figure: how many of the same decisions BUG's own gold counts right
(every BUG pronoun is annotated as the entity's; the reading finds it is not on some rows).
"""

from __future__ import annotations

import os
import random
import sys

from bench.validity.hand_check import ROOT, read_rows, report

os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))
GOLD = "tests/gold/coref_bug/validity.jsonl"
RESOLVERS = ("rules", "neuralcoref")
UNCLEAR = (155, 1130)


def decisions() -> dict[str, dict[int, str]]:
    """Each resolver's decision on every BUG row without an accepted distractor (rows with one are left out)."""
    from discotest.gender.coref.resolvers import candidate_spans, make_resolver
    from discotest.gender.mentions import find_pronouns
    from discotest.gender.suites import load_gender_suite

    items = load_gender_suite("bug", "current", os.environ["DISCOTEST_DATA"])
    alone = {item.index for item, mention in zip(items, find_pronouns(items), strict=True)
             if mention is not None and "distractor" not in candidate_spans(item)}
    return {name: {item.index: d for item, d in zip(items, make_resolver(name).resolve(items), strict=True)
                   if item.index in alone} for name in RESOLVERS}


def drawn(now: dict[str, dict[int, str]]) -> tuple[list[int], list[int]]:
    """The two draws' rows, from the decisions ``now``."""
    pool = sorted(row for row in now["rules"] if any(now[name][row] != "none" for name in RESOLVERS))
    first = random.Random(54004).sample(pool, 30)
    rest = [row for row in pool if now["rules"][row] != "none" and row not in first]
    return sorted(first), sorted(random.Random(54005).sample(rest, 20))


def main() -> int:
    rows = read_rows(GOLD)
    now = decisions()
    first, second = drawn(now)
    read = {int(r["id"].split("/")[1]) for r in rows}
    moved = read.symmetric_difference(set(first + second) - set(UNCLEAR))
    changed = [r["id"] for r in rows if now[r["id"].split("/")[0]][int(r["id"].split("/")[1])] != r["decision"]]
    if moved or changed:
        print(f"STALE (read again): draws moved {sorted(moved)}, decisions changed {changed}")
    for name in RESOLVERS:
        for draw in ("seed 54004", "seed 54005 (rules)"):
            mine = [r for r in rows if r["id"].startswith(name + "/") and r["draw"] == draw]
            if mine:
                bug_gold = sum(r["decision"] == "entity" for r in mine)
                report(f"{name}, draw {draw}: decisions right by the reading", mine)
                print(f"  by BUG's gold (the entity is always right): {bug_gold} of {len(mine)}")
    return 1 if moved or changed else 0


if __name__ == "__main__":
    sys.exit(main())
