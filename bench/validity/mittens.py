"""MiTTenS: the English reading on the references (oracle) and on the references swapped (anti-oracle), the
out-of-English reading of the references per readable language, and the hand-checked sample of readings.

    .venv/bin/python -m bench.validity.mittens [--data-dir ../shared/data] [--no-out] [--out-only]

The sample is ``tests/gold/mittens/readings.jsonl``: 153 readings of English texts (93 of the English sources of the
out-of-English passages, every one with a gendered word; 60 distinct into-English references, 45 of them every
reference where the rule leaves a word out as another person's), each with its deciding words marked (``[word+]``
the person's, ``[word-]`` another person's or left out) and labelled ``agree`` (the verdict is a careful reader's
and every deciding word is the person's) or ``disagree``, with why. A reading that no longer matches the sample
is STALE: check it again by hand.

Out of English (``tests/gold/mittens/readings_out.jsonl``, issue 51): 600 reference translations into ar de es fr it
ru, each read by hand for the person's gender as a bilingual reader reads the target alone (``person``: female, male,
both, or none where the target leaves the person unmarked), before looking at the rule's reading. Draw 1 (50 per
language, seeded, every "wrong" and 32 "none" of the reading before issue 51 and the rest "correct") is the sample
the rule was shaped on; draw 2 (20 per language from the other passages, seeded, up to 10 of what the rule at commit
2ef20c3 read other than "correct") was drawn and read after that rule was written; draw 3 (30 per language, seed
51003, of the 48 passages per language in no earlier draw, drawn under the rule of c8c88b1 and read blind, without
the rule's reading: all "none"/"both"/"wrong" readings among them, one in Italian, and the rest "correct", since draw
1 took every other) was read after the last rule change of issue 51 item 3. Draw 4 (Arabic only, 48 rows, seed
51004, drawn under the rule of ff27516 and read blind) holds the 18 Arabic references in no earlier draw and 30 of
the 40 into-English rows whose Arabic passage is no out-of-English reference (``in:N``: the English reference read
as the source, the Arabic passage as a system's translation, by the language's reference model; every one the rule
then read other than "correct" and 5 of the 15 it read "correct"), printed apart. The figure is the share of
rows whose reading (``read``) is the hand reading, per language and draw, with a 95% Wilson interval; a reading
that no longer matches the recorded ``read`` is CHANGED (the figures and VALIDITY.md must be updated).
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
GOLD_OUT = ROOT / "tests" / "gold" / "mittens" / "readings_out.jsonl"
# the rule whose readings the out-of-sample draws were drawn by
WHEN_DRAWN = {2: "2ef20c3", 3: "c8c88b1", 4: "ff27516"}
DRAWS = {1: "draw 1 (in sample)", 2: "draw 2 (out of sample)", 3: "draw 3 (out of sample)",
         4: "draw 4 (out of sample)"}
# draw 4's two kinds of text: out-of-English references (``out:`` ids) and into-English pairs (``in:`` ids: the
# English reference of an into-English row read as the source, its Arabic passage as the translation)
KINDS = {"out": "references", "in": "into-English pairs"}


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
    parser.add_argument("--out-only", action="store_true", help="only the out-of-English hand check")
    args = parser.parse_args()
    if args.out_only:
        return out_of_english_gold(args.data_dir)
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
        stale = stale or bool(out_of_english_gold(args.data_dir))
    return 1 if stale else 0


def _share(k: int, n: int) -> str:
    low, high = wilson_interval(k, n)
    return f"{k}/{n} = {100 * k / n:.1f}% (95% Wilson {100 * low:.1f}–{100 * high:.1f})"


def _weighted(rows: list[dict], read: dict[int, str]) -> float:
    """The agreement over the passages the rows were drawn from: each stratum's share weighted by its size."""
    total = agree = 0.0
    for stratum in {r["stratum"] for r in rows}:
        these = [r for r in rows if r["stratum"] == stratum]
        size = these[0]["stratum_size"]
        total += size
        agree += size * sum(read[r["id"]] == r["person"] for r in these) / len(these)
    return 100 * agree / total


def out_of_english_readings(data_dir: str | None = None) -> tuple[list[dict], dict[str, str]]:
    """The hand-read out-of-English rows and the rule's reading now of each, by id: every reference row of their
    languages (``out:N``), and the into-English pairs (``in:N``) read as a system's translations are, by the
    language's reference model."""
    from discotest.gender.mittens.free import read_translations, reference_model
    from discotest.gender.mittens.run import run_one
    from discotest.gender.mittens.suite import MittensItem

    rows = [json.loads(line) for line in GOLD_OUT.read_text("utf-8").splitlines() if line.strip()]
    read = {}
    for lang in sorted({r["lang"] for r in rows}):
        for v in run_one(SUITE_OUT, lang, system="reference", data_dir=data_dir).verdicts:
            read[f"out:{v.index}"] = v.read
        pairs = [r for r in rows if r["lang"] == lang and r["id"].startswith("in:")]
        if pairs:
            items = [MittensItem(r["row"], lang, r["gender"], r["eval_set_key"], r["source"], "", r["text"])
                     for r in pairs]
            model = reference_model(load_mittens(SUITE_OUT, [lang], root=data_dir), lang)
            readings, _ = read_translations(items, [r["text"] for r in pairs], lang, model)
            read.update((r["id"], reading[0]) for r, reading in zip(pairs, readings))
    return rows, read


def out_of_english_gold(data_dir: str | None) -> int:
    """The hand-read out-of-English sample against the rule's reading now (and before issue 51); 1 if a reading
    changed since the sample was recorded."""
    rows, read = out_of_english_readings(data_dir)
    changed = [r["id"] for r in rows if read[r["id"]] != r["read"]]
    print(f"out-of-English readings, hand-checked: {len(rows)} ({GOLD_OUT.name})")
    for draw, name in DRAWS.items():
        mine = [r for r in rows if r["draw"] == draw]
        if not mine:
            continue
        for lang in sorted({r["lang"] for r in mine}):
            these = [r for r in mine if r["lang"] == lang]
            now = sum(read[r["id"]] == r["person"] for r in these)
            line = f"  {name} {lang}: {_share(now, len(these))}, weighted {_weighted(these, read):.1f}%"
            if draw < 3:
                line += f"; before issue 51 {sum(r['read_before'] == r['person'] for r in these)}/{len(these)}"
            elif draw == 3:
                line += f"; at e19b126 {sum(r['read_main'] == r['person'] for r in these)}/{len(these)}"
            if draw > 1:
                drawn = sum(r["read_drawn"] == r["person"] for r in these)
                line += f"; when drawn ({WHEN_DRAWN[draw]}) {drawn}/{len(these)}"
            print(line)
            for kind, what in KINDS.items() if draw == 4 else ():
                part = [r for r in these if r["id"].startswith(f"{kind}:")]
                if part:
                    drawn = sum(r["read_drawn"] == r["person"] for r in part)
                    print(f"    {what}: {_share(sum(read[r['id']] == r['person'] for r in part), len(part))}; "
                          f"when drawn {_share(drawn, len(part))}")
        now = sum(read[r["id"]] == r["person"] for r in mine)
        line = f"  {name} all: {_share(now, len(mine))}"
        if draw > 1:
            drawn = sum(r["read_drawn"] == r["person"] for r in mine)
            line += f"; when drawn ({WHEN_DRAWN[draw]}) {_share(drawn, len(mine))}"
        print(line)
    for r in rows:
        if read[r["id"]] != r["person"]:
            print(f"  disagree {r['id']} {r['lang']}: read {read[r['id']]}, a reader {r['person']} ({r['why']})")
    if changed:
        print(f"CHANGED (the reading is not the recorded one: update the sample's read and the figures): "
              f"{', '.join(changed)}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
