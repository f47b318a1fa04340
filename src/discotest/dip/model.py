"""DiP translated by a model (``run dip --pair PAIR --model PATH`` or ``--endpoint URL``): the pair's WMT source lines,
each with its document's previous K source sentences in the prompt (``--context K``, ``translate_in_context``: the
source side only, so a line's translation does not depend on which others are translated), then given to ``rank``
as a user's ``--input`` file is: scored and ranked on the same items, never mined from.

A seq2seq model has no prompt and takes no context here (its result is named ``@ctx0``). With ``--limit`` only the
documents of the sampled items are translated (the scorers read an item's context from its whole document); the
lines left untranslated are empty, so that result has no BLEU."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from discotest.dip.documents import PairData
from discotest.models.interface import Translator, in_context_fields


@dataclass(frozen=True)
class ModelSystem:
    """A translator and the context size it is asked with: what ``rank`` translates the pair's source by."""

    translator: Translator
    context: int = 0

    @property
    def used_context(self) -> int:
        """The context a model gets: none for a model without a prompt (a seq2seq model)."""
        return self.context if self.translator.context_prompt else 0

    @property
    def name(self) -> str:
        """``MODEL@ctxK``, as a CTXPRO or mZPRT model's result is named (the card reads the size from it)."""
        return f"{Path(self.translator.name).name or self.translator.name}@ctx{self.used_context}"

    def fields(self) -> list[tuple[str, str]]:
        """The signature's model fields: the translator's own, ``context`` this run's (``0`` or ``K:prompt``)."""
        return in_context_fields(self.translator, self.used_context)

    def translate(self, pair: PairData, lines: Iterable[int]) -> list[str]:
        """One line per line of the pair: the given ``lines`` translated (through the translation cache, so a second
        run asks nothing), every other line empty."""
        wanted = sorted(set(lines))
        doc_of = pair.doc_of_line()
        k = self.used_context
        contexts = [[pair.source[j] for j in range(max(doc_of[i].start, i - k), i)] if k else [] for i in wanted]
        out = [""] * pair.n_lines
        for i, text in zip(wanted, self.translator.translate_in_context([pair.source[i] for i in wanted], contexts,
                                                                        desc=f"DiP: translating {pair.pair}"),
                           strict=True):
            out[i] = text
        return out


def document_lines(pair: PairData, tests: dict[str, list[dict]]) -> list[int]:
    """The lines of every document that holds a line of an item (what ``--limit``'s sampled items need)."""
    doc_of = pair.doc_of_line()
    docs = {doc_of[i].start: doc_of[i] for items in tests.values() for item in items for i in item["sentences"]}
    return [i for start in sorted(docs) for i in docs[start].lines]
