"""The hand check of the card's CTXPRO rows (8 evaluation sets, 13 items each drawn with
``random.Random("issue51:<suite>")``): ``valid`` when the expected word is the right check for the item (a right
translation contains it, a wrong one does not by accident), in ``tests/gold/ctxpro/validity.jsonl``. Read from the
source, the reference and the release's antecedent segment; the formality sets carry no context, so there only the
marker is judged, not whether the scene wants it.

    .venv/bin/python -m bench.validity.ctxpro_gold
"""

from __future__ import annotations

import sys

from bench.validity.contrastive_gold import main

if __name__ == "__main__":
    sys.exit(main("tests/gold/ctxpro/validity.jsonl", "CTXPRO"))
