"""The discourse card: one system (a published one, a folder of outputs, a local model or an endpoint) on every suite
of its language pairs, one row per phenomenon with its interval, its rank among the suite's published systems and the
validity figure behind it. Above the wings: it runs each suite through the family registry as ``discotest run`` does.
Its options are declared once here (``OPTIONS``), for ``discotest card`` and ``discotest.card`` alike; the card's
machinery (``build``, ``groups``, ``system``) loads when a card is made, not when the command line is built."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from discotest.errors import InputError
from discotest.registry import Option, Settings, checked_settings, split_list
from discotest.registry import options as common
from discotest.values import int_option

if TYPE_CHECKING:
    from discotest.cards.build import Card
    from discotest.cards.groups import CardRow
    from discotest.cards.system import SystemSpec

PAIRS = Option("pairs", ("--pairs",), "language pairs, comma-separated (en-de,ja-en,zh-en …; default: the pairs the "
               "outputs' manifest or the published system covers)", metavar="LIST", many=True)
SUITES = Option("suites", ("--suites",), "only these suites (or row ids, e.g. mt-geneval-contextual) of the pairs' "
                "groups, comma-separated", metavar="LIST", many=True)
OUTPUTS = Option("outputs", ("--outputs",), "a folder of your system's translation (or scores) files with "
                 "manifest.json naming the file of each PAIR/ROW (`--init` writes the template)", metavar="DIR")
CARD_SYSTEM = Option("system", ("--system", "-s"), "a published system (google, bing, deepl-contexts, base_tgt …): "
                     "its outputs in every suite that has them")
INIT = Option("init", ("--init",), "with --outputs DIR: write the sources to translate and manifest.json's template "
              "into DIR, then stop", default=False, action="store_true")
CHECK = Option("check", ("--check",), "with --outputs DIR: say row by row whether its file is present, missing or "
               "wrong (not one line per line of the sources --init wrote), before any scoring; exit 1 if one is "
               "wrong", default=False, action="store_true")
DRY_RUN = Option("dry_run", ("--dry-run",), "print the plan (rows done, to run, not fillable; items; measured "
                 "seconds) and stop", default=False, action="store_true")
BOOTSTRAP = Option("bootstrap", ("--bootstrap",), "bootstrap resamples for the intervals and the paired tests",
                   default=1000, type=int_option("bootstrap"))
SEED = Option("seed", ("--seed",), "bootstrap seed", default=12345, type=int_option("seed"))
VERSUS = Option("versus", ("--versus",), "a second system to compare with, row by row (a published name, an outputs "
                "folder, a model folder or an endpoint URL): both values, the difference and the paired bootstrap "
                "p-value of every number", metavar="SYSTEM")
# the card's --context: what each kind of row does with it (``system._model_options``), not a run's help
CONTEXT = dataclasses.replace(common.CONTEXT, help="--model/--endpoint: previous sentences as context; the rows a "
                              "model translates take the first size (default 0), the contrastive rows score at each "
                              "size given (default 1)")
MODEL_OPTIONS = (common.BATCH_SIZE, common.DEVICE, common.REVISION, common.PROMPT, common.CONCURRENCY,
                 common.ENDPOINT_TIMEOUT, CONTEXT, common.BEAM, common.MAX_LENGTH)
OPTIONS = (CARD_SYSTEM, OUTPUTS, common.MODEL, common.ENDPOINT, PAIRS, SUITES, VERSUS, common.LIMIT, INIT, CHECK,
           DRY_RUN,
           BOOTSTRAP, SEED, *common.ENGINE_OPTIONS, common.JOBS,
           *MODEL_OPTIONS, common.DATA_DIR, common.QUIET, common.USE_CACHE, common.SKIP_LANGUAGE_CHECK)


def system_of(s: Settings) -> SystemSpec:
    """The one system the settings name; two, or none, is an error."""
    from discotest.cards.system import SystemSpec, endpoint_system, read_manifest

    given = [k for k, v in (("system", s.system), ("outputs", s.outputs), ("endpoint", s.endpoint)) if v]
    if s.model and not s.endpoint:
        given.append("model")
    if len(given) != 1:
        raise InputError("card: name one system: --system NAME, --outputs DIR, --model PATH or --endpoint URL "
                         f"(given: {', '.join('--' + g for g in given) or 'none'})")
    model_options = {o.name: s[o.name] for o in MODEL_OPTIONS if s[o.name] not in (None, [])}  # by declaration
    kind = given[0]
    if kind == "system":
        return SystemSpec("published", s.system)
    if kind == "outputs":
        if s.init:
            return SystemSpec("outputs", str(s.outputs))
        name, files, row_options = read_manifest(s.outputs)
        return SystemSpec("outputs", str(s.outputs), files=files, label=name, row_options=row_options)
    if kind == "model":
        return SystemSpec("model", str(s.model), model_options=model_options)
    return endpoint_system(s.endpoint, s.model, model_options)


def published_pairs(name: str) -> list[str]:
    """The pairs in whose groups a published system named ``name`` has an output."""
    from discotest.cards.groups import known_pairs, rows_of
    from discotest.cards.system import publishes

    return [pair for pair in known_pairs()
            if any("published" in row.takes and publishes(row, name) for row in rows_of([pair]))]


def card_settings(options: dict[str, Any]) -> Settings:
    return checked_settings(OPTIONS, options, "card")


def resolve(s: Settings) -> tuple[SystemSpec, list[str], list[CardRow]]:
    """The system, its pairs and the card's rows from checked settings."""
    from discotest.cards.groups import known_pairs, rows_of

    system = system_of(s)
    pairs = split_list(s.pairs, "--pairs")
    if pairs == "all":
        pairs = known_pairs()
    twice = next((p for p in pairs or [] if list(pairs).count(p) > 1), None)
    if twice:
        raise InputError(f"--pairs: {twice} is named twice")
    check_system(system, s)
    if not pairs:
        pairs = system.pairs() or (published_pairs(system.value) if system.kind == "published" else [])
    if not pairs:
        raise InputError(f"card: give --pairs (e.g. en-de,ja-en,zh-en): {system.name} covers no pair discotest can "
                         "tell by itself" if system.kind != "published" else
                         f"card: no suite has published outputs of {system.value!r}; `discotest suites` lists them")
    suites = split_list(s.suites, "--suites")
    return system, list(pairs), rows_of(list(pairs), None if suites == "all" else suites)


def all_published_names() -> list[str]:
    """Every published system some row of some pair can show (the suites' lists, DiP's WMT systems)."""
    from discotest.cards.groups import known_pairs, rows_of
    from discotest.cards.system import published_names

    return sorted({name for row in rows_of(known_pairs()) if "published" in row.takes
                   for name in published_names(row)})


def check_model_folder(path: str, flag: str) -> None:
    """A local folder given as a model must hold one (``config.json``, or a CTranslate2 ``model.bin``): an outputs
    folder or a typo'd path is one line now, not a warning on every row. A hub name is left to the model's loader."""
    from discotest.models.hf_models import check_model

    folder = Path(path).expanduser()
    if folder.is_dir() and not any((folder / f).is_file() for f in ("config.json", "model.bin")):
        raise InputError(f"{flag}: {path} is a folder but not a model (no config.json or model.bin)"
                         + (f"; an outputs folder is given with --outputs {path}" if (folder / "manifest.json")
                            .is_file() else ""))
    check_model(path)


def check_system(system: SystemSpec, s: Settings) -> None:
    """The card-wide settings checked before any row runs: a published name some suite has, a model folder that is
    a model, Ray installed for ``--engine ray``."""
    from discotest.engine import import_ray, resolve_engine
    from discotest.errors import did_you_mean

    if system.kind == "published":
        names = all_published_names()
        if system.value not in names:
            raise InputError(f"card: no suite has published outputs of {system.value!r}"
                             f"{did_you_mean(system.value, names)}; `discotest suites` lists them")
    if system.kind == "model":
        check_model_folder(system.value, "--model")
    if resolve_engine(s.engine) == "ray":
        import_ray()


def check_output(output: str | None, s: Settings, system: SystemSpec, other: SystemSpec | None = None) -> None:
    """``-o`` may not name an input of the card: the outputs folder's manifest or a row's file (of either system)."""
    from discotest.cards.system import MANIFEST

    if not output:
        return
    inputs = []
    for spec in (system, other):
        if spec is not None and spec.kind == "outputs":
            inputs += [Path(spec.value) / MANIFEST, *map(Path, spec.files.values())]
    target = os.path.abspath(output)
    for path in inputs:
        if target == os.path.abspath(path) or (Path(output).exists() and path.exists()
                                               and os.path.samefile(output, path)):
            raise InputError(f"-o {output} is an input of the card ({path}); write the card elsewhere")


def common_options(s: Settings) -> dict[str, Any]:
    """The options every suite run of the card gets (keywords for ``registry.run``, checked there by the suite's
    family)."""
    return {"data_dir": s.data_dir, "quiet": s.quiet, "use_cache": s.use_cache, "limit": s.limit,
            "engine": s.engine, "ray_address": s.ray_address, "jobs": s.jobs,
            "skip_language_check": s.skip_language_check}


def make_versus(**options: Any) -> tuple[Card, Card, list[dict[str, Any]]]:
    """Both cards (each row run for both systems) and the comparison lines (``versus.compare_cards``)."""
    from discotest.cards.build import build_card
    from discotest.cards.versus import compare_cards, versus_system

    s = card_settings(options)
    system, pairs, rows = resolve(s)
    other = versus_system(s.versus, system.model_options)
    first = build_card(system, rows, pairs, common_options(s), s.bootstrap, s.seed, keep_reports=True)
    second = build_card(other, rows, pairs, common_options(s), s.bootstrap, s.seed, keep_reports=True)
    return first, second, compare_cards(first, second, s.bootstrap, s.seed)


def make_card(keep_reports: bool = False, **options: Any) -> Card:
    """The card; ``keep_reports``: also each row's own Report (the HTML card's pages; rows are then run, not read
    from the cache)."""
    from discotest.cards.build import build_card

    s = card_settings(options)
    system, pairs, rows = resolve(s)
    return build_card(system, rows, pairs, common_options(s), s.bootstrap, s.seed, keep_reports)


__all__ = ["OPTIONS", "card_settings", "common_options", "make_card", "make_versus", "resolve", "system_of"]
