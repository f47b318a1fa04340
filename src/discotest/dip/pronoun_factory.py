"""Pronoun scorers by name (``--pronoun-scorer``): the one place that knows every kind.

``offline`` is the current offline scorer, ``offline-v1`` (n-gram + agreement, two constants picked on
eval-anaphora; also reachable by its version name). ``offline-trained`` combines the same parts with weights learnt
on WMT21 mined pairs (``pronoun_trained``): measured out of sample it ties with offline-v1 (dip/README.md,
"Validity"), so it is an option, not the default. ``hf:<model>`` is a causal LM.
"""

from __future__ import annotations

from discotest.dip.pronoun_scorer import LMPronounScorer, OfflinePronounScorer, PronounScorer
from discotest.dip.pronoun_trained import TrainedPronounScorer
from discotest.errors import InputError

OFFLINE = {"offline-v1": OfflinePronounScorer, "offline-trained": TrainedPronounScorer}
OFFLINE_DEFAULT = "offline-v1"
OFFLINE_NAMES = ("offline", *OFFLINE)


def make_pronoun_scorer(name: str = "offline", **kwargs) -> PronounScorer:
    """``offline`` / ``offline-v1`` / ``offline-trained`` → an offline scorer (``data_dir``, ``exclude`` …);
    ``hf:<name or path>`` → a causal LM scorer."""
    if name in OFFLINE_NAMES:
        return OFFLINE[OFFLINE_DEFAULT if name == "offline" else name](**kwargs)
    if name.startswith("hf:") and name[3:].strip():
        return LMPronounScorer(name[3:].strip(), **kwargs)
    raise InputError(f"unknown pronoun scorer {name!r}; choose {', '.join(OFFLINE_NAMES)} or hf:MODEL")
