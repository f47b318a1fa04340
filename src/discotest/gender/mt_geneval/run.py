"""MT-GenEval end to end: the suite's items, one system's translations (a file, or the references themselves as an
oracle and an anti-oracle), the reference-based verdicts and the result with its signature."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from discotest.data import catalogue
from discotest.data.readers import system_name
from discotest.data.translations import Translations, read_translations
from discotest.errors import InputError
from discotest.gender.mt_geneval.judge import agreement, judge, score
from discotest.gender.mt_geneval.reference_free import aligner_signature, check_language, read_free, reference_model
from discotest.gender.mt_geneval.result import GenEvalResult
from discotest.gender.mt_geneval.suite import SUITE, GenEvalItem, load_mt_geneval
from discotest.lang.align import DEFAULT_ALIGNER
from discotest.lang.align.model import AlignmentModel
from discotest.models.requests import Ask, answer_all
from discotest.report.result import Signature, build_signature
from discotest.stats import stratified_sample

if TYPE_CHECKING:
    from discotest.models.spec import ModelSpec

# the references as translations: the right-gender ones (every decided item correct) and the other-gender ones
# (every decided item wrong), to check the bench and to read the references with other tools
REFERENCE_SYSTEMS = ("reference", "other-reference")


def reference_translations(items: Sequence[GenEvalItem], system: str) -> Translations:
    """The right-gender (``reference``) or the other-gender (``other-reference``) references as a translation set."""
    if system not in REFERENCE_SYSTEMS:
        raise InputError(f"{SUITE} publishes no system outputs: --system is one of {', '.join(REFERENCE_SYSTEMS)} "
                         "(the references as translations), or give --input")
    return Translations(f"references:{system}",
                        {i.index: i.reference if system == "reference" else i.other for i in items}, format="reference")


def file_translations(items: Sequence[GenEvalItem], path: str | os.PathLike, subset: str,
                      input_format: str = "auto") -> Translations:
    """A translation file read against the items: one line per item in their order (counterfactual: the feminine
    sentences, then the masculine ones), or ``source ||| translation`` lines (contextual: the source with its
    context as published, or the second sentence alone when that is unambiguous)."""
    if subset == "contextual":
        return read_translations(path, {i.index: i.published for i in items}, input_format,
                                 aliases={i.index: i.source for i in items})
    return read_translations(path, {i.index: i.source for i in items}, input_format)


def scored_items(items: Sequence[GenEvalItem], subset: str, limit: int | None) -> list[GenEvalItem]:
    """The items a run scores: all, or with ``--limit`` a deterministic sample stratified by gender. Counterfactual
    items are drawn by pair (a pair's feminine and masculine rows share their sha256 order), so the sample holds
    whole pairs (an odd N adds one feminine row) and the paired figure keeps meaning."""
    if not limit:
        return list(items)
    half = len(items) // 2
    keys = [i.index % half if subset == "counterfactual" else i.index for i in items]
    return [items[p] for p in stratified_sample(keys, [i.gender for i in items], limit)]


def evaluate(items: Sequence[GenEvalItem], translations: Translations, *, lang: str, subset: str, split: str,
             system: str, files: tuple[str, str], settings: Sequence[tuple[str, str]] = (),
             limit: int | None = None) -> GenEvalResult:
    """The verdicts of the translated items (``limit``: of the sample, ``scored_items``) and their scores."""
    by_row = translations.by_row
    half = len(items) // 2
    pairs = {f: f + half for f in range(half)} if subset == "counterfactual" else None
    items = scored_items(items, subset, limit)
    verdicts = [judge(i.index, i.gender, i.source, by_row[i.index], i.reference, i.other, i.context)
                for i in items if i.index in by_row]
    if not verdicts:
        raise InputError(f"no item of {SUITE} {subset} {lang} has a translation", translations.path)
    gender_rule = (("gender", "context-pronouns"),) if subset == "contextual" else ()
    signature = build_signature(SUITE, split, system, len(verdicts), lang=lang, scope=(("subset", subset),),
                                settings=(*settings, ("metric", "reference-words"), *gender_rule), files=files)
    rows = {i.index for i in items}
    return GenEvalResult(SUITE, lang, subset, split, system, score(verdicts, subset, pairs),
                         signature.with_limit(limit), verdicts, [r for r in translations.unmatched if r in rows])


def model_inputs(items: Sequence[GenEvalItem], subset: str) -> list[str]:
    """What a model translates: each sentence (counterfactual), or the context and the sentence joined by a space
    (contextual: 2-to-1, the whole output is scored, so words of the context's translation count too)."""
    if subset == "contextual":
        return [f"{i.context} {i.source}".strip() for i in items]
    return [i.source for i in items]


def model_requests(lang: str, subset: str, spec: ModelSpec, split: str = "test", data_dir: str | None = None,
                   limit: int | None = None) -> tuple[Ask, ModelAsked]:
    """A model's first phase on one subset and language: the items loaded (the ``limit`` sample taken), the model
    opened, and the translation of each scored item asked (``model_inputs``), in order."""
    from discotest.gender.translate import model_system
    from discotest.models.requests import TranslateRequest

    with catalogue.tracking() as seen:
        items = load_mt_geneval(subset, lang, split, data_dir)
    scored = scored_items(items, subset, limit)
    system = model_system(spec, lang)
    fields = [*system.translator.signature_fields()]
    if subset == "contextual":
        fields.append(("input", "context+sentence"))
    ask = Ask(system.translator, tuple(TranslateRequest(text, None, lang) for text in model_inputs(scored, subset)))
    return ask, ModelAsked(items, scored, dict(seen), f"model:{system.translator.name}", system.name, fields)


@dataclass(frozen=True)
class ModelAsked:
    """What a model's score phase reads besides the answers (``model_requests``)."""

    items: list[GenEvalItem]
    scored: list[GenEvalItem]
    seen: dict[str, Any]
    path: str
    name: str
    fields: list[tuple[str, str]]


def model_result(lang: str, subset: str, asked: ModelAsked, answers: Sequence[str], *, split: str = "test",
                 reference_free: bool = False, aligner: str = DEFAULT_ALIGNER, use_cache: bool = True,
                 limit: int | None = None, align_decode: str | None = None) -> GenEvalResult:
    """A model's result from its answers, read as a file's translations are (``run_one``)."""
    translations = Translations(asked.path, {i.index: t for i, t in zip(asked.scored, answers, strict=True)},
                                format="model")
    return _result(lang, subset, asked.items, asked.seen, translations, asked.name, asked.fields, split,
                   reference_free, aligner, use_cache, limit, align_decode)


def prepare_models(langs: Sequence[str], subsets: Sequence[str], split: str = "test", data_dir: str | None = None,
                   aligner: str = "thot-eflomal", use_cache: bool = True) -> list[str]:
    """``data prepare mt-geneval``: the references' alignment model of each language and subset (what
    ``--reference-free`` decodes with) trained (or found) now, one line each."""
    lines = []
    for lang in langs:
        for subset in subsets:
            items = load_mt_geneval(subset, lang, split, data_dir)
            model = reference_model(items, lang, f"mt-geneval-{subset}-{split}-{lang}:references", aligner, use_cache)
            if not isinstance(model, AlignmentModel):
                lines.append(f"mt-geneval {subset} {lang}: no alignment model for the {aligner} aligner")
                continue
            was = model.cached()
            model.folder()
            lines.append(f"mt-geneval {subset} {lang}: alignment model {model.text} {'ready' if was else 'trained'}")
    return lines


def run_one(lang: str, subset: str, *, split: str = "test", input: str | os.PathLike | None = None,  # noqa: A002
            system: str | None = None, model: ModelSpec | None = None,
            input_format: str = "auto", data_dir: str | None = None, reference_free: bool = False,
            aligner: str = DEFAULT_ALIGNER, use_cache: bool = True, limit: int | None = None,
            align_decode: str | None = None) -> GenEvalResult:
    """One translation file (``input``), one reference set (``system``) or one MT model, local or served (``model``:
    its ``ModelSpec``) on one subset and language; with ``reference_free`` also the gender read from the
    translation by the aligner and the analyser, and its agreement with the reference-based verdict
    (``gender.mt_geneval.reference_free``). ``limit``: score a sample (``scored_items``); a file is still read and
    checked whole, a model translates the sample only."""
    has_model = model is not None
    if sum((input is not None, system is not None, has_model)) != 1:
        raise InputError("give exactly one of input= (a translation file), system= (reference, other-reference) "
                         "or model= (an MT model)")
    if has_model:
        ask, asked = model_requests(lang, subset, model, split, data_dir, limit)
        return model_result(lang, subset, asked, answer_all([ask])[0], split=split, reference_free=reference_free,
                            aligner=aligner, use_cache=use_cache, limit=limit, align_decode=align_decode)
    with catalogue.tracking() as seen:
        items = load_mt_geneval(subset, lang, split, data_dir)
    if system is not None:
        translations, name = reference_translations(items, system), system
    else:
        translations, name = file_translations(items, input, subset, input_format), system_name(input)
    return _result(lang, subset, items, dict(seen), translations, name, [], split, reference_free, aligner,
                   use_cache, limit, align_decode)


def _result(lang: str, subset: str, items: Sequence[GenEvalItem], seen: dict[str, Any], translations: Translations,
            name: str, settings: Sequence[tuple[str, str]], split: str, reference_free: bool, aligner: str,
            use_cache: bool, limit: int | None, align_decode: str | None = None) -> GenEvalResult:
    """The translations judged against the references (and, ``reference_free``, read by the aligner and the
    analyser, the model decoded as ``align_decode`` says), the result signed."""
    if reference_free:
        check_language(lang)
    result = evaluate(items, translations, lang=lang, subset=subset, split=split, system=name,
                      files=catalogue.data_field(seen), settings=list(settings), limit=limit)
    if reference_free:
        model = reference_model(items, lang, f"mt-geneval-{subset}-{split}-{lang}:references", aligner, use_cache,
                                align_decode)
        readings, analyser = read_free(result.verdicts, lang, model, use_cache)
        fields = list(result.signature.fields)
        at = len(fields) - 1  # before the files, which stay last
        fields[at:at] = [("reference_free", f"{aligner_signature(model)}+{analyser}")]
        result = replace(result, free=readings, agreement=agreement(result.verdicts, readings),
                         signature=Signature(tuple(fields)))
    return result
