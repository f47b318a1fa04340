"""Precision of the DiP connective detector on the WMT22 de-en reference, against the hand-labelled samples.

Usage: .venv/bin/python -m bench.validity.dip_connectives_sample [--data-dir DIR] [--draw]
Detects connectives on every line of WMT22 de-en reference A (the documents ``mine dip`` reads), then:
  - for ``tests/gold/dip_connectives_wmt22.tsv``: per sample (before/after), the share labelled ``ok`` (a PDTB
    explicit connective with the right sense), and whether each "after" row is still what the detector finds;
  - for ``tests/gold/dip_connectives_wmt22_changed.tsv``: how many of the changed decisions are right, and whether
    the detector still makes each "after" decision.
  - for ``tests/gold/dip_connectives_wmt22_zh-en_heldout.tsv``: the out-of-sample precision (40 detections in the
    WMT22 zh-en reference, a pair no rule was written on, drawn after the rules were fixed).
``--draw`` prints a fresh random sample of 60 current detections (seed 14) to label, in the gold file's columns.
"""

from __future__ import annotations

import argparse
import csv
import random
from collections import Counter
from pathlib import Path

from discotest.dip.connectives import DETECTOR_VERSION, find_connectives
from discotest.dip.documents import load_pair
from discotest.dip.mine import parse_lines

GOLD = Path(__file__).resolve().parents[2] / "tests" / "gold"
SAMPLE, SEED = 60, 14


def read_gold(path: Path) -> list[dict[str, str]]:
    lines = [line for line in path.read_text("utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def detections(data_dir: str | None = None) -> tuple:
    """(the WMT22 de-en pair, its reference lines the detector reads, the detections by (line, token))."""
    pair = load_pair("wmt22", "de-en", "A", data_dir)
    lines = [i for doc in pair.documents for i in doc.lines]
    ref = parse_lines(pair.reference, lines, pair.documents)
    return pair, lines, {(i, f.index): f for i in lines for f in find_connectives(ref[i])}


def not_reproduced(sample: list[dict[str, str]], found: dict) -> list[dict[str, str]]:
    """The sample's "after" rows the detector no longer makes (another sense, or no connective there)."""
    now = {key: (f.connective, f.sense) for key, f in found.items()}
    return [r for r in sample if r["set"] == "after"
            and now.get((int(r["line"]), int(r["token"]))) != (r["connective"], r["sense"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--draw", action="store_true")
    args = parser.parse_args()
    pair, lines, found = detections(args.data_dir)
    print(f"detector {DETECTOR_VERSION}: {len(found)} connectives on {len(lines)} reference lines")
    if args.draw:
        for (line, token), f in sorted(random.Random(SEED).sample(sorted(found.items()), SAMPLE)):
            print(f"after\t{line}\t{token}\t{f.connective}\t{f.sense}\t\t\t{pair.reference[line]}")
        return
    sample = read_gold(GOLD / "dip_connectives_wmt22.tsv")
    for which in ("before", "after"):
        rows = [r for r in sample if r["set"] == which]
        labels = Counter(r["label"] for r in rows)
        print(f"{which}: {labels['ok']}/{len(rows)} ok ({labels['ok'] / len(rows):.1%}), "
              f"{labels['sense']} wrong sense, {labels['no']} not a connective")
    stale = not_reproduced(sample, found)
    print(f"after rows the detector no longer reproduces: {len(stale)}")
    changed = read_gold(GOLD / "dip_connectives_wmt22_changed.tsv")
    print("changed decisions:", dict(Counter(r["right"] for r in changed)), f"of {len(changed)}")
    held_out = read_gold(GOLD / "dip_connectives_wmt22_zh-en_heldout.tsv")
    labels = Counter(r["label"] for r in held_out)
    print(f"held out (WMT22 zh-en, drawn after the rules were fixed): {labels['ok']}/{len(held_out)} ok "
          f"({labels['ok'] / len(held_out):.1%}), {labels['sense']} wrong sense, {labels['no']} not a connective")


if __name__ == "__main__":
    main()
