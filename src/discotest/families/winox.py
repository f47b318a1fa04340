"""The Wino-X family: does the translation use the gold pronoun's gender (Emelin and Sennrich 2021)? One language
(de, fr or ru) and one translations file per run."""

from __future__ import annotations

from typing import Any

from discotest.errors import InputError
from discotest.families import options as common
from discotest.families.compare import compare_systems
from discotest.families.registry import Family, register
from discotest.report.emit import Report
from discotest.report.table import row_ranges

OPTIONS = (common.LANG, common.INPUT, common.INPUT_FORMAT, common.SUITE_FILE, *common.COMMON)


def run(suite: str, s: dict[str, Any]) -> Report:
    from discotest.pipelines.winox import run_winox
    from discotest.report.winox import render_winox_table

    if not s["input"]:
        raise InputError("winox needs --input (your translations of the Wino-X English sentences)")
    lang = s["lang"]
    if not lang or not isinstance(lang, str) or "," in lang or lang == "all":
        raise InputError("winox needs exactly one --lang (de, fr or ru)")
    result = run_winox(lang, s["input"], s["data_dir"], s["suite_file"], s["input_format"])
    unmatched = len(result.unmatched)
    warnings = [f"winox/{lang}: {unmatched} items have no translation (rows {row_ranges(result.unmatched, 10)}); "
                "left out"] if unmatched else []
    return Report("discotest · Wino-X pronoun accuracy", [result], text=render_winox_table, warnings=warnings)


def compare(suite: str, s: dict[str, Any]) -> Report:
    if s["system"]:
        raise InputError("winox has no published systems: compare two translation files (--input A --input B)")
    return compare_systems(suite, s, run)


FAMILY = register(Family(
    name="winox",
    title="winox",
    suites=lambda: {"winox": []},
    options=OPTIONS,
    run=run,
    compare=compare,
    compare_options=common.COMPARE,
    doc="pronoun accuracy on Wino-X: the translation's pronoun must agree with the gold referent's gender",
))
