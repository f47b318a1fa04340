"""A model is loaded once per process (``hf_models.LOADED_MODELS``), and a decoder-only LLM's tokenizer too
(``LOADED_TOKENIZERS``): a card's rows and runs one after another share them, files changed on disk load again, and
the numbers are those of a fresh load."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("transformers")

import discotest  # noqa: E402
from discotest.models import causal_lm, hf_models  # noqa: E402
from discotest.models.causal_scorer import CausalScorer  # noqa: E402
from discotest.models.translator import ModelTranslator  # noqa: E402
from tests.support.ray_helpers import spy  # noqa: E402


@pytest.fixture
def nothing_loaded(monkeypatch, tmp_path):
    """Empty memos (an earlier test of this process may have loaded the session's tiny models), a cache of the
    test's own, and the memos emptied again after the test."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    for memo in (hf_models.LOADED_MODELS, hf_models.LOADED_TOKENIZERS):
        memo.clear()
    yield
    for memo in (hf_models.LOADED_MODELS, hf_models.LOADED_TOKENIZERS):
        memo.clear()


def _jazp(model, cache, monkeypatch, **options) -> str:
    monkeypatch.setenv("DISCOTEST_CACHE", str(cache))
    report = discotest.run("jazp", model=str(model), limit=3, quiet=True, **options)
    return json.dumps(report.to_json(), sort_keys=True)


def test_runs_one_after_another_load_the_model_once_and_give_a_fresh_loads_numbers(tiny_llms, nothing_loaded,
                                                                                     tmp_path, monkeypatch):
    loads = spy(monkeypatch, causal_lm, "load_causal_lm")
    tokenizers = spy(monkeypatch, hf_models, "load_tokenizer")
    first = _jazp(tiny_llms["qwen3"], tmp_path / "one", monkeypatch, context=[0])
    second = _jazp(tiny_llms["qwen3"], tmp_path / "two", monkeypatch, context=[1])  # a cache of its own: it scores
    assert len(loads) == 1 and len(tokenizers) == 1
    for memo in (hf_models.LOADED_MODELS, hf_models.LOADED_TOKENIZERS):
        memo.clear()
    # the other way round: each run's numbers are the same whether its model was loaded for it or kept
    assert _jazp(tiny_llms["qwen3"], tmp_path / "three", monkeypatch, context=[1]) == second
    assert _jazp(tiny_llms["qwen3"], tmp_path / "four", monkeypatch, context=[0]) == first
    assert len(loads) == 2  # loaded again after the memos were emptied, once for both runs


def test_a_changed_file_loads_again_and_one_model_is_kept(tiny_llms, nothing_loaded, tmp_path, monkeypatch):
    folder = tmp_path / "model"
    shutil.copytree(tiny_llms["qwen3"], folder)
    loads = spy(monkeypatch, causal_lm, "load_causal_lm")

    def model_of(name):
        return CausalScorer(str(name), src_lang="en", tgt_lang="de", quiet=True, use_cache=False).model

    first = model_of(folder)
    assert model_of(folder) is first and len(loads) == 1
    config = folder / "config.json"
    stat = config.stat()
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # rewritten: the same folder, new files
    changed = model_of(folder)
    assert changed is not first and len(loads) == 2
    other = model_of(tiny_llms["llama3_1"])  # another model: the one kept is dropped before it loads
    assert len(loads) == 3 and model_of(folder) is not changed and len(loads) == 4
    assert other is not changed


def test_llm_tokenizers_are_shared_and_seq2seq_ones_are_not(tiny_llms, tiny_marian, nothing_loaded):
    """A translator sets a seq2seq tokenizer's languages: each translator has its own; an LLM's is never changed."""
    scorers = [CausalScorer(str(tiny_llms["gemma3"]), src_lang="en", tgt_lang=lang, quiet=True, use_cache=False)
               for lang in ("de", "fr")]
    assert scorers[0].tokenizer is scorers[1].tokenizer
    translators = [ModelTranslator(str(tiny_marian), lang, quiet=True) for lang in ("de", "fr")]
    assert translators[0].tokenizer is not translators[1].tokenizer
    assert translators[0].model is translators[1].model  # the weights are shared: nothing changes them
