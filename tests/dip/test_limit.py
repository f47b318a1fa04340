"""``--limit N`` on DiP, on a slice of the real WMT22 de-en: every system scored and ranked on the same
deterministic sample of N mined items, stratified by phenomenon (each present), the same bytes on every run, signed
``limit:N``; ``run dip --tests --input`` samples the test set the same way."""

from __future__ import annotations

import json

import pytest

from discotest.dip.run import read_tests, sampled_tests
from tests.support.cli_helpers import run_cli

pytest.importorskip("spacy")

SLICE = ("--data", "wmt22", "--pair", "de-en", "--max-docs", "6", "--systems", "LT22,Online-B",
         "--phenomena", "lexical,connectives", "-q")


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_rank_and_score_on_the_same_stratified_sample(shared_data, tmp_path, capsys):
    code, first, _ = run_cli(capsys, "run", "dip", *SLICE, "--limit", "9", "--format", "json")
    assert code == 0
    code, second, _ = run_cli(capsys, "run", "dip", *SLICE, "--limit", "9", "--format", "json")
    assert code == 0 and first == second  # the same bytes twice
    results = json.loads(first)["results"]
    assert [r["system"] for r in results] == ["LT22", "Online-B"]
    for result in results:
        assert result["n"] == 9 and "|limit:9|files:" in result["signature"]
        counts = dict(part.split("=") for part in result["signature"].split("|items:")[1].split("|")[0].split(","))
        assert set(counts) == {"lexical", "connectives"} and all(int(n) > 0 for n in counts.values())
    code, _, _ = run_cli(capsys, "mine", "dip", *SLICE, "-o", str(tmp_path / "t"))
    assert code == 0
    _, tests = read_tests(tmp_path / "t")
    assert sum(map(len, tests.values())) > 9
    hyp = shared_data / "wmt22_general/txt/system-outputs/generaltest2022.de-en.hyp.Online-B.en"
    code, out, _ = run_cli(capsys, "run", "dip", "--tests", str(tmp_path / "t"), "--input", str(hyp), "--limit", "9",
                           "--format", "json", "-q")
    assert code == 0
    scored = json.loads(out)["results"][0]
    sample = sampled_tests(tests, 9)
    assert scored["n"] == 9 and "|limit:9|" in scored["signature"]
    assert f"items:lexical={len(sample['lexical'])},connectives={len(sample['connectives'])}" in scored["signature"]
    # the rank's sample is the test set's: the same items (mined from the same two systems) in both
    assert f"items:lexical={len(sample['lexical'])},connectives={len(sample['connectives'])}" in results[1]["signature"]
