"""Find the target words that render a source entity: word alignment first, the entity lexicon second.

The lexicon confirms aligned words (keeping only the aligned tokens that are known renderings), finds
the entity when nothing is aligned, and overrides the aligner when it pointed at other words while a
known rendering is in the sentence. ``located_by`` records which happened, per item.
"""

from __future__ import annotations

from collections.abc import Sequence

from discotest.lang.align.base import Links
from discotest.lang.lexicon import find_entity_tokens
from discotest.lang.morph.base import Token

LEXICON_MODES = ("on", "off")


def source_entity_tokens(sentence: str, tokens: Sequence[Token], word_span: range) -> tuple[int, ...]:
    """Token indices covering the words ``word_span`` of ``sentence.split(" ")``."""
    words = sentence.split(" ")
    start = sum(len(w) + 1 for w in words[: word_span.start])
    end = start + len(" ".join(words[word_span.start : word_span.stop]))
    return tuple(i for i, t in enumerate(tokens) if t.start < end and t.end > start and t.text.isalnum())


def _runs(indices: Sequence[int]) -> list[tuple[int, ...]]:
    runs: list[list[int]] = []
    for i in sorted(indices):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return [tuple(r) for r in runs]


def locate_entity(
    src_entity: Sequence[int],
    src_len: int,
    links: Links,
    tgt_tokens: Sequence[Token],
    entity: str,
    lang: str,
    lexicon: str = "on",
) -> tuple[tuple[int, ...], str]:
    """(target token indices, how they were found)."""
    aligned = tuple(sorted({t for s, t in links if s in set(src_entity)}))
    known = find_entity_tokens(tuple(tgt_tokens), entity, lang) if lexicon == "on" else ()
    if not known:
        return aligned, "aligned" if aligned else "none"
    # keep the known renderings the aligner touched, whole ("femme de charge" even if "de" is unaligned)
    confirmed = tuple(i for run in _runs(known) if set(run) & set(aligned) for i in run)
    if confirmed:
        return confirmed, "lexicon-confirmed"
    # several renderings in the sentence (e.g. the entity repeated): take the run nearest to where
    # the aligner pointed, or to the entity's relative position in the source
    if aligned:
        anchor = sum(aligned) / len(aligned)
    else:
        anchor = (sum(src_entity) / max(len(src_entity), 1)) / max(src_len, 1) * len(tgt_tokens)
    best = min(_runs(known), key=lambda run: abs(sum(run) / len(run) - anchor))
    return best, "lexicon-override" if aligned else "lexicon-found"
