"""DiP translated by a model (``run dip --pair PAIR --model PATH`` or ``--endpoint URL``): the pair's WMT source lines,
each with its document's previous K source sentences in the prompt (``--context K``, ``translate_in_context``: the
source side only, so a line's translation does not depend on which others are translated), then given to ``rank``
as a user's ``--input`` file is: scored and ranked on the same items, never mined from.

A seq2seq model has no prompt and takes no context here (its result is named ``@ctx0``). With ``--limit`` only the
documents of the sampled items are translated (the scorers read an item's context from its whole document); the
lines left untranslated are empty, so that result has no BLEU."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.dip.documents import PairData
from discotest.models.interface import Translator, in_context_fields
from discotest.models.requests import Ask, TranslateRequest, answer


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

    def ask(self, pair: PairData, lines: Iterable[int]) -> Ask:
        """The translations of the given ``lines`` (in line order), each source with its document's previous
        ``used_context`` sources, asked of the translator in one call (``translate_in_context``)."""
        doc_of = pair.doc_of_line()
        k = self.used_context
        requests = tuple(TranslateRequest(pair.source[i], tuple(pair.source[j] for j in range(max(doc_of[i].start,
                                                                                                  i - k), i)), "en")
                         for i in sorted(set(lines)))
        return Ask(self.translator, requests, what=f"DiP: translating {pair.pair}")

    @staticmethod
    def output(pair: PairData, lines: Iterable[int], translations: Sequence[str]) -> list[str]:
        """One line per line of the pair: the given ``lines``' translations (``ask``'s answers), every other line
        empty."""
        out = [""] * pair.n_lines
        for i, text in zip(sorted(set(lines)), translations, strict=True):
            out[i] = text
        return out

    def translate(self, pair: PairData, lines: Iterable[int]) -> list[str]:
        """``ask`` and ``output`` in one go (through the translation cache, so a second run asks nothing)."""
        wanted = sorted(set(lines))
        asked = self.ask(pair, wanted)
        return self.output(pair, wanted, answer(asked.requests, asked.model, desc=asked.what))


def document_lines(pair: PairData, tests: dict[str, list[dict]]) -> list[int]:
    """The lines of every document that holds a line of an item (what ``--limit``'s sampled items need)."""
    doc_of = pair.doc_of_line()
    docs = {doc_of[i].start: doc_of[i] for items in tests.values() for item in items for i in item["sentences"]}
    return [i for start in sorted(docs) for i in docs[start].lines]
