"""The one door to the models: ``open_scorer`` and ``open_translator`` choose the backend from what the user names
(``scores`` file, ``endpoint`` URL, ``model`` folder or hub name and its config) and give it, by name, the fields of
the run's ``ModelSpec`` (``models.spec``) it takes; the spec is the one way a caller names its model
(``ModelSpec.from_settings`` of a run's settings, ``ModelSpec.of`` from Python). Wings call these two and work
through ``models.interface`` (``Scorer``, ``Translator``, ``ScoreRequest``); no wing names a backend class. A new
backend is a module on this floor, implementing the interface, and a branch here. Every backend's answers are cached
by one wrapper (``models.answers.cached``).

What each backend takes is written here: a seq2seq scorer takes no ``prompt_file``, a scorer no ``beam`` or
``max_length`` (a scored candidate is not decoded), a served model none of the local settings (batch, device,
revision, Ray), and only CTranslate2 reads ``compute_type``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from discotest.errors import InputError
from discotest.models import language_watch
from discotest.models.interface import Scorer, Translator
from discotest.models.spec import ModelSpec

SCORER_KINDS = ("seq2seq", "causal", "ctranslate2")  # what ``kind`` may force for a local model


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


# how a scorer scores, besides the model: the contrastive family's own options (and a test's objects)
SCORING = ("normalise", "use_target_context", "separator", "compute_type", "share_prompt", "fingerprint")


def _the_spec(spec: ModelSpec | None, extra: dict[str, Any], door: str) -> ModelSpec:
    """``spec``, the one way a model is named here: a model option given as a keyword beside it (or a name instead
    of it, the door's old keyword form) is a TypeError saying how to write it (``ModelSpec.of``), not a silent
    default."""
    if spec is not None and not isinstance(spec, ModelSpec):
        raise TypeError(f"{door} takes the run's ModelSpec, not {type(spec).__name__} {spec!r}: write "
                        f"{door}(ModelSpec.of(model={spec!r}, …), …)")
    misplaced = sorted(k for k in extra if k in ModelSpec.names() or k in ("runner", "src_code", "tgt_code"))
    if misplaced:
        raise TypeError(f"{door}: give {', '.join(misplaced)} in the ModelSpec (ModelSpec.of(…)), not as keywords")
    return spec or ModelSpec()


def open_scorer(spec: ModelSpec | None = None, *, scores: str | Path | None = None, losses: bool = False,
                kind: str | None = None, loaded: tuple[Any, Any] | None = None,
                factory: Callable[..., Scorer] | None = None,
                scores_of: tuple[Sequence[Any], Sequence[int]] | None = None, **options: Any) -> Scorer:
    """The scorer for what the user names: a ``scores`` file (``losses``: lower is better), a served model (the
    spec's ``endpoint``; its ``model`` then names the served model), or a local model (``scorer_class``; the spec's
    ``engine="ray"`` runs its batches on ``ray_actors`` Ray actors). ``spec``: the run's ``ModelSpec`` (None: a
    scores file, which names no model). ``options``: how to score (``SCORING``: normalise, use_target_context,
    separator, compute_type, share_prompt, fingerprint). ``loaded``: (model, tokenizer) objects already in memory
    (tests, notebooks); ``factory``: builds the local scorer instead of the chosen class (same keywords).
    ``scores_of``: (the whole suite's requests, the positions asked for): a scores file scores the whole suite and a
    sample's lines are picked from it (``ScoresFileScorer``)."""
    spec = _the_spec(spec, options, "open_scorer")
    unknown = [k for k in options if k not in SCORING]
    if unknown:
        raise TypeError(f"open_scorer takes no option {unknown[0]!r}")
    if scores is not None:
        if spec.named:
            raise InputError("one scorer at a time: a scores file, an endpoint or a model")
        from discotest.models.scores_file import ScoresFileScorer

        whole, keep = scores_of or (None, None)
        return ScoresFileScorer(scores, losses=losses, whole=whole, keep=keep)
    how = dict(normalise=options.get("normalise", False), use_target_context=options.get("use_target_context", True))
    if spec.endpoint:
        from discotest.models.endpoint import EndpointScorer

        return EndpointScorer(spec.endpoint, model=spec.model or None, src_lang=spec.src_lang, tgt_lang=spec.tgt_lang,
                              prompt_file=spec.prompt_file, use_cache=spec.use_cache, quiet=spec.quiet,
                              concurrency=spec.concurrency, timeout=spec.timeout, **how)
    if spec.model is None:
        raise InputError("give --scores FILE, --model NAME_OR_PATH or --endpoint URL")
    cls = scorer_class(spec.model, kind)
    local: dict[str, Any] = dict(device=spec.device, use_cache=spec.use_cache, quiet=spec.quiet,
                                 src_lang=spec.src_lang, tgt_lang=spec.tgt_lang, revision=spec.revision,
                                 fingerprint=options.get("fingerprint"), **how, **_batch(spec))
    if spec.engine == "ray":
        local.update(engine=spec.engine, ray_address=spec.ray_address, ray_actors=spec.ray_actors)
    if loaded is not None:
        local.update(model=loaded[0], tokenizer=loaded[1])
    from discotest.models.causal_scorer import CausalScorer

    if issubclass(cls, CausalScorer):
        local.update(prompt_file=spec.prompt_file, share_prompt=options.get("share_prompt", True))
    else:
        local["separator"] = options.get("separator", " ")
        if cls.kind == "ctranslate2":
            local["compute_type"] = options.get("compute_type", "default")
    return (factory or cls)(spec.model, **local)


def open_translator(spec: ModelSpec, lang: str, *, src_lang: str = "en", **options: Any) -> Translator:
    """The translator of ``spec`` (the run's ``ModelSpec``) into ``lang`` from ``src_lang`` (the suite's languages; the
    spec's ``src_lang``/``tgt_lang`` are the model family's codes when the user gives them): a served model's
    (``models.endpoint``) with an ``endpoint``; a decoder-only LLM's (``models.causal_translator``) for a model whose
    config maps to ``AutoModelForCausalLM``; else CTranslate2's for a converted folder or a seq2seq model's
    (``models.translator``). ``prompt_file`` and ``context`` are the LLMs'; given for another model they are an error
    rather than ignored. ``options`` beyond the spec: ``sentence`` (an LLM's answer cut at its first line break), or
    a backend's own objects (a served model's ``client``)."""
    spec = _the_spec(spec, options, "open_translator")
    context = spec.translating_context
    if spec.endpoint:
        from discotest.models.endpoint import EndpointTranslator

        return _watched(EndpointTranslator(spec.endpoint, lang, src_lang, model=spec.model or None,
                                        prompt_file=spec.prompt_file, context=context, max_length=spec.max_length,
                                        concurrency=spec.concurrency, timeout=spec.timeout, use_cache=spec.use_cache,
                                        quiet=spec.quiet, src_code=spec.src_lang, tgt_code=spec.tgt_lang, **options),
                     lang)
    if spec.model is None:
        raise InputError("give --model (a model folder or hub name) or --endpoint URL")
    from discotest.models.causal_lm import is_causal_lm
    from discotest.models.ct2_scorer import is_ct2_model

    local = dict(beam=spec.beam, max_length=spec.max_length, **_batch(spec), device=spec.device,
                 revision=spec.revision, use_cache=spec.use_cache, quiet=spec.quiet, src_code=spec.src_lang,
                 tgt_code=spec.tgt_lang, runner=spec.engine, ray_address=spec.ray_address, ray_actors=spec.ray_actors,
                 **options)
    if not is_ct2_model(spec.model) and is_causal_lm(spec.model):
        from discotest.models.causal_translator import CausalTranslator

        return _watched(CausalTranslator(spec.model, lang, src_lang, prompt_file=spec.prompt_file, context=context,
                                      **local), lang)
    if context:
        raise InputError("--context when translating needs a decoder-only LLM (a seq2seq model translates each "
                         "sentence alone)")
    if spec.prompt_file:
        raise InputError("--prompt needs a decoder-only LLM (a seq2seq model takes no prompt)")
    from discotest.models.translator import make_translator

    return _watched(make_translator(spec.model, lang, src_lang, **local), lang)


def served_model(url: str, model: str | None = None, timeout: float = 120.0) -> str:
    """The model a server at ``url`` serves (``model`` when it serves that one; one line naming those it serves when
    it serves several and none is named): what names a served system before any request is scored."""
    from discotest.models.endpoint import EndpointClient

    return EndpointClient(url, concurrency=1, timeout=timeout).served_model(model)


def model_fingerprint(model: str, revision: str | None = None) -> str:
    """What names a local model's weights (a folder's content digest, or the hub name and revision)."""
    from discotest.models.hf_models import model_fingerprint as fingerprint

    return fingerprint(model, revision)


def check_model(model: str, revision: str | None = None) -> None:
    """A missing folder or an unreachable hub name fails here (one line), before any work."""
    from discotest.models.hf_models import check_model as check

    check(model, revision)


def _batch(spec: ModelSpec) -> dict[str, int]:
    """``batch_size`` when the spec gives one (else each backend's own default)."""
    return {} if spec.batch_size is None else {"batch_size": spec.batch_size}


def _watched(translator: Translator, lang: str) -> Translator:
    """What every translator passes on its way out: its translations' language read (``language_watch``)."""
    return language_watch.watched(translator, lang)
