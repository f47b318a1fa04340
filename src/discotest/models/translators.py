"""Which translator runs a model: a served one, a decoder-only LLM, CTranslate2 or a seq2seq model, chosen from what
the user names (``--endpoint``, ``--model``) and the model's own config."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discotest.errors import InputError
from discotest.models.translator import ModelTranslator, make_translator

if TYPE_CHECKING:
    from discotest.models.endpoint import EndpointTranslator


def any_translator(model: str | None, lang: str, *, prompt_file: str | None = None, context: int = 0,
                   endpoint: str | None = None, concurrency: int = 4, timeout: float = 120.0,
                   **options) -> ModelTranslator | EndpointTranslator:
    """A served model's translator (``models.endpoint``) with ``endpoint``; a decoder-only LLM's
    (``models.causal_translator``) for a model whose config maps to ``AutoModelForCausalLM``; else
    ``make_translator``'s (CTranslate2 or seq2seq). ``prompt_file`` and ``context`` are the LLMs'; given for another
    model they are an error rather than ignored."""
    if endpoint:
        from discotest.models.endpoint import EndpointTranslator

        return EndpointTranslator(endpoint, lang, model=model or None, prompt_file=prompt_file, context=context,
                                  concurrency=concurrency, timeout=timeout, **options)
    if model is None:
        raise InputError("give --model (a model folder or hub name) or --endpoint URL")
    from discotest.models.causal_lm import is_causal_lm
    from discotest.models.ct2_scorer import is_ct2_model

    if not is_ct2_model(model) and is_causal_lm(model):
        from discotest.models.causal_translator import CausalTranslator

        return CausalTranslator(model, lang, prompt_file=prompt_file, context=context, **options)
    if context:
        raise InputError("--context when translating needs a decoder-only LLM (a seq2seq model translates each "
                         "sentence alone)")
    if prompt_file:
        raise InputError("--prompt needs a decoder-only LLM (a seq2seq model takes no prompt)")
    return make_translator(model, lang, **options)
