"""MiTTenS end to end: the passages of one language, one system's translations (a file, a model or served model,
or the references as an oracle and an anti-oracle), each read for the person's gender, and the result."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from discotest.data import catalogue
from discotest.data.readers import system_name
from discotest.data.translations import Translations, read_translations
from discotest.errors import InputError
from discotest.gender.mittens.english import read_english, swap_gender
from discotest.gender.mittens.result import MittensResult, MittensVerdict
from discotest.gender.mittens.suite import SUITE, SUITE_OUT, MittensItem, load_mittens
from discotest.lang.align import DEFAULT_ALIGNER
from discotest.models.requests import Ask, answer_all
from discotest.report.result import build_signature
from discotest.stats import stratified_sample

if TYPE_CHECKING:
    from discotest.models.spec import ModelSpec

# the references as translations: as published (every passage's person right) and, into English, with every gendered
# pronoun and paired noun swapped (the person's gender wrong everywhere)
REFERENCE_SYSTEMS = {SUITE: ("reference", "reference-swapped"), SUITE_OUT: ("reference",)}
VERBATIM_PROMPT = Path(__file__).with_name("verbatim_prompt.txt")  # the authors' prompt is the whole request


def reference_translations(suite: str, items: Sequence[MittensItem], system: str) -> Translations:
    if system not in REFERENCE_SYSTEMS[suite]:
        raise InputError(f"{suite} publishes no system outputs: --system is one of "
                         f"{', '.join(REFERENCE_SYSTEMS[suite])} (the references as translations), or give --input")
    swap = system == "reference-swapped"
    return Translations(f"references:{system}", {i.index: swap_gender(i.reference) if swap else i.reference
                                                 for i in items}, format="reference")


def file_translations(items: Sequence[MittensItem], path: str | os.PathLike, text: str,
                      input_format: str = "auto") -> Translations:
    """One line per passage in suite order (the CSV's, for the languages asked), or ``source ||| translation``
    lines whose source is the passage or the authors' prompt."""
    other = "example" if text == "prompt" else "prompt"
    return read_translations(path, {i.index: i.text(text) for i in items}, input_format,
                             aliases={i.index: i.text(other) for i in items})


def model_requests(suite: str, lang: str, spec: ModelSpec, text: str, data_dir: str | None = None,
                   limit: int | None = None) -> tuple[Ask, ModelAsked]:
    """A model's (or a served model's) first phase in one language: the passages loaded (the ``limit`` sample taken),
    the model opened, and the translation of each scored passage asked, in order. ``spec``: the run's model; the
    pair's codes and the verbatim prompt where it gives none."""
    import dataclasses

    from discotest.gender.translate import model_system
    from discotest.models.requests import TranslateRequest

    with catalogue.tracking() as seen:
        everything = load_mittens(suite, [lang], data_dir)
    items = scored_items(everything, limit)
    _check_out_of_english(suite, lang)
    src, tgt = (lang, "en") if suite == SUITE else ("en", lang)
    spec = dataclasses.replace(spec, src_lang=spec.src_lang or src, tgt_lang=spec.tgt_lang or tgt,
                               prompt_file=spec.prompt_file or (str(VERBATIM_PROMPT) if text == "prompt" else None))
    system = model_system(spec, tgt)
    fields = [*system.translator.signature_fields(), ("text", text)]
    ask = Ask(system.translator, tuple(TranslateRequest(i.text(text), None, tgt) for i in items))
    return ask, ModelAsked(lang, everything, items, dict(seen), f"model:{system.translator.name}", system.name,
                           fields)


@dataclass(frozen=True)
class ModelAsked:
    """What a model's score phase in one language reads besides the answers (``model_requests``)."""

    lang: str
    everything: list[MittensItem]
    items: list[MittensItem]
    seen: dict[str, Any]
    path: str
    name: str
    fields: list[tuple[str, str]]


def model_result(suite: str, asked: ModelAsked, answers: Sequence[str], aligner: str = DEFAULT_ALIGNER,
                 use_cache: bool = True, limit: int | None = None, align_decode: str | None = None) -> MittensResult:
    """A model's result in one language from its answers: the translations read as a file's are."""
    translations = Translations(asked.path, {i.index: t for i, t in zip(asked.items, answers, strict=True)},
                                format="model")
    return _result(suite, asked.lang, asked.everything, asked.items, asked.seen, translations, asked.name,
                   asked.fields, aligner, use_cache, limit, align_decode)


def _check_out_of_english(suite: str, lang: str) -> None:
    if suite == SUITE_OUT:
        from discotest.gender.mittens.free import check_language

        check_language(lang)


def verdict(item: MittensItem, translation: str) -> MittensVerdict:
    """Into English: the translation read by ``english.read_english``."""
    reading = read_english(translation, item.gender)
    return MittensVerdict(item.index, item.lang, item.key, item.gender, item.source, translation, reading.verdict,
                          reading.gender, tuple(w.to_json() for w in reading.words))


def _free_verdicts(items: Sequence[MittensItem], all_items: Sequence[MittensItem], by_row: dict[int, str], lang: str,
                   aligner: str, use_cache: bool, align_decode: str | None = None) -> tuple[list[MittensVerdict], str]:
    from discotest.gender.mittens.free import read_translations as read_free
    from discotest.gender.mittens.free import reference_model
    from discotest.gender.mittens.person import PERSON_RULE
    from discotest.lang.english import english_version

    model = reference_model(all_items, lang, aligner, use_cache, align_decode)
    done = [i for i in items if i.index in by_row]
    readings, analyser = read_free(done, [by_row[i.index] for i in done], lang, model, use_cache)
    out = []
    for item, (read, words, reason) in zip(done, readings):
        outcome = read if read in ("both", "none") else "correct" if read == item.gender else "wrong"
        out.append(MittensVerdict(item.index, item.lang, item.key, item.gender, item.source, by_row[item.index],
                                  outcome, read, words, reason=reason))
    # the English side is read by a rule (PERSON_RULE) over spaCy's parse: both can change a reading
    return out, f"{model.signature()}+{analyser}+{PERSON_RULE}:{english_version() or 'no-english-model'}"


def scored_items(items: Sequence[MittensItem], limit: int | None) -> list[MittensItem]:
    """The passages a run scores: all, or with ``--limit`` a deterministic sample stratified by the authors' evaluation
    set (``eval_set_key``) and the person's gender, the same on every run."""
    if not limit:
        return list(items)
    return [items[p] for p in stratified_sample([i.index for i in items], [(i.key, i.gender) for i in items], limit)]


def run_one(suite: str, lang: str, *, input: str | os.PathLike | None = None,  # noqa: A002
            system: str | None = None, model: ModelSpec | None = None, text: str = "example",
            input_format: str = "auto", data_dir: str | None = None,
            aligner: str = DEFAULT_ALIGNER, use_cache: bool = True,
            translations: Translations | None = None, name: str | None = None,
            limit: int | None = None, align_decode: str | None = None) -> MittensResult:
    """One language of ``suite`` with one system: a file (``input``), the references (``system``), a model or served
    model (``model``: its ``ModelSpec``), or ``translations`` already read (``name`` names them).
    ``limit``: score a sample (``scored_items``); a file is still read and checked whole, a model translates the
    sample only."""
    if model is not None:
        ask, asked = model_requests(suite, lang, model, text, data_dir, limit)
        return model_result(suite, asked, answer_all([ask])[0], aligner, use_cache, limit, align_decode)
    with catalogue.tracking() as seen:
        everything = load_mittens(suite, [lang], data_dir)
    items = scored_items(everything, limit)
    _check_out_of_english(suite, lang)
    if translations is not None:
        name = name or translations.path
    elif system is not None:
        translations, name = reference_translations(suite, everything, system), system
    elif input is not None:
        translations, name = file_translations(everything, input, text, input_format), system_name(input)
    else:
        raise InputError("give --input (your translations), --model/--endpoint or --system")
    return _result(suite, lang, everything, items, dict(seen), translations, name or "", [], aligner, use_cache,
                   limit, align_decode)


def _result(suite: str, lang: str, everything: Sequence[MittensItem], items: Sequence[MittensItem],
            seen: dict[str, Any], translations: Translations, name: str, settings: Sequence[tuple[str, str]],
            aligner: str, use_cache: bool, limit: int | None, align_decode: str | None = None) -> MittensResult:
    """Every scored passage's translation read for the person's gender, and the result signed (``align_decode``:
    how the alignment model decodes, ``lang.align.model``; named in the reader field when not Thot's)."""
    by_row = translations.by_row
    if suite == SUITE:
        verdicts = [verdict(i, by_row[i.index]) for i in items if i.index in by_row]
        reader = "english-person-words-v1"
    else:
        verdicts, reader = _free_verdicts(items, everything, by_row, lang, aligner, use_cache, align_decode)
    if not verdicts:
        raise InputError(f"no passage of {suite} {lang} has a translation", translations.path)
    unmatched = sorted(i.index for i in items if i.index not in by_row)
    signature = build_signature(suite, "v5", name, len(verdicts), lang=lang,
                                settings=(*settings, ("reader", reader)), files=catalogue.data_field(seen)
                                ).with_limit(limit)
    return MittensResult(suite, lang, name, signature, verdicts, unmatched)
