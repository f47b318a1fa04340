"""The gender suites (WinoMT, its demo, its adjective variant, BUG) by name: one loader for the pipelines, the CLI
and ``translate``."""

from __future__ import annotations

from pathlib import Path

from discotest.gender.bug import load_bug
from discotest.gender.winomt import GenderItem, load_winomt
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
