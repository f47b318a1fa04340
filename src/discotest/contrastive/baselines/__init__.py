"""The baselines of Shimazu et al. 2020: MAJORITY and CO-OCCUR (target only, and source + target).

Both look only at the word(s) where a candidate differs from the others (the pronoun) and at text statistics
learnt from a training text the user gives; they set the floor a context-aware model must beat.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from discotest import cache
from discotest.data.contrastive_item import ContrastiveItem
from discotest.errors import InputError

BASELINES = ("majority", "cooccur", "cooccur-st")
CACHE_NAMESPACE = "baseline-scores"


def run_baseline(name: str, items: Sequence[ContrastiveItem], train_text: str | Path | None,
                 use_cache: bool = True) -> tuple[list[list[float]], list[tuple[str, str]]]:
    """Per-item candidate scores of one baseline, and its signature fields.

    Training CBOW on a large text takes minutes, so the scores are cached by content hash of the baseline and
    its settings, the training text and the items: a rerun on the same suite and text trains nothing."""
    if train_text is None:
        raise InputError(f"baseline {name!r} needs --train-text")
    if name not in BASELINES:
        raise InputError(f"unknown baseline {name!r}; available: {', '.join(BASELINES)}")
    from discotest.contrastive.baselines.text import read_training_text

    pairs = read_training_text(train_text)
    fields = [("baseline", name), ("train", f"{Path(train_text).name}:{len(pairs)}")]
    key = cache.content_key([CACHE_NAMESPACE, name, _settings(name), json.dumps(pairs, ensure_ascii=False),
                             json.dumps([[i.src_context, i.src, i.tgt_context, i.candidates] for i in items],
                                        ensure_ascii=False)])
    if use_cache and (hit := cache.load(CACHE_NAMESPACE, key, lambda text: _parse_entry(text, items))) is not None:
        return hit
    scores, fields = _train_and_score(name, items, pairs, fields)
    if use_cache:
        cache.store(CACHE_NAMESPACE, key, json.dumps({"scores": scores, "fields": fields}))
    return scores, fields


def _parse_entry(text: str, items: Sequence) -> tuple[list[list[float]], list[tuple[str, str]]]:
    """Cached baseline scores: one list of numbers per item, as many as its candidates (ValueError otherwise)."""
    stored = json.loads(text)
    scores = [[float(x) for x in row] for row in stored["scores"]]
    if len(scores) != len(items) or any(len(s) != len(i.candidates) for s, i in zip(scores, items)):
        raise ValueError("scores do not match the items")
    return scores, [(str(k), str(v)) for k, v in stored["fields"]]


def _settings(name: str) -> str:
    """What besides the text decides a baseline's scores: CBOW's hyper-parameters and gensim's version."""
    if name == "majority":
        return "majority-v1"
    from importlib.metadata import version

    from discotest.contrastive.baselines import cooccur

    return f"{cooccur.DIM}-{cooccur.WINDOW}-{cooccur.EPOCHS}-{cooccur.SEED}-gensim{version('gensim')}"


def _train_and_score(name: str, items: Sequence[ContrastiveItem], pairs: list[tuple[str, str]],
                     fields: list[tuple[str, str]]) -> tuple[list[list[float]], list[tuple[str, str]]]:
    if name == "majority":
        from discotest.contrastive.baselines.majority import Majority

        return Majority.train([t for _, t in pairs]).score_items(items), fields
    if name in ("cooccur", "cooccur-st"):
        from discotest.contrastive.baselines.cooccur import CoOccur

        with_source = name == "cooccur-st"
        model = CoOccur.train(pairs, with_source=with_source)
        return model.score_items(items), [*fields, ("cbow", model.describe())]
    raise AssertionError(name)  # checked by run_baseline
