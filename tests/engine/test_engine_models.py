"""Models on the ray engine: translation (Transformers and CTranslate2), CTranslate2 scoring, and one actor pool for
every context size of a contrastive run — each giving the local engine's output byte for byte.

One local Ray instance with 2 CPUs serves the whole module; every run gets a fresh cache, so each engine translates
and scores itself rather than reading the other's. A ray run is proven to have run on the actors twice over: the
actor-pool map is spied (how many calls, how many batches), and the driver's own model code is made to fail.
The runs use one actor (each actor imports torch and loads the model: ~7 s of CPU of a 2-core CI), except where two
are the point: batches put back in order from two actors (``test_translate_gives_the_same_lines_on_both_engines``:
``ray_pool.map_on_actors``, the map every model's batches go through, contrastive scoring's too).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the ray engine needs Ray (pip install 'discotest[ray]'; CI installs it)")

from discotest.engine import ENGINES  # noqa: E402 - after the skip
from discotest.models import ray_pool  # noqa: E402
from discotest.models.translator import CT2Translator, ModelTranslator  # noqa: E402
from tests.support.cli_helpers import one_result, results_of, run_cli  # noqa: E402
from tests.support.ray_helpers import local_ray, spy  # noqa: E402

SENTENCES = ["my mother called me when she arrived at the station .", "he took a bath when he got home .",
             "they were tired but they kept running .", "it is old but it is still read .",
             "the developer argued with the designer because she did not like the design .",
             "the nurse met the chief ."]


@pytest.fixture(scope="module")
def ray_instance():
    yield from local_ray()


@pytest.fixture(scope="module")
def tiny(tiny_marian):
    """The session's tiny Marian (tests/conftest.py): the same default shape, built once per worker, not per module."""
    return tiny_marian


@pytest.fixture(scope="module")
def tiny_ct2(tmp_path_factory):
    pytest.importorskip("ctranslate2", reason="CTranslate2 is an optional extra")
    from discotest.models.ct2_scorer import convert_model
    from tests.support.tiny_marian import build_tiny_marian

    hf_dir = build_tiny_marian(tmp_path_factory.mktemp("tiny-marian-pad-last"), pad_last=True)  # as Opus-MT
    return convert_model(str(hf_dir), tmp_path_factory.mktemp("tiny-ct2") / "ct2")


def _spy_pool(monkeypatch) -> list[dict]:
    """Record every actor-pool map (its worker factory, its payloads) and still run it."""
    return spy(monkeypatch, ray_pool, "map_on_actors", record=lambda make, kwargs, payloads, **options: dict(
        make=make.__qualname__, module=make.__module__, payloads=list(payloads)))


def _driver_cannot(monkeypatch, owner, name: str) -> None:
    """The driver's own copy of ``owner.name`` fails: only the actors (their own imports) can do the work."""

    def fail(*args, **kwargs):
        raise AssertionError(f"{owner.__name__}.{name} ran in the driver, not on a Ray actor")

    monkeypatch.setattr(owner, name, fail)


def _per_engine(monkeypatch, tmp_path: Path, capsys, args: list[str], before_ray=None,
                details: bool = False) -> dict[str, tuple[str, str]]:
    """``discotest ARGS --engine E`` for both engines, each with a fresh cache: {engine: (stdout, stderr)};
    ``details``: each run's per-item details written to ``tmp_path/details-E.jsonl``."""
    outputs = {}
    for engine in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{engine}"))
        if engine == "ray" and before_ray:
            before_ray()
        more = ["--details", str(tmp_path / f"details-{engine}.jsonl")] if details else []
        code, out, err = run_cli(capsys, *args, *more, "--engine", engine)
        assert code == 0, err
        outputs[engine] = (out, err)
    return outputs


def _translate_per_engine(monkeypatch, tmp_path: Path, capsys, translator: type, args: list[str]) -> dict[str, bytes]:
    """``discotest translate ARGS -o F --engine E`` for both engines, each with a fresh cache, ``translator.generate``
    failing in the driver on the ray run: {engine: the bytes of F}."""
    lines = {}
    for engine in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{engine}"))
        if engine == "ray":
            _driver_cannot(monkeypatch, translator, "generate")
        out = tmp_path / f"de.{engine}.txt"
        code, _, err = run_cli(capsys, "translate", *args, "-o", str(out), "--engine", engine)
        assert code == 0, err
        lines[engine] = out.read_bytes()
    return lines


def test_translate_gives_the_same_lines_on_both_engines(ray_instance, tiny, tmp_path, monkeypatch, capsys):
    # six sentences, batch size 2: three batches over two actors, put back in order by the driver
    source = tmp_path / "en.txt"
    source.write_text("\n".join(SENTENCES) + "\n", "utf-8")
    calls = _spy_pool(monkeypatch)
    lines = _translate_per_engine(monkeypatch, tmp_path, capsys, ModelTranslator, [
        "--input", str(source), "--lang", "de", "--model", str(tiny), "--beam", "2", "--max-length", "12",
        "--batch-size", "2", "-q", "--ray-actors", "2"])
    assert lines["ray"] == lines["local"]
    assert len(lines["ray"].decode("utf-8").splitlines()) == 6
    # one pool for the ray run only, fed the local engine's batches: longest first, two sentences each
    assert [(c["module"], c["make"]) for c in calls] == [("discotest.models.translator", "translation_worker")]
    by_length = sorted(SENTENCES, key=len, reverse=True)
    assert [json.loads(p) for p in calls[0]["payloads"]] == [by_length[0:2], by_length[2:4], by_length[4:6]]
    # the driver wrote the cache: the same command again translates nothing (generate still fails in the driver)
    code, _, err = run_cli(capsys, "translate", "--input", str(source), "--lang", "de", "--model", str(tiny), "--beam",
                           "2", "--max-length", "12", "--batch-size", "2", "-o", str(tmp_path / "again.txt"), "-q",
                           "--engine", "ray")
    assert code == 0, err
    assert (tmp_path / "again.txt").read_bytes() == lines["ray"] and len(calls) == 1


def test_gender_model_run_gives_the_same_json_on_both_engines(ray_instance, tiny, shared_data, tmp_path,
                                                              monkeypatch, capsys):
    calls = _spy_pool(monkeypatch)
    args = ["--data-dir", str(shared_data), "run", "winomt-demo", "--lang", "de", "--model", str(tiny),
            "--max-length", "24", "--batch-size", "8", "--format", "json", "-q", "--ray-actors", "1",
            "--skip-language-check"]  # the tiny random model writes no German
    outputs = _per_engine(monkeypatch, tmp_path, capsys, args,
                          before_ray=lambda: _driver_cannot(monkeypatch, ModelTranslator, "generate"))
    assert outputs["ray"][0] == outputs["local"][0]
    # a real evaluation: the demo's 16 sentences, translated in two batches of 8 on the actors
    assert one_result(outputs["ray"][0])["scores"]["n"] == 16
    assert [[len(json.loads(p)) for p in c["payloads"]] for c in calls] == [[8, 8]]


def test_ct2_scores_and_translations_are_the_same_on_both_engines(ray_instance, tiny_ct2, tmp_path, monkeypatch,
                                                                  capsys):
    from discotest.models import ct2_scorer

    calls = _spy_pool(monkeypatch)
    # jazp's 44 items × 2 candidates at batch size 16: 6 batches; every actor opens its own ctranslate2.Translator
    args = ["run", "jazp", "--model", str(tiny_ct2), "--context", "1", "--batch-size", "16", "--format", "json", "-q",
            "--ray-actors", "1"]
    outputs = _per_engine(monkeypatch, tmp_path / "scores", capsys, args,
                          before_ray=lambda: _driver_cannot(monkeypatch, ct2_scorer, "score_tokens"))
    assert outputs["ray"][0] == outputs["local"][0]
    (result,) = results_of(outputs["ray"][0])
    assert result["n"] == 44 and "|engine:ctranslate2-" in result["signature"]
    assert [(c["make"], len(c["payloads"])) for c in calls] == [("scoring_worker", 6)]
    assert calls[0]["module"] == "discotest.models.ct2_scorer"
    # translation with the same CTranslate2 model
    source = tmp_path / "en.txt"
    source.write_text("\n".join(SENTENCES[:4]) + "\n", "utf-8")
    lines = _translate_per_engine(monkeypatch, tmp_path, capsys, CT2Translator, [
        "--input", str(source), "--lang", "de", "--model", str(tiny_ct2), "--beam", "1", "--max-length", "10",
        "--batch-size", "2", "-q", "--ray-actors", "1"])
    assert lines["ray"] == lines["local"] and len(lines["ray"].decode("utf-8").splitlines()) == 4
    assert [(c["make"], len(c["payloads"])) for c in calls[1:]] == [("translation_worker", 2)]


def test_every_context_size_is_scored_on_one_actor_pool(ray_instance, tiny, tmp_path, monkeypatch, capsys):
    from discotest.models import hf_scorer

    calls = _spy_pool(monkeypatch)
    # jazp, 88 candidates per context size at batch size 8: 11 batches each, 22 in the ray run's one map
    args = ["run", "jazp", "--model", str(tiny), "--context", "0", "--context", "2", "--batch-size", "8",
            "--format", "json", "-q", "--ray-actors", "1"]
    outputs = _per_engine(monkeypatch, tmp_path, capsys, args, details=True,
                          before_ray=lambda: _driver_cannot(monkeypatch, hf_scorer, "score_batch"))
    assert outputs["ray"][0] == outputs["local"][0]
    assert [r["system"] for r in results_of(outputs["ray"][0])] == [f"{tiny.name}@ctx0", f"{tiny.name}@ctx2"]
    # the per-item details hold the model's scores themselves: equal to the last bit, not only the accuracy
    details = {engine: (tmp_path / f"details-{engine}.jsonl").read_text("utf-8") for engine in ENGINES}
    assert details["ray"] == details["local"]
    rows = [json.loads(line) for line in details["ray"].splitlines()]
    assert len(rows) == 88 and all(len(row["scores"]) == 2 for row in rows)  # 44 items at each context size
    assert [(c["make"], len(c["payloads"])) for c in calls] == [("scoring_worker", 22)]
    # each context size keeps its own batches: the first 11 payloads have no context, the last 11 do (longer)
    first, last = calls[0]["payloads"][:11], calls[0]["payloads"][11:]
    assert sum(len(json.loads(p)) for p in first) == sum(len(json.loads(p)) for p in last) == 88
    assert sum(len(r[0]) for p in last for r in json.loads(p)) > sum(len(r[0]) for p in first for r in json.loads(p))
