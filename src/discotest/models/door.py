"""The one door to the models: ``open_scorer`` and ``open_translator`` choose the backend from what the user names
(``scores`` file, ``endpoint`` URL, ``model`` folder or hub name and its config) and hand it the options it takes.
Wings call these two and work through ``models.interface`` (``Scorer``, ``Translator``, ``ScoreRequest``); no wing
names a backend class. A new backend is a module on this floor, implementing the interface, and a branch here.

Options a backend does not take are left out here, by its constructor's own keyword names, so a wing can pass every
model option it has: a seq2seq scorer ignores ``prompt_file`` and ``share_prompt``, a decoder-only LLM ``separator``,
a served model the local settings (batch, device, revision, Ray), and only CTranslate2 reads ``compute_type``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from discotest.errors import InputError
from discotest.models import language_watch
from discotest.models.interface import Scorer, Translator

SCORER_KINDS = ("seq2seq", "causal", "ctranslate2")  # what ``kind`` may force for a local model


def _taken(cls: type) -> set[str]:
    """The keyword names ``cls(...)`` accepts, through the ``**options`` a subclass passes to its base."""
    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        parameters = inspect.signature(init).parameters.values()
        names |= {p.name for p in parameters if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break
    return names


def scorer_class(model: str, kind: str | None = None) -> type[Scorer]:
    """The local backend for ``model``: CTranslate2 for a converted folder, a decoder-only LLM when its config maps
    to ``AutoModelForCausalLM``, else seq2seq; ``kind`` forces one (``SCORER_KINDS``)."""
    from discotest.models.causal_lm import is_causal_lm
    from discotest.models.ct2_scorer import is_ct2_model

    if kind is None:
        ct2 = is_ct2_model(model)
        kind = "ctranslate2" if ct2 else "causal" if is_causal_lm(model) else "seq2seq"
    if kind == "causal":
        from discotest.models.causal_scorer import CausalScorer

        return CausalScorer
    if kind == "ctranslate2":
        from discotest.models.ct2_scorer import CT2Scorer

        return CT2Scorer
    if kind == "seq2seq":
        from discotest.models.hf_scorer import HFScorer

        return HFScorer
    raise InputError(f"unknown scorer kind {kind!r}; choose {', '.join(SCORER_KINDS)}")


def open_scorer(model: str | None = None, *, endpoint: str | None = None, scores: str | Path | None = None,
                losses: bool = False, kind: str | None = None, engine: str = "local", ray_address: str | None = None,
                ray_actors: int = 2, concurrency: int = 4, loaded: tuple[Any, Any] | None = None,
                factory: Callable[..., Scorer] | None = None,
                scores_of: tuple[Sequence[Any], Sequence[int]] | None = None, **options: Any) -> Scorer:
    """The scorer for what the user names: a ``scores`` file (``losses``: lower is better), a served model at
    ``endpoint`` (``model`` then names the served model), or a local ``model`` (``scorer_class``; ``engine="ray"``
    runs its batches on ``ray_actors`` Ray actors). ``options``: batch_size, device, use_cache, quiet, normalise,
    use_target_context, src_lang, tgt_lang, revision, separator, max_length, compute_type, prompt_file,
    share_prompt, fingerprint; each backend takes those it knows. ``loaded``: (model, tokenizer) objects already in
    memory (tests, notebooks); ``factory``: builds the local scorer instead of the chosen class (same options).
    ``scores_of``: (the whole suite's requests, the positions asked for): a scores file scores the whole suite and a
    sample's lines are picked from it (``ScoresFileScorer``)."""
    if scores is not None:
        if model is not None or endpoint:
            raise InputError("one scorer at a time: a scores file, an endpoint or a model")
        from discotest.models.scores_file import ScoresFileScorer

        whole, keep = scores_of or (None, None)
        return ScoresFileScorer(scores, losses=losses, whole=whole, keep=keep)
    if endpoint:
        from discotest.models.endpoint import EndpointScorer

        taken = _taken(EndpointScorer)
        return EndpointScorer(endpoint, model=model or None, concurrency=concurrency,
                              **{k: v for k, v in options.items() if k in taken})
    if model is None:
        raise InputError("give --scores FILE, --model NAME_OR_PATH or --endpoint URL")
    cls = scorer_class(model, kind)
    if engine == "ray":
        options.update(engine=engine, ray_address=ray_address, ray_actors=ray_actors)
    if loaded is not None:
        options.update(model=loaded[0], tokenizer=loaded[1])
    taken = _taken(cls)
    return (factory or cls)(model, **{k: v for k, v in options.items() if k in taken})


def open_translator(model: str | None, lang: str, *, prompt_file: str | None = None, context: int = 0,
                    endpoint: str | None = None, concurrency: int = 4, timeout: float = 120.0,
                    **options: Any) -> Translator:
    """A served model's translator (``models.endpoint``) with ``endpoint``; a decoder-only LLM's
    (``models.causal_translator``) for a model whose config maps to ``AutoModelForCausalLM``; else CTranslate2's for
    a converted folder or a seq2seq model's (``models.translator``). ``prompt_file`` and ``context`` are the LLMs';
    given for another model they are an error rather than ignored. ``options``: beam, max_length, batch_size,
    device, revision, src_lang, src_code, tgt_code, use_cache, quiet, runner, ray_address, ray_actors; ``timeout``:
    the seconds one request to an endpoint may wait."""
    if endpoint:
        from discotest.models.endpoint import EndpointTranslator

        return _door(EndpointTranslator(endpoint, lang, model=model or None, prompt_file=prompt_file,
                                        context=context, concurrency=concurrency, timeout=timeout, **options), lang)
    if model is None:
        raise InputError("give --model (a model folder or hub name) or --endpoint URL")
    from discotest.models.causal_lm import is_causal_lm
    from discotest.models.ct2_scorer import is_ct2_model

    if not is_ct2_model(model) and is_causal_lm(model):
        from discotest.models.causal_translator import CausalTranslator

        return _door(CausalTranslator(model, lang, prompt_file=prompt_file, context=context, **options), lang)
    if context:
        raise InputError("--context when translating needs a decoder-only LLM (a seq2seq model translates each "
                         "sentence alone)")
    if prompt_file:
        raise InputError("--prompt needs a decoder-only LLM (a seq2seq model takes no prompt)")
    from discotest.models.translator import make_translator

    return _door(make_translator(model, lang, **options), lang)


def _door(translator: Translator, lang: str) -> Translator:
    """What every translator passes on its way out: its translations' language read (``language_watch``)."""
    return language_watch.watched(translator, lang)
