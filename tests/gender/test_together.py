"""Several gender suites' runs made at once, a language's runs of every suite in one worker process
(gender/together.py, ``Family.suites_together``): each suite's own run then reads back the very results it computes
alone, and the card that makes its WinoMT and WinoMT-adj rows so is the card that runs each row alone."""

from __future__ import annotations

import json

import pytest

import discotest
from discotest import cache, families
from discotest.cards import build
from discotest.gender import run as gender_run
from discotest.gender import together
from discotest.registry import settings_for

LANGS = ["de", "uk"]  # two languages (a joint run is of several), both of light analysers
SUITES = ("winomt", "winomt-adj")


def _results(suite: str) -> list[str]:
    return [json.dumps(r.to_json(), sort_keys=True, ensure_ascii=False) for r in
            discotest.run(suite, lang=",".join(LANGS), system="google", limit=30, quiet=True)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_suites_run_reads_back_what_it_computes_alone(shared_data, tmp_path, monkeypatch, jobs):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "alone"))
    alone = {suite: _results(suite) for suite in SUITES}
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "together"))
    languages: list[tuple[str, int]] = []
    real = together.evaluate_suites
    if jobs == 1:  # in this process (two jobs: in spawned workers, which import the module afresh)
        monkeypatch.setattr(together, "evaluate_suites", lambda lang, runs, in_worker=True: languages.append(
            (lang, len(runs))) or real(lang, runs, in_worker))
    family = families.family_of("winomt")
    assert family.suites_together is not None
    done: list[str] = []  # each language as its verdicts are all in the cache (the card ranks its rows then)
    family.suites_together([(suite, settings_for(family, {"lang": LANGS, "system": "google", "limit": 30,
                                                          "quiet": True, "jobs": jobs})) for suite in SUITES],
                           done.append)
    assert sorted(done) == LANGS
    assert languages == ([("de", 2), ("uk", 2)] if jobs == 1 else [])  # each language once, with both suites
    computed = []
    monkeypatch.setattr(gender_run, "_evaluate_language", lambda *a, **k: computed.append(a) or [])
    assert {suite: _results(suite) for suite in SUITES} == alone  # read back whole: nothing computed again
    assert computed == []


def test_the_card_of_the_joint_run_is_the_card_of_each_row_alone(shared_data, tmp_path, monkeypatch):
    """The card's WinoMT and WinoMT-adj rows of two pairs made in one joint run, then ranked from the cache: the
    card JSON of each row run alone, byte for byte (the joint run refused: every row runs itself)."""
    options = {"system": "google", "pairs": "en-de,en-uk", "suites": "winomt,winomt-adj", "limit": 30,
               "quiet": True, "jobs": 2}
    calls: list[list[str]] = []
    real = together.run_suites
    monkeypatch.setattr(together, "run_suites", lambda runs, jobs=None, on_language=None: calls.append(
        [o.suite for o, _, _ in runs]) or real(runs, jobs, on_language))
    ranked: list[str] = []  # rows filled in the card's process as their language came in, the run still going
    fill_row = build.fill_row
    monkeypatch.setattr(build, "fill_row", lambda system, row, *a, **k: (
        ranked.append(row.key) if k.get("share_later") is not None else None) or fill_row(system, row, *a, **k))
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "joint"))
    joint = json.dumps(discotest.card(**options).to_json(), sort_keys=True, ensure_ascii=False)
    assert calls == [list(SUITES)]
    assert sorted(ranked) == ["en-de/winomt", "en-de/winomt-adj", "en-uk/winomt", "en-uk/winomt-adj"]

    def refused(runs, jobs=None, on_language=None):
        raise RuntimeError("no joint run")

    monkeypatch.setattr(together, "run_suites", refused)
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "alone"))
    alone = json.dumps(discotest.card(**options).to_json(), sort_keys=True, ensure_ascii=False)
    assert joint == alone
    assert [row["status"] for row in json.loads(joint)["rows"]] == ["ok"] * 4
