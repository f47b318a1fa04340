"""The hand check of jazp (44 items, every one), by a reader who did not write them: ``valid`` when the correct
candidate is right and the incorrect one wrong in context, in ``tests/gold/jazp/validity.jsonl``.

    .venv/bin/python -m bench.validity.jazp_gold
"""

from __future__ import annotations

import sys

from bench.validity.contrastive_gold import main

if __name__ == "__main__":
    sys.exit(main("tests/gold/jazp/validity.jsonl", "jazp"))
