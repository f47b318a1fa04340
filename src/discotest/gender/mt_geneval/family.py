"""MT-GenEval (Currey et al. 2022), the gender suite with references: counterfactual sentence pairs and
two-sentence inputs whose first sentence alone states the person's gender (``--subset``).

Registered as a family of its own beside the reference-free gender suites (WinoMT, BUG): it reads no alignment and
takes none of their options, and ``--subset``/``--split`` mean nothing to them. Translations come from a file
(``input``), an MT model (``model``; contextual: context and sentence joined, the whole output scored) or are the
suite's references (``system``: ``reference`` = oracle, ``other-reference`` = anti-oracle). The verdicts are word
sets, computed here on both engines (``--engine``); only a ``--model``'s translation runs on Ray's actors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.gender.family import single_lang
from discotest.gender.mt_geneval.suite import LANGS, SPLITS, SUBSETS, SUITE
from discotest.models.spec import ModelSpec
from discotest.registry import Family, Option, Settings, SuiteFacts, count_items, register, split_list
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report, summarise_warnings
from discotest.report.table import row_ranges

if TYPE_CHECKING:  # the models floor loads when a run asks a model, not with the family's options
    from discotest.models.requests import Asked

SUBSET = Option("subset", ("--subset",), "mt-geneval: counterfactual (feminine/masculine sentence pairs; --input "
                "holds the feminine translations, then the masculine ones) or contextual (the translation of the "
                "second sentence; the first, the context, states the gender)", choices=SUBSETS)
SPLIT = Option("split", ("--split",), "mt-geneval: test or dev", default="test", choices=SPLITS)

REFERENCE_FREE = Option("reference_free", ("--reference-free",),
                        "mt-geneval: also read the person's gender from the translation with the aligner and the "
                        "gender analysers (ar de es fr it ru), and say how often it agrees with the references",
                        default=False, action="store_true")

OPTIONS = (shared.LANG, shared.SYSTEM, shared.INPUT, shared.INPUT_FORMAT, SUBSET, SPLIT, REFERENCE_FREE,
           shared.ALIGNER, shared.ALIGN_DECODE, *shared.TRANSLATING_MODEL, *shared.ENGINE_OPTIONS, shared.LIMIT,
           *shared.EVERY_FAMILY)


def _langs(value: Any) -> list[str]:
    langs = split_list(value)
    if not langs:
        raise InputError(f"{SUITE} needs --lang (a language, a comma-separated list, or 'all')")
    return list(LANGS) if langs == "all" else list(langs)


def check_lines(suite: str, s: Settings, path: str) -> str | None:
    """``--input``'s lines against the items they land on, judged against both references of each item (the right
    and the other gender: a translation with the gender wrong still translates its own row), before any work. The
    counterfactual file's two halves (feminine, then masculine: the same sentences) are judged apart, each against
    its own rows: judged together, every row's counterpart half a file away would look as good as its own."""
    from discotest.gender.mt_geneval.run import file_translations
    from discotest.gender.mt_geneval.suite import load_mt_geneval
    from discotest.lang.correspondence import refuse_misaligned

    langs = split_list(s.lang)
    if s.model or s.endpoint or not s.subset or not isinstance(langs, list) or len(langs) != 1:
        return None  # the run refuses these, in its own words
    items = load_mt_geneval(s.subset, langs[0], s.split, s.data_dir)
    translations = file_translations(items, path, s.subset, s.input_format)
    half = len(items) // 2
    groups = [items[:half], items[half:]] if s.subset == "counterfactual" else [items]
    warnings = [refuse_misaligned(translations, {i.index: i.source for i in group},
                                  [{i.index: i.reference for i in group}, {i.index: i.other for i in group}],
                                  f"the {SUITE} {s.subset} references",
                                  reference=f"the {SUITE} references (--system reference)") for group in groups]
    return next((w for w in warnings if w), None)


def run(suite: str, s: Settings) -> Report:
    """Both phases in one go (``requests``, the answers, ``score``)."""
    from discotest.models.requests import answer_all

    asked = requests(suite, s)
    return score(suite, s, asked, answer_all(asked.asks))


def _languages(s: Settings) -> tuple[list[str], list[str]]:
    """The languages asked for, and those of them without a gender analyser (``--reference-free --lang all``)."""
    langs = _langs(s.lang)
    if s.reference_free and s.lang == "all":  # every language with an analyser; hi and pt have none
        from discotest.lang.morph import languages

        return langs, [lang for lang in langs if lang not in languages()]
    return langs, []


def requests(suite: str, s: Settings) -> Asked:
    """The run's first phase: the options checked; with a model, the items loaded, the model opened and the
    translations asked (``mt_geneval.run.model_requests``). The references and a file ask nothing."""
    from discotest.gender.mt_geneval.run import REFERENCE_SYSTEMS, model_requests
    from discotest.models.requests import Asked

    runner = resolve_engine(s.engine)  # a bad name fails here too; only --model translates on Ray
    if not s.subset:
        raise InputError(f"{SUITE} needs --subset ({' or '.join(SUBSETS)})")
    langs, _ = _languages(s)
    given = [k for k, v in (("system", s.system), ("input", s.input), ("model", s.model or s.endpoint)) if v]
    if len(given) != 1:
        raise InputError(f"give --input (your translations), --model (an MT model) or --system "
                         f"({', '.join(REFERENCE_SYSTEMS)}: the references as translations)"
                         + (f", not --{given[0]} and --{given[1]}" if given else ""))
    if (s.input or s.model or s.endpoint) and len(langs) != 1:
        raise InputError(f"--{given[0]} needs exactly one --lang")
    if s.model or s.endpoint:
        spec = ModelSpec.from_settings(s, engine=runner)  # the model: every model option, one name each
        ask, asked = model_requests(langs[0], s.subset, spec, s.split, s.data_dir, s.limit)
        return Asked((ask,), asked)
    return Asked((), None)


def score(suite: str, s: Settings, asked: Asked, answers: list[list[Any]]) -> Report:
    """The run's second phase: the model's answers (or a file's lines, the references) judged against the
    references, per language."""
    from discotest.gender.mt_geneval.result import render_geneval_table
    from discotest.gender.mt_geneval.run import REFERENCE_SYSTEMS, model_result, run_one

    langs, without = _languages(s)
    free = dict(reference_free=s.reference_free, aligner=s.aligner, use_cache=s.use_cache, limit=s.limit,
                align_decode=s.align_decode)
    if asked.state is not None:
        results = [model_result(langs[0], s.subset, asked.state, answers[0], split=s.split, **free)]
    elif s.input:
        results = [run_one(langs[0], s.subset, split=s.split, input=s.input, input_format=s.input_format,
                           data_dir=s.data_dir, **free)]
    else:
        systems = split_list(s.system)
        systems = list(REFERENCE_SYSTEMS) if systems == "all" else systems
        results = [run_one(lang, s.subset, split=s.split, system=system, data_dir=s.data_dir,
                           **{**free, "reference_free": free["reference_free"] and lang not in without})
                   for system in systems for lang in langs]
    warnings = summarise_warnings([(f"{r.system}/{r.lang}", f"{len(r.unmatched)} items have no translation (rows "
                                    f"{row_ranges(r.unmatched, 10)}); they are left out of the scores")
                                   for r in results if r.unmatched], "system×language pairs")
    if without:
        warnings.append(f"--reference-free: no gender analyser for {', '.join(without)} (none offline); those "
                        "languages have the reference-based verdict only")
    return Report(f"discotest · {suite} {s.subset}", results, text=render_geneval_table, warnings=warnings)


def compare(suite: str, s: Settings) -> Report:
    return compare_systems(suite, s, run)


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    from discotest.data import catalogue
    from discotest.gender.mt_geneval.suite import load_mt_geneval

    def size() -> int:
        return sum(len(load_mt_geneval(subset, lang, "test", data_dir)) for subset in SUBSETS for lang in LANGS)

    return SuiteFacts(count_items(size, "test items"), "en→" + ",".join(LANGS), catalogue.suite_licence(suite) or "")


def parts(suite: str, options: dict[str, Any], data_dir: str | None) -> list[int]:
    """The items of each result a run with ``options`` gives (one per language and subset): the card's plan."""
    from discotest.gender.mt_geneval.suite import load_mt_geneval

    subsets = [options["subset"]] if options.get("subset") else list(SUBSETS)
    return [len(load_mt_geneval(subset, lang, options.get("split") or "test", data_dir))
            for subset in subsets for lang in _langs(options.get("lang") or "all")]


def prepare(suite: str, s: Settings) -> list[str]:
    """The references' alignment models of ``--reference-free``, for each language with an analyser (``--lang``,
    default all) and subset (``--subset``, default both)."""
    from discotest.gender.mt_geneval.run import prepare_models
    from discotest.lang.morph import languages

    langs = [lang for lang in _langs(s.lang or "all") if lang in languages()]
    return prepare_models(langs, [s.subset] if s.subset else list(SUBSETS), s.split, s.data_dir,
                          s.aligner, s.use_cache)


FAMILY = register(Family(
    name="mt-geneval",
    title="MT-GenEval (mt-geneval)",
    suites=lambda: {SUITE: [f"reference, other-reference ({' '.join(LANGS)})"]},
    published=lambda suite: dict.fromkeys(("reference", "other-reference"), tuple(LANGS)),
    options=OPTIONS,
    run=run,
    requests=requests,
    score=score,
    compare=compare,
    compare_options=shared.COMPARE,
    doc="gender accuracy against a reference of each gender, counterfactual sentences and gender stated only in "
        "the previous sentence (Currey et al. 2022)",
    describe=describe,
    input_language=lambda suite, s: single_lang(s.lang),
    check_lines=check_lines,
    parts=parts,
    prepare=prepare,
))
