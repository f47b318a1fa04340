"""The zero-pronoun family: AZPT on the Chinese–English mZPRT benchmark (Wang et al. 2022), per domain.

Hypotheses come from the published outputs (``system``: names or ``all``), files (``input``: one per domain) or a model
that translates every domain asked for (``model``/``endpoint``, with ``context`` previous sentences of the document);
``compare`` adds BLEU with its own paired tests to the per-ZP comparison."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.models.spec import one_context
from discotest.registry import Family, Option, Settings, SuiteFacts, count_items, register, split_list
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report
from discotest.values import int_option
from discotest.zero_pronoun.defaults import DEFAULT_REACH, DEFAULT_WINDOW

if TYPE_CHECKING:  # the models floor loads when a run asks a model, not with the family's options
    from discotest.models.requests import Asked

DOMAIN = Option("domain", ("--domain", "-d"), "mZPRT domain (QA GR MS PP WF, MS-valid, WF-valid), list, or 'all'",
                many=True)
WINDOW = Option("window", ("--window",), "mzprt: candidate words each side of the aligned word",
                default=DEFAULT_WINDOW,
                type=int_option("window"))
REACH = Option("reach", ("--reach",),
               "mzprt: also accept an unclaimed right pronoun up to N words beyond the window (0 = paper)",
               default=DEFAULT_REACH,
               type=int_option("reach"))
ALIGN_EXTRA = Option("align_extra", ("--align-extra",), "mzprt: extra aligner training text: 'wmt' (the default) = "
                     "the WMT21/22 zh-en test sets, or 'none'", default="wmt", choices=("wmt", "none"))
# one file per --domain, in its order (the card's row reads a folder's five files in one run, as `run` does)
INPUTS = Option("input", ("--input", "-i"), "mzprt: your translations, one file per --domain in its order "
                "(comma-separated: --domain QA,GR --input qa.txt,gr.txt), or files of one domain", many=True)
BLEU = Option("bleu", ("--bleu",), "mzprt: also report sacrebleu BLEU", default=False, action="store_true")
# --engine ray: the alignment run is a Ray task; a command aligns once (the background, or it with the one --input),
# so there is no --jobs to share out
OPTIONS = (DOMAIN, shared.SYSTEM, INPUTS, shared.INPUT_FORMAT, WINDOW, REACH, BLEU, shared.ALIGNER,
           shared.ALIGN_TRAIN, ALIGN_EXTRA, shared.ALIGN_DECODE, *shared.ENGINE_OPTIONS, shared.LIMIT,
           *shared.TRANSLATING_MODEL,
           *shared.EVERY_FAMILY)


def _suites() -> dict[str, list[str]]:
    from discotest.zero_pronoun.mzprt import DOMAINS
    from discotest.zero_pronoun.outputs import published_systems

    return {"mzprt": [f"{domain}: {' '.join(published_systems(domain))}" for domain in DOMAINS]}


def _published(suite: str) -> dict[str, tuple[str, ...]]:
    """Every domain's published systems (the pair is mZPRT's only one)."""
    from discotest.zero_pronoun.mzprt import DOMAINS
    from discotest.zero_pronoun.outputs import published_systems

    return {system: () for domain in DOMAINS for system in published_systems(domain)}


def input_files(given: str | Path | list[str | Path] | None) -> list[str]:
    """``--input``'s files, one per domain: a comma-separated string (the command line), a path or a list
    (Python)."""
    if not given:
        return []
    if isinstance(given, Path):
        return [str(given)]
    return [p.strip() for p in given.split(",") if p.strip()] if isinstance(given, str) else [str(p) for p in given]


def run(suite: str, s: Settings) -> Report:
    """Both phases in one go (``requests``, the answers, ``score``)."""
    from discotest.models.requests import answer_all

    asked = requests(suite, s)
    return score(suite, s, asked, answer_all(asked.asks))


def requests(suite: str, s: Settings) -> Asked:
    """The run's first phase: the options checked; with a model, the model opened and each requested domain's
    sentences asked (``zero_pronoun.run.mzprt_requests``: every domain's, not only the first's). Published outputs
    and files ask nothing."""
    from discotest.models.requests import Asked
    from discotest.zero_pronoun.run import mzprt_requests

    engine = resolve_engine(s.engine)  # a bad name fails before any work
    if not s.domain:
        raise InputError("mzprt needs --domain (QA GR MS PP WF, MS-valid, WF-valid, a comma-separated list, or 'all')")
    if s.system and s.input:  # neither: run_mzprt says so
        raise InputError("give --system or --input, not both")
    if (s.model or s.endpoint) and (s.system or s.input):
        raise InputError("--model translates the suite itself: give it without --system/--input")
    if s.model or s.endpoint:
        from discotest.models.door import open_translator
        from discotest.models.spec import ModelSpec

        # the spec's own context stays 0: mZPRT gives each sentence its document's context (``context=`` below)
        translator = open_translator(ModelSpec.from_settings(s, engine=engine, context=()), "en", src_lang="zh")
        return Asked(mzprt_requests(split_list(s.domain), translator, s.data_dir, one_context(s.context),
                                    s.limit), translator)
    return Asked((), None)


def score(suite: str, s: Settings, asked: Asked, answers: list[list[Any]]) -> Report:
    """The run's second phase: every domain's hypotheses (a model's answers, published outputs, a file) aligned,
    judged and scored, with the rank agreement of the published systems."""
    from discotest.zero_pronoun.result import rank_agreement_json, render_azpt_table
    from discotest.zero_pronoun.run import run_mzprt

    translator = asked.state
    results = run_mzprt(
        split_list(s.domain),
        systems=split_list(s.system),
        inputs=input_files(s.input),
        data_dir=s.data_dir,
        window=s.window,
        reach=s.reach,
        bleu=s.bleu,
        use_cache=s.use_cache,
        extra=s.align_extra,
        aligner=s.aligner,
        align_train=s.align_train,
        align_decode=s.align_decode,
        input_format=s.input_format,
        engine=resolve_engine(s.engine),
        ray_address=s.ray_address,
        limit=s.limit,
        translator=translator,
        context=one_context(s.context),
        answered=answers if translator is not None else None,
    )
    return Report("discotest · mZPRT zero pronouns (AZPT)", results, aggregates={
        "kendall_tau": rank_agreement_json(results)}, text=render_azpt_table)


def check_lines(suite: str, s: Settings, path: str) -> str | None:
    """An ``--input`` file's lines against the segments they land on, judged against its domain's English reference
    (the file's place among the inputs is its place among the domains), before any work (a count that does not
    match: the run refuses it, in its own words)."""
    from discotest.lang.correspondence import refuse_misaligned
    from discotest.zero_pronoun.hypotheses import input_translations
    from discotest.zero_pronoun.mzprt import load_mzprt
    from discotest.zero_pronoun.run import domains_of

    paths = input_files(s.input)
    if s.model or s.endpoint or not s.domain or path not in paths:
        return None
    domains = domains_of(split_list(s.domain))
    if len(domains) != 1 and len(domains) != len(paths):
        return None
    domain = domains[0] if len(domains) == 1 else domains[paths.index(path)]
    test_set = load_mzprt(domain, s.data_dir)
    return refuse_misaligned(input_translations(path, test_set, s.input_format),
                             {seg.index: seg.source for seg in test_set.segments},
                             [{seg.index: seg.reference for seg in test_set.segments}],
                             f"the mZPRT {domain} reference",
                             reference=f"the mZPRT {domain} reference (--system reference)")


def compare(suite: str, s: Settings) -> Report:
    from discotest.zero_pronoun.compare import bleu_comparison

    if s.domain == "all" or not s.domain or len(split_list(s.domain) or []) != 1:
        raise InputError("compare needs one --domain")
    return compare_systems(suite, s.replace(bleu=True), run, extra=lambda a, b, n, seed: bleu_comparison(
        a, b, n, seed, s.data_dir))


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    from discotest.data import catalogue
    from discotest.zero_pronoun.mzprt import DOMAINS, load_mzprt

    size = count_items(lambda: sum(len(load_mzprt(d, data_dir).zps) for d in DOMAINS), "zero pronouns",
                       f"in {len(DOMAINS)} domains ({', '.join(DOMAINS)})")
    return SuiteFacts(size, "zh→en", catalogue.suite_licence(suite) or "")


def parts(suite: str, options: dict[str, Any], data_dir: str | None) -> list[int]:
    """The scored ZPs of each domain a run with ``options`` covers (one result per domain and system): the card's
    plan."""
    from discotest.zero_pronoun.mzprt import DOMAINS, load_mzprt

    domains = split_list(options.get("domain") or "all")
    return [sum(zp.scored for zp in load_mzprt(d, data_dir).zps) for d in (DOMAINS if domains == "all" else domains)]


def prepare(suite: str, s: Settings) -> list[str]:
    from discotest.zero_pronoun.run import prepare_model

    return prepare_model(s.data_dir, s.aligner, s.align_extra,
                         s.use_cache)


FAMILY = register(Family(
    name="zero-pronoun",
    title="mzprt",
    suites=_suites,
    published=_published,
    options=OPTIONS,
    run=run,
    requests=requests,
    score=score,
    compare=compare,
    compare_options=shared.COMPARE,
    doc="accuracy of zero-pronoun translation (AZPT) from Chinese: each annotated ZP's aligned words, a ±1 window "
        "and a bilingual pronoun table (Wang et al. 2022)",
    describe=describe,
    parts=parts,
    prepare=prepare,
    input_language=lambda suite, s: "en",  # Chinese to English
    check_lines=check_lines,
))
