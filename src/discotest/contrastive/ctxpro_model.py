"""CTXPRO translated by a model (``run ctxpro-… --model PATH`` or ``--endpoint URL``): each item's source with the
last K sentences of its context (``--context K``, from the suite's released inputs, up to 9), as the paper's
published system was given them, then scored as a translation file is.

How the context is given depends on the model. A decoder-only LLM or a served model gets it in its prompt (the
template's ``source_context``; no target side: nothing of the context is translated) and answers with the sentence's
translation. A seq2seq model has no prompt: it translates the context and the sentence joined into one text, as
DeepL was given CTXPRO's inputs (``<eos>`` removed), and the item is judged on the last sentence of that translation,
as the authors' scorer reads DeepL's. The signature's ``context`` says which (``0``, ``K:prompt`` or ``K:joined``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from discotest.data.contrastive_item import ContrastiveItem
from discotest.models.interface import Translator, in_context_fields
from discotest.models.requests import TranslateRequest


def translate_requests(items: Sequence[ContrastiveItem], translator: Translator, context: int,
                       lang: str = "") -> list[TranslateRequest]:
    """One request per item, in order: its source with its last ``context`` sentences in the prompt, or for a model
    without one (seq2seq) the sentences and the source joined into one text."""
    contexts = [tuple(item.src_context[-context:]) if context else () for item in items]
    if context and not translator.context_prompt:
        return [TranslateRequest(" ".join((*c, item.src)), None, lang) for c, item in zip(contexts, items, strict=True)]
    return [TranslateRequest(item.src, c, lang) for c, item in zip(contexts, items, strict=True)]


def model_fields(translator: Translator, context: int) -> list[tuple[str, str]]:
    """The translator's own signature fields, its ``context`` this run's: ``0``, ``K:prompt`` or ``K:joined``."""
    return in_context_fields(translator, context, "prompt" if translator.context_prompt else "joined")


def system_name(translator: Translator, context: int) -> str:
    """``MODEL@ctxK``: as a scored model's result at context size K is named (the card reads the size from it)."""
    return f"{Path(translator.name).name or translator.name}@ctx{context}"
