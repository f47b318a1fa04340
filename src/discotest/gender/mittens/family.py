"""MiTTenS (Robinson et al. 2024), registered as the family ``mittens`` with two suites: ``mittens`` (into English
from 26 languages; ``--lang`` names the source languages) and ``mittens-out`` (out of English; ``--lang`` names the
target languages that discotest's gender analysers read: ar de es fr it ru).

Translations come from a file (``--input``: one line per passage of the languages asked, in the CSV's order, or
``source ||| translation`` lines), a model or a served model (``--model``/``--endpoint``, one language each run
unless a served model: any), or are the references (``--system reference``; into English also
``reference-swapped``, every gendered word swapped). ``--text`` says what a model translates: the passage
(``example``, for MT systems) or the authors' prompt around it (``prompt``, for LLMs: sent as the whole request).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.gender.family import single_lang
from discotest.gender.mittens.suite import SUITE, SUITE_OUT, TEXTS, languages, load_mittens
from discotest.models.spec import ModelSpec
from discotest.registry import Family, Option, Settings, SuiteFacts, count_items, lang_codes, register, split_list
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report, summarise_warnings
from discotest.report.table import row_ranges

if TYPE_CHECKING:  # the models floor loads when a run asks a model, not with the family's options
    from discotest.models.requests import Asked

TEXT = Option("text", ("--text",), "mittens: what --model/--endpoint translates, and what the sources of a "
              "'source ||| translation' --input are first matched to: the passage (example, for MT systems) or the "
              "authors' prompt around it (prompt, for LLMs; sent as the whole request)", default="example",
              choices=TEXTS)
OPTIONS = (shared.LANG, shared.SYSTEM, shared.INPUT, shared.INPUT_FORMAT, TEXT, shared.ALIGNER, shared.ALIGN_DECODE,
           *shared.TRANSLATING_MODEL, *shared.ENGINE_OPTIONS, shared.LIMIT, *shared.EVERY_FAMILY)


def _langs(suite: str, value: Any) -> list[str]:
    langs = split_list(value)
    if not langs:
        raise InputError(f"{suite} needs --lang (a language, a comma-separated list, or 'all')")
    if langs == "all":
        if suite == SUITE_OUT:
            from discotest.gender.mittens.free import readable

            return [lang for lang in languages(suite) if readable(lang)]
        return list(languages(suite))
    return list(langs)


def input_language(suite: str, s: Settings) -> str | None:
    """The language an --input file is in: English into English; out of English the one --lang (a file of several
    languages is read language by language in ``check_lines``)."""
    return "en" if suite == SUITE else single_lang(lang_codes(s.lang))


def check_lines(suite: str, s: Settings, path: str) -> str | None:
    """``--input``'s lines against the passages they land on, judged against the suite's references
    (``lang.correspondence.refuse_misaligned``), before any work; out of English into several languages, each
    language's lines also read for their language (``input_language`` names one only)."""
    from discotest.gender.mittens.run import file_translations
    from discotest.lang.correspondence import refuse_misaligned
    from discotest.lang.identify import check_language, knows

    if s.model or s.endpoint:
        return None  # the run refuses these with --input, in its own words
    langs = _langs(suite, s.lang)
    items = load_mittens(suite, langs, s.data_dir)
    translations = file_translations(items, path, s.text, s.input_format)
    if suite == SUITE_OUT and len(langs) > 1:
        for lang in langs:
            texts = [translations.by_row[i.index] for i in items if i.lang == lang and i.index in translations.by_row]
            if texts and knows(lang):
                check_language(path, texts, lang)
    # no swap test: MiTTenS's passages come in pairs that differ in the person's gender alone ("Did you see my son?
    # He …" / "… my daughter? She …"), so a translation with the gender wrong reads as the other row's (the
    # references with every gendered word swapped were refused as swapped in 9 of 26 languages;
    # bench/validity/input_checks.py)
    return refuse_misaligned(translations, {i.index: i.text(s.text) for i in items},
                             [{i.index: i.reference for i in items}], f"the {suite} references", swaps=False,
                             reference=f"the {suite} references (--system reference)")


def run(suite: str, s: Settings) -> Report:
    """Both phases in one go (``requests``, the answers, ``score``)."""
    from discotest.models.requests import answer_all

    asked = requests(suite, s)
    return score(suite, s, asked, answer_all(asked.asks))


def requests(suite: str, s: Settings) -> Asked:
    """The run's first phase: the options checked; with a model, each language's passages loaded, its model opened
    and their translations asked (``mittens.run.model_requests``), languages in order. The references and a file ask
    nothing."""
    from discotest.gender.mittens.run import REFERENCE_SYSTEMS, model_requests
    from discotest.models.requests import Asked

    runner = resolve_engine(s.engine)  # a bad name fails here; the reading runs here on both engines
    langs = _langs(suite, s.lang)
    has_model = bool(s.model or s.endpoint)
    given = [k for k, v in (("system", s.system), ("input", s.input)) if v] + (["model"] if has_model else [])
    if len(given) != 1:
        raise InputError(f"give --input (your translations), --model/--endpoint (a model) or --system "
                         f"({', '.join(REFERENCE_SYSTEMS[suite])}: the references as translations)"
                         + (f", not --{given[0]} and --{given[1]}" if given else ""))
    if has_model:
        spec = ModelSpec.from_settings(s, engine=runner)  # the model: every model option, one name each
        asked = [model_requests(suite, lang, spec, s.text, s.data_dir, s.limit) for lang in langs]
        return Asked(tuple(ask for ask, _ in asked), tuple(state for _, state in asked))
    return Asked((), None)


def score(suite: str, s: Settings, asked: Asked, answers: list[list[Any]]) -> Report:
    """The run's second phase: each language's translations (a model's answers, a file's, the references) read for
    the person's gender."""
    from discotest.data.translations import Translations
    from discotest.gender.mittens.result import render_mittens_table
    from discotest.gender.mittens.run import REFERENCE_SYSTEMS, file_translations, model_result, run_one

    langs = _langs(suite, s.lang)
    free = dict(text=s.text, data_dir=s.data_dir, aligner=s.aligner, use_cache=s.use_cache, limit=s.limit,
                align_decode=s.align_decode)
    if asked.state is not None:
        results = [model_result(suite, state, answered, s.aligner, s.use_cache, s.limit, s.align_decode)
                   for state, answered in zip(asked.state, answers, strict=True)]
    elif s.input:
        from discotest.data.readers import system_name

        for lang in langs:
            load_mittens(suite, [lang], s.data_dir)  # an unknown language fails before the file is read
        items = load_mittens(suite, langs, s.data_dir)
        whole = file_translations(items, s.input, s.text, s.input_format)
        results = [run_one(suite, lang, translations=Translations(
            whole.path, {i.index: whole.by_row[i.index] for i in items if i.lang == lang and i.index in whole.by_row},
            format=whole.format), name=system_name(s.input), **free) for lang in langs]
    else:
        systems = split_list(s.system)
        systems = list(REFERENCE_SYSTEMS[suite]) if systems == "all" else systems
        results = [run_one(suite, lang, system=system, **free) for system in systems for lang in langs]
    warnings = summarise_warnings([(f"{r.system}/{r.lang}", f"{len(r.unmatched)} passages have no translation (rows "
                                    f"{row_ranges(r.unmatched, 10)}); they are left out of the scores")
                                   for r in results if r.unmatched], "system×language pairs")
    return Report(f"discotest · {suite}", results, text=render_mittens_table, warnings=warnings)


def compare(suite: str, s: Settings) -> Report:
    return compare_systems(suite, s, run)


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    from discotest.data import catalogue

    langs = _langs(suite, "all")
    pairs = (",".join(langs) + "→en") if suite == SUITE else ("en→" + ",".join(langs))
    return SuiteFacts(count_items(lambda: len(load_mittens(suite, langs, data_dir)), "passages"), pairs,
                      catalogue.suite_licence(SUITE) or "")


def parts(suite: str, options: dict[str, Any], data_dir: str | None) -> list[int]:
    """The passages of each language a run with ``options`` gives a result for: the card's plan."""
    return [len(load_mittens(suite, [lang], data_dir)) for lang in _langs(suite, options.get("lang") or "all")]


FAMILY = register(Family(
    name="mittens",
    title="MiTTenS (mittens, mittens-out)",
    suites=lambda: {SUITE: ["reference, reference-swapped"], SUITE_OUT: ["reference"]},
    published=lambda suite: dict.fromkeys(("reference", "reference-swapped") if suite == SUITE else ("reference",),
                                          ()),
    options=OPTIONS,
    run=run,
    requests=requests,
    score=score,
    compare=compare,
    compare_options=shared.COMPARE,
    doc="the person's gender in translations into English from 26 languages, and out of English into ar de es fr "
        "it ru (Robinson et al. 2024)",
    describe=describe,
    parts=parts,
    input_language=input_language,
    check_lines=check_lines,
))
