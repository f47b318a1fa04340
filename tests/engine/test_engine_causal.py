"""Decoder-only LLMs on the ray engine: contrastive scoring and translation by the existing actor pool give the local
engine's output byte for byte (tiny random Qwen3 with its real tokenizer, tests/support/tiny_llm.py). On one actor:
the order put back from two is the seq2seq tests' (test_engine.py, test_engine_models.py) (an actor: ~7 s of CPU)."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="the ray engine needs Ray (pip install 'discotest[ray]'; CI installs it)")
pytest.importorskip("transformers")

from discotest.engine import ENGINES  # noqa: E402
from discotest.models import causal_scorer, ray_pool  # noqa: E402
from discotest.models.causal_translator import CausalTranslator  # noqa: E402
from tests.support.cli_helpers import run_cli  # noqa: E402
from tests.support.ray_helpers import local_ray, spy  # noqa: E402


@pytest.fixture(scope="module")
def ray_instance():
    yield from local_ray()


def _driver_cannot(monkeypatch, owner, name: str) -> None:
    def fail(*args, **kwargs):
        raise AssertionError(f"{name} ran in the driver, not on a Ray actor")

    monkeypatch.setattr(owner, name, fail)


@pytest.mark.parametrize("kv", ["shared"])
def test_causal_scores_are_the_same_on_both_engines(ray_instance, tiny_llms, kv, tmp_path, monkeypatch, capsys):
    pools = spy(monkeypatch, ray_pool, "map_on_actors", record=lambda make, kwargs, payloads, **o: make.__name__)
    outputs = {}
    for engine in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{engine}"))
        if engine == "ray":
            _driver_cannot(monkeypatch, causal_scorer, "score_items_batch")
        code, out, err = run_cli(capsys, "run", "jazp", "--model", str(tiny_llms["qwen3"]), "--context", "1",
                                 "--kv", kv, "-q", "--format", "json", "--engine", engine, "--ray-actors", "1")
        assert code == 0, err
        outputs[engine] = out
    assert outputs["ray"] == outputs["local"] and pools == ["causal_scoring_worker"]


def test_causal_translations_are_the_same_on_both_engines(ray_instance, tiny_llms, tmp_path, monkeypatch, capsys):
    source = tmp_path / "doc.txt"
    source.write_text("The doctor asked the nurse to help her.\nHe left.\nThe nurse met the chief.\n", "utf-8")
    lines = {}
    for engine in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{engine}"))
        if engine == "ray":
            _driver_cannot(monkeypatch, CausalTranslator, "generate")
        out = tmp_path / f"de.{engine}.txt"
        code, _, err = run_cli(capsys, "translate", "--input", str(source), "--lang", "de", "--model",
                               str(tiny_llms["qwen3"]), "--max-length", "6", "--batch-size", "2", "-o", str(out),
                               "--engine", engine, "-q", "--ray-actors", "1")
        assert code == 0, err
        lines[engine] = out.read_bytes()
    assert lines["ray"] == lines["local"] and lines["local"].count(b"\n") == 3
