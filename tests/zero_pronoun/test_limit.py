"""``--limit N`` on mZPRT: per domain a deterministic sample of N scored zero pronouns, stratified by the ZP's form,
the same bytes on every run, signed ``limit:N``; the file is aligned whole, so a sampled ZP's verdict is the whole
run's."""

from __future__ import annotations

import pytest

import discotest
from discotest.zero_pronoun.mzprt import load_mzprt
from discotest.zero_pronoun.run import sampled_zps
from tests.support.cli_helpers import same_bytes_twice

pytestmark = pytest.mark.slow  # the mZPRT background's alignment model, shared by the session's mZPRT tests


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_mzprt_sample_is_stratified_deterministic_and_the_whole_runs(shared_data, capsys):
    args = ("run", "mzprt", "--domain", "QA", "--system", "base_tgt", "--limit", "30", "--format", "json", "-q")
    result = same_bytes_twice(capsys, *args)
    assert result["n"] == 30 and "|limit:30|files:" in result["signature"]
    suite = load_mzprt("QA", str(shared_data))
    forms = {zp.form for zp in suite.zps if zp.scored}
    sample = sampled_zps(suite, 30)
    by_key = {(zp.segment, zp.ordinal): zp for zp in suite.zps}
    assert len(forms) > 1 and {by_key[key].form for key in sample} == forms  # every form present
    part = discotest.run("mzprt", domain="QA", system="base_tgt", limit=30, quiet=True).results[0]
    whole = discotest.run("mzprt", domain="QA", system="base_tgt", quiet=True).results[0]
    assert {(v.segment, v.ordinal) for v in part.verdicts} == sample
    by_zp = {(v.segment, v.ordinal): v for v in whole.verdicts}
    assert all(v == by_zp[(v.segment, v.ordinal)] for v in part.verdicts)
