"""CTXPRO translation files (Wicks & Post 2023): one line per item of the suite, or ``source ||| translation``."""

from __future__ import annotations

from pathlib import Path

from discotest.contrastive.ctxpro import CONTEXT_SEP
from discotest.data.contrastive_item import ContrastiveItem
from discotest.data.translations import Translations, read_translations


def read_ctxpro_translations(
    path: str | Path, items: list[ContrastiveItem], input_format: str = "auto"
) -> Translations:
    """A CTXPRO translations file: one line per item in suite order, or ``source ||| translation`` lines.

    The source is the line of CTXPRO's inputs file the system translated (context ``<eos>`` … sentence), or the
    bare sentence when every item with that sentence has the same context; a sentence the suite holds with
    different contexts ("Yes, I do.") is refused as ambiguous, and one that recurs must be given once per item.
    """
    sources = {item.index: f"{CONTEXT_SEP} ".join((*item.src_context, item.src)) for item in items}
    aliases = {item.index: item.src for item in items}
    return read_translations(path, sources, input_format, aliases=aliases, context_dependent=True)
