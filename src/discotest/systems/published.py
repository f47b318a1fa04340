"""Published system outputs known to the registry (WinoMT: google, bing, aws, systran, sota)."""

from __future__ import annotations

from pathlib import Path

from discotest.data import registry
from discotest.errors import InputError
from discotest.suites.winomt import GenderItem
from discotest.systems.files import Translations, read_translations

SYSTEM_ORDER = ("google", "bing", "aws", "systran", "sota")


def published_systems(suite: str = "winomt") -> dict[str, tuple[str, ...]]:
    """system -> languages it has a published output for, from the registry's source names."""
    out: dict[str, list[str]] = {}
    for name in registry.SOURCES:
        parts = name.split("-")
        if len(parts) == 3 and parts[0] == suite and parts[1] in SYSTEM_ORDER:
            out.setdefault(parts[1], []).append(parts[2])
    return {s: tuple(sorted(out[s])) for s in SYSTEM_ORDER if s in out}


def check_system(system: str, lang: str, suite: str = "winomt") -> None:
    systems = published_systems(suite)
    if system not in systems:
        raise InputError(f"unknown system {system!r}; published {suite} outputs exist for {', '.join(systems)}")
    if lang not in systems[system]:
        raise InputError(f"{system} has no published {suite} output for {lang!r} (it has {', '.join(systems[system])})")


def published_translations(
    system: str, lang: str, items: list[GenderItem], root: str | Path | None = None, suite: str = "winomt"
) -> Translations:
    check_system(system, lang, suite)
    return read_translations(registry.locate(f"{suite}-{system}-{lang}", root), [i.sentence for i in items])


def available_published(lang: str, root: str | Path | None = None, suite: str = "winomt") -> list[str]:
    """Systems whose output for ``lang`` is on disk (used as extra alignment text)."""
    base = registry.data_dir(root)
    return [
        system
        for system, langs in published_systems(suite).items()
        if lang in langs and (base / registry.get_source(f"{suite}-{system}-{lang}").usable_path).is_file()
    ]
