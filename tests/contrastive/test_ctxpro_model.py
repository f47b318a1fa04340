"""CTXPRO translated by a model (``run ctxpro-… --model``): a seq2seq model translates each item's context and sentence
joined, as DeepL was given CTXPRO's inputs; an LLM gets the context in its prompt; either way the translations are
scored exactly as a file of them is, ``--limit`` restricts what is translated, and a second run translates nothing."""

from __future__ import annotations

import json

import pytest

import discotest
from discotest.contrastive.run import limited
from discotest.contrastive.suites import load_suite
from discotest.models.causal_translator import CausalTranslator
from discotest.models.translator import ModelTranslator
from tests.support.cli_helpers import assert_one_line_error, run_cli

SUITE = "ctxpro-auxiliary-en-de-test"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory, shared_data):
    from tests.support.tiny_llm import build_tiny_llm

    return build_tiny_llm("llama3_1", shared_data / "llm_tokenizers", tmp_path_factory.mktemp("tiny-llama"))


def _spy(monkeypatch, cls, method: str) -> list:
    """Record what ``cls.method`` is given (the real method still runs)."""
    seen: list = []
    real = getattr(cls, method)

    def recording(self, batch):
        seen.extend(batch)
        return real(self, batch)

    monkeypatch.setattr(cls, method, recording)
    return seen


def _refuse(monkeypatch, cls, method: str) -> None:
    def refused(self, batch):
        raise AssertionError(f"{method} called: a cached translation was asked for again")

    monkeypatch.setattr(cls, method, refused)


def _report(report) -> str:
    return json.dumps(report.to_json(), sort_keys=True)


def test_a_seq2seq_model_translates_the_sample_joined_with_its_context_and_is_scored_as_its_file(
        shared_data, tiny_marian, tmp_path, monkeypatch):
    # a random model's "German" is no language: its runs skip the language check (tests/models/test_language_watch.py)
    sample = limited(load_suite(SUITE, str(shared_data)), 8)
    given = _spy(monkeypatch, ModelTranslator, "generate")
    report = discotest.run(SUITE, model=str(tiny_marian), context=[0, 2], limit=8, max_length=12, quiet=True,
                           skip_language_check=True)
    plain, joined = report.results
    assert (plain.system, joined.system) == (f"{tiny_marian.name}@ctx0", f"{tiny_marian.name}@ctx2")
    assert (plain.signature.get("context"), joined.signature.get("context")) == ("0", "2:joined")
    assert joined.signature.get("model_hash") and joined.signature.get("limit") == "8"
    # the sample only, each sentence alone and with its last two context sentences before it
    wanted = {i.src for i in sample} | {" ".join((*i.src_context[-2:], i.src)) for i in sample}
    assert set(given) == wanted and any(i.src_context for i in sample)
    assert sorted(v.index for v in joined.verdicts) == sorted(i.index for i in sample)

    # the same translations as a file (the suite's input line ||| translation) give the same verdicts
    by_index = {v.index: v.translation for v in joined.verdicts}
    lines = [f"{'<eos> '.join((*i.src_context, i.src))} ||| {by_index[i.index]}\n" for i in sample]
    path = tmp_path / "joined.de.txt"
    path.write_text("".join(lines), "utf-8")
    # (a random model's "German" is not German: the file's language check is skipped, the scoring is the same)
    from_file = discotest.run(SUITE, input=str(path), limit=8, skip_language_check=True, quiet=True).results[0]
    assert [(v.index, v.correct, v.translation) for v in from_file.verdicts] == \
        [(v.index, v.correct, v.translation) for v in joined.verdicts]
    assert from_file.scores.overall.accuracy == joined.scores.overall.accuracy

    _refuse(monkeypatch, ModelTranslator, "generate")  # a second run translates nothing
    again = discotest.run(SUITE, model=str(tiny_marian), context=[0, 2], limit=8, max_length=12, quiet=True,
                           skip_language_check=True)
    assert _report(again) == _report(report)


def test_an_llm_gets_the_context_in_its_prompt_and_a_second_run_asks_nothing(shared_data, tiny_llama,
                                                                             monkeypatch):
    sample = limited(load_suite(SUITE, str(shared_data)), 4)
    prompts = _spy(monkeypatch, CausalTranslator, "generate_prompts")
    report = discotest.run(SUITE, model=str(tiny_llama), context=[3], limit=4, max_length=6, quiet=True,
                           skip_language_check=True)
    result = report.results[0]
    assert result.signature.get("context") == "3:prompt" and (result.signature.get("prompt") or "").startswith("chat:")
    assert len(prompts) == len({(i.src, i.src_context[-3:]) for i in sample})
    for item in sample:  # each prompt holds its sentence and its last three context sentences, not the one before
        last, older = item.src_context[-3:], item.src_context[:-3]
        text = next(p.text for p in prompts if item.src in p.text and all(c in p.text for c in last))
        if older and all(older[-1] not in s for s in (*last, item.src)):
            assert older[-1] not in text
    _refuse(monkeypatch, CausalTranslator, "generate_prompts")
    assert _report(discotest.run(SUITE, model=str(tiny_llama), context=[3], limit=4, max_length=6, quiet=True,
                                 skip_language_check=True)) == _report(report)


def test_bad_model_requests_end_in_one_line(shared_data, tiny_marian, capsys):
    code, _, err = run_cli(capsys, "run", "ctxpro-formality-en-de-dev", "--model", str(tiny_marian), "--context", "1",
                           "--limit", "2", "-q")
    assert_one_line_error(code, err, "no released context", "--context 0")
    code, _, err = run_cli(capsys, "run", SUITE, "--model", str(tiny_marian), "--system", "deepl-contexts", "-q")
    assert_one_line_error(code, err, "--model translates the suite itself")
