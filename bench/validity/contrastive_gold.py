"""The hand check of the card's contrastive suites (Voita ×4, Bawden ×2, SCAT): 15 items of each drawn with
``random.Random("issue51:<suite>")``, read by a reader who did not build the suites' loaders, labelled ``valid`` when
the correct candidate is right and every incorrect one wrong in context (``context_needed``: whether the context is
what decides), in ``tests/gold/contrastive/validity.jsonl``.

    .venv/bin/python -m bench.validity.contrastive_gold

It fails when an item is no longer what was read (the loader changed it: read it again). The figure goes to
VALIDITY.md and the card's ``contrastive`` badge.
"""

from __future__ import annotations

import os
import sys
from functools import cache

from bench.validity.hand_check import ROOT, read_rows, report
from discotest.contrastive.suites import load_suite

os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))
GOLD = "tests/gold/contrastive/validity.jsonl"


@cache
def _suite(name: str) -> list:
    return load_suite(name, None)


def item_of(row_id: str):
    """The item a gold id (``suite#index`` or a jazp id) names, or None."""
    suite, _, index = row_id.rpartition("#")
    if not suite:
        return next((i for i in _suite("jazp") if i.meta.get("id") == row_id), None)
    items = _suite(suite)
    return items[int(index)] if int(index) < len(items) else None


def stale(rows: list[dict]) -> list[str]:
    """Ids whose item no longer reads as checked: the correct and first incorrect candidate, or CTXPRO's expected
    word and reference."""
    out = []
    for r in rows:
        item = item_of(r["id"])
        read = (f"expected {item.expected!r} in: {item.correct}" if item is not None and item.expected is not None
                else f"{item.correct} | not: {item.incorrect[0]}" if item is not None else None)
        if read != r["checked"]:
            out.append(r["id"])
    return out


def main(gold: str = GOLD, title: str = "contrastive suites") -> int:
    rows = read_rows(gold)
    old = stale(rows)
    if old:
        print(f"STALE (not as read; read again): {', '.join(old)}")
    for r in rows:
        r["suite"] = r["id"].rpartition("#")[0] or "jazp"
    report(f"{title}, hand check", rows, by="suite")
    needed = [r for r in rows if r.get("context_needed") is not None]
    if needed:
        alone = sum(not r["context_needed"] for r in needed)
        print(f"the context does not decide (antecedent in the sentence, or wrong alone): {alone} of {len(needed)}")
    return 1 if old else 0


if __name__ == "__main__":
    sys.exit(main())
