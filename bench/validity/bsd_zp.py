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

Rounds 5 and 6 were read again by a second reader who did not write the rules (``zp_second_reader.jsonl``, issue 51
item 5), blind: the items printed by ``bench.validity.bsd_blind`` (the first reader's label, why and context_needed
dropped, candidates in a seeded A/B order, the suite's claims shown only afterwards). The script prints that reader's
valid rate per round with a Wilson interval, the agreement with the first reader (raw and Cohen's kappa, on labels and
on ``context_needed``) and every disagreement with both whys.

Round 7 (issue 51 item 5) was read by that second reader alone: 150 test items never read before, drawn with
``random.Random(518)`` under rules4 by ``bench.validity.bsd_blind --round 7 --draw 518 --n 150`` (the draw that gives
round 6 back with 517 and 100), labelled blind from that print (the A/B ``pick``, context needed, why; committed before
the suite's claims were read), then each distance checked against the claims. Its rows in ``zp_second_reader.jsonl``
carry the item (split, pronoun, distance, source, candidates) as the first reader's rows do, so a rule change that
alters one makes it stale here too, and each invalid row a ``class`` (generic you, person left open, distance). The
script prints round 7 alone, rounds 6 and 7 pooled as drawn (round 6 by either reader) and round 7's misses by class.
Rules5 was shaped on round 7's misses and leaves them out (their rows carry ``left_out``), so round 7 still in the
suite is in sample; its 'no context needed' line and the same line for the second reader's rounds 5-6 compare the
reader's judgement with the rule's flag.

Round 8 (issue 51 item 5), read the same way by another helper who did not write the rules: 200 items no one had read,
drawn under rules4 by ``bench.validity.bsd_blind --round 8 --draw 519 --n 200 --split all --rules4`` (only 19 test
items were left unread, so the draw takes the dev split's unread items too), in ``zp_second_reader.jsonl`` as
``"round": 8``. Rules5 never saw it: out of sample for rules4 as drawn, and for rules5 on the items it keeps. For each
round only a later reader read, the script also reports the round under the suite as it is now: the rows whose item
is still in the suite as read are counted, those a later rule left out (marked ``left_out``, as the first reader's
rows) are counted apart with their labels; a row whose item changed, or left the suite unmarked, is stale (read it
again, or mark it). Rules6 was shaped on round 8's misses (round 8 is in sample for it): the four it leaves out carry
``left_out``, and the one whose distance it moved to the turn the reader's why names carries ``now`` (the distance,
the label it then has and who read it again), so the round is counted as it stands while its rows keep the figures
as drawn.

Round 9 (issue 51 item 5), read the same way by a reader who did not write the rules: 200 items no one had read, drawn
from the rules5 suite by ``bench.validity.bsd_blind --round 9 --draw 520 --n 200 --split all`` (``--rules5`` gives it
back from ``bsd_rules5_ids.txt`` once a later rule takes items out), labelled blind before the claims were printed
(committed first as ``zp_round9_blind.jsonl``), then each distance checked; in ``zp_second_reader.jsonl`` as
``"round": 9``. Out of sample for rules5, the rules it was drawn under; a later rule set is scored on the same rows
(``suite_rounds``). Rules6 (shaped on round 8, written without opening round 9) is scored on round 9
out of sample: the same marks, ``left_out`` and ``now``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from bench.validity.hand_check import numbered_rows
from discotest.contrastive.suites import load_suite
from discotest.errors import InputError
from discotest.stats import cohen_kappa, observed_agreement, wilson_interval

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))


GOLD = ROOT / "tests" / "gold" / "bsd" / "zp_validity.jsonl"
SECOND = ROOT / "tests" / "gold" / "bsd" / "zp_second_reader.jsonl"
SUITES = ("bsd-zp-ja-en-dev", "bsd-zp-ja-en-test")
SECOND_ROUNDS = (5, 6)  # rounds the first reader read too
SECOND_ONLY = (7, 8, 9)  # rounds only a later reader read: their rows carry the item
ITEM = ("split", "pronoun", "distance", "source", "correct", "incorrect")
CLASSES = ("generic you", "person left open", "distance")


def read_gold(path: Path = GOLD) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def figure(rows: list[dict]) -> tuple[int, int, float, float]:
    """(valid, n, Wilson low %, high %) of the rows still in the suite."""
    valid = sum(r["label"] == "valid" for r in rows)
    low, high = wilson_interval(valid, len(rows))
    return valid, len(rows), 100 * low, 100 * high


def read_second(first: list[dict], path: Path = SECOND) -> list[dict]:
    """The second reader's rows, each checked against the first reader's sample (same id and round, a label, a
    boolean context_needed, a why); a bad row names the file and line."""
    by_id = {r["id"]: r for r in first}
    rows = []
    for n, row in numbered_rows(path):
        if row.get("label") not in ("valid", "invalid") or not isinstance(
                row.get("context_needed"), bool) or not str(row.get("why", "")).strip():
            raise InputError("needs a label valid/invalid, a boolean context_needed and a why", path, n)
        if row.get("round") in SECOND_ONLY:
            if row.get("id") in by_id or any(k not in row for k in ITEM):
                raise InputError(f"round {row['round']} is read by this reader alone: an id no one read before and "
                                 f"the item ({', '.join(ITEM)})", path, n)
            if (row["label"] == "invalid") != (row.get("class") in CLASSES):
                raise InputError(f"an invalid row names its class ({', '.join(CLASSES)}), a valid one none", path, n)
        elif row.get("id") not in by_id or by_id[row["id"]].get("round") != row.get("round"):
            raise InputError(f"id {row.get('id')!r} is not in the first reader's round {row.get('round')}", path, n)
        rows.append(row)
    if len({r["id"] for r in rows}) != len(rows):
        raise InputError("an id is read twice", path)
    return rows


def second_figures(first: list[dict], second: list[dict]) -> dict:
    """The second reader's valid rate per round (as drawn, and on the items still in the suite) and the agreement with
    the first reader: raw share and Cohen's kappa on the label and on context_needed, over the items still in the
    suite (the ones the suite's figure counts), and the disagreements (all rows read)."""
    by_id = {r["id"]: r for r in first}
    gone = {r["id"] for r in (*first, *second) if r.get("left_out")}
    out: dict = {"rounds": {}}
    for rnd in (*SECOND_ROUNDS, *SECOND_ONLY):
        drawn = [r for r in second if r["round"] == rnd]
        out["rounds"][rnd] = {"drawn": figure(drawn), "kept": figure([_now(r) for r in drawn if r["id"] not in gone])}
    drawn = {rnd: [r for r in second if r["round"] == rnd] for rnd in SECOND_ONLY}
    six = {who: [r for r in rows if r.get("round") == 6] for who, rows in (("second", second), ("first", first))}
    # rounds 6 to 8 as drawn: all out of sample for rules4, the rules they were drawn under (rules5 was shaped on
    # round 7's misses, so round 7 still in the suite is in sample; round 8 it never saw: ``suite_rounds``)
    out["pooled"] = {who: figure(rows + drawn[7]) for who, rows in six.items()}
    out["pooled_6_8"] = figure(six["second"] + drawn[7] + drawn[8])
    out["classes"] = {rnd: {c: [r for r in rows if r.get("class") == c] for c in CLASSES}
                      for rnd, rows in drawn.items()}
    kept = [r for r in second if r["round"] in SECOND_ROUNDS and r["id"] not in gone]
    for key in ("label", "context_needed"):
        a = [by_id[r["id"]][key] for r in kept]
        b = [r[key] for r in kept]
        out[key] = (sum(x == y for x, y in zip(a, b)), len(kept), observed_agreement(a, b), cohen_kappa(a, b))
    out["disagree"] = [(r, by_id[r["id"]]) for r in second
                       if r["round"] in SECOND_ROUNDS and r["label"] != by_id[r["id"]]["label"]]
    return out


def second_lines(first: list[dict], second: list[dict]) -> list[str]:
    """The second reader's figures as VALIDITY.md quotes them."""
    fig = second_figures(first, second)
    lines = []
    for rnd, parts in fig["rounds"].items():
        lines.append(_said(f"second reader round {rnd} as drawn", parts["drawn"]))
        lines.append(_said(f"second reader round {rnd} (still in the suite)", parts["kept"]))
    for who, part in fig["pooled"].items():
        lines.append(_said(f"rounds 6-7 pooled as drawn (round 6 as the {who} reader read it, round 7 the second)",
                           part))
    lines.append(_said("rounds 6-8 pooled as drawn (round 6 as the second reader read it, rounds 7 and 8 the later "
                       "readers)", fig["pooled_6_8"]))
    for rnd, classes in fig["classes"].items():
        for name, rows in classes.items():
            lines.append(f"round {rnd} misses, {name}: {len(rows)}" + "".join(
                f"\n  {r['id']}: {r['why']}" + (" [left out: {}]".format(r["left_out"]) if r.get("left_out") else "")
                for r in rows))
    for key in ("label", "context_needed"):
        same, n, _, kappa = fig[key]
        lines.append(f"agreement with the first reader on {key}: {same} of {n} = {100 * same / n:.1f}%, "
                     f"Cohen's kappa {kappa:.2f}")
    for mine, theirs in fig["disagree"]:
        gone = " (left out by a later rule)" if theirs.get("left_out") else ""
        lines.append(f"  disagree {mine['id']}{gone}: first {theirs['label']}: {theirs['why']} | "
                     f"second {mine['label']}: {mine['why']}")
    return lines


def line(name: str, rows: list[dict]) -> str:
    return _said(name, figure(rows))


def _said(name: str, fig: tuple[int, int, float, float]) -> str:
    valid, n, low, high = fig
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


def stale_second(items: list, second: list[dict]) -> list[str]:
    """The ids of the second-reader-only rows not marked ``left_out`` whose item changed since it was read or is no
    longer in the suite (stale: read it again, or mark it ``left_out`` with the rule that took it out)."""
    by_id = {i.meta["id"]: i for i in items}
    return [r["id"] for r in map(_now, second) if r["round"] in SECOND_ONLY and not r.get("left_out") and (
        r["id"] not in by_id or _as_read(by_id[r["id"]]) != (r["correct"], r["incorrect"], r["distance"], r["source"]))]


def _now(row: dict) -> dict:
    """A row as it stands under the current suite: a later rule that moved an item's distance to the turn the
    reader's why names (rules6: Suzy's "you" is Steve, d 2 -> 5) carries ``now`` (the new distance, the label it
    then has, who read it again and why); the row's own fields stay as drawn."""
    return {**row, **row.get("now", {})}


def _as_read(item) -> tuple:
    return item.correct, item.incorrect[0], item.distance, item.src


def suite_rounds(items: list, second: list[dict]) -> dict:
    """Each second-reader-only round under the suite as it is now (issue 51: a later rule set, rules5, is scored on
    the same labels): ``in_suite`` the figure of the rows whose item is still in the suite as read, ``gone`` the rows
    a later rule left out (marked ``left_out``: counted apart), ``kept`` the rows in the suite (to pool rounds),
    ``changed`` the ids of the other rows, altered or gone unmarked (stale, not counted), and ``context`` (read wrong
    alone by hand, flagged by the rule, both, agree, n) over the rows in the suite."""
    by_id = {i.meta["id"]: i for i in items}
    out = {}
    for rnd in SECOND_ONLY:
        rows = [_now(r) for r in second if r["round"] == rnd]
        gone = [r for r in rows if r.get("left_out")]
        kept = [r for r in rows if not r.get("left_out") and r["id"] in by_id
                and _as_read(by_id[r["id"]]) == (r["correct"], r["incorrect"], r["distance"], r["source"])]
        pairs = [(r["context_needed"], by_id[r["id"]].meta.get("context_needed", True)) for r in kept]
        out[rnd] = {"in_suite": figure(kept), "gone": gone, "kept": kept,
                    "changed": [r["id"] for r in rows if r not in kept and r not in gone],
                    "context": (sum(not a for a, _ in pairs), sum(not b for _, b in pairs),
                                sum(not a and not b for a, b in pairs), sum(a == b for a, b in pairs), len(pairs))}
    return out


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
          f"{sum(not b for _, b in flags)}, both {sum(not a and not b for a, b in flags)}, "
          f"agree {sum(a == b for a, b in flags)}/{len(flags)}")
    for r in kept:
        if r["label"] != "valid":
            print(f"  invalid {r['id']}: {r['why']}")
    try:
        second = read_second(rows)
    except InputError as exc:
        print(exc.one_line(), file=sys.stderr)
        return 2
    print("\n".join(second_lines(rows, second)))
    stale += stale_second(items, second)
    if stale:
        print(f"STALE (not in the suite as checked; check again by hand): {', '.join(stale)}")
    now = suite_rounds(items, second)
    for rnd, part in now.items():
        gone = Counter(r.get("class", "valid") for r in part["gone"])
        print(_said(f"round {rnd} under the current suite ({len(part['gone'])} read items left out since, counted "
                    f"apart: {', '.join(f'{k} {v}' for k, v in sorted(gone.items())) or 'none'})", part["in_suite"]))
        alone, flagged, both, same, n = part["context"]
        print(f"round {rnd} 'no context needed' under the current suite: read by hand {alone}, flagged by the rule "
              f"{flagged}, both {both}, agree {same}/{n}")
    # the last two rounds read blind, pooled under the suite as it is (round 8 in sample for rules6, round 9 out)
    print(_said("rounds 8-9 pooled under the current suite", figure(now[8]["kept"] + now[9]["kept"])))
    alone = [(r["context_needed"], by_id[r["id"]].meta.get("context_needed", True))
             for r in second if r["round"] in SECOND_ROUNDS and r["id"] in by_id]
    print(f"second reader rounds 5-6 'no context needed' read by hand {sum(not a for a, _ in alone)}, flagged by the "
          f"rule {sum(not b for _, b in alone)}, both {sum(not a and not b for a, b in alone)}, "
          f"agree {sum(a == b for a, b in alone)}/{len(alone)}")
    still = [r["id"] for r in second if r.get("left_out") and r["id"] in by_id]
    if still:
        print(f"marked left out but still in the suite: {', '.join(still)}")
    return 1 if stale or wrongly_gone or still else 0


if __name__ == "__main__":
    sys.exit(main())
