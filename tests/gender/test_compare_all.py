"""``compare`` over every published system (issue 50, item 4): WinoMT-adj's adjective effect gives each system its own
"without" figure (its own WinoMT 2019 output), not the last system's for all; WinoMT over several languages ranks per
language instead of stopping at "two systems are named 'google'"."""

from __future__ import annotations

import json

import discotest
from tests.support.cli_helpers import run_cli


def test_the_adjective_effect_of_every_system_is_against_its_own_plain_output(shared_data, capsys):
    code, out, err = run_cli(capsys, "compare", "winomt-adj", "--lang", "de", "--system", "all", "--format", "json",
                             "-q")
    assert code == 0, err
    report = json.loads(out)
    rows = {r["system"]: r for r in report["aggregates"]["adjective_effect"]}
    assert sorted(rows) == ["bing", "google"]
    assert (round(rows["google"]["without"], 1), round(rows["google"]["with"], 1)) == (48.5, 61.1)
    assert (round(rows["bing"]["without"], 1), round(rows["bing"]["with"], 1)) == (71.3, 76.6)
    names = [r["system"] for r in report["results"]]
    assert sorted(names) == ["bing", "bing/plain", "google", "google/plain"]  # each plain row once


def test_every_published_system_over_several_languages_is_ranked_per_language(shared_data):
    report = discotest.compare("winomt", lang="uk,fr", system="all", quiet=True)
    tables = {(t["lang"], t["metric"]): t["systems"] for t in report.aggregates["ranking"]}
    assert {lang for lang, _ in tables} == {"uk", "fr"}
    for lang in ("uk", "fr"):
        assert [s["system"] for s in tables[(lang, "accuracy")]].count("google") == 1
    assert tables[("fr", "accuracy")][0]["system"] == "google"
