"""Print MiTTenS-out draw 3 blind, for a second reader who did not write the rules (issue 51 items 3 and 5).

    .venv/bin/python -m bench.validity.mittens_blind [--lang de]

For each row of draw 3 of ``tests/gold/mittens/readings_out.jsonl``: its id, language, the English source and the
reference translation, nothing else. The rule's readings (``read``, ``read_drawn``, ``read_main``), the first
reader's ``person``, ``why`` and ``verdict``, the passage's ``gender`` and the stratum (which says what the rule read
when the row was drawn) are dropped on reading and never printed, so the second reader reads the target alone.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLD_OUT = ROOT / "tests" / "gold" / "mittens" / "readings_out.jsonl"
SHOWN = ("id", "lang", "source", "text")
DRAW = 3


def blind_rows(lang: str | None = None) -> list[dict]:
    """Draw 3's rows with only the fields a blind reader may see."""
    rows = [json.loads(line) for line in GOLD_OUT.read_text("utf-8").splitlines() if line.strip()]
    return [{k: r[k] for k in SHOWN} for r in rows if r["draw"] == DRAW and lang in (None, r["lang"])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang")
    args = parser.parse_args()
    for row in blind_rows(args.lang):
        print(f"=== {row['id']} [{row['lang']}]\n  EN: {row['source']}\n  {row['lang'].upper()}: {row['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
