"""The gender suites (WinoMT, its demo, its adjective variant, BUG) by name: one loader for the pipelines, the CLI
and ``translate``."""

from __future__ import annotations

from pathlib import Path

from discotest.data import catalogue
from discotest.gender import bug, winomt_adj
from discotest.gender.bug import load_bug
from discotest.gender.winomt import GenderItem, load_winomt, winomt_files
from discotest.gender.winomt_adj import load_winomt_adj


def load_gender_suite(suite: str, suite_version: str = "current",
                      data_dir: str | Path | None = None) -> list[GenderItem]:
    """The items of ``suite`` (``winomt``, ``winomt-demo``, ``winomt-adj`` or ``bug``) in ``suite_version`` (WinoMT's
    files)."""
    if suite == "bug":
        return load_bug(data_dir)
    if suite == "winomt-adj":
        return load_winomt_adj(data_dir)
    return load_winomt(suite_version, data_dir, suite)


def locate_gender_suite(suite: str, suite_version: str = "current", data_dir: str | Path | None = None) -> None:
    """Check and record (``catalogue.tracking``) the files ``load_gender_suite`` reads, without parsing them: a warm
    run finds its verdicts by these files alone (tests/gender/test_suite_files.py: the same files as loading them)."""
    if suite == "bug":
        names: tuple[str, ...] = bug.FILES
    elif suite == "winomt-adj":
        names = (winomt_adj.SUITE, winomt_adj.ITEMS_FROM)
    else:
        main, subsets = winomt_files(suite, suite_version)
        names = (main, *(name for _, name in subsets))
    for name in names:
        catalogue.locate(name, data_dir)
