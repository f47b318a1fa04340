"""Print MiTTenS-out rows blind, for a second reader who did not write the rules (issue 51 items 3 and 5).

    .venv/bin/python -m bench.validity.mittens_blind [--lang de] [--draw 3] [--stratum none,wrong]
    .venv/bin/python -m bench.validity.mittens_blind --hard     # draw 1 "none"/"wrong" and draw 2 "other"

For each selected row of ``tests/gold/mittens/readings_out.jsonl``: its id, language, the English source and the
reference translation, nothing else. The rule's readings (``read``, ``read_drawn``, ``read_main``), the first
reader's ``person``, ``why`` and ``verdict``, the passage's ``gender`` and the stratum (which says what the rule read
when the row was drawn) are dropped on reading and never printed, so the second reader reads the target alone. The
selectors (draw, stratum) choose rows only; the default is draw 3, the rows the rule read a gender on; ``--hard`` is
the rows the first reader alone read (the draws' "none", "wrong" and "other" strata).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLD_OUT = ROOT / "tests" / "gold" / "mittens" / "readings_out.jsonl"
SHOWN = ("id", "lang", "source", "text")
DRAW = 3
HARD = {1: ("none", "wrong"), 2: ("other",)}  # draw -> strata the first reader alone read


def blind_rows(lang: str | None = None, select: dict[int, tuple[str, ...] | None] | None = None) -> list[dict]:
    """The selected rows with only the fields a blind reader may see; ``select`` maps a draw to its strata (None: every
    stratum), by default draw 3 whole."""
    select = {DRAW: None} if select is None else select
    rows = [json.loads(line) for line in GOLD_OUT.read_text("utf-8").splitlines() if line.strip()]
    return [{k: r[k] for k in SHOWN} for r in rows
            if r["draw"] in select and (select[r["draw"]] is None or r["stratum"] in select[r["draw"]])
            and lang in (None, r["lang"])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang")
    parser.add_argument("--draw", type=int, default=DRAW)
    parser.add_argument("--stratum", help="comma-separated strata of the draw (default: all)")
    parser.add_argument("--hard", action="store_true", help='draw 1 "none"/"wrong" and draw 2 "other"')
    args = parser.parse_args()
    select = HARD if args.hard else {args.draw: tuple(args.stratum.split(",")) if args.stratum else None}
    for row in blind_rows(args.lang, select):
        print(f"=== {row['id']} [{row['lang']}]\n  EN: {row['source']}\n  {row['lang'].upper()}: {row['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
