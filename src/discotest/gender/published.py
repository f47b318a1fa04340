"""Published system outputs known to the registry (WinoMT: google, bing, aws, systran, sota)."""

from __future__ import annotations

from pathlib import Path

from discotest.data import registry
from discotest.data.translations import Translations, read_translations
from discotest.errors import InputError, did_you_mean
from discotest.gender.winomt import GenderItem

SYSTEM_ORDER = ("google", "bing", "aws", "systran", "sota")


def published_systems(suite: str = "winomt") -> dict[str, tuple[str, ...]]:
    """system -> languages it has a published output for, in a stable order."""
    out: dict[str, list[str]] = {}
    for system, lang in registry.system_outputs(suite):
        out.setdefault(system, []).append(lang)
    rank = {s: i for i, s in enumerate(SYSTEM_ORDER)}
    return {s: tuple(sorted(out[s])) for s in sorted(out, key=lambda s: (rank.get(s, len(rank)), s))}


def check_system(system: str, lang: str, suite: str = "winomt") -> None:
    systems = published_systems(suite)
    if system not in systems:
        known = ", ".join(systems) or "no system"
        raise InputError(f"unknown system {system!r}{did_you_mean(system, systems)}; published {suite} outputs "
                         f"exist for {known}")
    if lang not in systems[system]:
        raise InputError(f"{system} has no published {suite} output for {lang!r} (it has {', '.join(systems[system])})")


def published_translations(
    system: str, lang: str, items: list[GenderItem], root: str | Path | None = None, suite: str = "winomt"
) -> Translations:
    check_system(system, lang, suite)
    path = registry.locate(registry.system_outputs(suite)[(system, lang)], root)
    return read_translations(path, {i.index: i.sentence for i in items})


def available_published(lang: str, root: str | Path | None = None, suite: str = "winomt") -> list[str]:
    """Systems whose output for ``lang`` is present (used as extra alignment text)."""
    present = []
    for system, langs in published_systems(suite).items():
        if lang in langs:
            try:
                registry.locate(registry.system_outputs(suite)[(system, lang)], root)
            except registry.MissingDataError:  # absent; a modified file is an error, not skipped
                continue
            present.append(system)
    return present
