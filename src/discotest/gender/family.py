"""The gender family: WinoMT, its demo and BUG (reference-free gender accuracy, ΔG, ΔS, target-side consistency),
scored on the noun's gender (``--verdict noun``, the default) or on what a reader takes from noun and pronoun.

Translations come from published outputs (``system``), a file (``input``) or an MT model (``model``, translated
through the cache); ``lang`` is one language, a list or ``all`` (published outputs only)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.gender.coref import RESOLVERS
from discotest.gender.judge import VERDICTS
from discotest.gender.translate import MARKERS
from discotest.lang.locate import LEXICON_MODES
from discotest.models.spec import ModelSpec
from discotest.progress import progress_bar
from discotest.registry import Family, Option, Settings, SuiteFacts, count_items, lang_codes, register, split_list
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report, summarise_warnings
from discotest.report.table import row_ranges
from discotest.timing import stage

if TYPE_CHECKING:  # the models floor loads when a run asks a model, not with the family's options
    from discotest.models.requests import Asked

SUITES = ("winomt", "winomt-demo", "winomt-adj", "bug")

MEASURE = Option("measure", ("--measure",),
                 "gender suites: accuracy, consistency, or both comma-separated (consistency adds accuracy)",
                 default="accuracy", many=True)
SUITE_VERSION = Option("suite_version", ("--suite-version",),
                       "WinoMT files: 'current' (repository HEAD) or '2019' (the published outputs' source)",
                       default="current")
VERDICT = Option("verdict", ("--verdict",),
                 "gender suites: compute accuracy, ΔG and ΔS on the noun's gender (noun: an indefinite or epicene "
                 "noun whose gender is only grammatical is neutral; grammatical: mt_gender's convention, that gender "
                 "counts) or on what a reader takes from noun and coreferent pronoun together (reader: turns "
                 "--measure consistency on)", default="noun",
                 choices=VERDICTS)
LEXICON = Option("lexicon", ("--lexicon",), "use the entity lexicon to confirm or find the target entity",
                 default="on", choices=LEXICON_MODES)
MARKERS_OPTION = Option("markers", ("--markers",),
                        "--model: coreference markers on the source, from the English resolver or the suite's gold "
                        "cluster", default="none", choices=MARKERS)
RESOLVER = Option("resolver", ("--resolver",), "--markers predicted: the English resolver", default="rules",
                  choices=RESOLVERS)
MODEL_OPTIONS = (shared.BEAM, shared.MAX_LENGTH, MARKERS_OPTION, RESOLVER, shared.SRC_LANG, shared.TGT_LANG,
                 shared.REVISION, shared.BATCH_SIZE, shared.DEVICE, shared.PROMPT, shared.ENDPOINT, shared.CONCURRENCY,
                 shared.ENDPOINT_TIMEOUT)


OPTIONS = (shared.LANG, shared.SYSTEM, shared.INPUT, shared.INPUT_FORMAT, shared.SUITE_FILE, MEASURE, VERDICT,
           SUITE_VERSION, shared.ALIGNER, shared.ALIGN_TRAIN, shared.GENDER_ALIGN_EXTRA, shared.ALIGN_DECODE,
           LEXICON, shared.JOBS,
           *shared.ENGINE_OPTIONS, shared.RAY_ACTORS, shared.MODEL, *MODEL_OPTIONS, shared.CONTEXT, shared.LIMIT,
           *shared.EVERY_FAMILY)


def measures(value: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Accuracy always, consistency on request ("all" = both)."""
    wanted = ["consistency"] if value == "all" else (split_list(value) or [])
    return tuple(dict.fromkeys(["accuracy", *wanted]))


def _published(suite: str) -> dict[str, tuple[str, ...]]:
    from discotest.gender.published import published_systems

    return published_systems(suite)


def _suites() -> dict[str, list[str]]:
    return {suite: [f"{system} ({' '.join(langs)})" for system, langs in _published(suite).items()]
            for suite in SUITES}


UNREADABLE_WARN = 20.0  # % of items whose gender could not be read (google/de reads 0.1%; the French file as de 99.7%)


def unreadable_warning(result) -> str:
    """The warning for a result whose gender was unreadable in many items (a file in another language, a broken
    output): it is scored, but its accuracy says little."""
    return (f"warning: {result.system}/{result.lang}: the gender of {result.scores.unknown:.1f}% of the items could "
            f"not be read (above {UNREADABLE_WARN:g}%): its accuracy says little; is the translation in "
            f"{result.lang}, one sentence per suite row?")


def single_lang(langs: list[str] | str | None) -> str | None:
    """The one language of --lang (the language --input is in), else None (the run refuses --input then)."""
    langs = split_list(langs)
    return langs[0] if isinstance(langs, list) and len(langs) == 1 else None


def _one_lang(langs: list[str] | str | None, what: str) -> str:
    if langs == "all" or not langs or len(langs) != 1:
        raise InputError(f"{what} needs exactly one --lang")
    return langs[0]


def _versions(suite: str) -> list[str]:
    from discotest.data import catalogue

    return sorted({src.version for src in catalogue.SOURCES.values() if src.kind == "suite" and src.suite == suite})


def other_version(suite: str, version: str, path: str, input_format: str, data_dir: str | None) -> str | None:
    """A warning when the --input file was made from another version of the suite than the one scored (WinoMT 2019
    against the current one, whose rows 2120-2121 differ), else None. A file with sources: they are the other
    version's sentences, row for row. A file matched by position: the rows where the versions differ hold, in the
    other version, a sentence it also has elsewhere (2019's rows 2120-2121 repeat rows 536-537), and the file repeats
    the translation there too, where the scored version's two sentences differ (a deterministic system translates
    the same sentence the same way)."""
    from discotest.data.catalogue import MissingDataError
    from discotest.data.translations import read_lines, translation_texts, with_sources
    from discotest.gender.suites import load_gender_suite

    others = [v for v in _versions(suite) if v != version]
    if not others:
        return None
    try:
        mine = [item.sentence for item in load_gender_suite(suite, version, data_dir)]
        texts = translation_texts(path, input_format)
        sources = with_sources(read_lines(path), input_format)
    except (MissingDataError, InputError):
        return None
    for other in others:
        try:
            theirs = [item.sentence for item in load_gender_suite(suite, other, data_dir)]
        except MissingDataError:
            continue
        differ = [i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b] + list(range(len(mine), len(theirs)))
        if not differ or len(theirs) != len(texts):
            continue
        rows = row_ranges(differ)
        if sources is not None:
            if [" ".join(x.split()) for x in sources] == [" ".join(x.split()) for x in theirs]:
                return (f"warning: {path}: made from {suite} {other}, not {version} (its sources are {other}'s, row "
                        f"for row): the versions differ at rows {rows}; give --suite-version {other}")
            continue
        where: dict[str, list[int]] = {}
        for i, sentence in enumerate(theirs):
            where.setdefault(sentence, []).append(i)
        pairs = [(i, j) for i in differ for j in where[theirs[i]] if j != i and mine[i] != mine[j]]
        if pairs and all(texts[i] == texts[j] for i, j in pairs):
            shown = ", ".join(f"{i} and {j}" for i, j in pairs[:2])
            return (f"warning: {path}: made from {suite} {other}, not {version}: its rows {shown} hold the same "
                    f"translation, as {other}'s same sentences there would; the versions differ at rows {rows}, "
                    f"scored against {version}'s sentences; give --suite-version {other}")
    return None


def check_lines(suite: str, s: Settings, path: str) -> str | None:
    """``--input``'s lines against the rows they land on (``published.check_lines_match``: the suite's published
    outputs in the language, else its English sentences), before any work; settings the run refuses (no single
    --lang, a model as well) are left to its own error."""
    from discotest.data.translations import read_translations
    from discotest.gender.published import check_lines_match
    from discotest.gender.suites import load_gender_suite

    lang = single_lang(lang_codes(s.lang))
    if lang is None or s.model or s.endpoint:
        return None
    if s.suite_file:
        from discotest.gender.suite_file import load_suite_file

        items = list(load_suite_file(s.suite_file, s.data_dir).items)
    else:
        items = load_gender_suite(suite, s.suite_version, s.data_dir)
    translations = read_translations(path, {item.index: item.sentence for item in items}, s.input_format)
    check_lines_match(translations, items, lang, s.data_dir, suite, own_rows=bool(s.suite_file))
    return None  # published outputs, not references: a copy of one is a system's translation


def run(suite: str, s: Settings) -> Report:
    """Both phases in one go (``requests``, the answers, ``score``)."""
    from discotest.models.requests import answer_all

    asked = requests(suite, s)
    return score(suite, s, asked, answer_all(asked.asks))


def pipeline_settings(s: Settings) -> dict[str, Any]:
    """The gender pipeline's options (``gender.run.RunOptions`` but the suite) from a run's settings."""
    if s.align_extra and s.align_train == "suite":
        raise InputError("--align-extra adds training text to an aligner trained on your file: give it with "
                         "--align-train input")
    return dict(suite_version=s.suite_version, data_dir=s.data_dir, aligner=s.aligner,
                align_train=s.align_train, align_extra=s.align_extra or "auto", align_decode=s.align_decode,
                measure=measures(s.measure), lexicon=s.lexicon,
                use_cache=s.use_cache, input_format=s.input_format, verdict=s.verdict,
                check_lines=False, limit=s.limit,  # the registry checked --input's lines (check_lines)
                suite_file=s.suite_file)


def together(runs: list[tuple[str, Settings]], on_language: Callable[[str], None] | None = None) -> None:
    """``Family.suites_together``: published systems' runs of several gender suites over their languages computed at
    once, each language's runs of every suite in one worker process (``gender.together.run_suites``), for each run
    to read its verdicts back; ``on_language(lang)`` as each language computed so is in the cache. A run that is not
    of published outputs on the local engine is run as itself."""
    from discotest.gender.run import RunOptions
    from discotest.gender.together import run_suites

    joint = []
    for suite, s in runs:
        if resolve_engine(s.engine) == "local" and s.system and s.lang and not (s.input or s.model or s.endpoint):
            joint.append((suite, s))
        else:
            run(suite, s)
    if joint:
        run_suites([(RunOptions(suite=suite, **pipeline_settings(s)), lang_codes(s.lang), split_list(s.system))
                    for suite, s in joint], jobs=joint[0][1].jobs, on_language=on_language)


def requests(suite: str, s: Settings) -> Asked:
    """The run's first phase: the options checked; with a model, the model opened and the translation of each
    scored item asked (``gender.run.model_requests``); published outputs and files ask nothing. The state is the
    pipeline's settings, the languages and the model's own state."""
    from discotest.gender.run import model_requests
    from discotest.models.requests import Asked

    resolve_engine(s.engine)  # a bad name fails before any work, whatever is evaluated
    settings = pipeline_settings(s)
    if not s.lang:
        raise InputError(f"suite {suite!r} needs --lang (a language, a comma-separated list, or 'all')")
    has_model = bool(s.model or s.endpoint)  # a local model, or a served one
    given = [k for k, v in (("system", s.system), ("input", s.input)) if v] + (["model"] if has_model else [])
    if not given:
        raise InputError("give --system (published outputs), --input (your translations) or --model (an MT model)")
    if has_model and len(given) > 1:
        raise InputError("--model translates the suite itself: give it without --system/--input")
    if len(given) > 1:
        raise InputError("give --system or --input, not both")
    if s.suite_file and s.system:
        raise InputError("--suite-file scores your own suite: give its translations with --input, or a --model; "
                         "the published outputs translate the registered suite")
    if s.suite_file and suite == "winomt-adj":
        raise InputError("--suite-file reads WinoMT's format (winomt, winomt-demo, bug); winomt-adj's rows come "
                         "from WinoMT's")
    if s.markers != "none" and not has_model:
        raise InputError("--markers marks the source a --model translates: give --model")
    langs = lang_codes(s.lang)
    if has_model:
        # the model is its spec (``models.spec``: every model option, one name each), handed on to the door
        asked = model_requests(suite, _one_lang(langs, "--model"), ModelSpec.from_settings(s), markers=s.markers,
                               resolver=s.resolver, **settings)
        return Asked(asked.asks, (settings, langs, asked))
    return Asked((), (settings, langs, None))


def score(suite: str, s: Settings, asked: Asked, answers: list[list[Any]]) -> Report:
    """The run's second phase: the model's answers read as a file's translations, or the published outputs and
    files evaluated; the warnings of rows left out and of unreadable outputs."""
    from discotest.gender.run import model_result, planned_pairs, run_many, run_one

    settings, langs, model = asked.state
    extra_warnings: list[str] = []
    if model is not None:
        results = [model_result(model, answers)]
    elif s.input:
        results = [run_one(suite, lang=_one_lang(langs, "--input"), input=s.input, **settings)]
        with stage("version check"):
            made_from = None if s.suite_file else other_version(suite, s.suite_version, s.input, s.input_format,
                                                                s.data_dir)
        extra_warnings.extend([made_from] if made_from else [])
    else:
        total = sum(map(len, planned_pairs(suite, langs, split_list(s.system, "--system")).values()))
        with progress_bar(f"{suite}: system×language pairs", "pair", total=total) as bar:
            results = run_many(suite, langs, split_list(s.system), jobs=s.jobs, progress=bar.update,
                               engine=resolve_engine(s.engine), ray_address=s.ray_address, **settings)
    warnings = summarise_warnings([(f"{r.system}/{r.lang}", f"{len(r.unmatched)} suite rows have no translation "
                                    f"(rows {row_ranges(r.unmatched, 10)}); they are left out of the scores")
                                   for r in results if r.unmatched], "system×language pairs")
    warnings += [unreadable_warning(r) for r in results if r.scores.unknown >= UNREADABLE_WARN] + extra_warnings
    from discotest.gender.result import render_gender_table

    return Report(f"discotest · {suite}", results, text=render_gender_table, warnings=warnings)


def compare(suite: str, s: Settings) -> Report:
    """Two systems on the same items; for ``winomt-adj`` with one published system, that system without the
    adjective (its WinoMT 2019 output on the same rows) against with it (Stanovsky et al. 2019 §5)."""
    if suite == "winomt-adj" and len(s.system or []) == 1 and not s.input:
        return adjective_effect(s)
    return compare_systems(suite, s, run)


def adjective_effect(s: Settings) -> Report:
    """One published system's accuracy on WinoMT's anti-stereotypical rows without and with the stereotypical
    adjective, per language: both results and a paired comparison (A = without, B = with). ``--system all``: each
    system with adjective outputs, its own plain output against its adjective one."""
    from discotest.gender.result import adjective_rows, render_adjective_effect, render_gender_table
    from discotest.gender.suites import load_gender_suite
    from discotest.gender.winomt_adj_run import plain_on_adjective_rows
    from discotest.report.comparison import compare_results

    n_bootstrap, seed = s.bootstrap, s.seed  # checked by their Option declarations
    system = s.system[0]
    with_adjective = run("winomt-adj", s.replace(system=system, input=None)).results
    langs = ",".join(dict.fromkeys(r.lang for r in with_adjective))
    # each system's own plain output (``--system all``: every system with adjective outputs, each against itself)
    systems = ",".join(dict.fromkeys(r.system for r in with_adjective))
    plain = {(r.system, r.lang): r for r in run("winomt", s.replace(system=systems, input=None, lang=langs,
                                                                    suite_version="2019")).results}
    plain_items = load_gender_suite("winomt", "2019", s.data_dir)
    adjective_items = load_gender_suite("winomt-adj", "current", s.data_dir)
    with_adjective = [r for r in with_adjective if (r.system, r.lang) in plain]
    without = [plain_on_adjective_rows(plain[(r.system, r.lang)], plain_items, adjective_items)
               for r in with_adjective]
    comparisons = [compare_results(a, b, n_bootstrap, seed) for a, b in zip(without, with_adjective)]

    return Report(f"discotest · winomt-adj: {systems} without and with the adjective", [*without, *with_adjective],
                  comparisons, aggregates={"adjective_effect": adjective_rows(comparisons)},
                  text=lambda results: render_adjective_effect(comparisons) + "\n\n" + render_gender_table(results))


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    from discotest.data import catalogue
    from discotest.gender.run import languages
    from discotest.gender.suites import load_gender_suite

    return SuiteFacts(count_items(lambda: len(load_gender_suite(suite, "current", data_dir))),
                      "en→" + ",".join(languages()), catalogue.suite_licence(suite) or "")


def prepare(suite: str, s: Settings) -> list[str]:
    """The alignment model of each language (``--lang``, default all) trained now, as a run would on first use."""
    from discotest.gender.run import RunOptions, languages, prepare_models

    langs = lang_codes(s.lang) or "all"
    options = RunOptions(suite=suite, suite_version=s.suite_version, data_dir=s.data_dir, aligner=s.aligner,
                         use_cache=s.use_cache)
    return prepare_models(suite, languages() if langs == "all" else langs, options)


FAMILY = register(Family(
    name="gender",
    title="the gender suites (winomt, winomt-demo, winomt-adj, bug)",
    suites=_suites,
    published=_published,
    options=OPTIONS,
    run=run,
    requests=requests,
    score=score,
    compare=compare,
    compare_options=shared.COMPARE,
    doc="gender accuracy, ΔG, ΔS and target-side consistency of translations, read through alignment and "
        "morphological analysers (Stanovsky et al. 2019; Yehudai et al. 2023)",
    describe=describe,
    input_language=lambda suite, s: single_lang(s.lang),
    check_lines=check_lines,
    prepare=prepare,
    langs_together=True,  # run_many's workers store each language's verdicts by their files (verdict_cache.files_key)
    suites_together=together,
))
