"""mZPRT translated by a model (``run mzprt --model``): the sampled ZPs' sentences only under ``--limit``, scored
exactly as a file of the same translations is, and a second run translates nothing."""

from __future__ import annotations

import json

import pytest

import discotest
from discotest.models.translator import ModelTranslator
from discotest.zero_pronoun.mzprt import load_mzprt
from discotest.zero_pronoun.run import sampled_zps
from tests.support.cli_helpers import assert_one_line_error, run_cli


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


@pytest.mark.slow  # the mZPRT background's alignment model, shared by the session's mZPRT tests
def test_a_model_translates_the_sampled_sentences_scored_as_their_file(shared_data, tiny_marian, tmp_path,
                                                                       monkeypatch):
    suite = load_mzprt("WF", str(shared_data))
    segments = {segment for segment, _ in sampled_zps(suite, 6)}
    given: list[str] = []
    real = ModelTranslator.generate
    monkeypatch.setattr(ModelTranslator, "generate", lambda self, batch: given.extend(batch) or real(self, batch))
    report = discotest.run("mzprt", domain="WF", model=str(tiny_marian), limit=6, max_length=12, quiet=True)
    result = report.results[0]
    assert sorted(given) == sorted({suite.segments[i].source for i in segments})  # the sample's sentences only
    assert result.system == tiny_marian.name and result.kind == "model" and result.scores.n == 6
    assert result.signature.get("model_hash") and result.signature.get("context") == "0"
    assert result.signature.get("limit") == "6"

    path = tmp_path / "wf.en.txt"  # the same translations as a file: source ||| translation
    path.write_text("".join(f"{suite.segments[i].source} ||| {result.hypotheses[i]}\n" for i in sorted(segments)),
                    "utf-8")
    from_file = discotest.run("mzprt", domain="WF", input=str(path), limit=6, skip_language_check=True,
                              quiet=True).results[0]
    assert [(v.segment, v.ordinal, v.correct) for v in from_file.verdicts] == \
        [(v.segment, v.ordinal, v.correct) for v in result.verdicts]
    assert from_file.scores.to_json() == result.scores.to_json()

    monkeypatch.setattr(ModelTranslator, "generate", lambda self, batch: pytest.fail("translated again"))
    again = discotest.run("mzprt", domain="WF", model=str(tiny_marian), limit=6, max_length=12, quiet=True)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(report.to_json(), sort_keys=True)


def test_a_seq2seq_model_takes_no_context_and_a_model_no_file(shared_data, tiny_marian, capsys):
    code, _, err = run_cli(capsys, "run", "mzprt", "--domain", "WF", "--model", str(tiny_marian), "--context", "1",
                           "--limit", "2", "-q")
    assert_one_line_error(code, err, "--context", "decoder-only LLM")
    code, _, err = run_cli(capsys, "run", "mzprt", "--domain", "WF", "--model", str(tiny_marian), "--system",
                           "base_tgt", "-q")
    assert_one_line_error(code, err, "--model translates the suite itself")
