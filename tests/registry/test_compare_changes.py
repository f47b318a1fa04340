"""What changed between two systems: ``compare --details`` lists the items whose verdict differs, each with both
systems' evidence; the text report counts them; the HTML items carry a "Verdicts differ" filter and an A→B column
instead of separate pair rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import discotest
from discotest.cli import main
from discotest.report.html import expand, items_data

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winox"


def _winox_b(tmp_path: Path) -> Path:
    """The fixture's translations with item 0 (correct in A) replaced by a line without a pronoun."""
    b = tmp_path / "b.fr.txt"
    lines = (FIXTURES / "system.fr.txt").read_text("utf-8").splitlines()
    b.write_text("\n".join(["xyz", *lines[1:]]) + "\n", "utf-8")
    return b


def test_details_list_the_changed_items_with_both_sides(tmp_path, capsys):
    details = tmp_path / "changed.jsonl"
    assert main(["-q", "compare", "winox", "--lang", "fr", "--suite-file", str(FIXTURES / "en_fr_test.jsonl"),
                 "--input", str(FIXTURES / "system.fr.txt"), "--input", str(_winox_b(tmp_path)),
                 "--details", str(details)]) == 0
    text = capsys.readouterr().out
    assert "verdicts differ on 1 of 10 items (accuracy: A better on 1)" in text
    assert "  item 0: accuracy: A better" in text
    rows = [json.loads(line) for line in details.read_text("utf-8").splitlines()]
    changed = [r for r in rows if "change" in r]
    assert len(rows) == 21 and len(changed) == 1  # both systems' 10 items, then the one that changed
    one = changed[0]
    assert one["item"] == 0 and one["change"] == "accuracy: A better"
    assert one["a"]["verdict"] == "correct" and one["b"]["verdict"] == "no-pronoun"
    assert one["a"]["translation"] != one["b"]["translation"] == "xyz"


def test_winomt_changes_agree_with_the_verdicts(shared_data):
    report = discotest.compare("winomt", lang="de", system=["google", "bing"], data_dir=str(shared_data), quiet=True)
    google, bing = report.results
    truth = {v.index: v.correct for v in google.verdicts}
    expected = {v.index for v in bing.verdicts if truth.get(v.index) is not None and v.correct != truth[v.index]}
    comparison = report.comparisons[0]
    changes = comparison.changes()
    assert {int(k) for k, c in changes.items() if c != "same"} == expected and len(expected) == 914  # 913 before 51
    assert report.to_json()["comparisons"][0]["changed_items"] == 914
    better_b = {int(k) for k, c in changes.items() if c == "accuracy: B better"}
    assert all(not truth[i] for i in better_b)  # B better: google was wrong there
    changed = comparison.changed_items()
    assert len(changed) == 914 and all(r["a"]["index"] == r["b"]["index"] == r["item"] for r in changed)
    # the HTML items: no pair rows, every item row says whether it changed
    data = expand(items_data(report.item_rows()))
    assert len(data["rows"]) == google.n + bing.n
    col = data["columns"].index("A≠B")
    assert [row[col] for row in data["rows"]].count("yes") == 2 * 914
    assert str(col) in data["filters"] and "metric" not in data["columns"]
    assert 'data-v="914">914</td>' in report.render("html")  # the Comparisons section counts them too


def test_azpt_changes_are_keyed_by_zp_and_add_up_to_the_difference(shared_data):
    report = discotest.compare("mzprt", domain="GR", system=["base_tgt", "zpr_tgt"], data_dir=str(shared_data),
                               quiet=True)
    comparison = report.comparisons[0]
    changed = comparison.changed_items()
    better_b = sum(r["change"] == "AZPT: B better" for r in changed)
    better_a = sum(r["change"] == "AZPT: A better" for r in changed)
    assert better_a + better_b == len(changed) and changed[0]["item"] == [8, 0]  # (segment, ordinal)
    metric = comparison.metrics[0]
    assert 100 * (better_b - better_a) / metric.n == pytest.approx(metric.score_b - metric.score_a)
    assert all(r["a"]["correct"] != r["b"]["correct"] for r in changed)
    assert f"verdicts differ on {len(changed)} of {metric.n} items" in report.render("text")
