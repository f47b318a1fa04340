"""The card's settings checked before any row runs (issue 50): a published name some suite has, a model folder that
is a model, Ray for ``--engine ray``, and ``-o`` never onto an input of the card. Each mistake is one line."""

from __future__ import annotations

import os
from pathlib import Path

from discotest.cards.system import SystemSpec
from discotest.errors import InputError
from discotest.registry import Settings


def all_published_names() -> list[str]:
    """Every published system some row of some pair can show (the suites' lists, DiP's WMT systems)."""
    from discotest.cards.groups import known_pairs, rows_of
    from discotest.cards.system import published_names

    return sorted({name for row in rows_of(known_pairs()) if "published" in row.takes
                   for name in published_names(row)})


def check_model_folder(path: str, flag: str) -> None:
    """A local folder given as a model must hold one (``config.json``, or a CTranslate2 ``model.bin``): an outputs
    folder or a typo'd path is one line now, not a warning on every row. A hub name is left to the model's loader."""
    from discotest.models.door import check_model

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
        if system.given not in names:
            raise InputError(f"card: no suite has published outputs of {system.published!r}"
                             f"{did_you_mean(system.given, names)}; `discotest suites` lists them")
    if system.kind == "model":
        check_model_folder(system.given, "--model")
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
            inputs += [Path(spec.given) / MANIFEST, *map(Path, spec.paths())]
    target = os.path.abspath(output)
    for path in inputs:
        if target == os.path.abspath(path) or (Path(output).exists() and path.exists()
                                               and os.path.samefile(output, path)):
            raise InputError(f"-o {output} is an input of the card ({path}); write the card elsewhere")
