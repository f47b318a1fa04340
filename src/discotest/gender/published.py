"""Published system outputs known to the registry (WinoMT: google, bing, aws, systran, sota)."""

from __future__ import annotations

from pathlib import Path

from discotest.data import catalogue
from discotest.data.translations import Translations, read_translations
from discotest.errors import InputError, did_you_mean
from discotest.gender.winomt import GenderItem

SYSTEM_ORDER = ("google", "bing", "aws", "systran", "sota")


def published_systems(suite: str = "winomt") -> dict[str, tuple[str, ...]]:
    """system -> languages it has a published output for, in a stable order."""
    out: dict[str, list[str]] = {}
    for system, lang in catalogue.system_outputs(suite):
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
    path = catalogue.locate(catalogue.system_outputs(suite)[(system, lang)], root)
    return read_translations(path, {i.index: i.sentence for i in items})


def available_published(lang: str, root: str | Path | None = None, suite: str = "winomt") -> list[str]:
    """Systems whose output for ``lang`` is present (used as extra alignment text)."""
    present = []
    for system, langs in published_systems(suite).items():
        if lang in langs:
            try:
                catalogue.locate(catalogue.system_outputs(suite)[(system, lang)], root)
            except catalogue.MissingDataError:  # absent; a modified file is an error, not skipped
                continue
            present.append(system)
    return present


def check_lines_match(translations: Translations, items: list[GenderItem], lang: str,
                      root: str | Path | None = None, suite: str = "winomt", own_rows: bool = False) -> None:
    """Refuse (one line naming the file and its first suspicious line) a translation file whose lines do not
    translate the rows they are scored against: shifted, two lines swapped, or translations of other sentences
    (``lang.correspondence``, judged against the suite's published outputs in ``lang``). A suite without published
    outputs (BUG) is judged against its English sentences, into a Latin-script language; into another script it is
    not checked. ``own_rows``: the rows are the user's (``--suite-file``), not the ones the published outputs
    translate: judged against their English sentences, as BUG's."""
    from discotest.lang.correspondence import refuse_misaligned

    systems = available_published(lang, root, suite) if published_systems(suite) and not own_rows else []
    references = [published_translations(system, lang, items, root, suite).by_row for system in systems]
    against = (f"the published {suite} outputs of {', '.join(systems)}" if systems
               else "your suite file's English sentences" if own_rows else f"the {suite} rows' English sentences")
    refuse_misaligned(translations, {item.index: item.sentence for item in items}, references, against, lang)
