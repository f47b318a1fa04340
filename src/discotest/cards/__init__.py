"""The discourse card: one system (a published one, a folder of outputs, a local model or an endpoint) on every suite
of its language pairs, one row per phenomenon with its interval, its rank among the suite's published systems and the
validity figure behind it. Above the wings: it runs each suite through the family registry as ``discotest run`` does.
Its options are declared once here (``OPTIONS``), for ``discotest card`` and ``discotest.card`` alike, and checked
here (``card_settings``); the card's machinery (``build``: ``resolve`` into the system and the rows, ``make_card``;
``groups``, ``system``) loads when a card is made, not when the command line is built."""

from __future__ import annotations

from typing import Any

from discotest.cards.options import (  # noqa: F401 - the card's options, declared where its machinery reads them
    BOOTSTRAP,
    CARD_SYSTEM,
    CHECK,
    CONTEXT,
    DRY_RUN,
    INIT,
    MODEL_OPTIONS,
    OPTIONS,
    OUTPUTS,
    PAIRS,
    SEED,
    SUITES,
    VERSUS,
)
from discotest.registry import Settings, checked_settings


def card_settings(options: dict[str, Any]) -> Settings:
    """The card's options checked by their declarations (``OPTIONS``), defaults filled in."""
    return checked_settings(OPTIONS, options, "card")


__all__ = ["OPTIONS", "card_settings"]
