"""The contrastive family: a correct and incorrect translations scored in context (Voita, Bawden, SCAT, ContraPro,
jazp, Wino-X MT, your own JSONL) and CTXPRO's expected-word suites, accuracy by antecedent distance.

Scores come from a file (``scores``), a seq2seq model at one or more context sizes (``model``, ``context``) or the
papers' baselines (``baseline``); CTXPRO suites score a translation file (``input`` or a published ``system``) or a
model's translations (``model``/``endpoint``, at each ``context`` size: ``contrastive.ctxpro_model``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discotest.data import catalogue
from discotest.errors import InputError, did_you_mean
from discotest.registry import Family, Option, Settings, SuiteFacts, SuiteSize, count_items, register
from discotest.registry import options as shared
from discotest.registry.two_systems import as_list, compare_systems
from discotest.report.emit import Report

if TYPE_CHECKING:  # the models floor loads when a run asks a model, not with the family's options
    from discotest.models.requests import Asked

SCORES = Option("scores", ("--scores",), "one score per candidate line, suite order (higher = better)",
                metavar="FILE")
LOSSES = Option("scores_are_losses", ("--scores-are-losses",), "the --scores file holds losses (lower = better)",
                default=False, action="store_true")
COMPARE = Option("compare", ("--compare",), "paired test between the two systems or context sizes of this run",
                 default=False, action="store_true")
BASELINE = Option("baseline", ("--baseline",), "the paper's baselines (repeatable); they learn from --train-text",
                  default=[], action="append", choices=("majority", "cooccur", "cooccur-st"))
TRAIN_TEXT = Option("train_text", ("--train-text",), "baseline training text (target, or 'source ||| target')",
                    metavar="FILE")
CONTRAPRO_CONTEXT = Option("contrapro_context", ("--contrapro-context",),
                           "contrapro: context files written by ContraPro's scripts (N lines per item, N = --context)",
                           nargs=2, metavar=("SRC", "TGT"))
OPENSUBTITLES = Option("opensubtitles", ("--opensubtitles",),
                       "contrapro: rebuild the context from OPUS OpenSubtitles2018.de-en.{ids,en,de} at PREFIX",
                       metavar="PREFIX")
SEPARATOR = Option("separator", ("--separator",),
                   "--model (seq2seq): joins context and current sentence, source and target side (default: a "
                   "space; an LLM's prompt template lays out the context instead)",
                   default=" ")
LOGPROB = Option("logprob", ("--logprob",), "--model: a candidate's score is the sum of its token log-probabilities, "
                 "or their mean", default="sum", choices=("sum", "mean"))
TARGET_CONTEXT = Option("target_context", ("--no-target-context",),
                        "--model: give the context on the source side only (default: also the target context, "
                        "teacher-forced, when the suite has it)", default=True, action="store_false")
KV = Option("kv", ("--kv",), "--model with a decoder-only LLM: compute each item's prompt once, its candidates "
            "after it in one row, or score every prompt + candidate in full (the same scores up to float rounding)",
            default="shared", choices=("shared", "full"))
COMPUTE_TYPE = Option("compute_type", ("--compute-type",),
                      "--model with a CTranslate2 directory: int8, float16, … (default: the model's own)",
                      default="default")
# one published system a run (its file is located by name): not the shared --system's list or 'all' (the card runs
# a CTXPRO row's published systems one by one, ``cards.system.runs_all``)
SYSTEM = Option("system", ("--system", "-s"), "a published system's output (one name; `discotest suites` lists them)")
OPTIONS = (SYSTEM, shared.INPUT, shared.INPUT_FORMAT, shared.SUITE_FILE, SCORES, LOSSES, shared.MODEL,
           shared.CONTEXT, shared.BEAM, shared.MAX_LENGTH, COMPARE, BASELINE, TRAIN_TEXT, CONTRAPRO_CONTEXT,
           OPENSUBTITLES, shared.BATCH_SIZE, shared.DEVICE, SEPARATOR, LOGPROB, TARGET_CONTEXT, COMPUTE_TYPE,
           shared.PROMPT, KV, shared.ENDPOINT,
           shared.CONCURRENCY, shared.ENDPOINT_TIMEOUT, shared.SRC_LANG, shared.TGT_LANG, shared.REVISION,
           *shared.ENGINE_OPTIONS, shared.RAY_ACTORS, shared.LIMIT, *shared.EVERY_FAMILY)


def _suites() -> dict[str, list[str]]:
    from discotest.contrastive.suites import contrastive_suites

    return {suite: [f"{system} ({lang})" for (system, lang) in catalogue.system_outputs(suite)]
            for suite in contrastive_suites()}


def _published(suite: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for system, lang in catalogue.system_outputs(suite):
        out[system] = (*out.get(system, ()), lang)
    return out


def run(suite: str, s: Settings) -> Report:
    """Both phases in one go (``requests``, the answers, ``score``)."""
    from discotest.models.requests import answer_all

    asked = requests(suite, s)
    return score(suite, s, asked, answer_all(asked.asks))


def requests(suite: str, s: Settings) -> Asked:
    """The run's first phase: the options checked, the suite loaded, the model's requests
    (``contrastive.run.contrastive_requests``) from the run's ``ModelSpec`` (its context sizes are the suite's to
    score or translate at, one ask each: not the model's) and how a scorer scores (``models.door.SCORING``)."""
    from discotest.contrastive.run import contrastive_requests
    from discotest.contrastive.suites import is_expected_word, is_file_suite
    from discotest.models.spec import ModelSpec

    published = {system: name for (system, _), name in catalogue.system_outputs(suite).items()}
    if s.system and s.system not in published:
        known = ", ".join(published) or "none"
        raise InputError(f"{suite} has no published system {s.system!r}{did_you_mean(s.system, published)} "
                         f"(published: {known}); "
                         "give --scores, --model or --baseline")
    if s.system and s.input:
        raise InputError("give --system or --input, not both")
    if is_expected_word(suite) and (s.model or s.endpoint) and (s.system or s.input):
        raise InputError("--model translates the suite itself: give it without --system/--input")
    if s.baseline and not s.train_text:
        raise InputError("--baseline needs --train-text (the text the baseline learns pronoun statistics from)")
    suite_file = (s.suite_file or s.input) if is_file_suite(suite) else None
    translations = s.input if is_expected_word(suite) else None
    if s.system:
        translations = catalogue.locate(published[s.system], s.data_dir)
    if s.input and suite_file is None and translations is None:
        raise InputError(f"{suite} is scored from candidate scores: use --scores FILE, not --input")
    return contrastive_requests(
        suite, spec=ModelSpec.from_settings(s, context=()), scoring=dict(
            separator=s.separator.replace("\\n", "\n").replace("\\t", "\t"), normalise=s.logprob == "mean",
            use_target_context=s.target_context, compute_type=s.compute_type, share_prompt=s.kv == "shared"),
        scores=s.scores, scores_are_losses=s.scores_are_losses, translations=translations,
        contexts=s.context or [0], baselines=s.baseline, train_text=s.train_text, suite_file=suite_file,
        data_dir=s.data_dir, contrapro_context=s.contrapro_context, opensubtitles=s.opensubtitles,
        input_format=s.input_format, limit=s.limit)


def score(suite: str, s: Settings, asked: Asked, answers: list[list[Any]]) -> Report:
    """The run's second phase: every item judged from the answers, one result per system, and ``--compare``'s
    paired test."""
    from discotest.contrastive.result import render_contrastive_table
    from discotest.contrastive.run import contrastive_results
    from discotest.report.comparison import compare_results

    results = contrastive_results(asked, answers)
    comparisons = []
    if s.compare:
        if len(results) != 2:
            raise InputError(f"--compare needs exactly two systems or context sizes in this run, got {len(results)} "
                             f"(two files or systems: `discotest compare {suite} --input A --input B`)")
        comparisons.append(compare_results(*results))
    return Report(f"discotest · {suite}", results, comparisons, text=render_contrastive_table)


def compare(suite: str, s: Settings) -> Report:
    """Two systems of a CTXPRO suite (published names or translation files), or two scores files (``--input``)."""
    from discotest.contrastive.suites import is_expected_word

    if is_expected_word(suite):
        return compare_systems(suite, s, run)
    files = as_list(s.input)
    if s.system or len(files) != 2:
        raise InputError(f"compare {suite}: give two scores files as --input A --input B")
    return compare_systems(suite, s, lambda name, t: run(name, t.replace(scores=t.input, input=None)))


def _translation_language(suite: str, s: Settings) -> str | None:
    """The target language of a suite scored from translations (CTXPRO): --input is a translation file there."""
    from discotest.contrastive.suites import is_expected_word, language_pair

    pair = language_pair(suite)
    return pair[1] if pair and is_expected_word(suite) else None


def check_lines(suite: str, s: Settings, path: str) -> str | None:
    """A CTXPRO ``--input``'s lines against the items they land on, judged against each item's reference translation
    (the suite's correct target), before any work; elsewhere ``--input`` is a suite file, not translations."""
    from discotest.contrastive.ctxpro_translations import read_ctxpro_translations
    from discotest.contrastive.suites import is_expected_word, language_pair, load_suite
    from discotest.lang.correspondence import refuse_misaligned

    if not is_expected_word(suite) or s.model or s.endpoint:
        return None
    items = load_suite(suite, s.data_dir)
    pair = language_pair(suite)
    return refuse_misaligned(read_ctxpro_translations(path, items, s.input_format), {i.index: i.src for i in items},
                             [{i.index: i.correct for i in items}], f"the {suite} reference translations",
                             pair[1] if pair else None, reference=f"the {suite} reference translations")


def _is_file_suite(suite: str) -> bool:
    from discotest.contrastive.suites import is_file_suite

    return is_file_suite(suite)


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    from discotest.contrastive.suites import FILE_SUITES, language_pair, load_suite

    pair = language_pair(suite)
    langs = f"{pair[0]}→{pair[1]}" if pair else "those of your file"
    if suite in FILE_SUITES:  # read from the user's file (jazp's is bundled: it has a size)
        return SuiteFacts(SuiteSize(None, "", "your file (--suite-file)"), langs, "that of your file")
    size = count_items(lambda: len(load_suite(suite, data_dir)))
    return SuiteFacts(size, langs, catalogue.suite_licence(suite) or "")


FAMILY = register(Family(
    name="contrastive",
    title="the contrastive suites",
    suites=_suites,
    published=_published,
    options=OPTIONS,
    run=run,
    requests=requests,
    score=score,
    compare=compare,
    compare_options=shared.COMPARE,
    handles=_is_file_suite,
    doc="a model's score for the correct against the incorrect translations of each item in context; accuracy by "
        "antecedent distance, phenomenon and pronoun pair, with the MAJORITY and CO-OCCUR baselines "
        "(Shimazu et al. 2020; Voita et al. 2019; Bawden et al. 2018; CTXPRO)",
    describe=describe,
    input_language=_translation_language,
    check_lines=check_lines,
))
