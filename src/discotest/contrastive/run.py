"""Contrastive evaluation end to end: load a suite, get one score per candidate (a scores file, a seq2seq model or
a baseline) or a translation per item (CTXPRO), judge every item and aggregate."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from discotest.contrastive import ctxpro_model
from discotest.contrastive.judge import ContrastiveVerdict, judge_scores, judge_translation, score_contrastive
from discotest.contrastive.result import ContrastiveResult
from discotest.contrastive.suites import is_expected_word, language_pair, load_suite, suite_version
from discotest.data import catalogue
from discotest.data.contrastive_item import ContrastiveItem
from discotest.data.readers import system_name
from discotest.errors import InputError
from discotest.models.interface import Scorer, ScoreRequest, Translator
from discotest.models.requests import Ask, Asked
from discotest.models.spec import ModelSpec
from discotest.models.translator import model_label
from discotest.report.result import build_signature
from discotest.stats import DEFAULT_SEED, stratified_sample


def score_requests(items: Sequence[ContrastiveItem]) -> list[ScoreRequest]:
    """The suite's items as the models floor's plain requests: source, candidates in suite order, both contexts."""
    return [ScoreRequest(item.src, item.candidates, item.src_context, item.tgt_context) for item in items]


def evaluate_scorer(suite: str, items: Sequence[ContrastiveItem], scorer: Scorer, contexts: Sequence[int],
                    n_bootstrap: int = 1000, data: tuple[str, str] = ("files", "none"),
                    scored: Sequence[Sequence[Sequence[float]]] | None = None) -> list[ContrastiveResult]:
    """One result per context size the scorer's scores depend on (every one asked for; a scores file: one), the
    model's work for all of them done in one go (on Ray, one actor pool for the whole run); ``scored``: those scores
    already answered (per size, per item, per candidate: ``models.requests.answer``)."""
    sizes = _sizes(scorer, contexts)
    if scored is None:
        scored = scorer.score_contexts(score_requests(items), sizes)
    return [evaluate(suite, items, per_item, scorer.system_name(k),
                     [(key, model_label(value) if key == "model" else value)  # as a translation signature names it
                      for key, value in scorer.signature_fields(k)], n_bootstrap, data)
            for k, per_item in zip(sizes, scored, strict=True)]


def evaluate(suite: str, items: Sequence[ContrastiveItem], candidate_scores: Sequence[Sequence[float]], system: str,
             fields: Sequence[tuple[str, str]] = (), n_bootstrap: int = 1000,
             data: tuple[str, str] = ("files", "none")) -> ContrastiveResult:
    """Judge items from per-candidate scores (higher = better); ``data``: ``catalogue.data_field`` of the files read."""
    verdicts = [judge_scores(item, s) for item, s in zip(items, candidate_scores)]
    settings = (*fields, ("test", "contrastive"), ("bootstrap", f"{n_bootstrap}@seed{DEFAULT_SEED}"))
    return _result(suite, system, verdicts, settings, n_bootstrap, data, items)


def evaluate_translations(suite: str, items: Sequence[ContrastiveItem], translations: Sequence[str], system: str,
                          n_bootstrap: int = 1000, data: tuple[str, str] = ("files", "none"),
                          fields: Sequence[tuple[str, str]] = ()) -> ContrastiveResult:
    """CTXPRO-style: the translation's last sentence must contain each item's expected word; ``fields``: what
    translated (a model's signature fields), none for a file."""
    from discotest.contrastive.ctxpro import splitter_name

    pair = language_pair(suite)
    lang = pair[1] if pair else "en"
    verdicts = [judge_translation(item, t, lang) for item, t in zip(items, translations)]
    settings = (*fields, ("test", "expected-word"), ("split", splitter_name(lang)),
                ("bootstrap", f"{n_bootstrap}@seed{DEFAULT_SEED}"))
    return _result(suite, system, verdicts, settings, n_bootstrap, data, items)


def _result(suite: str, system: str, verdicts: Sequence[ContrastiveVerdict], settings: Sequence[tuple[str, str]],
            n_bootstrap: int, data: tuple[str, str], items: Sequence[ContrastiveItem] = ()) -> ContrastiveResult:
    pair = language_pair(suite)
    lang = "-".join(pair) if pair else None
    signature = build_signature(suite, suite_version(suite), system, len(verdicts), lang=lang, settings=settings,
                                files=data)
    return ContrastiveResult(suite, system, score_contrastive(verdicts, n_bootstrap), signature, list(verdicts), lang,
                             {item.index: item for item in items}, catalogue.suite_licence(suite) or "")


@dataclass(frozen=True)
class _Planned:
    """What the score phase reads besides the answers: the items (the sample), the whole suite, the data files and
    how each ask is turned into results."""

    suite: str
    items: list[ContrastiveItem]
    data: tuple[str, str]
    n_bootstrap: int
    limit: int | None
    scorers: tuple[Scorer, ...] = ()  # the ask of each (a scores file, a model), in order
    contexts: tuple[int, ...] = (0,)
    translators: tuple[tuple[Translator, int], ...] = ()  # CTXPRO translated by a model: one ask per context size
    translations: Any = None  # a CTXPRO translation file's path
    input_format: str = "auto"
    baselines: tuple[str, ...] = ()
    train_text: str | Path | None = None
    use_cache: bool = True
    version: str | None = None  # a suite read from the user's own file: its content's name


def contrastive_requests(
    suite: str,
    *,
    spec: ModelSpec,
    scoring: dict[str, Any] | None = None,
    scores: str | Path | None = None,
    scores_are_losses: bool = False,
    translations: str | Path | None = None,
    contexts: Sequence[int] = (0,),
    baselines: Sequence[str] = (),
    train_text: str | Path | None = None,
    suite_file: str | Path | None = None,
    data_dir: str | Path | None = None,
    n_bootstrap: int = 1000,
    contrapro_context: tuple[str | Path, str | Path] | None = None,
    opensubtitles: str | Path | None = None,
    input_format: str = "auto",
    limit: int | None = None,
) -> Asked:
    """The run's first phase: the suite loaded (the ``limit`` sample taken), the scorers and translators opened, and
    their requests: each scorer's items at every context size it scores, a CTXPRO model's translations per context
    size. A baseline or a translation file asks no model (the score phase reads them).

    ``spec``: the run's model (``models.spec.ModelSpec``; its ``context`` is left empty: the sizes are ``contexts``,
    one ask each), scoring the candidates (its ``src_lang``/``tgt_lang`` default to the suite's pair; a decoder-only
    LLM, one whose config maps to ``AutoModelForCausalLM``, takes ``prompt_file``: ``models.causal_scorer``) or, for a
    CTXPRO suite, translating it (``contrastive.ctxpro_model``, one result per context size). ``scoring``: how a
    scorer scores (``models.door.SCORING``: separator, normalise = mean log-probability, use_target_context,
    compute_type for CTranslate2, share_prompt). ``spec.engine == "ray"``: the model's batches (Hugging Face or
    CTranslate2), of every context size together, are scored by one pool of ``ray_actors`` Ray actors (same scores);
    ``spec.endpoint``: an OpenAI-compatible server scores the candidates (``models.endpoint``; ``spec.model`` then
    names the served model).
    ContraPro's context comes from ``contrapro_context`` (its scripts' context files) or is rebuilt from the
    OpenSubtitles2018 files at ``opensubtitles``, with as many lines as the largest context size asked for.
    CTXPRO ``translations``: one per item in suite order, or ``source ||| translation`` lines for part of the
    suite (``contrastive.ctxpro_translations.read_ctxpro_translations``; ``input_format`` forces a reading).
    ``limit``: a quick look at a deterministic stratified sample of that many items (by phenomenon and distance;
    ``limited``), signed ``limit:N``."""
    with catalogue.tracking() as files:
        items = load_suite(suite, data_dir, suite_file, contrapro_context=contrapro_context,
                           opensubtitles=opensubtitles, context_size=max(contexts, default=0))
        if translations is not None:
            catalogue.check_file(translations, data_dir)  # a published output handed over by path
    data = catalogue.data_field(files)
    whole = items
    if limit and not is_expected_word(suite):
        items = limited(items, limit)
    planned = _Planned(suite, list(items), data, n_bootstrap, limit, contexts=tuple(contexts),
                       input_format=input_format, use_cache=spec.use_cache)
    if is_expected_word(suite) and translations is None and spec.named:
        return _translated_by_model(replace(planned, items=limited(items, limit) if limit else list(items)), spec)
    if is_expected_word(suite):
        if translations is None:
            raise InputError(f"{suite} scores translations: give --input (one translation per item, in suite order), "
                             "--model or --endpoint")
        return Asked((), replace(planned, translations=translations))
    if translations is not None and suite_file is None:
        raise InputError(f"{suite} is scored from candidate scores: give --scores, --model or --baseline")
    if not (scores or spec.named or baselines):
        raise InputError("give --scores FILE, --model NAME_OR_PATH, --endpoint URL, or --baseline "
                         "majority|cooccur|cooccur-st")
    from discotest.models.door import open_scorer

    scorers: list[Scorer] = []
    if scores is not None:
        # a scores file scores the whole suite, as --init's candidates list it; a --limit sample reads its lines
        position = {id(item): k for k, item in enumerate(whole)}
        sample = (score_requests(whole), [position[id(item)] for item in items]) if items is not whole else None
        scorers.append(open_scorer(scores=scores, losses=scores_are_losses, scores_of=sample))
    if spec.named:
        pair = language_pair(suite)
        if pair and not (spec.src_lang or spec.tgt_lang):
            spec = replace(spec, src_lang=pair[0], tgt_lang=pair[1])
        scorers.append(open_scorer(spec, **(scoring or {})))
    version = catalogue.user_file_version(suite_file, data_dir) if suite_file is not None else None
    requests = tuple(score_requests(items))
    return Asked(tuple(Ask(scorer, requests, tuple(_sizes(scorer, contexts))) for scorer in scorers),
                 replace(planned, scorers=tuple(scorers), baselines=tuple(baselines), train_text=train_text,
                         version=version))


def _sizes(scorer: Scorer, contexts: Sequence[int]) -> list[int]:
    """The context sizes a scorer's scores depend on: every one asked for; a scores file's: one."""
    return list(contexts) if scorer.takes_context else list(contexts[:1] or [0])


def contrastive_results(asked: Asked, answers: Sequence[Sequence[Any]]) -> list[ContrastiveResult]:
    """The run's second phase: every item judged from its answers (and the baselines', a translation file's), one
    result per system, in the order the run names them."""
    p: _Planned = asked.state
    suite, items, data, n_bootstrap = p.suite, p.items, p.data, p.n_bootstrap
    if p.translators:
        return _signed_limit([evaluate_translations(suite, items, translated, ctxpro_model.system_name(translator, k),
                                                    n_bootstrap, data, ctxpro_model.model_fields(translator, k))
                              for (translator, k), translated in zip(p.translators, answers, strict=True)], p.limit)
    if p.translations is not None:
        from discotest.contrastive.ctxpro_translations import read_ctxpro_translations

        found = read_ctxpro_translations(p.translations, items, p.input_format)
        matched = [item for item in items if item.index in found.by_row]
        if p.limit:
            matched = limited(matched, p.limit)
        return _signed_limit([evaluate_translations(suite, matched, [found.by_row[i.index] for i in matched],
                                                    system_name(p.translations), n_bootstrap, data)], p.limit)
    results = []
    for scorer, ask, per_request in zip(p.scorers, asked.asks, answers, strict=True):
        results += evaluate_scorer(suite, items, scorer, ask.contexts, n_bootstrap, data,
                                   [[scores[n] for scores in per_request] for n in range(len(ask.contexts))])
    for name in p.baselines:
        from discotest.contrastive.baselines import run_baseline

        per_item, fields = run_baseline(name, items, p.train_text, use_cache=p.use_cache)
        results.append(evaluate(suite, items, per_item, name, fields, n_bootstrap, data))
    if p.version:  # a suite read from the user's own file is named by its content
        for result in results:
            result.signature = result.signature.replace(version=p.version)
    return _signed_limit(results, p.limit)


def _translated_by_model(planned: _Planned, spec: ModelSpec) -> Asked:
    """A CTXPRO suite translated by the spec's model at each context size (one ask each), each translation scored as
    a file's would be."""
    from discotest.models.door import open_translator

    suite, items, contexts = planned.suite, planned.items, planned.contexts
    if max(contexts, default=0) and not any(item.src_context for item in items):
        raise InputError(f"--context: {suite} has no released context (CTXPRO's release/inputs file): give --context 0")
    src, tgt = language_pair(suite) or ("en", "")  # CTXPRO's names say their pair
    translator = open_translator(spec, tgt, src_lang=src)
    return Asked(tuple(Ask(translator, tuple(ctxpro_model.translate_requests(items, translator, k, tgt)))
                       for k in contexts), replace(planned, translators=tuple((translator, k) for k in contexts)))


def limited(items: Sequence[ContrastiveItem], limit: int) -> list[ContrastiveItem]:
    """A deterministic sample of ``limit`` items, stratified by phenomenon and antecedent distance."""
    chosen = stratified_sample([item.index for item in items], [(item.phenomenon, item.distance) for item in items],
                               limit)
    return [items[i] for i in chosen]


def _signed_limit(results: list[ContrastiveResult], limit: int | None) -> list[ContrastiveResult]:
    """``limit:N`` in each signature: a sample's number is not the suite's."""
    for result in results:
        result.signature = result.signature.with_limit(limit)
    return results
