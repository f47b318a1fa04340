"""Contrastive evaluation end to end: load a suite, get one score per candidate (a scores file, a seq2seq model or
a baseline) or a translation per item (CTXPRO), judge every item and aggregate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from discotest.contrastive.judge import ContrastiveVerdict, judge_scores, judge_translation, score_contrastive
from discotest.contrastive.result import ContrastiveResult
from discotest.contrastive.suites import is_expected_word, language_pair, load_suite, suite_version
from discotest.data import catalogue
from discotest.data.contrastive_item import ContrastiveItem
from discotest.data.readers import system_name
from discotest.errors import InputError
from discotest.models.interface import Scorer, ScoreRequest
from discotest.models.translator import model_label
from discotest.report.result import build_signature
from discotest.stats import DEFAULT_SEED, stratified_sample


def score_requests(items: Sequence[ContrastiveItem]) -> list[ScoreRequest]:
    """The suite's items as the models floor's plain requests: source, candidates in suite order, both contexts."""
    return [ScoreRequest(item.src, item.candidates, item.src_context, item.tgt_context) for item in items]


def evaluate_scorer(suite: str, items: Sequence[ContrastiveItem], scorer: Scorer, contexts: Sequence[int],
                    n_bootstrap: int = 1000, data: tuple[str, str] = ("files", "none")) -> list[ContrastiveResult]:
    """One result per context size the scorer's scores depend on (every one asked for; a scores file: one), the
    model's work for all of them done in one go (on Ray, one actor pool for the whole run)."""
    sizes = list(contexts) if scorer.takes_context else list(contexts[:1] or [0])
    return [evaluate(suite, items, per_item, scorer.system_name(k),
                     [(key, model_label(value) if key == "model" else value)  # as a translation signature names it
                      for key, value in scorer.signature_fields(k)], n_bootstrap, data)
            for k, per_item in zip(sizes, scorer.score_contexts(score_requests(items), sizes))]


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


def run_contrastive(
    suite: str,
    *,
    scores: str | Path | None = None,
    scores_are_losses: bool = False,
    translations: str | Path | None = None,
    model: str | None = None,
    contexts: Sequence[int] = (0,),
    baselines: Sequence[str] = (),
    train_text: str | Path | None = None,
    suite_file: str | Path | None = None,
    data_dir: str | Path | None = None,
    batch_size: int = 32,
    device: str = "cpu",
    use_cache: bool = True,
    quiet: bool = False,
    n_bootstrap: int = 1000,
    scorer_factory: Callable | None = None,
    contrapro_context: tuple[str | Path, str | Path] | None = None,
    opensubtitles: str | Path | None = None,
    scorer_options: dict | None = None,
    input_format: str = "auto",
    engine: str = "local",
    ray_address: str | None = None,
    ray_actors: int = 2,
    endpoint: str | None = None,
    concurrency: int = 4,
    timeout: float = 120.0,
    limit: int | None = None,
    translator_options: dict | None = None,
) -> list[ContrastiveResult]:
    """One result per system: the scores file, each context size of the model, each baseline.

    ``scorer_options`` go to the model scorer: separator, normalise (mean log-probability), use_target_context,
    src_lang/tgt_lang (default: the suite's languages), revision, compute_type (CTranslate2); prompt_file and
    share_prompt (decoder-only LLMs, ``models.causal_scorer``; a model is one when its config maps to
    ``AutoModelForCausalLM``).
    ContraPro's context comes from ``contrapro_context`` (its scripts' context files) or is rebuilt from the
    OpenSubtitles2018 files at ``opensubtitles``, with as many lines as the largest context size asked for.
    CTXPRO ``translations``: one per item in suite order, or ``source ||| translation`` lines for part of the
    suite (``contrastive.ctxpro_translations.read_ctxpro_translations``; ``input_format`` forces a reading). A CTXPRO
    suite with ``model`` or ``endpoint`` is translated by it (``contrastive.ctxpro_model``), one result per context
    size; ``translator_options`` go to ``models.door.open_translator`` (beam, max_length, prompt_file, revision,
    src_code, tgt_code …).
    ``engine="ray"``: the model's batches (Hugging Face or CTranslate2), of every context size together, are scored by
    one pool of ``ray_actors`` Ray actors (same scores). ``endpoint``: an OpenAI-compatible server scores the
    candidates (``models.endpoint``; ``model`` then names the served model). ``limit``: a quick look at a
    deterministic stratified sample of that many items (by phenomenon and distance; ``limited``), signed
    ``limit:N``."""
    with catalogue.tracking() as files:
        items = load_suite(suite, data_dir, suite_file, contrapro_context=contrapro_context,
                           opensubtitles=opensubtitles, context_size=max(contexts, default=0))
        if translations is not None:
            catalogue.check_file(translations, data_dir)  # a published output handed over by path
    data = catalogue.data_field(files)
    results = []
    whole = items
    if limit and not is_expected_word(suite):
        items = limited(items, limit)
    if is_expected_word(suite) and translations is None and (model is not None or endpoint):
        return _signed_limit(_translated_by_model(suite, limited(items, limit) if limit else items, model, endpoint,
                                                  contexts, n_bootstrap, data, dict(
                                                      translator_options or {}, batch_size=batch_size, device=device,
                                                      use_cache=use_cache, quiet=quiet, concurrency=concurrency,
                                                      timeout=timeout, runner=engine, ray_address=ray_address,
                                                      ray_actors=ray_actors)), limit)
    if is_expected_word(suite):
        if translations is None:
            raise InputError(f"{suite} scores translations: give --input (one translation per item, in suite order), "
                             "--model or --endpoint")
        from discotest.contrastive.ctxpro_translations import read_ctxpro_translations

        found = read_ctxpro_translations(translations, items, input_format)
        matched = [item for item in items if item.index in found.by_row]
        if limit:
            matched = limited(matched, limit)
        return _signed_limit([evaluate_translations(suite, matched, [found.by_row[i.index] for i in matched],
                                                    system_name(translations), n_bootstrap, data)], limit)
    if translations is not None and suite_file is None:
        raise InputError(f"{suite} is scored from candidate scores: give --scores, --model or --baseline")
    if not (scores or model or baselines or endpoint):
        raise InputError("give --scores FILE, --model NAME_OR_PATH, --endpoint URL, or --baseline "
                         "majority|cooccur|cooccur-st")
    from discotest.models.door import open_scorer

    if scores is not None:
        # a scores file scores the whole suite, as --init's candidates list it; a --limit sample reads its lines
        position = {id(item): k for k, item in enumerate(whole)}
        sample = (score_requests(whole), [position[id(item)] for item in items]) if items is not whole else None
        results += evaluate_scorer(suite, items, open_scorer(scores=scores, losses=scores_are_losses,
                                                             scores_of=sample), contexts, n_bootstrap, data)
    if endpoint or model is not None:
        options = dict(scorer_options or {})
        pair = language_pair(suite)
        if pair and not (options.get("src_lang") or options.get("tgt_lang")):
            options["src_lang"], options["tgt_lang"] = pair
        scorer = open_scorer(model, endpoint=endpoint, engine=engine, ray_address=ray_address, ray_actors=ray_actors,
                             concurrency=concurrency, timeout=timeout, factory=scorer_factory, batch_size=batch_size,
                             device=device, use_cache=use_cache, quiet=quiet, **options)
        results += evaluate_scorer(suite, items, scorer, contexts, n_bootstrap, data)
    for name in baselines:
        from discotest.contrastive.baselines import run_baseline

        per_item, fields = run_baseline(name, items, train_text, use_cache=use_cache)
        results.append(evaluate(suite, items, per_item, name, fields, n_bootstrap, data))
    version = catalogue.user_file_version(suite_file, data_dir) if suite_file is not None else None
    if version:  # a suite read from the user's own file is named by its content
        for result in results:
            result.signature = result.signature.replace(version=version)
    return _signed_limit(results, limit)


def _translated_by_model(suite: str, items: Sequence[ContrastiveItem], model: str | None, endpoint: str | None,
                         contexts: Sequence[int], n_bootstrap: int, data: tuple[str, str],
                         options: dict) -> list[ContrastiveResult]:
    """A CTXPRO suite translated by a model at each context size, each translation scored as a file's would be."""
    from discotest.contrastive import ctxpro_model
    from discotest.models.door import open_translator

    if max(contexts, default=0) and not any(item.src_context for item in items):
        raise InputError(f"--context: {suite} has no released context (CTXPRO's release/inputs file): give --context 0")
    src, tgt = language_pair(suite) or ("en", "")  # CTXPRO's names say their pair
    translator = open_translator(model, tgt, endpoint=endpoint, src_lang=src, **options)
    return [evaluate_translations(suite, items, ctxpro_model.translate_items(items, translator, k),
                                  ctxpro_model.system_name(translator, k), n_bootstrap, data,
                                  ctxpro_model.model_fields(translator, k))
            for k in contexts]


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
