"""Contrastive suites are described by data (``contrastive.suites``): a published suite is a row of the data
registry with a format and a language pair, so a new suite in a known format is a row, not code."""

from __future__ import annotations

import dataclasses

import discotest
from discotest.contrastive import suites
from discotest.data import catalogue


def test_every_contrastive_row_has_a_reader_and_a_pair():
    rows = suites.suite_rows()
    named = {"voita-deixis", "bawden-anaphora", "scat", "jazp", "contrapro", "winox-mt", "contrastive-jsonl"}
    assert named <= set(rows)
    assert any(name.startswith("ctxpro-") for name in rows)
    for row in rows.values():
        assert row.format in suites.FORMATS
        assert row.pair is not None or row.name in ("winox-mt", "contrastive-jsonl"), row.name
    assert suites.language_pair("voita-deixis") == ("en", "ru") and suites.language_pair("jazp") == ("ja", "en")
    assert suites.language_pair("ctxpro-gender-en-es-dev") == ("en", "es")
    assert suites.is_expected_word("ctxpro-gender-en-es-dev") and not suites.is_expected_word("voita-deixis")


def test_a_new_suite_is_a_row(monkeypatch, tmp_path):
    """A row added to the data catalogue (here a copy of jazp's, under a new name and another pair) is a suite:
    listed, run by name, scored like the original, its language pair taken from the row."""
    jazp = catalogue.SOURCES["jazp"]
    row = dataclasses.replace(jazp, name="jazp-copy", suite="jazp-copy", pair="ja-en")
    monkeypatch.setitem(catalogue.SOURCES, "jazp-copy", row)
    assert "jazp-copy" in discotest.suites() and suites.language_pair("jazp-copy") == ("ja", "en")
    items = suites.load_suite("jazp-copy")
    assert [i.candidates for i in items] == [i.candidates for i in suites.load_suite("jazp")]
    scores = tmp_path / "scores.txt"  # the correct candidate scored highest: accuracy 100
    scores.write_text("".join(f"{1.0 if k == i.correct_index else 0.0}\n" for i in items
                              for k in range(len(i.candidates))))
    result = discotest.run("jazp-copy", scores=str(scores), quiet=True).results[0]
    assert result.scores.overall.accuracy == 100.0 and result.scores.overall.n == len(items)
    assert result.suite == "jazp-copy"
