"""The baselines of Shimazu et al. 2020: MAJORITY and CO-OCCUR (target only, and source + target).

Both look only at the word(s) where a candidate differs from the others (the pronoun) and at text statistics
learnt from a training text the user gives; they set the floor a context-aware model must beat.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from discotest.errors import InputError
from discotest.suites.contrastive.item import ContrastiveItem

BASELINES = ("majority", "cooccur", "cooccur-st")


def run_baseline(name: str, items: Sequence[ContrastiveItem], train_text: str | Path | None
                 ) -> tuple[list[list[float]], list[tuple[str, str]]]:
    """Per-item candidate scores of one baseline, and its signature fields."""
    if train_text is None:
        raise InputError(f"baseline {name!r} needs --train-text")
    from discotest.baselines.text import read_training_text

    pairs = read_training_text(train_text)
    fields = [("baseline", name), ("train", f"{Path(train_text).name}:{len(pairs)}")]
    if name == "majority":
        from discotest.baselines.majority import Majority

        return Majority.train([t for _, t in pairs]).score_items(items), fields
    if name in ("cooccur", "cooccur-st"):
        from discotest.baselines.cooccur import CoOccur

        with_source = name == "cooccur-st"
        model = CoOccur.train(pairs, with_source=with_source)
        return model.score_items(items), [*fields, ("cbow", model.describe())]
    raise InputError(f"unknown baseline {name!r}; available: {', '.join(BASELINES)}")
