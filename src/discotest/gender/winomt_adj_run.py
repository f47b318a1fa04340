"""The adjective experiment's comparison (Stanovsky et al. 2019 §5): a system's WinoMT accuracy on the
anti-stereotypical rows without the adjective against its ``winomt-adj`` accuracy on the same rows with it.

The plain side is the system's published WinoMT output (the 2019 suite the adjective outputs were made from),
evaluated as usual and restricted to the rows of ``en_anti.txt``; its verdicts are keyed by the adjective item they
correspond to, so ``compare`` pairs them item by item.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from discotest.gender.judge import score_consistency, score_gender
from discotest.gender.result import GenderResult
from discotest.gender.winomt import GenderItem
from discotest.gender.winomt_adj import SUITE
from discotest.report.result import FILES, Signature

PLAIN = "plain"  # the name suffix of the restricted plain result: "google/plain"


def _key(sentence: str, entity_index: int, entity: str, gold: str) -> tuple[str, int, str, str]:
    return sentence, entity_index, entity.lower(), gold


def plain_on_adjective_rows(plain: GenderResult, plain_items: Sequence[GenderItem],
                            adjective_items: Sequence[GenderItem]) -> GenderResult:
    """``plain`` (a WinoMT 2019 result) on the rows the adjective items were made from, each verdict under its
    adjective item's index; an adjective item whose row the plain output lacks is unmatched."""
    by_key: dict[tuple, list[int]] = {}  # a row WinoMT holds twice (en.txt 396 and 397) pairs with its copies in order
    for item in plain_items:
        by_key.setdefault(_key(item.sentence, item.entity_index, item.entity, item.gold), []).append(item.index)
    verdicts = {v.index: v for v in plain.verdicts}
    kept, unmatched = [], []
    for item in adjective_items:
        words = item.sentence.split(" ")
        original = " ".join(words[:item.entity_index - 1] + words[item.entity_index:])  # without the adjective
        rows = by_key.get(_key(original, item.entity_index - 1, item.entity, item.gold))
        row = rows.pop(0) if rows else None
        if row is None or row not in verdicts:
            unmatched.append(item.index)
        else:
            kept.append(replace(verdicts[row], index=item.index, stereotype=item.stereotype))
    # the signature stays the plain run's (suite winomt, its version), n and the rows said, the files last
    fields = [(k, str(len(kept)) if k == "n" else v) for k, v in plain.signature.fields]
    files = [f for f in fields if f[0] == FILES]
    signature = Signature(tuple([f for f in fields if f[0] != FILES] + [("rows", "anti-stereotypical")] + files))
    return replace(plain, suite=SUITE, system=f"{plain.system}/{PLAIN}", scores=score_gender(kept, plain.verdict),
                   signature=signature, verdicts=kept, unmatched=unmatched,
                   located_by=dict(Counter(v.located_by for v in kept)),
                   consistency=score_consistency(kept) if plain.consistency is not None else None)
