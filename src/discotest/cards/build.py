"""Fill the card: each row's suite run for the system (through the family registry, as ``discotest run`` does), its
numbers with their intervals, its place among the suite's published systems, and the validity badge. A row computed
once is kept in the cache under the system's fingerprint, the row and the code, so an interrupted card resumes where it
stopped and asks nothing twice; a row that fails (bad data, a server error) says why in one line and the others go on.
"""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from discotest import cache, families
from discotest.cards import parallel
from discotest.cards.groups import CardRow, validity_badge
from discotest.cards.options import OPTIONS
from discotest.cards.rows import CardLine, FilledRow, Neighbour, Status
from discotest.cards.system import SystemSpec, Unfilled, own_suite, published_names, runs_all
from discotest.data import catalogue
from discotest.errors import InputError
from discotest.progress import progress_bar
from discotest.registry import Settings, checked_settings, run_settings, settings_for
from discotest.report.emit import Report
from discotest.report.ranking import Scored, place, value_and_interval
from discotest.report.result import PairedMetric, Result, lang_of, scope_of
from discotest.stats import DEFAULT_SEED
from discotest.timing import span, stage
from discotest.version import VERSION

ROWS = "card-rows"  # the cache namespace of computed card rows (JSON), keyed by system, row and code
TIMES = "card-times"  # measured seconds of a row's run per system kind: the dry run's estimate
FORMAT = 1  # the row JSON's layout; part of the key


@dataclass
class Card:
    """One system on every row of its pairs: what ``discotest card`` prints and ``discotest.card`` returns."""

    system: str
    kind: str
    pairs: list[str]
    rows: list[FilledRow]
    bootstrap: int = 1000
    seed: int = DEFAULT_SEED
    reports: dict[str, Report] = field(default_factory=dict, repr=False)  # row key -> the suite's own report (HTML)
    limit: int | None = None  # --limit: rows of suites that take it are a stratified sample (their signatures say so)

    def signature(self) -> str:
        fields = [("discotest", VERSION), ("card", self.system), ("kind", self.kind), ("pairs", ",".join(self.pairs)),
                  *([("limit", str(self.limit))] if self.limit else []),
                  ("bootstrap", f"{self.bootstrap}@seed{self.seed}")]
        return "|".join(f"{k}:{v}" for k, v in fields)

    def to_json(self) -> dict[str, Any]:
        """The card's JSON (docs/card.md): the system, its pairs, one object per row, the card's signature."""
        return {"card_version": FORMAT, "discotest": VERSION, "system": self.system, "kind": self.kind,
                "pairs": self.pairs, "rows": [row.to_json() for row in self.rows], "signature": self.signature()}

    def row(self, key: str) -> FilledRow:
        return next(r for r in self.rows if r.key == key)


@dataclass(frozen=True)
class CardOptions:
    """What the card's settings give every row, built once (``of``): the options of each row's run, each given
    where the row's family takes it (``run_options``: ``--limit``, the engine and the worker processes only there),
    the bootstrap and seed of the intervals and paired tests, and whether rows are kept in the cache."""

    limit: int | None = None  # --limit: a stratified sample of each row's run (of each of its results)
    bootstrap: int = 1000
    seed: int = DEFAULT_SEED
    data_dir: str | None = None
    quiet: bool = False
    use_cache: bool = True
    skip_language_check: bool = False
    engine: str | None = None  # where the heavy stages run (local or Ray, as `run --engine`)
    ray_address: str | None = None
    jobs: int | None = None

    @classmethod
    def of(cls, s: Settings) -> CardOptions:
        """From the card's checked settings (``cards.OPTIONS``)."""
        return cls(s.limit, s.bootstrap, s.seed, s.data_dir, s.quiet, s.use_cache, s.skip_language_check, s.engine,
                   s.ray_address, s.jobs)

    def for_rows(self) -> CardOptions:
        """The options the rows' runs get: quiet, the card's bar being their progress."""
        return dataclasses.replace(self, quiet=True)

    def limit_for(self, row: CardRow) -> int | None:
        """``--limit`` where the row's family takes it (a sample of its items); other rows run whole."""
        return self.limit if self.limit and _takes(row, "limit") else None

    def run_options(self, row: CardRow) -> dict[str, Any]:
        """The keywords of the row's run that the card gives (checked by its family, ``row_settings``): every run
        takes the data folder, quiet, the cache and the language check; the sample, the engine and the worker
        processes only where its family takes them, and only when given."""
        local = self.engine != "ray"  # the card's --jobs also sizes its own row workers (cards.parallel)
        where_taken = {"limit": self.limit, "engine": self.engine, "ray_address": self.ray_address,
                       "jobs": None if local and not families.family_of(row.suite).local_jobs else self.jobs}
        return {"data_dir": self.data_dir, "quiet": self.quiet, "use_cache": self.use_cache,
                "skip_language_check": self.skip_language_check,
                **{k: v for k, v in where_taken.items() if v is not None and _takes(row, k)}}


def _takes(row: CardRow, name: str) -> bool:
    return any(o.name == name for o in families.family_of(row.suite).options)


def _published_results(row: CardRow, card_options: CardOptions, exclude: str) -> list[Result]:
    """Every published system's results on the row (but ``exclude``'s), each what its run says is the system's
    (``Result.own``): one ``--system all`` run, or one run per system where the suite's family takes one name at a
    time (``runs_all``), its results under the name it was asked by."""
    names = [n for n in published_names(row) if n != exclude]
    if not names and row.published_list == "declared":
        return []
    family = families.family_of(row.suite)

    def run(name: str) -> list[Result]:
        return [r for r in run_settings(row.suite, settings_for(family, {**row.options, **card_options.run_options(row),
                                                                         "system": name})).results if r.own]

    if runs_all(row):
        return [r for r in run("all") if r.system != exclude]
    return [_named(r, name) for name in names for r in run(name)]


def _named(result: Result, name: str) -> Result:
    """A published system's result under its published name (a suite that names results by their file calls
    deepl-contexts 'deepl.auxiliary.opensubtitles.en-de.test.contexts'); its signature keeps the file's name."""
    result.system = name
    return result


def where_of(result: Result) -> str:
    """The part of the suite a result covers, as the card names it: its scope (an mZPRT domain, a subset) and, for a
    model scored at several context sizes, the size."""
    parts = [scope_of(result) or ""]
    if "@ctx" in result.system:
        parts.append("ctx" + result.system.rsplit("@ctx", 1)[1])
    return " ".join(p for p in parts if p)


def _lines(mine: Sequence[Result], others: Sequence[Result], bootstrap: int, seed: int) -> list[CardLine]:
    lines = []
    metrics_of: dict[int, list[PairedMetric]] = {}  # each peer's metrics, built once (not once per metric of mine)

    def metrics(result: Result) -> list[PairedMetric]:
        if id(result) not in metrics_of:
            metrics_of[id(result)] = result.ranked_metrics()
        return metrics_of[id(result)]

    for result in mine:
        peers = [o for o in others if (lang_of(o), scope_of(o)) == (lang_of(result), scope_of(result))]
        summary = result.summary()
        extra = summary.get("by_distance") if isinstance(summary, dict) else None
        for metric in result.ranked_metrics():
            value, ci, n = value_and_interval(metric, bootstrap, seed)
            theirs = [Scored(o.system, m) for o in peers for m in metrics(o) if m.name == metric.name]
            placed = place(Scored(result.system, metric), theirs, bootstrap, seed) if n and theirs else None
            lines.append(CardLine(
                where_of(result), lang_of(result), metric.name, metric.unit,
                "nearer 0" if metric.target is not None else "higher" if metric.higher_is_better else "lower",
                # nothing scored (a random model's output matches no gendered word): no number, no place
                float(round(value, 4)) if n else None, float(round(ci, 4)) if n else None, n,
                placed["rank"] if placed else None, placed["of"] if placed else None,
                _neighbour(placed["above"]) if placed else None, _neighbour(placed["below"]) if placed else None,
                _by_distance(extra) if metric.name == "accuracy" and extra else None))
    return lines


def _by_distance(extra: dict[Any, Any]) -> dict[str, float]:
    """Accuracy by antecedent distance, its keys in the order the card's JSON and cache keep them (sorted)."""
    return dict(sorted((str(k), round(float(v["accuracy"]), 4)) for k, v in extra.items()))


def _neighbour(placed: dict[str, Any] | None) -> Neighbour | None:
    """``report.ranking.place``'s neighbour, typed."""
    return None if placed is None else Neighbour(placed["system"], float(placed["value"]), placed["p"])


def _row_key(system: SystemSpec, row: CardRow, card_options: CardOptions) -> str:
    """A row's card-cache key: what changes its numbers or its words, or whether it is refused
    (``--skip-language-check``): the system's kind and name (a file named "mine" is ranked against bing, the same
    file named "bing" is not), its input (``SystemSpec.fingerprint``), the row and its options, the code, the data
    folder, the bootstrap and the sample. The data files the row read are checked when it is loaded (``_load_row``)."""
    from discotest.data.catalogue import data_dir

    checked = [] if not card_options.skip_language_check else ["langcheck:off"]
    return cache.content_key([str(FORMAT), cache.code_key(), f"{system.kind}:{system.name}", system.fingerprint(row),
                              json.dumps(row.spec(), sort_keys=True), f"{card_options.bootstrap}@{card_options.seed}",
                              f"limit:{card_options.limit_for(row)}",
                              f"data:{os.path.abspath(data_dir(card_options.data_dir))}", *checked])


def _data_files(seen: dict[str, Any]) -> dict[str, str]:
    """The data files a row's runs read (``catalogue.tracking``): name -> sha256, stored with the row."""
    return {name: check.sha256 for name, check in sorted(seen.items())}


def _data_unchanged(files: dict[str, str], data_dir_option: str | None) -> bool:
    """Whether every data file a cached row read still has the sha256 it had (a file changed since, or gone: the row
    is computed again). Names are the catalogue's, or paths relative to the data folder (``catalogue.FileCheck``)."""
    from discotest.data import catalogue

    base = catalogue.data_dir(data_dir_option)
    for name, sha in files.items():
        source = catalogue.SOURCES.get(name)
        if source is not None and source.bundled:
            path = Path(str(resources.files("discotest.data").joinpath("bundled", source.path)))
        else:
            path = base / (source.usable_path if source is not None else name)
        try:
            if catalogue.sha256_of(path) != sha:
                return False
        except OSError:
            return False
    return True


def _load_row(key: str, data_dir: str | None) -> FilledRow | None:
    """The cached row under ``key`` if the data files it read are unchanged, else None."""
    cached = cache.load(ROWS, key, json.loads)
    if not isinstance(cached, dict) or not _data_unchanged(cached.get("data_files") or {}, data_dir):
        return None
    return FilledRow.from_json(cached)


def same_outputs(mine: Result, other: Result) -> bool:
    """Whether two results come from the same outputs: every item's evidence (its translation or scores, verdict and
    reason) equal but for the system's name. A published system whose outputs equal the user's file is that file:
    it is not ranked against it."""
    metrics = {m.name: m.rows for m in other.ranked_metrics()}
    if any(metrics.get(m.name) != m.rows for m in mine.ranked_metrics()):
        return False

    def evidence(result: Result) -> list[dict[str, Any]]:
        # ``released_*``: a published release's own verdicts, set beside ours (mZPRT's): not its outputs' evidence
        return [{k: v for k, v in row.items() if k != "system" and not k.startswith("released_")}
                for row in result.details()]

    return evidence(mine) == evidence(other)


def _apart(mine: Sequence[Result], others: Sequence[Result], name: str) -> tuple[list[Result], list[str]]:
    """``others`` without the published systems the user's own is not ranked against, and why, one line each: those
    whose outputs equal the user's (``same_outputs``), and one published under the system's own name."""
    kept, why = [], []
    for other in others:
        if any((lang_of(m), scope_of(m)) == (lang_of(other), scope_of(other)) and same_outputs(m, other)
               for m in mine):
            why.append(f"{other.system}: its outputs equal this system's")
        elif other.system == name:
            why.append(f"{other.system}: a published system of this system's name")
        else:
            kept.append(other)
    return kept, list(dict.fromkeys(why))


def row_settings(system: SystemSpec, row: CardRow, card_options: CardOptions, **changes: Any) -> Settings:
    """The settings of the row's run, checked once by its family (``registry.settings_for``) and handed to the run
    as they are: the row's own options, what names the system (``SystemSpec.options_for``), its model's options as
    the row's run takes them (``model_options_for``: ``max_length`` by that name from the command line to the
    family's ``ModelSpec``), the card's options where the family takes them (``CardOptions.run_options``: ``limit``)
    and ``changes`` (another published system, several languages)."""
    return settings_for(families.family_of(row.suite),
                        {**row.options, **system.options_for(row), **model_options_for(system, row),
                         **card_options.run_options(row), **changes})


def model_options_for(system: SystemSpec, row: CardRow) -> dict[str, Any]:
    """A model's or an endpoint's options (``SystemSpec.model_options``: fields of the row's ``ModelSpec``, which
    every family that takes --model declares, ``registry.options.MODEL_SPEC``) as the row's run takes them: a
    contrastive row scores at each --context size (default 1) and takes no decoding option (``spec.DECODING``: a
    scored candidate is not decoded); a row the model translates takes one size, the first, and the decoding
    options. Nothing for a published system or a folder."""
    from discotest.models.spec import DECODING

    if system.kind not in ("model", "endpoint"):
        return {}
    options = system.model_options
    out = {k: v for k, v in options.items() if k not in (*DECODING, "context") and v is not None}
    if row.file == "scores":  # contrastive: candidates scored at each context size
        out["context"] = list(options.get("context") or [1])
    else:
        out.update({k: options[k] for k in DECODING if options.get(k) is not None})
        if options.get("context"):
            out["context"] = options["context"][:1]
    return out


FLAG = re.compile(r"--([a-z][a-z0-9-]*)")


def in_card_words(warning: str, row: CardRow, system: SystemSpec) -> str:
    """A row run's warning as the card says it: a flag the card does not take (``give --suite-version 2019``,
    ``give --holdout SYSTEM``) becomes what the card does take, the manifest's options of the row (``"options":
    {"en-de/winomt": {"suite_version": "2019"}} in manifest.json``), or else names the suite run's option, which
    ``discotest run`` takes; the card never tells a user to give a flag it refuses."""
    from discotest.cards.options import card_flags
    from discotest.cards.system import MANIFEST, row_options_allowed

    declared = {f: o for o in families.family_of(row.suite).options for f in o.flags}
    allowed = row_options_allowed(row) if system.kind == "outputs" else {}
    taken = card_flags()
    out, at = [], 0
    for found in FLAG.finditer(warning):
        flag = found.group(0)
        option = declared.get(flag)
        if flag in taken or option is None:
            continue
        end = found.end()
        value = None
        if option.action not in ("store_true", "store_false"):
            following = re.match(r"[ =]([^\s,;)]+)", warning[end:])
            if following:
                value, end = following.group(1), end + following.end()
        if option.name in allowed:
            said = (f'"options": {{"{row.key}": {{"{option.name}": {json.dumps(value)}}}}} in {MANIFEST}'
                    if value is not None else f'"{option.name}" in the "options" of {row.key} in {MANIFEST}')
        else:
            said = (f"`discotest run {row.suite}`'s {option.name.replace('_', '-')} option"
                    + (f" {value}" if value is not None else "") + " (the card does not take it)")
        out += [warning[at:found.start()], said]
        at = end
    return "".join(out) + warning[at:]


@dataclass
class Gathered:
    """A row's run between its two phases (``families.ask``, ``families.answered``), done before the rows are
    scored: the first phase, the answers, or the error either met (the row's failure), and the data files read."""

    phased: families.Phased | None = None
    answers: list[list[Any]] | None = None
    error: Exception | None = None
    seen: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass
class Prepared:
    """What a model's row reads that its answers do not change, done in a worker while the model answers
    (``_prepare``): the published systems' results the row is ranked among, the data files their runs read, the
    alignment models they used (key -> training seconds) and the seconds it took."""

    published: list[Result]
    seen: dict[str, Any] = field(default_factory=dict)
    models: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0


def _to_prepare(system: SystemSpec, rows: Sequence[CardRow], scored_apart: set[int]) -> list[int]:
    """The model's rows worth preparing (``_prepare``): scored in a worker (``_scored_apart``) and ranked among
    published systems (``CardRow.rank``; a suite that declares none has none to run), which ``_compute`` runs after
    the row's own run."""
    if system.kind not in ("model", "endpoint"):
        return []
    return sorted(index for index in scored_apart if rows[index].rank
                  and (rows[index].published_list != "declared" or published_names(rows[index])))


def _prepare(system: SystemSpec, row: CardRow, card_options: CardOptions) -> Prepared:
    """A model's row's answer-independent work, in a worker while the model answers its requests (``build_card``):
    the published systems' runs it is ranked among (``_published_results``, which ``_compute`` would run after its
    own run). They do what the row's own scoring would do first on a cold cache, and keep it there: the language's
    alignment model trained, the suite's English roles, the analyser's lexicon compiled."""
    from discotest.lang.align import model as align_model

    started = time.monotonic()
    with catalogue.tracking() as seen, align_model.tracking() as models:
        published = _published_results(row, card_options, exclude="")
    return Prepared(published, dict(seen), dict(models), time.monotonic() - started)


def _own_run(row: CardRow, settings: Settings, gathered: Gathered | None) -> Report:
    """The system's run of the row (``row_settings``): scored from the answers gathered before (``_gather``), or run
    whole."""
    if gathered is None:
        return run_settings(row.suite, settings)
    if gathered.error is not None:
        raise gathered.error  # the row fails as its own run would have: fill_row says why in one line
    assert gathered.phased is not None and gathered.answers is not None  # _gather sets both or the error
    return families.scored(gathered.phased, gathered.answers)


def _compute(system: SystemSpec, row: CardRow, options: dict[str, Any], card_options: CardOptions,
             gathered: Gathered | None = None,
             published: list[Result] | None = None) -> tuple[Report, list[Result], list[CardLine], list[str]]:
    """The row's run: its report, the system's results, the card's lines, and the published systems left out of the
    ranking because their outputs equal the system's (``same_outputs``). ``published``: the published systems'
    results a model's row is ranked among, already run (``_prepare``)."""
    equal: list[str] = []
    report = _own_run(row, row_settings(system, row, card_options), gathered)
    own = [r for r in report.results if r.own]  # what the run was asked for (``Result.own``), not a guess
    beside = [r for r in report.results if not r.own]  # the systems the run ranks it among itself (DiP's WMT ones)
    if system.kind == "published" and options.get("system") != system.published:
        # the card asked for every published system at once (``--system all``; DiP's run gives the pair's WMT
        # systems): the one it is filling is the one of that name, the others are its ranking
        mine = [r for r in own if r.system == system.published]
        others = [r for r in report.results if r.system != system.published]
        if not mine:
            raise Unfilled(f"{system.published} has no published output for {row.suite} ({row.pair}); it has "
                           f"{', '.join(sorted({r.system for r in report.results})) or 'none'}")
    elif system.kind == "published":
        # one run of this system alone, its results under the name it was asked by (``_named``); a published system
        # does not compete with itself
        mine = [_named(r, system.given) for r in own]
        others = _published_results(row, card_options, exclude=system.name) if row.rank else []
    elif beside:
        # the run ranks the given file or model among the published systems itself (DiP: beside the WMT systems,
        # never mined from); a published system does not compete with itself (an outputs folder named Online-B)
        mine = own
        others, equal = _apart(mine, beside, system.name)
    elif suite := own_suite(system, row):  # the user's own items: no published system translated them
        mine, others = own, []
        equal = [f"the published systems: they translated {row.suite}'s items, not your suite file "
                 f"({Path(suite).name})"]
    else:
        # the outputs folder of "google" is placed among the others, as `card --system google` places it
        mine = own
        if published is None:
            published = _published_results(row, card_options, exclude="") if row.rank else []
        others, equal = _apart(mine, published, system.name)
    with stage("ranking"):  # the intervals and the paired tests against the neighbours (DISCOTEST_TIMING)
        lines = _lines(mine, others, card_options.bootstrap, card_options.seed)
    return report, mine, lines, equal


def fill_row(system: SystemSpec, row: CardRow, card_options: CardOptions, reports: dict[str, Report] | None = None,
             shared_seconds: float = 0.0, gathered: Gathered | None = None,
             share_later: list[Callable[[float], None]] | None = None, prepared: Prepared | None = None
             ) -> FilledRow:
    """The row: status ``ok`` with its lines, ``unfilled`` (the system cannot fill it: why) or ``failed`` (the run
    failed: the error's one line; not cached, so the next run tries again). ``shared_seconds``: the row's share of a
    run over several rows' languages done before it (``_run_together``), counted in its measured time; where that
    run is still under way (the row ranked as soon as its language was in), ``share_later`` is given instead and
    takes the row's record of its time, to be called with the share once the run is over.
    ``gathered``: the row's requests already answered (``_gather``): only its score phase is left. ``prepared``:
    the published systems' runs it is ranked among, done while the model answered (``_prepare``)."""
    badge = validity_badge(row, row.options.get("lang") or row.pair.split("-")[1])

    def unfilled(why: str, status: Status = "unfilled") -> FilledRow:
        return FilledRow(row.pair, row.id, row.suite, row.phenomenon, badge, status, why)

    try:
        options = system.options_for(row)
    except Unfilled as exc:
        return unfilled(str(exc))
    key = _row_key(system, row, card_options)
    if card_options.use_cache and reports is None:
        cached = _load_row(key, card_options.data_dir)
        if cached is not None:
            return cached
    from discotest.lang.align import model as align_model

    started = (time.monotonic() - shared_seconds - (gathered.seconds if gathered else 0.0)
               - (prepared.seconds if prepared else 0.0))
    try:
        with catalogue.tracking() as seen, align_model.tracking() as models:
            seen.update(gathered.seen if gathered else {})
            seen.update(prepared.seen if prepared else {})
            models.update(prepared.models if prepared else {})
            report, mine, lines, equal = _compute(system, row, options, card_options, gathered,
                                                  prepared.published if prepared else None)
    except Unfilled as exc:
        return unfilled(str(exc))
    except InputError as exc:
        return unfilled(exc.one_line(), "failed")
    except Exception as exc:  # noqa: BLE001 - one row's failure (a server error …) must not lose the others
        return unfilled(f"{type(exc).__name__}: {exc}".splitlines()[0], "failed")
    if reports is not None:
        reports[row.key] = Report(report.title, mine, text=report.text)
    sigs = sorted({r.signature.format() for r in mine})
    filled = FilledRow(row.pair, row.id, row.suite, row.phenomenon, badge, "ok", None, tuple(lines),
                       sigs[0] if len(sigs) == 1 else tuple(sigs), mine[0].system if mine else system.name,
                       tuple([in_card_words(w, row, system) for w in report.warnings]
                             + [w for w in [system.parts_left_out(row)] if w]),
                       _data_files(seen), tuple(equal))
    cache.store(ROWS, key, json.dumps(filled.to_json(), ensure_ascii=False, sort_keys=True))
    own, given = time.monotonic() - started, _input_of(system, row, card_options)
    if share_later is None:
        _record_time(system, row, own, models, given)
    else:
        share_later.append(lambda share: _record_time(system, row, own + share, models, given))
    return filled


def _done(system: SystemSpec, row: CardRow, card_options: CardOptions) -> bool:
    """Whether the card's cache holds the row, computed for this system (``fill_row`` reads it back)."""
    return _load_row(_row_key(system, row, card_options), card_options.data_dir) is not None


def _time_key(system: SystemSpec | None, row: CardRow) -> str:
    """The key of a row's measured time for a system of this kind; without one, of the alignment models the row's
    run used (whatever the system: the same models)."""
    return cache.content_key([system.kind if system else "models", row.key, json.dumps(row.options, sort_keys=True)])


def _input_of(system: SystemSpec, row: CardRow, card_options: CardOptions) -> str:
    """What a row's run computes and the cache keeps (its verdicts, links, a model's translations), named: the same
    input again finds them there. A published system's row runs every published system (its ranking), so any
    published name is the same input."""
    given = "published" if system.kind == "published" else f"{system.kind}:{system.fingerprint(row)}"
    return cache.content_key([given, json.dumps(row.spec(), sort_keys=True), f"limit:{card_options.limit_for(row)}"])


def _record_time(system: SystemSpec, row: CardRow, seconds: float, models: dict[str, float], given: str) -> None:
    """What the row's run cost on this machine, for the next ``--dry-run``: its seconds less those spent training
    alignment models (paid once; ``models``: key -> training seconds, 0.0 for a model already trained), and the
    models, so an estimate adds a model's training only while it is not in the cache; ``given`` names its input
    (``_input_of``). A run of the same input as the last one found that run's work in the cache: its time is kept
    beside the first (``again``), which a new input still costs."""
    net = round(max(0.0, seconds - sum(models.values())), 1)
    last = _measured(system, row)
    if last is not None and last.get("input") == given:
        kept = {k: v for k, v in (last.get("models") or {}).items() if v}
        entry = {**last, "again": net, "models": {**models, **kept}}
    else:
        entry = {"seconds": net, "models": models, "input": given}
    cache.store(TIMES, _time_key(system, row), json.dumps(entry, sort_keys=True))
    if models:
        known = _measured(None, row) or {}
        # a model's training seconds where this run trained it, else those measured when it was trained before
        both = {k: v or (known.get("models") or {}).get(k, 0.0) for k, v in models.items()}
        cache.store(TIMES, _time_key(None, row), json.dumps({"models": both}, sort_keys=True))


def _measured(system: SystemSpec | None, row: CardRow) -> dict[str, Any] | None:
    """A row's recorded time (``_record_time``), or None; a bare number is one recorded before models were."""
    def parse(text: str) -> dict[str, Any]:
        value = json.loads(text)
        return {"seconds": float(value), "models": {}} if isinstance(value, int | float) else dict(value)

    return cache.load(TIMES, _time_key(system, row), parse)


COSTS = "costs.json"  # typical CPU seconds per item of each row kind and pair, measured and shipped ("about": how)


def shipped_costs() -> dict[str, Any]:
    """The package's typical costs (``cards/costs.json``): per suite, system kind and language pair, CPU seconds per
    item with the row's alignment models trained and again (its verdicts cached), and the models a first run trains
    (their training: ``lang/align/training.json``)."""
    return json.loads(resources.files("discotest.cards").joinpath(COSTS).read_text("utf-8"))


def typical_cost(row: CardRow, kind: str) -> dict[str, Any] | None:
    """The shipped figure of the row's suite for a system of ``kind`` in the row's pair: a language's alignment and
    morphology cost differently (ru/ar's morphology, he/ar's training). Where the pair was not measured, the first
    measured of the pairs ``nearest`` lists for it (languages of the same family first; costs.json's "about" says
    which); a file's row without a figure of its kind in a pair takes the pair's published one (its run scores the
    file and ranks it among the published systems: the same work and one system more), and a published system's row
    a file's. None: no figure (a model's or an endpoint's row: the model's speed is its own)."""
    shipped = shipped_costs()
    kinds = shipped["costs"].get(row.suite) or shipped["costs"].get(families.family_of(row.suite).name) or {}
    for pair in [row.pair, *shipped.get("nearest", {}).get(row.pair, [])]:
        for each in [kind] + {"outputs": ["published"], "published": ["outputs"]}.get(kind, []):
            found = (kinds.get(each) or {}).get(pair)
            if found is not None:
                return found
    return None


def estimate(system: SystemSpec, row: CardRow, items: int | None, card_options: CardOptions | None = None,
             paid: set[str] | None = None) -> tuple[float | None, str]:
    """The seconds a row's run will take here and where the figure comes from: ``measured`` (its last run for a
    system of this kind, its training left out; for the same input again, the time of a run that found the first
    one's work in the cache, or before there was one the first's time times the shipped share again/trained of its
    kind) plus the training of each model it used that is no longer in the cache; else ``typical`` (``typical_cost``
    × its items, plus the training of the models a first run of it trains where no run of the row has recorded its
    models, else of those it recorded that are gone); else None. ``paid``: "PAIR MODEL" of each model an earlier row
    of the same plan trains (a first run trains each once), added to."""
    from discotest.lang.align.model import trained, training_seconds

    def untrained(models: dict[str, float]) -> float:
        return sum(seconds for key, seconds in models.items() if not trained(key))

    history = _measured(system, row)
    used = (_measured(None, row) or {}).get("models")
    figure = typical_cost(row, system.kind)
    if history is not None:
        models = {k: v or (used or {}).get(k, 0.0) for k, v in (history.get("models") or {}).items()}
        seconds = history["seconds"]
        if history.get("input") == _input_of(system, row, card_options or CardOptions()):
            share = (figure["again"] / figure["trained"] if figure and figure.get("again") and figure["trained"]
                     else shipped_costs()["again"])
            seconds = history.get("again", seconds * share)
        return seconds + untrained(models), "measured"
    count = 1 if figure and figure.get("per") == "row" else items  # DiP's items are mined: a figure per row
    if figure is None or count is None:
        return None, "unknown"
    seconds = figure["trained"] * count
    if used is not None:
        return seconds + untrained(used), "typical"
    # a model is trained once per pair (a nearest pair's figure names that pair's models: the row's own are others)
    new = [name for name in figure.get("models", []) if f"{row.pair} {name}" not in (paid or set())]
    if paid is not None:
        paid.update(f"{row.pair} {name}" for name in new)
    return seconds + sum(training_seconds(name) or 0.0 for name in new), "typical"


def _run_together(system: SystemSpec, rows: Sequence[CardRow], card_options: CardOptions,
                  reports: dict[str, Report] | None, bar: Any = None,
                  on_ready: Callable[[list[int]], None] | None = None) -> dict[int, float]:
    """A published system's rows of one suite over several pairs (the same options but the language) run as one run
    over their languages, where the suite's family says such a run leaves each row's own run only its results to read
    from the cache (``Family.langs_together``: the gender suites, whose languages then share the worker processes): the
    8-pair Google card ran its WinoMT and WinoMT-adj rows one language after another, 4× the one ``--lang all`` run.
    Where the family makes several suites' runs at once (``Family.suites_together``), its suites' runs are one call:
    the WinoMT and WinoMT-adj runs of a language share one worker process, its interpreter and analyser started
    once, not once per suite (the rows' seconds are then the call's, shared evenly). Each row is then filled by its
    own run as before (its numbers are that run's), which finds its verdicts in the cache. Returns each such row's
    share of the run's seconds by index (its measured time, for ``--dry-run``). ``on_ready(indices)``: the rows of a
    language whose verdicts are all in the cache while the run goes on (where the family says so, its
    ``suites_together``'s second argument), so the card ranks them meanwhile (``build_card``). A run that fails leaves
    its rows to their own runs, which say why, each for itself; without the cache there is nothing to share. A model
    translates one language per run, and an outputs folder gives a file per row: both run rows."""
    if system.kind != "published" or not card_options.use_cache:
        return {}
    groups: dict[tuple[str, str, str], list[int]] = {}
    for index, row in enumerate(rows):
        if not families.family_of(row.suite).langs_together or "lang" not in row.options:
            continue
        try:
            options = system.options_for(row)
        except Unfilled:
            continue
        if reports is None and _done(system, row, card_options):
            continue
        rest = {k: v for k, v in row.options.items() if k != "lang"}
        groups.setdefault((row.suite, json.dumps(rest, sort_keys=True), json.dumps(options, sort_keys=True)),
                          []).append(index)
    runs = [(suite, indices) for (suite, _, _), indices in groups.items() if len(indices) >= 2]

    def settings(suite: str, indices: list[int]) -> Settings:
        return row_settings(system, rows[indices[0]], card_options, lang=[rows[i].options["lang"] for i in indices])

    # a family that makes several suites' runs at once (``Family.suites_together``: the gender suites, a worker per
    # language runs every suite's, its analyser loaded once) is given all of its runs in one call
    by_family: dict[str, list[tuple[str, list[int]]]] = {}
    for suite, indices in runs:
        by_family.setdefault(families.family_of(suite).name, []).append((suite, indices))
    calls: list[tuple[str, Callable[[], Any], list[int]]] = []
    for members in by_family.values():
        together = families.family_of(members[0][0]).suites_together
        if together is not None and len(members) > 1:
            indices = [i for _, each in members for i in each]

            def ready(lang: str, indices: list[int] = indices) -> None:
                if on_ready is not None:
                    on_ready([i for i in indices if rows[i].options["lang"] == lang])

            calls.append((",".join(suite for suite, _ in members),
                          lambda members=members, together=together, ready=ready: together(
                              [(suite, settings(suite, indices)) for suite, indices in members], ready),
                          indices))
            continue
        calls += [(suite, lambda suite=suite, indices=indices: run_settings(suite, settings(suite, indices)), indices)
                  for suite, indices in members]
    shares: dict[int, float] = {}
    for what, call, indices in calls:
        if bar is not None:
            langs = dict.fromkeys(rows[i].options["lang"] for i in indices)
            bar.set_description(f"card: {what} {','.join(langs)} (one run)")
        started = time.monotonic()
        try:
            with span(f"together {what}"):
                call()
        except Exception:  # noqa: BLE001, S112 - each row's own run meets it and says why in its row
            continue
        share = (time.monotonic() - started) / len(indices)
        shares.update({i: share for i in indices})
    return shares


def system_of(s: Settings) -> SystemSpec:
    """The one system the card's checked settings name (two, or none, is an error), with its model's options, taken
    by their declarations (``cards.options.MODEL_OPTIONS``), where it is a model or an endpoint."""
    from discotest.cards.options import MODEL_OPTIONS
    from discotest.cards.system import endpoint_system, read_manifest

    given = [k for k, v in (("system", s.system), ("outputs", s.outputs), ("endpoint", s.endpoint)) if v]
    if s.model and not s.endpoint:
        given.append("model")
    if len(given) != 1:
        raise InputError("card: name one system: --system NAME, --outputs DIR, --model PATH or --endpoint URL "
                         f"(given: {', '.join('--' + g for g in given) or 'none'})")
    model_options = {o.name: s[o.name] for o in MODEL_OPTIONS if s[o.name] not in (None, [])}  # by declaration
    kind = given[0]
    if kind == "system":
        return SystemSpec("published", published=s.system)
    if kind == "outputs":
        if s.init:
            return SystemSpec("outputs", folder=str(s.outputs))
        name, files, row_options = read_manifest(s.outputs)
        return SystemSpec("outputs", folder=str(s.outputs), files=files, label=name, row_options=row_options)
    if kind == "model":
        return SystemSpec("model", path=str(s.model), model_options=model_options)
    return endpoint_system(s.endpoint, s.model, model_options)


def resolve(s: Settings) -> tuple[SystemSpec, list[str], list[CardRow]]:
    """The system, its pairs and the card's rows from the card's checked settings (``cards.card_settings``), the
    card-wide ones checked before any row runs (``checks.check_system``)."""
    from discotest.cards.checks import check_system
    from discotest.cards.groups import known_pairs, rows_of
    from discotest.cards.system import published_pairs
    from discotest.registry import split_list

    system = system_of(s)
    pairs = split_list(s.pairs, "--pairs")
    if pairs == "all":
        pairs = known_pairs()
    twice = next((p for p in pairs or [] if list(pairs).count(p) > 1), None)
    if twice:
        raise InputError(f"--pairs: {twice} is named twice")
    check_system(system, s)
    if not pairs:
        pairs = system.pairs() or (published_pairs(system.given) if system.kind == "published" else [])
    if not pairs:
        raise InputError(f"card: give --pairs (e.g. en-de,ja-en,zh-en): {system.name} covers no pair discotest can "
                         "tell by itself" if system.kind != "published" else
                         f"card: no suite has published outputs of {system.published!r}; `discotest suites` lists them")
    suites = split_list(s.suites, "--suites")
    return system, list(pairs), rows_of(list(pairs), None if suites == "all" else suites)


def make_card(keep_reports: bool = False, **options: Any) -> Card:
    """The card from the card's options (``cards.OPTIONS``, the command's names; ``discotest card`` and
    ``discotest.card`` both come here): checked once, the system and its rows resolved (``resolve``), every row's
    run given the card's ``CardOptions`` and the system's model options (``row_settings``). ``keep_reports``: also
    each row's own Report (the HTML card's pages; rows are then run, not read from the cache)."""
    s = checked_settings(OPTIONS, options, "card")
    system, pairs, rows = resolve(s)
    return build_card(system, rows, pairs, CardOptions.of(s), keep_reports)


def build_card(system: SystemSpec, rows: Sequence[CardRow], pairs: Sequence[str], card_options: CardOptions,
               keep_reports: bool = False,
               on_row: Callable[[FilledRow], None] | None = None) -> Card:
    """Every row in order, under one bar (its description names the suite being run). A model's or an endpoint's
    rows are asked before they are scored: each run of rows whose families run in two phases has all its requests
    stated and sent, in row order, before the first of them is scored (``_gather``); a row of a family with one phase
    runs whole in its place, so the model is asked everything in row order. Rows whose score phase reads only their
    answers are scored in the worker processes (``cards.parallel``) as soon as their answers are in, while the model
    answers the next rows (``_scored_apart``); what such a row's score phase needs that its answers do not change
    starts in a worker before the first request is sent (``_prepare``). For a published system, a suite's rows of
    several pairs run first as one run over their languages (``_run_together``), then each row in a worker
    (``_to_workers``)."""
    reports: dict[str, Report] | None = {} if keep_reports else None
    out = []
    quiet = card_options.for_rows()
    with progress_bar("card", unit="suite", total=len(rows), quiet=card_options.quiet) as bar:
        together, early = _together_and_ranked(system, rows, quiet, reports, bar, card_options.jobs)
        asking = _asking(system, rows, quiet, reports)
        gathered: dict[int, Gathered] = {}
        apart = [index for index in _to_workers(system, rows, quiet, reports) if index not in early]
        answered_apart = _scored_apart(rows, asking)
        to_prepare = _to_prepare(system, rows, answered_apart)  # two tasks each: prepared, then scored
        jobs = parallel.workers(card_options.jobs, len(apart) + len(answered_apart) + len(to_prepare))
        with parallel.row_pool(jobs, card_options.quiet) as pool:
            for index in apart if pool is not None else []:
                pool.submit(index, _fill_apart, system, rows[index], quiet, reports is not None,
                            together.get(index, 0.0))
            for index in to_prepare if pool is not None else []:
                pool.ahead(index, _prepare, system, rows[index], quiet)  # while the model answers
            waiting: dict[int, tuple[bytes, Gathered]] = {}  # answered rows whose preparation is under way

            def to_worker(index: int, payload: bytes, answered: Gathered) -> None:
                assert pool is not None
                pool.submit(index, _fill_apart, system, rows[index], quiet, reports is not None,
                            together.get(index, 0.0), payload, answered.seen, answered.seconds,
                            pool.readied(index))

            def score_apart(index: int, answered: Gathered) -> None:
                """A row's answers are in: its score phase to a worker, where it can go (``families.packed``), with
                what was prepared for it; a row whose preparation is still under way waits for it (``waiting``),
                and the model goes on with the next rows."""
                if pool is None or index not in answered_apart or answered.error is not None:
                    return
                assert answered.phased is not None and answered.answers is not None  # no error: both are set
                payload = families.packed(answered.phased, answered.answers)
                if payload is not None:
                    waiting[index] = (payload, answered)
                for ready in [i for i in waiting if not pool.getting_ready(i)]:
                    to_worker(ready, *waiting.pop(ready))

            for index, row in enumerate(rows):
                if asking[index] == "phases" and index not in gathered and (pool is None or index not in pool):
                    block = []  # this row and the next ones up to a row that asks the model in one phase
                    for later in range(index, len(rows)):
                        if asking[later] == "one phase":
                            break
                        block += [later] if asking[later] == "phases" else []
                    gathered.update(_gather(system, rows, block, quiet, bar, score_apart))
                    for ready in sorted(waiting):  # every request of the block answered: wait for the preparations
                        to_worker(ready, *waiting.pop(ready))
                if index in early:
                    filled = early.pop(index)
                elif pool is not None and index in pool:
                    bar.set_description(f"card: {row.key} (scored beside the others)")
                    gathered.pop(index, None)
                    filled, report = pool.take(index).value
                    if report is not None and reports is not None:
                        reports[row.key] = report
                else:
                    bar.set_description(f"card: {row.key}")
                    filled = fill_row(system, row, quiet, reports, together.get(index, 0.0),
                                      gathered.pop(index, None),
                                      prepared=pool.readied(index) if pool is not None else None)
                out.append(filled)
                if on_row is not None:
                    on_row(filled)
                bar.update()
    return Card(system.name, system.kind, list(pairs), out, card_options.bootstrap, card_options.seed, reports or {},
                card_options.limit)


def _together_and_ranked(system: SystemSpec, rows: Sequence[CardRow], card_options: CardOptions,
                         reports: dict[str, Report] | None, bar: Any, jobs: int | None
                         ) -> tuple[dict[int, float], dict[int, FilledRow]]:
    """The runs over several rows' languages (``_run_together``) and, where they run in worker processes, the rows
    of each language filled here as soon as its verdicts are in, while the workers make the other languages': the
    card's process waits for them anyway, so a row costs no interpreter of its own, and the last language's worker no
    longer runs alone on two cores with every row left to rank after it (the 8-pair Google card: 86 of its 836 s,
    at load 15, with one core idle, then 30 s for the rows in two new workers). Returns each such run's rows' shares
    of its seconds (``_run_together``) and the rows filled meanwhile, by index; with one job, the run then the rows,
    as before."""
    if parallel.workers(jobs, 2) < 2:
        return _run_together(system, rows, card_options, reports, bar), {}
    ready: queue.Queue[list[int] | None] = queue.Queue()
    shares: dict[int, float] = {}
    failed: list[BaseException] = []

    def run() -> None:
        try:
            shares.update(_run_together(system, rows, card_options, reports, bar, ready.put))
        except BaseException as exc:  # noqa: BLE001 - raised again in the card's thread, below
            failed.append(exc)
        finally:
            ready.put(None)

    thread = threading.Thread(target=run, name="card: runs over languages", daemon=True)
    thread.start()
    early: dict[int, FilledRow] = {}
    records: dict[int, list[Callable[[float], None]]] = {}
    while (indices := ready.get()) is not None:
        for index in indices:
            row = rows[index]
            if bar is not None:
                bar.set_description(f"card: {row.key} (ranked while the other languages run)")
            with span(f"row {row.key}"):
                early[index] = fill_row(system, row, card_options, reports, share_later=records.setdefault(index, []))
    thread.join()
    if failed:
        raise failed[0]
    for index, each in records.items():
        for record in each:
            record(shares.get(index, 0.0))
    return shares, early


def _scored_apart(rows: Sequence[CardRow], asking: Sequence[str]) -> set[int]:
    """The rows of a model or an endpoint whose score phase may run in a worker once their answers are in: asked in
    two phases (``_asking``), their family's score phase reading only the answers (``Family.answers_suffice``; DiP's
    asks its pronoun scorer too). Whether each one's run can travel is known once it is answered
    (``families.packed``)."""
    return {index for index, how in enumerate(asking)
            if how == "phases" and families.family_of(rows[index].suite).answers_suffice}


def _to_workers(system: SystemSpec, rows: Sequence[CardRow], card_options: CardOptions,
                reports: dict[str, Report] | None) -> list[int]:
    """The rows a worker process fills whole (``cards.parallel``): a published system's or a folder's rows that
    will run (not read back from the card's cache, not unfillable). A model's or an endpoint's rows are asked here,
    where the model is opened, in row order (``_gather``); only their score phases go to the workers
    (``_scored_apart``)."""
    if system.kind not in ("published", "outputs"):
        return []
    out = []
    for index, row in enumerate(rows):
        try:
            system.options_for(row)
        except Unfilled:
            continue
        if reports is None and card_options.use_cache and _done(system, row, card_options):
            continue
        out.append(index)
    return out


def _fill_apart(system: SystemSpec, row: CardRow, card_options: CardOptions, keep_report: bool,
                shared_seconds: float, answered: bytes | None = None, seen: dict[str, Any] | None = None,
                seconds: float = 0.0, prepared: Prepared | None = None) -> tuple[FilledRow, Report | None]:
    """``fill_row`` in a worker process: a row run whole (``_to_workers``), or scored from its answers (``answered``,
    ``families.packed``: its first phase and answers, its models stood in for; with the data files its first phase
    read, the seconds it took and what was ``_prepare``d for it), and its report where the card keeps them."""
    reports: dict[str, Report] | None = {} if keep_report else None
    gathered = None
    if answered is not None:
        phased, answers = families.unpacked(answered)
        gathered = Gathered(phased, answers, None, dict(seen or {}), seconds)
    with span(f"row {row.key}"):  # when this worker was busy with which row (DISCOTEST_TIMING)
        filled = fill_row(system, row, card_options, reports, shared_seconds, gathered, prepared=prepared)
    return filled, (reports or {}).get(row.key)


def _asking(system: SystemSpec, rows: Sequence[CardRow], card_options: CardOptions,
            reports: dict[str, Report] | None) -> list[str]:
    """Per row, how its run asks the system's model: ``phases`` (its family states its requests first: they can be
    gathered), ``one phase`` (its run asks as it goes), or ``""`` (no model, the row cannot be filled, or it is
    read back from the cache)."""
    out = []
    for row in rows:
        if system.kind not in ("model", "endpoint"):
            out.append("")
            continue
        try:
            system.options_for(row)
        except Unfilled:
            out.append("")
            continue
        if reports is None and card_options.use_cache and _done(system, row, card_options):
            out.append("")
            continue
        out.append("phases" if families.has_phases(row.suite) else "one phase")
    return out


def _gather(system: SystemSpec, rows: Sequence[CardRow], block: Sequence[int], card_options: CardOptions,
            bar: Any = None, on_answered: Callable[[int, Gathered], None] | None = None) -> dict[int, Gathered]:
    """The rows at ``block``: every row's first phase (its models opened, its requests stated), then every row's
    requests sent, in row order (a served model's under ``--concurrency``, each answer stored as it arrives, so a
    stopped card asks nothing twice), before any row is scored here; ``on_answered(index, gathered)`` as each row's
    answers are in (the card hands its score phase to a worker). A row whose phase fails keeps the error (its row
    says it) and the others go on."""
    out: dict[int, Gathered] = {}
    for index in block:
        row = rows[index]
        if bar is not None:
            bar.set_description(f"card: {row.key} (requests)")
        started = time.monotonic()
        gathered = out[index] = Gathered()
        try:
            with catalogue.tracking() as seen:
                gathered.phased = families.ask(row.suite, row_settings(system, row, card_options))
        except Exception as exc:  # noqa: BLE001 - one row's failure must not lose the others (fill_row says it)
            gathered.error = exc
        gathered.seen, gathered.seconds = dict(seen), time.monotonic() - started
    for index in block:
        gathered = out[index]
        if gathered.phased is None:
            continue
        if bar is not None:
            bar.set_description(f"card: {rows[index].key} (asking the model)")
        started = time.monotonic()
        try:
            with catalogue.tracking() as seen:
                gathered.answers = families.answered(gathered.phased)
        except Exception as exc:  # noqa: BLE001 - as above
            gathered.error = exc
        gathered.seen.update(seen)
        gathered.seconds += time.monotonic() - started
        if on_answered is not None:
            on_answered(index, gathered)
    return out


def plan(system: SystemSpec, rows: Sequence[CardRow], card_options: CardOptions) -> list[dict[str, Any]]:
    """What ``--dry-run`` prints: per row whether it is done (in the cache), to run, or cannot be filled (why); its
    items; and the seconds it will take (``estimate``: measured here, or typical for its kind and items)."""
    out = []
    paid: set[str] = set()  # "PAIR MODEL" of each model a first run of an earlier row trains
    for row in rows:
        entry = {"row": row.key, "suite": row.suite,
                 "items": _items(row, card_options.data_dir, card_options.limit_for(row))}
        try:
            system.options_for(row)
        except Unfilled as exc:
            out.append({**entry, "status": "unfilled", "reason": str(exc), "seconds": None})
            continue
        done = card_options.use_cache and _done(system, row, card_options)
        seconds, source = ((0.0, "cached") if done else
                           estimate(system, row, entry["items"], card_options, paid))
        out.append({**entry, "status": "cached" if done else "to run", "reason": None,
                    "seconds": None if seconds is None else round(seconds, 1), "estimate": source})
    return out


def _items(row: CardRow, data_dir: str | None, limit: int | None = None) -> int | None:
    """The items the row's run scores (None where unknown: missing data, DiP's mined sets): each of its results
    capped at ``limit`` (``--limit`` samples per result: mZPRT's row has one per domain)."""
    from discotest.data.catalogue import MissingDataError

    family = families.family_of(row.suite)
    if family.parts is not None:
        try:
            parts = family.parts(row.suite, row.options, data_dir)
        except MissingDataError:
            return None
    elif family.describe is not None:
        size = family.describe(row.suite, data_dir).size
        lang = row.options.get("lang")
        n = size.by_lang[lang] if size.by_lang and lang in size.by_lang else size.n
        parts = [n] if n is not None else []
    else:
        return None
    return sum(min(n, limit) if limit else n for n in parts) if parts else None
