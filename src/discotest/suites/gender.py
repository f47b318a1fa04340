"""The gender suites (WinoMT, its demo, BUG) by name: one loader for the pipelines, the CLI and ``translate``."""

from __future__ import annotations

from pathlib import Path

from discotest.suites.bug import load_bug
from discotest.suites.winomt import GenderItem, load_winomt


def load_gender_suite(suite: str, suite_version: str = "current",
                      data_dir: str | Path | None = None) -> list[GenderItem]:
    """The items of ``suite`` (``winomt``, ``winomt-demo`` or ``bug``) in ``suite_version`` (WinoMT's files)."""
    if suite == "bug":
        return load_bug(data_dir)
    return load_winomt(suite_version, data_dir, suite)
