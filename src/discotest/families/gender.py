"""The gender family: WinoMT, its demo and BUG (reference-free gender accuracy, ΔG, ΔS, target-side consistency),
scored on the noun's gender (``--verdict noun``, the default) or on what a reader takes from noun and pronoun.

Translations come from published outputs (``system``), a file (``input``) or an MT model (``model``, translated
through the cache); ``lang`` is one language, a list or ``all`` (published outputs only)."""

from __future__ import annotations

from typing import Any

from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.families import options as common
from discotest.families.compare import compare_systems
from discotest.families.registry import Family, Option, SuiteFacts, count_items, lang_codes, register, split_list
from discotest.lang.locate import LEXICON_MODES
from discotest.options import int_option
from discotest.phenomena.gender import VERDICTS
from discotest.progress import progress_bar
from discotest.report.emit import Report, summarise_warnings
from discotest.report.table import row_ranges
from discotest.translate import MARKERS

SUITES = ("winomt", "winomt-demo", "bug")

MEASURE = Option("measure", ("--measure",),
                 "gender suites: accuracy, consistency, or both comma-separated (consistency adds accuracy)",
                 default="accuracy")
SUITE_VERSION = Option("suite_version", ("--suite-version",),
                       "WinoMT files: 'current' (repository HEAD) or '2019' (the published outputs' source)",
                       default="current")
VERDICT = Option("verdict", ("--verdict",),
                 "gender suites: compute accuracy, ΔG and ΔS on the noun's gender (WinoMT's) or on what a reader takes "
                 "from noun and coreferent pronoun together (turns --measure consistency on)", default="noun",
                 choices=VERDICTS)
LEXICON = Option("lexicon", ("--lexicon",), "use the entity lexicon to confirm or find the target entity",
                 default="on", choices=LEXICON_MODES)
BEAM = Option("beam", ("--beam",), "--model: beam size", default=4, type=int_option("beam"))
MAX_LENGTH = Option("max_length", ("--max-length",), "--model: maximum source/output tokens", default=256,
                    type=int_option("max-length"))
MARKERS_OPTION = Option("markers", ("--markers",),
                        "--model: coreference markers on the source, from the English resolver or the suite's gold "
                        "cluster", default="none", choices=MARKERS)
RESOLVER = Option("resolver", ("--resolver",), "--markers predicted: the English resolver", default="rules",
                  choices=("rules", "fastcoref"))
MODEL_OPTIONS = (BEAM, MAX_LENGTH, MARKERS_OPTION, RESOLVER, common.SRC_LANG, common.TGT_LANG, common.REVISION,
                 common.BATCH_SIZE, common.DEVICE)

OPTIONS = (common.LANG, common.SYSTEM, common.INPUT, common.INPUT_FORMAT, MEASURE, VERDICT, SUITE_VERSION,
           common.ALIGNER, common.ALIGN_EXTRA, LEXICON, common.JOBS, *common.ENGINE_OPTIONS, common.RAY_ACTORS,
           common.MODEL, *MODEL_OPTIONS, *common.COMMON)


def measures(value: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Accuracy always, consistency on request ("all" = both)."""
    wanted = ["consistency"] if value == "all" else (split_list(value) or [])
    return tuple(dict.fromkeys(["accuracy", *wanted]))


def _suites() -> dict[str, list[str]]:
    from discotest.systems.published import published_systems

    return {suite: [f"{system} ({' '.join(langs)})" for system, langs in published_systems(suite).items()]
            for suite in SUITES}


def _one_lang(langs: list[str] | str | None, what: str) -> str:
    if langs == "all" or not langs or len(langs) != 1:
        raise InputError(f"{what} needs exactly one --lang")
    return langs[0]


def run(suite: str, s: dict[str, Any]) -> Report:
    from discotest.pipelines.gender_run import planned_pairs, run_many, run_one

    resolve_engine(s["engine"])  # a bad name fails before any work, whatever is evaluated
    if s["align_extra"] == "wmt":
        raise InputError("--align-extra for gender suites is 'auto', 'published' or 'none'")
    settings = dict(suite_version=s["suite_version"], data_dir=s["data_dir"], aligner=s["aligner"],
                    align_extra=s["align_extra"] or "auto", measure=measures(s["measure"]), lexicon=s["lexicon"],
                    use_cache=s["use_cache"], input_format=s["input_format"], verdict=s["verdict"])
    if not s["lang"]:
        raise InputError(f"suite {suite!r} needs --lang (a language, a comma-separated list, or 'all')")
    given = [k for k in ("system", "input", "model") if s[k]]
    if not given:
        raise InputError("give --system (published outputs), --input (your translations) or --model (an MT model)")
    if s["model"] and len(given) > 1:
        raise InputError("--model translates the suite itself: give it without --system/--input")
    if len(given) > 1:
        raise InputError("give --system or --input, not both")
    if s["markers"] != "none" and not s["model"]:
        raise InputError("--markers marks the source a --model translates: give --model")
    langs = lang_codes(s["lang"])
    if s["model"]:
        model_options = dict(markers=s["markers"], resolver=s["resolver"], beam=s["beam"], max_length=s["max_length"],
                             batch_size=s["batch_size"], device=s["device"], revision=s["revision"],
                             src_code=s["src_lang"] or "en", tgt_code=s["tgt_lang"], use_cache=s["use_cache"],
                             quiet=s["quiet"], runner=resolve_engine(s["engine"]), ray_address=s["ray_address"],
                             ray_actors=s["ray_actors"])
        results = [run_one(suite, lang=_one_lang(langs, "--model"), model=s["model"], model_options=model_options,
                           **settings)]
    elif s["input"]:
        results = [run_one(suite, lang=_one_lang(langs, "--input"), input=s["input"], **settings)]
    else:
        total = sum(map(len, planned_pairs(suite, langs, split_list(s["system"])).values()))
        with progress_bar(f"{suite}: system×language pairs", "pair", total=total) as bar:
            results = run_many(suite, langs, split_list(s["system"]), jobs=s["jobs"], progress=bar.update,
                               engine=resolve_engine(s["engine"]), ray_address=s["ray_address"], **settings)
    warnings = summarise_warnings([(f"{r.system}/{r.lang}", f"{len(r.unmatched)} suite rows have no translation "
                                    f"(rows {row_ranges(r.unmatched, 10)}); they are left out of the scores")
                                   for r in results if r.unmatched], "system×language pairs")
    from discotest.report.gender import render_gender_table

    return Report(f"discotest · {suite}", results, text=render_gender_table, warnings=warnings)


def compare(suite: str, s: dict[str, Any]) -> Report:
    return compare_systems(suite, s, run)


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    from discotest.data import registry
    from discotest.pipelines.gender_run import languages
    from discotest.suites.gender import load_gender_suite

    return SuiteFacts(count_items(lambda: len(load_gender_suite(suite, "current", data_dir))),
                      "en→" + ",".join(languages()), registry.suite_licence(suite) or "")


FAMILY = register(Family(
    name="gender",
    title="the gender suites (winomt, winomt-demo, bug)",
    suites=_suites,
    options=OPTIONS,
    run=run,
    compare=compare,
    compare_options=common.COMPARE,
    doc="gender accuracy, ΔG, ΔS and target-side consistency of translations, read through alignment and "
        "morphological analysers (Stanovsky et al. 2019; Yehudai et al. 2023)",
    describe=describe,
))
