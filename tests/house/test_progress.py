"""Progress on stderr (stage bars that follow --quiet, outputs unchanged) and warnings summarised once."""

from __future__ import annotations

from pathlib import Path

import pytest

from discotest.cli import main
from discotest.progress import progress_bar, quiet_scope
from discotest.report.emit import summarise_warnings
from discotest.report.table import row_ranges


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_row_ranges():
    assert row_ranges([]) == ""
    assert row_ranges([7]) == "7"
    assert row_ranges([5, 0, 1, 2, 8, 7, 2]) == "0-2,5,7-8"
    rows = [*range(0, 2120), *range(2122, 3888)]
    assert row_ranges(rows) == "0-2119,2122-3887"
    assert row_ranges([1, 3, 5, 7], limit=2) == "1,3,…"


def test_repeated_warnings_become_one_line():
    message = "2 suite rows have no translation (rows 2120-2121); they are left out of the scores"
    pairs = [(f"{s}/{lang}", message) for s in ("google", "bing") for lang in ("de", "fr")]
    lines = summarise_warnings([*pairs, ("aws/uk", "5 suite rows have no translation")], "system×language pairs")
    assert lines == [f"4 system×language pairs (google/de, google/fr, bing/de, …): {message}",
                     "aws/uk: 5 suite rows have no translation"]


def test_bars_opened_deep_inside_follow_the_enclosing_quiet(capsys):
    with quiet_scope(True), progress_bar("deep stage", total=1) as bar:
        bar.update(1)
    with progress_bar("outer", total=1, quiet=True), progress_bar("inner stage", total=1) as bar:
        bar.update(1)
    assert capsys.readouterr().err == ""
    with progress_bar("shown stage", total=1) as bar:
        bar.update(1)
    assert "shown stage" in capsys.readouterr().err


def test_demo_run_shows_its_pairs_and_quiet_silences_them(capsys):
    args = ["run", "winomt-demo", "--lang", "all", "--system", "all", "--format", "json"]
    assert main(args) == 0
    shown = capsys.readouterr()
    assert "winomt-demo: system×language pairs" in shown.err and "3/3" in shown.err
    assert main(["-q", *args]) == 0
    quiet = capsys.readouterr()
    # -q silences the bars, not the warning that the ranked systems were the mining pool (no --holdout)
    assert quiet.out == shown.out and "DiP:" not in quiet.err
    assert all(line.startswith("discotest: warning") for line in quiet.err.splitlines()), quiet.err


def test_rank_dip_names_its_stages(tmp_path: Path, monkeypatch, capsys):
    pytest.importorskip("spacy")
    from tests.support.wmt_fakes import BAD, GOOD, write_pair

    data = write_pair(monkeypatch, tmp_path / "data", {"Good": GOOD, "Bad": BAD})
    args = ["rank", "dip", "--pair", "de-en", "--data-dir", str(data), "--phenomena", "lexical,connectives",
            "--format", "json"]
    assert main(args) == 0
    shown = capsys.readouterr()
    # rank parses every text once, up front, shard by shard (mining and scoring read those parses)
    for stage in ("DiP: parsing the reference and 2 systems", "DiP: scoring systems", "DiP: BLEU and ranking"):
        assert stage in shown.err, stage
    assert "2/2" in shown.err  # both systems scored
    assert main([*args, "-q"]) == 0
    quiet = capsys.readouterr()
    # -q silences the bars, not the warning that the ranked systems were the mining pool (no --holdout)
    assert quiet.out == shown.out and "DiP:" not in quiet.err
    assert all(line.startswith("discotest: warning") for line in quiet.err.splitlines()), quiet.err
