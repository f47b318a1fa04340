"""The DiP family: document-level test sets mined from real WMT system outputs against their references (lexical
consistency, connectives, anaphora, coherence; Jwalapuram et al. 2020).

``run dip`` scores a new system on a mined test set (``tests`` from ``discotest mine dip``, ``input``); without
``tests`` it ranks the WMT systems of ``pair`` (what ``discotest rank dip`` runs), mining in memory first, beside a
user's translation of the pair's source (``input``) or a model's (``model``/``endpoint``: ``dip/model.py``). A model
module missing from the installation skips its phenomenon with a warning."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discotest.dip.names import ANAPHORA_MODES, CHECK_PHENOMENA, DEFAULT_ANAPHORA_MODE, PHENOMENA
from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.models.requests import Asked
from discotest.progress import quiet_scope
from discotest.registry import Family, Option, Settings, SuiteFacts, SuiteSize, register, split_list
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report
from discotest.values import int_option

TESTS = Option("tests", ("--tests",), "dip: test sets written by 'discotest mine dip'", metavar="DIR")
PRONOUN_SCORER = Option("pronoun_scorer", ("--pronoun-scorer",),
                        "dip: anaphora scorer ('offline' = 'offline-v1', 'offline-trained', or "
                        "'hf:<causal LM name or path>')", default="offline", metavar="NAME")
ANAPHORA_MODE = Option("anaphora_mode", ("--anaphora-mode",),
                       "dip: score the reference with the system's pronoun swapped in (default), or the system "
                       "sentence in its own context (the paper's Eq. 1 taken literally)", default=DEFAULT_ANAPHORA_MODE,
                       choices=ANAPHORA_MODES)
DATA = Option("data", ("--data",), "dip: WMT test set, wmt22 (default) or wmt21", default="wmt22")
PAIR = Option("pair", ("--pair",), "dip: into-English language pair to mine and rank, e.g. de-en")
REF = Option("ref", ("--ref",), "dip: reference to mine against (default A; some pairs have B)", default="A")
HOLDOUT = Option("holdout", ("--holdout",), "dip: mine without this system", metavar="SYSTEM")
SYSTEMS = Option("system", ("--systems",), "dip: use only these WMT systems (default: all of the pair)",
                 metavar="A,B,…", many=True)
MAX_DOCS = Option("max_docs", ("--max-docs",), "dip: only the first N documents (quick runs)",
                  type=int_option("max-docs"), metavar="N")
# the names of discotest.dip.coherence.MODELS (not imported: a model module may be missing from an installation)
COHERENCE_MODELS = ("egrid", "order")
COHERENCE_MODEL = Option("coherence_model", ("--coherence-model",),
                         "dip: coherence model, egrid (default: WMT21 references vs system outputs and shuffles; "
                         "partly tells human from machine text) or order (references vs their shuffles only: "
                         "sentence order alone)", default="egrid", choices=COHERENCE_MODELS)
PHENOMENA_OPTION = Option("phenomena", ("--phenomena",),
                          f"dip: comma-separated subset of {','.join(PHENOMENA)} (default: all)",
                          default=list(PHENOMENA), type=CHECK_PHENOMENA, many=True)
MINE_OPTIONS = (DATA, PAIR, REF, HOLDOUT, SYSTEMS, MAX_DOCS, PHENOMENA_OPTION, COHERENCE_MODEL, shared.USE_CACHE,
                *shared.ENGINE_OPTIONS, shared.JOBS)
# --pair with a model: it translates the pair's source (dip/model.py), ranked as a given --input file is
OPTIONS = (TESTS, shared.INPUT, PRONOUN_SCORER, ANAPHORA_MODE, *MINE_OPTIONS, shared.LIMIT, shared.BOOTSTRAP,
           *shared.TRANSLATING_MODEL, shared.DATA_DIR, shared.QUIET, shared.SKIP_LANGUAGE_CHECK)


def load_models(s: Settings, wanted: list[str], pronoun: bool, data: str | None = None,
                pair: str | None = None) -> tuple[Any, Any, list[str]]:
    """The pronoun scorer and coherence model the phenomena need, and a warning per model this installation
    lacks (its phenomenon is then skipped)."""
    from discotest.dip import run as dip

    scorer = coherence = None
    warnings = []
    with quiet_scope(s.quiet):  # 'mine dip' calls this outside the registry: its loading bars follow --quiet
        if pronoun and "anaphora" in wanted:
            try:
                scorer = dip.load_pronoun_scorer(s.pronoun_scorer, s.data_dir, data, pair, s.use_cache)
            except dip.ModelUnavailable as exc:
                warnings.append(f"anaphora not scored: {exc.one_line()}")
        if "coherence" in wanted:
            try:
                coherence = dip.load_coherence(s.data_dir, use_cache=s.use_cache,
                                               kind=s.coherence_model or "egrid")
            except dip.ModelUnavailable as exc:
                warnings.append(f"coherence skipped: {exc.one_line()}")
    return scorer, coherence, warnings


def mined_count(s: Settings) -> int:
    """How many system outputs mining parses (the progress bar's total)."""
    from discotest.dip.documents import system_paths

    names = split_list(s.system) or list(system_paths(s.data, s.pair, s.data_dir))
    return len([n for n in names if n != s.holdout])


@dataclass
class Staged:
    """A DiP run's first stage (``cpu_stage``): which run it is (``score``: --tests and --input; ``rank``: --pair),
    its stage (``dip.run.ScoreStage`` or ``RankStage``: parsed and mined, no model asked; a --model's or
    --endpoint's translator opened but asked nothing yet) and the warnings so far."""

    kind: str
    stage: Any
    warnings: list[str]


def _score_stage(s: Settings) -> Staged:
    from discotest.dip import run as dip

    if not s.input:
        raise InputError("run dip needs --tests DIR (from 'discotest mine dip') and --input FILE (your translations)")
    manifest, _ = dip.read_tests(s.tests)
    copied = None
    if "pair_lines" in manifest:  # a wrong or copied input fails before any model loads
        lines = dip.read_input(s.input, manifest["pair_lines"], f"{manifest['data']} {manifest['pair']}")
        # nothing is ranked here: a WMT system's output is scored (the docs score LT22 so), with a warning
        copied = dip.refuse_copy(s.input, lines, manifest["data"], manifest["pair"], (), s.data_dir)
    scorer, coherence, warnings = load_models(s, list(manifest.get("counts", {})), True, manifest.get("data"),
                                              manifest.get("pair"))
    warnings += [copied] if copied else []
    mined_with = manifest.get("coherence_model")
    if coherence is not None and mined_with and mined_with.split("@")[0] != coherence.signature().split("@")[0]:
        warnings.append(f"coherence items were mined with {mined_with}, scored with {coherence.signature()}")
    stage = dip.score_stage(s.tests, s.input, pronoun_scorer=scorer, coherence_model=coherence,
                            data_dir=s.data_dir, use_cache=s.use_cache, anaphora_mode=s.anaphora_mode, limit=s.limit)
    return Staged("score", stage, warnings)


def mining_pool_warning(n: int, given: str | None = None) -> str:
    """Why a ranking without --holdout is not the paper's protocol: the ranked systems chose their own test items
    (all but ``given``, the user's file, which mining left out)."""
    held = f" ({given} was not: mining left it out, as the paper scores a new system)" if given else ""
    return (f"warning: the {n} ranked systems were also the mining pool (their outputs chose the test items: the "
            f"signature's mined_from){held}; the DiP paper scores systems held out of mining: give --holdout SYSTEM "
            "to rank with that system's tests mined without it")


def _rank_stage(s: Settings) -> Staged:
    from discotest.dip import run as dip
    from discotest.dip.documents import chosen_systems, pair_paths

    wanted = s.phenomena
    engine = resolve_engine(s.engine)  # a wrong engine, pair, system or holdout fails before any model loads
    pair_paths(s.data, s.pair, s.ref, s.data_dir)
    chosen_systems(s.data, s.pair, split_list(s.system), s.holdout)
    given, copied = _given(s)  # and a wrong --input file
    model = _model(s)  # and a missing model, or a server that does not answer (it is asked which model it serves)
    scorer, coherence, warnings = load_models(s, wanted, True, s.data, s.pair)
    warnings += copied
    stage = dip.rank_stage(s.data, s.pair, ref=s.ref, holdout=s.holdout, systems=split_list(s.system),
                           max_docs=s.max_docs, phenomena=wanted, pronoun_scorer=scorer, coherence_model=coherence,
                           data_dir=s.data_dir, n_bootstrap=s.bootstrap, use_cache=s.use_cache,
                           anaphora_mode=s.anaphora_mode, engine=engine, ray_address=s.ray_address, jobs=s.jobs,
                           limit=s.limit, given=given, model=model)  # its stages: parsing, mining
    return Staged("rank", stage, warnings)


def _ranked(s: Settings, staged: Staged, ranking: Any) -> Report:
    """The Report of a ranking, with the warnings of a ranking by its mining pool and of a model's partial output."""
    from discotest.dip.result import render_rank_table

    warnings, model = list(staged.warnings), staged.stage.model
    own = [*staged.stage.given, *([model.name] if model else [])]
    if not s.holdout and ranking.results:
        warnings = [*warnings, mining_pool_warning(len(ranking.results) - len(own), ", ".join(own) or None)]
    if model is not None and s.limit and ranking.results:
        warnings.append(f"{model.name}: with --limit only the sampled items' documents were translated: no BLEU")
    return Report(f"discotest · DiP ranking {s.data} {s.pair}", ranking.results, aggregates=ranking.to_json(),
                  text=lambda _results: render_rank_table(ranking), warnings=warnings,
                  summary_rows=ranking.summary_rows(), charts=ranking.charts())


def _given(s: Settings) -> tuple[dict[str, list[str]], list[str]]:
    """``--pair --input FILE``: the user's translation of the pair's source, read and checked (``given_outputs``,
    ``refuse_copy`` against the ranked systems), and the warning of a copy of a WMT system the run does not rank."""
    from discotest.dip import run as dip
    from discotest.dip.documents import load_pair

    if not s.input:
        return {}, []
    pair = load_pair(s.data, s.pair, s.ref, s.data_dir, systems=split_list(s.system))
    given = dip.given_outputs([s.input], pair)
    copied = [dip.refuse_copy(path, lines, s.data, s.pair, list(pair.systems), s.data_dir)
              for path, lines in zip([s.input], given.values())]
    return given, [w for w in copied if w]


def check_lines(suite: str, s: Settings, path: str) -> str | None:
    """``--input``'s lines against their own source lines (``dip.run.misaligned_given``: judged against the pair's
    WMT system outputs, those of --systems when given), before any work: the pair of --tests' manifest, or --pair."""
    from discotest.dip import run as dip
    from discotest.dip.documents import load_pair

    if s.tests:
        manifest, _ = dip.read_tests(s.tests)
        data, pair, ref, systems = manifest.get("data"), manifest.get("pair"), manifest.get("ref", "A"), None
    else:
        data, pair, ref, systems = s.data, s.pair, s.ref, split_list(s.system)
    if not data or not pair or s.model or s.endpoint:
        return None  # the run says what is missing or refuses the mix, in its own words
    loaded = load_pair(data, pair, ref, s.data_dir, systems=systems)
    dip.misaligned_given(path, dip.read_input(path, loaded.n_lines, f"{data} {pair}"), loaded)
    return None  # a copy of a reference is refused by the run (``refuse_copy``), checked or not


def _model(s: Settings) -> Any:
    """``--pair --model PATH`` / ``--endpoint URL``: the translator (``models.door``) and ``--context`` it is asked with
    (``dip.model.ModelSystem``), or None."""
    if not (s.model or s.endpoint):
        return None
    from discotest.dip.documents import check_pair
    from discotest.dip.model import ModelSystem
    from discotest.models.door import open_translator

    src = check_pair(s.data, s.pair)[0]
    from discotest.models.spec import ModelSpec

    spec = ModelSpec.from_settings(s)
    # the translator itself takes no context: ``ModelSystem`` asks it with each sentence's own (``--context``)
    translator = open_translator(ModelSpec.from_settings(s, context=()), "en", src_lang=src)
    return ModelSystem(translator, spec.translating_context)


def cpu_stage(suite: str, s: Settings) -> Staged:
    """The first stage, no model asked: a mined test set and the user's file read and parsed (--tests), or the pair
    parsed and mined (--pair; a --model or --endpoint is opened before, so that a missing one fails at once)."""
    if (s.model or s.endpoint) and (s.tests or s.input):
        raise InputError("run dip --model translates the pair's source itself: give it with --pair, without --tests "
                         "or --input")
    if s.tests:
        return _score_stage(s)
    if s.pair:
        return _rank_stage(s)
    raise InputError("run dip needs --tests DIR and --input FILE (score your system on a mined test set), or --pair "
                     "(rank the WMT systems of that pair; with --input FILE, your translation of its source among "
                     "them)")


def requests(suite: str, s: Settings, staged: Staged) -> Asked:
    """What the run asks models, in order (``dip.run.score_requests``/``rank_requests``): a --model's or
    --endpoint's translations of the pair's source (only the sampled items' documents with --limit), and an ``hf:``
    pronoun scorer's calls."""
    from discotest.dip import run as dip

    if staged.kind == "score":
        asks, labels = dip.score_requests(staged.stage)
    else:
        asks, labels = dip.rank_requests(staged.stage)
    return Asked(tuple(asks), (staged, labels))


def score(suite: str, s: Settings, asked: Asked, answers: list[list[Any]]) -> Report:
    """The Report from the answers: the system scored (--tests), or every system scored and ranked (--pair)."""
    from discotest.dip import run as dip
    from discotest.dip.result import render_score_table

    staged, labels = asked.state
    if staged.kind == "score":
        result = dip.score_scored(staged.stage, labels, answers)
        return Report(f"discotest · DiP {result.system}", [result], text=render_score_table,
                      warnings=staged.warnings)
    return _ranked(s, staged, dip.rank_scored(staged.stage, labels, answers))


def run(suite: str, s: Settings) -> Report:
    """The three in one go (``compare`` runs each file so)."""
    from discotest.models.requests import answer_all

    asked = requests(suite, s, cpu_stage(suite, s))
    return score(suite, s, asked, answer_all(asked.asks))


def compare(suite: str, s: Settings) -> Report:
    if not s.tests or s.system:
        raise InputError("compare dip needs --tests DIR and two translation files (--input A --input B)")
    return compare_systems(suite, s, run)


def mine_sets(s: Settings, output: str | Path) -> tuple[dict, list[str]]:
    """``discotest mine dip``: mine the test sets of one pair into ``output``; the manifest and the warnings
    (a coherence model's shortcomings). A wrong engine or pair fails before any model loads."""
    from discotest.dip.documents import chosen_systems, pair_paths
    from discotest.dip.run import mine
    from discotest.progress import progress_bar

    wanted = s.phenomena
    engine = resolve_engine(s.engine)
    pair_paths(s.data, s.pair, s.ref, s.data_dir)
    chosen_systems(s.data, s.pair, split_list(s.system), s.holdout)
    _, coherence, warnings = load_models(s, wanted, pronoun=False)
    with progress_bar("parsed system outputs", "system", total=mined_count(s), quiet=s.quiet) as bar:
        manifest = mine(s.data, s.pair, output, ref=s.ref, holdout=s.holdout,
                        systems=split_list(s.system) if s.system else None, max_docs=s.max_docs,
                        phenomena=wanted, coherence_model=coherence, data_dir=s.data_dir,
                        use_cache=s.use_cache, progress=bar.update, engine=engine,
                        ray_address=s.ray_address, jobs=s.jobs)
    return manifest, warnings


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    """The WMT pairs DiP mines from, and their licences."""
    from discotest.data import catalogue

    sources = [s for s in catalogue.SOURCES.values() if s.kind == "corpus"]
    xx = sorted({s.lang for s in sources if s.lang and s.lang != "en"})
    licences = sorted({catalogue.licence(s) for s in sources})
    size = SuiteSize(None, "", "mined from WMT21/22 outputs (`discotest mine dip`)")
    return SuiteFacts(size, ",".join(xx) + "→en", "; ".join(licences))


FAMILY = register(Family(
    name="dip",
    title="dip",
    suites=lambda: {"dip": ["test sets mined from the WMT21/22 X-en system outputs (mine dip, rank dip)"]},
    options=OPTIONS,
    run=run,
    cpu_stage=cpu_stage,
    requests=requests,
    score=score,
    compare=compare,
    compare_options=(shared.COMPARE_INPUTS, shared.BOOTSTRAP, shared.SEED),
    doc="document-level phenomena mined from WMT system outputs: lexical consistency, connectives, anaphora and "
        "coherence, with system rankings and paired bootstrap tests (Jwalapuram et al. 2020)",
    describe=describe,
    input_language=lambda suite, s: "en",  # every pair is into English
    check_lines=check_lines,
    local_jobs=False,  # --jobs: the CPUs of a local Ray only (run.py's _engine)
    answers_suffice=False,  # the score phase asks the pronoun scorer about a model's own translations (rank_scored)
))
