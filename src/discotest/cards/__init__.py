"""The discourse card: one system (a published one, a folder of outputs, a local model or an endpoint) on every suite
of its language pairs, one row per phenomenon with its interval, its rank among the suite's published systems and the
validity figure behind it. Above the wings: it runs each suite through the family registry as ``discotest run`` does.
Its options are declared once here (``OPTIONS``), for ``discotest card`` and ``discotest.card`` alike, and checked
here (``card_settings``) into the system and the rows (``resolve``); the card's machinery (``build``: ``make_card``,
``groups``, ``system``) loads when a card is made, not when the command line is built."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discotest.errors import InputError
from discotest.registry import Settings, checked_settings, split_list

if TYPE_CHECKING:
    from discotest.cards.groups import CardRow
    from discotest.cards.system import SystemSpec

from discotest.cards.options import (  # noqa: F401 - the card's options, declared where its machinery reads them
    BOOTSTRAP,
    CARD_SYSTEM,
    CHECK,
    CONTEXT,
    DRY_RUN,
    INIT,
    MODEL_OPTIONS,
    OPTIONS,
    OUTPUTS,
    PAIRS,
    SEED,
    SUITES,
    VERSUS,
)


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
        return SystemSpec("published", published=s.system)
    if kind == "outputs":
        if s.init:
            return SystemSpec("outputs", folder=str(s.outputs))
        name, files, row_options = read_manifest(s.outputs)
        return SystemSpec("outputs", folder=str(s.outputs), files=files, label=name, row_options=row_options)
    if kind == "model":
        return SystemSpec("model", path=str(s.model), model_options=model_options)
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
    from discotest.cards.checks import check_system

    check_system(system, s)
    if not pairs:
        pairs = system.pairs() or (published_pairs(system.given) if system.kind == "published" else [])
    if not pairs:
        raise InputError(f"card: give --pairs (e.g. en-de,ja-en,zh-en): {system.name} covers no pair discotest can "
                         "tell by itself" if system.kind != "published" else
                         f"card: no suite has published outputs of {system.published!r}; `discotest suites` lists them")
    suites = split_list(s.suites, "--suites")
    return system, list(pairs), rows_of(list(pairs), None if suites == "all" else suites)


__all__ = ["OPTIONS", "card_settings", "resolve", "system_of"]
