"""End to end: the reader-level gender as a real run reads it (aligner + analysers + conflict rule) against the gold.

    .venv/bin/python -m bench.validity.reader_agreement DETAILS.jsonl [--show-misses]

DETAILS.jsonl is the ``--details`` file of ``discotest run winomt --lang all --system google --verdict reader``. The
gold test (tests/gender/test_reader_gold.py) gives the analysers the hand-marked words; here the aligner finds them. The
noun-level verdict's agreement with the same gold is printed beside it: how often the noun alone already says what a
reader takes from the translation.
"""

from __future__ import annotations

import argparse
import json

from tests.support.reader_gold import GOLD_DIR, load_reader_gold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("details")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    rows = {}
    with open(args.details, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            rows[(row["system"], row["lang"], row["index"])] = row
    for lang, (reader, noun, n) in agreement(rows, args.show_misses).items():
        print(f"{lang}: reader {reader}/{n}   noun {noun}/{n}")


def agreement(rows: dict, show_misses: bool = False) -> dict[str, tuple[int, int, int]]:
    """Per language and ``all``: (rows whose reader verdict agrees with the gold, whose noun verdict does, rows),
    given a run's details by (system, lang, index) (dicts with ``conveyed_gender``, ``conveyed_reason`` and
    ``predicted_gender``)."""
    out = {}
    totals = [0, 0, 0]
    for lang in sorted(p.stem for p in GOLD_DIR.glob("*.tsv")):
        gold = [g for g in load_reader_gold(lang) if (g.system, lang, g.index) in rows]
        if not gold:
            continue
        reader = noun = 0
        for g in gold:
            item = rows[(g.system, lang, g.index)]
            reader += item["conveyed_gender"] == g.conveyed_gender
            noun += item["predicted_gender"] == g.conveyed_gender
            if show_misses and item["conveyed_gender"] != g.conveyed_gender:
                print(f"  MISS {lang} #{g.index}: {item['conveyed_gender']} ({item['conveyed_reason']}), gold "
                      f"{g.conveyed_gender}: {g.justification}")
        totals = [totals[0] + reader, totals[1] + noun, totals[2] + len(gold)]
        out[lang] = (reader, noun, len(gold))
    out["all"] = (totals[0], totals[1], totals[2])
    return out


if __name__ == "__main__":
    main()
