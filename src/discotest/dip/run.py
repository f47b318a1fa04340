"""The DiP benchmark end to end: ``mine`` test sets, ``score`` a new system, ``rank`` WMT systems.

The dip family (``dip/family.py``) and the ``mine``/``rank`` commands are thin layers over these. Models are
parameters so tests (and users) can pass their own; the default ones are loaded by ``load_pronoun_scorer`` /
``load_coherence``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discotest.atomic import write_text_atomic
from discotest.data import catalogue
from discotest.data.readers import check_type, json_objects, read_json, read_lines, require, system_name
from discotest.dip.connectives import DETECTOR_VERSION
from discotest.dip.documents import DATASETS, PairData, check_pair, load_pair
from discotest.dip.mine import CoherenceModel, Parses, Progress, mine_all, parse_lines
from discotest.dip.model import ModelSystem, document_lines
from discotest.dip.names import ANAPHORA_MODES, CHECK_PHENOMENA, DEFAULT_ANAPHORA_MODE, PHENOMENA
from discotest.dip.parse import pipeline_version
from discotest.dip.rank import bleu_scores, rank_phenomenon
from discotest.dip.result import DipRanking, DipResult, DipTexts
from discotest.dip.score import (
    ModelPronounScorer,
    PhenomenonScore,
    PronounScorer,
    Scorers,
    pronoun_call,
    reference_pronoun_call,
    score_system,
)
from discotest.dip.shards import parse_texts
from discotest.engine import RayEngine, ray_engine, resolve_engine
from discotest.errors import InputError, did_you_mean
from discotest.lang.correspondence import REFERENCE_COPY, identical_share
from discotest.models.requests import Ask, answer_all
from discotest.progress import progress_bar
from discotest.report.result import Signature, build_signature
from discotest.stats import DEFAULT_SEED, stratified_sample
from discotest.values import check_int
from discotest.version import VERSION

MANIFEST = "manifest.json"


class ModelUnavailable(InputError):
    """The other DiP model module is not part of this installation: callers may skip its phenomenon."""


def load_pronoun_scorer(name: str = "offline", data_dir: str | Path | None = None, data: str | None = None,
                        pair: str | None = None, use_cache: bool = True) -> PronounScorer:
    """The pronoun scorer ``name``; the offline one never trains on the pair being scored (``data``/``pair``):
    its reference would otherwise be in the n-gram model's training text and win by memory. ``use_cache`` (a run's
    ``--no-cache``): an ``hf:`` scorer's log-probabilities computed again, an offline one trained again; neither
    changes a score (the cache holds what they compute), so neither is in the signature."""
    try:
        from discotest.dip.pronoun_factory import OFFLINE_NAMES, make_pronoun_scorer
    except ImportError:
        raise ModelUnavailable("the DiP pronoun scorer is not in this installation (discotest.dip.pronoun_scorer)"
                               ) from None
    exclude = (f"{DATASETS[data][1]}.{pair}.",) if data in DATASETS and pair else ()
    with progress_bar(f"DiP: loading the pronoun scorer ({name})", total=1) as bar:
        offline = dict(data_dir=data_dir, exclude=exclude) if name in OFFLINE_NAMES else {}
        scorer = make_pronoun_scorer(name, use_cache=use_cache, **offline)
        bar.update(1)
    return scorer


def load_coherence(data_dir: str | Path | None = None, use_cache: bool = True, kind: str = "egrid") -> CoherenceModel:
    """The coherence model ``kind`` (``discotest.dip.coherence.MODELS``), trained once and cached."""
    try:
        from discotest.dip.coherence import load_coherence_model
    except ImportError:
        raise ModelUnavailable("the DiP coherence model is not in this installation (discotest.dip.coherence)"
                               ) from None
    with progress_bar(f"DiP: loading the {kind} coherence model (trained once, minutes, then cached)", total=1) as bar:
        model = load_coherence_model(data_dir=data_dir, use_cache=use_cache, kind=kind)
        bar.update(1)
    return model


def _mode(anaphora_mode: str) -> str:
    if anaphora_mode not in ANAPHORA_MODES:
        raise InputError(f"unknown anaphora mode {anaphora_mode!r} (known: {', '.join(ANAPHORA_MODES)})")
    return anaphora_mode


def _mined_systems(pair: PairData, holdout: str | None) -> list[str]:
    if holdout is not None and holdout not in pair.systems:
        raise InputError(f"--holdout {holdout!r} is not a system of {pair.data} {pair.pair}"
                         f"{did_you_mean(holdout, pair.systems)} "
                         f"(systems: {', '.join(pair.systems)})")
    return [s for s in pair.systems if s != holdout]


def _lines_of(pair: PairData) -> list[int]:
    return [i for doc in pair.documents for i in doc.lines]


def mine_tests(pair: PairData, holdout: str | None = None, phenomena: Sequence[str] = PHENOMENA,
               coherence_model: CoherenceModel | None = None, use_cache: bool = True,
               progress: Progress = None, engine: RayEngine | None = None,
               parses: tuple[Parses, dict[str, Parses]] | None = None) -> tuple[dict[str, list[dict]], dict]:
    """Mine in memory: the items per phenomenon and the manifest describing them (``engine``, ``parses``: see
    ``mine_all``)."""
    phenomena = CHECK_PHENOMENA.check(phenomena)
    systems = _mined_systems(pair, holdout)
    tests = mine_all(pair, systems, phenomena, coherence_model, use_cache, progress, engine, parses)
    manifest = {
        "data": pair.data, "pair": pair.pair, "ref": pair.ref_name, "holdout": holdout,
        "systems_mined": systems, "documents": len(pair.documents), "lines": len(_lines_of(pair)),
        "pair_lines": pair.n_lines,
        "counts": {p: len(items) for p, items in tests.items()},
        "skipped": [p for p in phenomena if p not in tests],
        "parser": pipeline_version(),
        "connectives_detector": DETECTOR_VERSION if "connectives" in tests else None,
        "coherence_model": coherence_model.signature() if coherence_model is not None and "coherence" in tests
        else None,
        "discotest": VERSION,
    }
    return tests, manifest


def _engine(engine: str, address: str | None, jobs: int | None) -> RayEngine | None:
    """The RayEngine the shard tasks run on (``engine="ray"``), else None: here, in this process. ``jobs`` (CPUs of a
    local Ray) means nothing to the local engine, which parses in this process."""
    engine = resolve_engine(engine)
    if jobs is not None:
        check_int(jobs, "jobs")
        if engine != "ray":
            raise InputError("--jobs applies to dip with --engine ray only (the CPUs of its local Ray)")
    return ray_engine(address, jobs) if engine == "ray" else None


def mine(data: str, pair: str, out_dir: str | Path, ref: str = "A", holdout: str | None = None,
         systems: Sequence[str] | None = None, max_docs: int | None = None, phenomena: Sequence[str] = PHENOMENA,
         coherence_model: CoherenceModel | None = None, data_dir: str | Path | None = None,
         use_cache: bool = True, progress: Progress = None, engine: str = "local", ray_address: str | None = None,
         jobs: int | None = None) -> dict:
    """Mine test sets into ``out_dir``: one JSONL per phenomenon plus ``manifest.json``; returns the manifest.
    ``engine="ray"`` parses and scores coherence shard by shard as Ray tasks (the same files)."""
    if Path(out_dir).exists() and not Path(out_dir).is_dir():
        raise InputError("exists and is not a folder (mine writes a folder of JSONL files)", out_dir)
    ray = _engine(engine, ray_address, jobs)
    loaded = load_pair(data, pair, ref, data_dir, systems=systems, max_docs=max_docs)
    tests, manifest = mine_tests(loaded, holdout, phenomena, coherence_model, use_cache, progress, ray)
    out = Path(out_dir)
    for phenomenon, items in tests.items():
        write_text_atomic(out / f"{phenomenon}.jsonl", "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items))
    write_text_atomic(out / MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    return manifest


# fields every mined item of a phenomenon needs (beyond "id" and "sentences"), with their JSON types
ITEM_FIELDS: dict[str, dict[str, type]] = {
    "lexical": {"lemma": str, "ref_count": int},
    "connectives": {"token": int, "connective": str, "sense": str},
    "anaphora": {"token": int, "pronoun": str},
    "coherence": {},
}


def _check_item(item: dict, phenomenon: str, file: Path, line: int, n_lines: int | None) -> dict:
    """A mined item has the fields its scorer reads, of the right types, and line numbers inside the pair."""
    require(item, "id", str, file, line)
    sentences = require(item, "sentences", list, file, line)
    if not sentences:
        raise InputError("field 'sentences' is empty", file, line)
    for i in sentences:
        check_type(i, int, "field 'sentences'", file, line)
        if i < 0 or (n_lines is not None and i >= n_lines):
            raise InputError(f"sentence {i} is outside the pair's {n_lines} lines", file, line)
    for key, kind in ITEM_FIELDS[phenomenon].items():
        if require(item, key, kind, file, line) is not None and kind is int and item[key] < 0:
            raise InputError(f"field {key!r} must be 0 or more, not {item[key]}", file, line)
    return item


def read_tests(tests_dir: str | Path) -> tuple[dict, dict[str, list[dict]]]:
    """The manifest and the items of a folder written by ``mine``; a hand-edited or damaged one is an InputError
    naming the file and line (its phenomena must be known names, so no path in it leaves the folder)."""
    folder = Path(tests_dir)
    path = folder / MANIFEST
    if not path.is_file():
        raise InputError(f"no {MANIFEST} here: not a test set made by 'discotest mine dip'", folder)
    manifest = check_type(read_json(path), dict, "the manifest", path)
    for key in ("data", "pair", "ref"):
        require(manifest, key, str, path)
    try:  # its names are the manifest's, not the command line's: say where they come from
        check_pair(manifest["data"], manifest["pair"])
    except InputError as exc:
        detail = exc.detail.replace("unknown --data", "unknown 'data'").replace("--pair must", "'pair' must")
        raise InputError(f"{detail} (read from the manifest, not the command line)", path) from None
    counts = require(manifest, "counts", dict, path, default={})
    n_lines = require(manifest, "pair_lines", int, path, default=None)
    if n_lines is not None and n_lines < 1:
        raise InputError(f"field 'pair_lines' must be 1 or more, not {n_lines}", path)
    tests: dict[str, list[dict]] = {}
    for phenomenon in counts:
        if phenomenon not in ITEM_FIELDS:
            raise InputError(f"unknown phenomenon {phenomenon[:40]!r} in 'counts' (known: {', '.join(PHENOMENA)})",
                             path)
        file = folder / f"{phenomenon}.jsonl"
        tests[phenomenon] = [_check_item(item, phenomenon, file, n, n_lines) for n, item in json_objects(file)]
    return manifest, tests


def _check_tokens(tests: dict[str, list[dict]], ref: Parses, where: Path) -> None:
    """Token positions of the items point into the reference sentence they name (a test set mined with another
    parser, or edited by hand, would otherwise fail deep inside scoring)."""
    for phenomenon, items in tests.items():
        for item in items:
            if "token" in item:
                line = item["sentences"][-1] if phenomenon == "anaphora" else item["sentences"][0]
                if item["token"] >= len(ref[line]):
                    raise InputError(f"{phenomenon} item {item['id']}: token {item['token']} is outside the "
                                     f"{len(ref[line])} tokens of reference line {line}", where)


def read_input(path: str | Path, n_lines: int, what: str) -> list[str]:
    lines = read_lines(path)
    if len(lines) != n_lines:
        raise InputError(f"{len(lines)} lines, but {what} has {n_lines} "
                         "(one translation per source line, empty lines included)", path)
    return lines


def sampled_tests(tests: dict[str, list[dict]], limit: int | None) -> dict[str, list[dict]]:
    """``--limit``: a deterministic sample of ``limit`` mined items over all phenomena, stratified by phenomenon (each
    gets its share, at least one where N allows), the same on every run; every phenomenon's items without a limit.
    An item keeps its sentence lines, and the scorers read their context from the whole document's parses, so the
    document context of a sampled item is the one the whole test set gives it."""
    if not limit:
        return tests
    flat = [(phenomenon, item) for phenomenon, items in tests.items() for item in items]
    chosen = stratified_sample([(p, item["id"]) for p, item in flat], [p for p, _ in flat], limit)
    return {phenomenon: [flat[i][1] for i in chosen if flat[i][0] == phenomenon] for phenomenon in tests}


def _signature(manifest: dict, system: str, scorers: Scorers, tests: dict[str, list[dict]],
               files: tuple[str, str] = ("files", "none"), bootstrap: str | None = None,
               model: Sequence[tuple[str, str]] = ()) -> Signature:
    """What the mined items and their scores depend on; ``bootstrap`` (resamples and seed) when p-values are shown;
    ``model``: the fields of the model that translated the system (``ModelSystem.fields``)."""
    scope = [("ref", manifest["ref"]), ("docs", str(manifest.get("documents"))),
             ("mined_from", str(len(manifest.get("systems_mined") or []))), ("parser", str(manifest.get("parser")))]
    if manifest.get("holdout"):
        scope.append(("holdout", manifest["holdout"]))
    settings = []
    if scorers.pronoun is not None and "anaphora" in tests:
        settings.append(("pronoun", f"{scorers.pronoun.signature()}+{scorers.anaphora_mode}"))
    if scorers.coherence is not None and "coherence" in tests:
        settings.append(("coherence", scorers.coherence.signature()))
    if "connectives" in tests:  # test sets from before the detector had a version: "connectives-v1"
        settings.append(("connectives", str(manifest.get("connectives_detector") or "connectives-v1")))
    settings.append(("items", ",".join(f"{p}={len(items)}" for p, items in tests.items())))
    if bootstrap:
        settings.append(("bootstrap", bootstrap))
    settings.append(("mined_by", str(manifest.get("discotest"))))
    settings.extend(model)
    n = sum(len(items) for items in tests.values())
    return build_signature("dip", manifest["data"], system, n, lang=manifest["pair"], scope=scope, settings=settings,
                           files=files)


def pronoun_asks(scorers: Scorers, tests: dict[str, list[dict]], reference: Sequence[str], ref: Parses,
                 systems: dict[str, tuple[Sequence[str], Parses]]) -> tuple[list[Ask], list[str]]:
    """What the anaphora items ask a pronoun scorer that asks a model (``ModelPronounScorer``), one ``Ask`` per call
    the scoring would make, in its order: the reference's (label ``""``), then each of ``systems`` (name: its lines
    and parses) whose pronouns differ somewhere (label: its name); none for another scorer or without anaphora."""
    scorer = scorers.pronoun
    if not isinstance(scorer, ModelPronounScorer) or "anaphora" not in tests:
        return [], []
    items = tests["anaphora"]
    asks, labels = [scorer.ask(*reference_pronoun_call(items, reference), what="DiP: scoring reference pronouns")], [""]
    for name, (lines, parses) in systems.items():
        call = pronoun_call(items, lines, ref, parses, scorers.anaphora_mode, reference)
        if call.todo:
            asks.append(scorer.ask(call.contexts, call.sentences, what=f"DiP: scoring {name}'s pronouns"))
            labels.append(name)
    return asks, labels


def read_pronoun_answers(scorers: Scorers, labels: Sequence[str], answers: Sequence[list[Any]]) -> None:
    """The answers of ``pronoun_asks`` into ``scorers``: the reference's scores, and each system's (``answered``)."""
    if not labels:
        return
    assert isinstance(scorers.pronoun, ModelPronounScorer)  # pronoun_asks stated them
    for label, given in zip(labels, answers, strict=True):
        if label:
            scorers.answered[label] = scorers.pronoun.read(given)
        else:
            scorers.ref_pronoun = scorers.pronoun.read(given)


@dataclass
class ScoreStage:
    """``score``'s CPU stage (no model asked): the mined items (sampled), the pair, the system's lines, the parses of
    the sampled items' lines on both sides, and the data files read."""

    tests_dir: Path
    manifest: dict
    tests: dict[str, list[dict]]
    pair: PairData
    lines: list[str]
    name: str
    ref: Parses
    sys: Parses
    scorers: Scorers
    files: dict
    limit: int | None


def score_stage(tests_dir: str | Path, input_path: str | Path, pronoun_scorer: PronounScorer | None = None,
                coherence_model: CoherenceModel | None = None, data_dir: str | Path | None = None,
                use_cache: bool = True, anaphora_mode: str = DEFAULT_ANAPHORA_MODE,
                limit: int | None = None) -> ScoreStage:
    """``score``'s first stage: the test set and the file read and checked, the sampled items' lines parsed."""
    manifest, tests = read_tests(tests_dir)
    tests = sampled_tests(tests, limit)
    mined_with = manifest.get("connectives_detector") or "connectives-v1"
    if tests.get("connectives") and mined_with != DETECTOR_VERSION:
        # scoring re-detects the reference's connectives: items from other rules would not be found again
        raise InputError(f"connective items mined with detector {mined_with}, this discotest has {DETECTOR_VERSION}: "
                         "mine the test set again", Path(tests_dir) / MANIFEST)
    with catalogue.tracking() as files:
        pair = load_pair(manifest["data"], manifest["pair"], manifest["ref"], data_dir, systems=[])
    lines = read_input(input_path, pair.n_lines, f"{pair.data} {pair.pair}")
    wanted = sorted({i for items in tests.values() for item in items for i in item["sentences"]})
    if wanted and wanted[-1] >= pair.n_lines:
        raise InputError(f"the test set names line {wanted[-1]}, but {pair.data} {pair.pair} has {pair.n_lines}",
                         Path(tests_dir) / MANIFEST)
    name = system_name(input_path)
    with progress_bar(f"DiP: parsing {len(wanted)} lines of the reference and {name}", "text", total=2) as bar:
        ref = parse_lines(pair.reference, wanted, pair.documents, use_cache)
        bar.update(1)
        _check_tokens(tests, ref, Path(tests_dir))
        sys = parse_lines(lines, wanted, pair.documents, use_cache)
        bar.update(1)
    scorers = Scorers(pronoun_scorer, coherence_model, anaphora_mode=_mode(anaphora_mode))
    return ScoreStage(Path(tests_dir), manifest, tests, pair, lines, name, ref, sys, scorers, dict(files), limit)


def score_requests(stage: ScoreStage) -> tuple[list[Ask], list[str]]:
    """What ``score`` asks a model (``pronoun_asks``: an ``hf:`` pronoun scorer's calls), and their labels."""
    return pronoun_asks(stage.scorers, stage.tests, stage.pair.reference, stage.ref,
                        {stage.name: (stage.lines, stage.sys)})


def score_scored(stage: ScoreStage, labels: Sequence[str], answers: Sequence[list[Any]]) -> DipResult:
    """``score``'s result from the answers to ``score_requests``."""
    read_pronoun_answers(stage.scorers, labels, answers)
    name, tests, pair = stage.name, stage.tests, stage.pair
    with progress_bar(f"DiP: scoring {name} per phenomenon", "phenomenon", total=len(tests)) as bar:
        scores = score_system(name, stage.lines, tests, pair.reference, stage.ref, stage.sys, stage.scorers,
                              bar.update)
    signature = _signature(stage.manifest, name, stage.scorers, tests, catalogue.data_field(stage.files))
    return DipResult(name, stage.manifest, scores, signature.with_limit(stage.limit),
                     texts=DipTexts(tests, pair.reference, stage.lines, stage.ref, stage.sys))


def score(tests_dir: str | Path, input_path: str | Path, pronoun_scorer: PronounScorer | None = None,
          coherence_model: CoherenceModel | None = None, data_dir: str | Path | None = None,
          use_cache: bool = True, anaphora_mode: str = DEFAULT_ANAPHORA_MODE, limit: int | None = None) -> DipResult:
    """Score a new system's output (one line per line of the pair's files) on a mined test set; ``limit``: on a
    sample of its items (``sampled_tests``; the file is still read and checked whole, only the sampled items'
    lines are parsed). Its stage, requests and score in one go (``score_stage``, ``score_requests``,
    ``score_scored``; the dip family runs them as its phases)."""
    stage = score_stage(tests_dir, input_path, pronoun_scorer, coherence_model, data_dir, use_cache, anaphora_mode,
                        limit)
    asks, labels = score_requests(stage)
    return score_scored(stage, labels, answer_all(asks))


# A file this close to a reference or to a WMT system's output of its pair is that text, not the user's system: a
# reference scores itself perfect, a system is ranked already under its own name. The share is of non-empty lines
# equal to the other text's line, case, punctuation and spacing aside (``lang.correspondence.identical_share``).
# Measured over every WMT21/22 X-en pair (bench/validity/dip_input_check.py): a system shares at most 7.3% of its
# lines with a reference (WMT22 ru-en Online-G), two references 9.6% (``REFERENCE_COPY``, 50%); two distinct systems
# up to 98.5% (WMT21 de-en VolcTrans-AT and Watermelon), and WMT21 ja-en's KwaiNLP and XMU are one file twice (100%:
# the one pair any threshold trips).
COPY_OF_REFERENCE = REFERENCE_COPY
COPY_OF_SYSTEM = 0.995


def refuse_copy(path: str | Path, lines: Sequence[str], data: str, pair: str, ranked: Collection[str],
                root: str | Path | None = None) -> str | None:
    """Refuse (one line naming the file) a user's file that is a copy, or nearly, of one of the pair's references
    (``COPY_OF_REFERENCE``), whichever ``--ref`` the run chose, or of the output of a WMT system in ``ranked`` (the
    systems ranked: it is there under its own name; ``COPY_OF_SYSTEM``). A copy of another WMT system's output is
    scored (a held-out system, a mined test set scored on a WMT output), with the warning returned: its scores are
    that system's, not a system of the user's own."""
    from discotest.dip.documents import reference_paths, system_paths

    for ref, other in reference_paths(data, pair, root).items():
        share = identical_share(lines, read_lines(other))
        if share >= COPY_OF_REFERENCE:
            raise InputError(f"{share:.1%} of its lines are the {data} {pair} reference {ref}'s (a copy: from "
                             f"{COPY_OF_REFERENCE:.0%} on), not a system's translation: a reference scores itself "
                             "perfect", path)
    for name, other in system_paths(data, pair, root).items():
        share = identical_share(lines, read_lines(other))
        if share < COPY_OF_SYSTEM:
            continue
        if name in ranked:
            raise InputError(f"{share:.1%} of its lines are the {data} {pair} system {name}'s (a copy: from "
                             f"{COPY_OF_SYSTEM:.1%} on), which is ranked already under its own name", path)
        return (f"warning: {system_name(path)}: {share:.1%} of its lines are the {data} {pair} system {name}'s "
                "output: its scores are that system's, not a system of your own's")
    return None


def misaligned_given(path: str | Path, lines: Sequence[str], pair: PairData) -> None:
    """Refuse a user's file whose lines do not translate their own source lines: ``lang.correspondence``, judged
    against the pair's WMT system outputs (its swap test left out: it refused a real WMT22 ja-en system's short
    lines); one line naming the file and the line."""
    from discotest.lang.correspondence import find_misalignment

    suspect = find_misalignment(lines, list(pair.systems.values()), pair.source, swaps=False)
    if suspect is not None:
        raise InputError(f"{suspect.reason} (judged against the {pair.data} {pair.pair} system outputs of "
                         f"{', '.join(pair.systems)}; --skip-language-check scores it anyway)", path,
                         suspect.position + 1)


def given_outputs(paths: Sequence[str | Path], pair: PairData) -> dict[str, list[str]]:
    """A user's own translations of the pair's source (``run dip --pair … --input FILE``) by the name they are ranked
    under, each read and checked before any parsing: one line per source line and a name no WMT system of the pair
    has. Whether its lines translate their own source lines is the registry's check before the run
    (``misaligned_given``, the family's ``check_lines``); whether it is a copy, ``refuse_copy``'s."""
    out: dict[str, list[str]] = {}
    for path in paths:
        name = system_name(path)
        if name in pair.systems or name in out:
            raise InputError(f"its name {name!r} is a {pair.data} {pair.pair} system's (or another input's): rename "
                             "the file, the ranking lists systems by name", path)
        out[name] = read_input(path, pair.n_lines, f"{pair.data} {pair.pair}")
    return out


def _parse_pair(pair: PairData, lines: list[int], use_cache: bool, engine: RayEngine | None,
                given: dict[str, list[str]] | None = None) -> tuple[Parses, dict[str, Parses]]:
    """The parses of the reference, of every system and of the ``given`` outputs, shard by shard (Ray tasks with an
    ``engine``): mining and scoring both read them (a text's parse is the same parsed alone or beside others)."""
    texts = {"": pair.reference, **pair.systems, **(given or {})}
    with progress_bar(f"DiP: parsing the reference and {len(texts) - 1} systems ({len(lines)} lines each)", "text",
                      total=len(texts)) as bar:
        parsed = parse_texts(texts, lines, pair.documents, use_cache, engine, bar.update)
    return parsed.pop(""), parsed


@dataclass
class RankStage:
    """``rank``'s CPU stage (no model asked): the pair loaded, every text parsed, the items mined and sampled, the
    data files read, and what the ranking needs besides (its scorers, bootstrap, cache, engine)."""

    loaded: PairData
    holdout: str | None
    given: dict[str, list[str]]
    lines: list[int]
    ref_parses: Parses
    parsed: dict[str, Parses]
    tests: dict[str, list[dict]]
    manifest: dict
    scorers: Scorers
    files: dict
    n_bootstrap: int
    use_cache: bool
    engine: RayEngine | None
    limit: int | None
    model: ModelSystem | None = None


def rank_stage(data: str, pair: str, ref: str = "A", holdout: str | None = None, systems: Sequence[str] | None = None,
               max_docs: int | None = None, phenomena: Sequence[str] = PHENOMENA,
               pronoun_scorer: PronounScorer | None = None, coherence_model: CoherenceModel | None = None,
               data_dir: str | Path | None = None, n_bootstrap: int = 1000, use_cache: bool = True,
               progress: Progress = None, anaphora_mode: str = DEFAULT_ANAPHORA_MODE, engine: str = "local",
               ray_address: str | None = None, jobs: int | None = None, limit: int | None = None,
               given: dict[str, list[str]] | None = None, model: ModelSystem | None = None) -> RankStage:
    """``rank``'s first stage: load the pair, parse the reference, every system and the ``given`` outputs, mine
    (without ``holdout``) and sample (``limit``); the ``model`` that will translate the pair is asked nothing yet."""
    check_int(n_bootstrap, "bootstrap")
    ray = _engine(engine, ray_address, jobs)
    with catalogue.tracking() as files:
        loaded = load_pair(data, pair, ref, data_dir, systems=systems, max_docs=max_docs)
    _mined_systems(loaded, holdout)  # a --holdout that is not a system is said before the parsing, not after
    given = dict(given or {})
    lines = _lines_of(loaded)
    if model is not None and model.name in {*loaded.systems, *given}:
        raise InputError(f"the model's result would be named {model.name!r}, a {data} {pair} system's name")
    ref_parses, parsed = _parse_pair(loaded, lines, use_cache, ray, given)
    tests, manifest = mine_tests(loaded, holdout, phenomena, coherence_model, use_cache, progress, ray,
                                 (ref_parses, parsed))
    tests = sampled_tests(tests, limit)
    scorers = Scorers(pronoun_scorer, coherence_model, anaphora_mode=_mode(anaphora_mode))
    return RankStage(loaded, holdout, given, lines, ref_parses, parsed, tests, manifest, scorers, dict(files),
                     n_bootstrap, use_cache, ray, limit, model)


def _model_lines(stage: RankStage) -> list[int]:
    """The lines a model translates: every line, or with ``limit`` the documents of the sampled items only."""
    return document_lines(stage.loaded, stage.tests) if stage.limit else stage.lines


def rank_requests(stage: RankStage) -> tuple[list[Ask], list[str]]:
    """What ``rank`` asks models, in order, and their labels: the stage's ``model``'s translations of the pair's source
    (label ``"translate"``), then an ``hf:`` pronoun scorer's calls for the reference and every WMT system and given
    output (``pronoun_asks``). The model's own pronoun scores need its translation: they are asked when it is scored
    (``rank_scored``), through the same caching wrapper (``models.answers.cached``)."""
    asks: list[Ask] = []
    labels: list[str] = []
    loaded = stage.loaded
    if stage.model is not None:
        asks.append(stage.model.ask(loaded, _model_lines(stage)))
        labels.append("translate")
    texts = {**loaded.systems, **stage.given}
    pronouns, named = pronoun_asks(stage.scorers, stage.tests, loaded.reference, stage.ref_parses,
                                   {name: (hyp, stage.parsed[name]) for name, hyp in texts.items()})
    return [*asks, *pronouns], [*labels, *named]


def rank_scored(stage: RankStage, labels: Sequence[str], answers: Sequence[list[Any]]) -> DipRanking:
    """``rank``'s ranking from the answers to ``rank_requests``: the model's translations parsed and scored as a
    given output, every system scored, ranked per phenomenon with bootstrap and BLEU."""
    loaded, tests, scorers, parsed, model = stage.loaded, stage.tests, stage.scorers, dict(stage.parsed), stage.model
    given = dict(stage.given)
    partial: set[str] = set()
    if model is not None:
        needed = _model_lines(stage)
        given[model.name] = model.output(loaded, needed, answers[labels.index("translate")])
        with progress_bar(f"DiP: parsing {model.name} ({len(needed)} lines)", "text", total=1) as bar:
            parsed.update(parse_texts({model.name: given[model.name]}, needed, loaded.documents, stage.use_cache,
                                      stage.engine, bar.update))
        partial = {model.name} if len(needed) < len(stage.lines) else set()
    read_pronoun_answers(scorers, [label for label in labels if label != "translate"],
                         [a for label, a in zip(labels, answers, strict=True) if label != "translate"])
    all_scores: dict[str, dict[str, PhenomenonScore]] = {}
    texts: dict[str, DipTexts] = {}
    scored = {**loaded.systems, **given}
    held_out = {stage.holdout, *given} - {None}
    n_bootstrap = stage.n_bootstrap
    with progress_bar("DiP: scoring systems", "system", total=len(scored)) as bar:
        for name, hyp in scored.items():
            bar.set_description(f"DiP: scoring {name}")
            sys_parses = parsed[name]
            all_scores[name] = score_system(name, hyp, tests, loaded.reference, stage.ref_parses, sys_parses, scorers)
            texts[name] = DipTexts(tests, loaded.reference, hyp, stage.ref_parses, sys_parses)
            bar.update(1)
        bar.set_description("DiP: scoring systems")
    with progress_bar(f"DiP: BLEU and ranking ({n_bootstrap} bootstrap resamples)", "ranking",
                      total=1 + len(tests)) as bar:
        bleu, bleu_signature = bleu_scores(loaded.reference, {n: h for n, h in scored.items() if n not in partial},
                                           stage.lines)
        bar.update(1)
        rankings = []
        for phenomenon in tests:
            ranked = [s[phenomenon] for s in all_scores.values() if phenomenon in s]
            if ranked:
                rankings.append(rank_phenomenon(phenomenon, ranked, bleu, held_out, n_bootstrap, DEFAULT_SEED))
            bar.update(1)
    manifest, limit = stage.manifest, stage.limit
    data_field, boot = catalogue.data_field(stage.files), f"{n_bootstrap}@seed{DEFAULT_SEED}"
    fields = {model.name: model.fields()} if model is not None else {}
    results = [DipResult(name, manifest, scores, _signature(manifest, name, scorers, tests, data_field, boot,
                                                            fields.get(name, ())).with_limit(limit),
                         bleu.get(name), name in held_out, texts[name], own=not given or name in given)
               for name, scores in all_scores.items()]
    signature = _signature(manifest, "*", scorers, tests, data_field, boot).with_limit(limit)
    return DipRanking(manifest, rankings, signature, Signature.parse(bleu_signature), n_bootstrap, results)


def rank(data: str, pair: str, ref: str = "A", holdout: str | None = None, systems: Sequence[str] | None = None,
         max_docs: int | None = None, phenomena: Sequence[str] = PHENOMENA,
         pronoun_scorer: PronounScorer | None = None, coherence_model: CoherenceModel | None = None,
         data_dir: str | Path | None = None, n_bootstrap: int = 1000, use_cache: bool = True,
         progress: Progress = None, anaphora_mode: str = DEFAULT_ANAPHORA_MODE, engine: str = "local",
         ray_address: str | None = None, jobs: int | None = None, limit: int | None = None,
         given: dict[str, list[str]] | None = None, model: ModelSystem | None = None) -> DipRanking:
    """Mine (without ``holdout``), score every system, rank per phenomenon with bootstrap and BLEU: its stage,
    requests and score in one go (``rank_stage``, ``rank_requests``, ``rank_scored``; the dip family runs them as
    its phases).

    With a holdout every system is still ranked, the held-out one flagged: it is the only one not scored on
    items built from its own errors. ``given``: a user's own translations of the pair's source by name, read and
    checked by ``given_outputs``, scored and ranked beside the WMT systems and, like a holdout, never mined from
    (flagged too): the paper's way of scoring a new system, on the same items as the WMT systems. ``engine="ray"``
    parses and scores coherence shard by shard as Ray tasks (on a local Ray with ``jobs`` CPUs, or the cluster at
    ``ray_address``): the same ranking. ``limit``: every system scored and ranked on the same sample of the mined
    items (``sampled_tests``); the mining still parses the pair whole (the items come from every system's output).
    ``model``: a model translates the pair's source (``dip.model``) once the items are mined, then its output is
    scored as a ``given`` one; with ``limit``, only the sampled items' documents (its result then has no BLEU)."""
    stage = rank_stage(data, pair, ref, holdout, systems, max_docs, phenomena, pronoun_scorer, coherence_model,
                       data_dir, n_bootstrap, use_cache, progress, anaphora_mode, engine, ray_address, jobs, limit,
                       given, model)
    asks, labels = rank_requests(stage)
    return rank_scored(stage, labels, answer_all(asks))
