"""mZPRT and Wino-X on the ray engine give the local engine's bytes; the process's Ray keeps the address it joined;
a quiet contrastive run on Ray prints nothing on stderr.

One local Ray instance with 2 CPUs serves the whole module; every run gets a fresh cache unless the test is about the
cache, so each engine aligns for itself. mZPRT runs on a hand-made data directory (a few sentences per domain) with the
real seeded Thot aligner, so an alignment takes a second, not the minute the real background takes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the ray engine needs Ray (pip install 'discotest[ray]'; CI installs it)")

from discotest import engine  # noqa: E402 - after the skip
from discotest.data import catalogue  # noqa: E402
from discotest.engine import ENGINES, RayEngine, ray_engine  # noqa: E402
from discotest.errors import InputError  # noqa: E402
from discotest.lang.align import model as model_module  # noqa: E402
from discotest.lang.align.thot_aligner import ThotAligner  # noqa: E402
from discotest.zero_pronoun.mzprt import DOMAINS  # noqa: E402
from discotest.zero_pronoun.run import _train_model  # noqa: E402
from tests.support.cli_helpers import results_of, run_cli  # noqa: E402
from tests.support.ray_helpers import local_ray, spy  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
WINOX = REPO / "tests" / "fixtures" / "winox"

# QA: two documents, three scored ZPs (我 and 他 subjects, 你 object) and one _UN; every other domain one sentence
QA_ZH = "[doc]\n<我>_S觉得它很好\n我喜欢猫\n他说我的书很好\n[doc]\n<他>_S说<你>_O很好\n<它>_UN好\n你喜欢书吗\n"
QA_EN = ("[doc]\nI think it is very good\nI like cats\nHe said my book is very good\n[doc]\nHe said you are very "
         "good\nGood\nDo you like books ?\n")
OTHER_ZH = "[doc]\n<我>_S来\n"
OTHER_EN = "[doc]\nI come\n"


@pytest.fixture(scope="module")
def ray_instance():
    yield from local_ray()


@pytest.fixture()
def tiny_mzprt(tmp_path, monkeypatch) -> Path:
    """A data dir in the registry's layout holding hand-made mZPRT files (modified data allowed)."""
    monkeypatch.setenv(catalogue.ALLOW_MODIFIED_ENV, "1")
    root = tmp_path / "data"
    for domain in DOMAINS:
        for lang, text in zip(("zh", "en"), (QA_ZH, QA_EN) if domain == "QA" else (OTHER_ZH, OTHER_EN)):
            path = root / catalogue.get_source(f"mzprt-{domain}-{lang}").path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return root


def _no_aligning_here(monkeypatch) -> None:
    """The aligner fails if it trains in this process (a worker unpickles the class unpatched, from its module)."""
    def refuse(self, *args):
        raise AssertionError("the driver trained an aligner")

    monkeypatch.setattr(ThotAligner, "start", refuse)
    monkeypatch.setattr(ThotAligner, "train_model", refuse)


def _own_models(monkeypatch, folder) -> None:
    """A models folder of this engine's own, and nothing unpacked in this process yet: the model is trained here or
    on Ray as the engine decides, never found from the other engine's run."""
    monkeypatch.setenv("DISCOTEST_MODELS", str(folder))
    monkeypatch.setattr(model_module, "_extracted", {})


def test_mzprt_gives_the_same_json_on_both_engines_and_aligns_on_a_worker(ray_instance, tiny_mzprt, tmp_path,
                                                                          monkeypatch, capsys):
    args = ["--data-dir", str(tiny_mzprt), "run", "mzprt", "--domain", "QA", "--system", "reference",
            "--align-extra", "none", "--format", "json", "-q"]
    tasks = spy(monkeypatch, RayEngine, "map_ordered")
    outputs = {}
    for name in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / name))
        _own_models(monkeypatch, tmp_path / name / "models")
        with monkeypatch.context() as patched:
            if name == "ray":
                _no_aligning_here(patched)
            code, outputs[name], err = run_cli(capsys, *args, "--engine", name)
        assert code == 0, err
    assert outputs["ray"] == outputs["local"]
    # one task from the ray run: training the background's alignment model (6 QA sentences + 1 for each of the 4
    # other domains); the driver decodes with it
    assert [(call[1], [len(a[0].training()) for a in call[2]]) for call in tasks] == [(_train_model, [10])]
    # a real result: the reference translates QA's three scored ZPs, and the _UN one is set aside
    (result,) = results_of(outputs["ray"])
    assert (result["system"], result["n"], result["scores"]["excluded_un"]) == ("reference", 3, 1)

    # the worker's cache entry is the driver's: the local engine reads it and never aligns (and the other way round:
    # the local engine's entry sends no task to Ray)
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "ray"))
    _own_models(monkeypatch, tmp_path / "ray" / "models")
    with monkeypatch.context() as patched:
        _no_aligning_here(patched)
        code, again, err = run_cli(capsys, *args, "--engine", "local")
    assert code == 0 and again == outputs["local"], err
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "local"))
    _own_models(monkeypatch, tmp_path / "local" / "models")
    code, again, err = run_cli(capsys, *args, "--engine", "ray")
    assert code == 0 and again == outputs["local"], err
    assert len(tasks) == 1


def test_mzprt_inputs_align_in_one_task_each_and_come_back_in_order(ray_instance, tiny_mzprt, tmp_path, monkeypatch):
    # --align-train input: the reference and two inputs are three alignment runs (the background, and it with each
    # input) as three tasks on two CPUs, so the links must be put back in the order of the runs
    from discotest.report.emit import Report
    from discotest.zero_pronoun.run import run_mzprt

    good = tmp_path / "good.en"
    good.write_text("I think it very good\nI like cats\nHe said my book very good\nHe said you are very good\nGood\n"
                    "Do you like books ?\n", encoding="utf-8")
    dropped = tmp_path / "dropped.en"
    dropped.write_text("think it very good\nlike cats\nsaid book good\nsaid very good\nGood\nLike books ?\n",
                       encoding="utf-8")
    tasks = spy(monkeypatch, RayEngine, "map_ordered")
    reports = {}
    for name in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / name))
        results = run_mzprt(["QA"], systems=["reference"], inputs=[good, dropped], data_dir=tiny_mzprt, extra="none",
                            engine=name, align_train="input")
        report = Report("mzprt", results)
        reports[name] = (json.dumps(report.to_json()), report.detail_rows())
    assert reports["ray"] == reports["local"]  # scores, and each ZP's aligned words and verdict
    assert [[len(a[1]) for a in call[2]] for call in tasks] == [[10, 16, 16]]
    assert [r["system"] for r in json.loads(reports["ray"][0])["results"]] == ["reference", "good.en", "dropped.en"]


def test_winox_judges_in_the_driver_on_both_engines(ray_instance, tmp_path, monkeypatch, capsys):
    args = ["run", "winox", "--lang", "fr", "--suite-file", str(WINOX / "en_fr_test.jsonl"), "--input",
            str(WINOX / "system.fr.txt"), "--format", "json", "-q"]
    started = spy(monkeypatch, RayEngine, "start")
    outputs = {}
    for name in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / name))
        code, outputs[name], err = run_cli(capsys, *args, "--engine", name)
        assert code == 0, err
    assert outputs["ray"] == outputs["local"]
    assert results_of(outputs["ray"])[0]["n"] == 10  # the fixture's ten items, judged
    assert started == []  # Wino-X never asks Ray for anything


def test_another_address_in_the_same_process_is_an_error(ray_instance, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    first = RayEngine("10.0.0.1:6379")
    first.started = True  # as if this process had joined that cluster (Ray is up: the module's instance)
    monkeypatch.setattr(engine, "_ENGINE", first)
    assert ray_engine("10.0.0.1:6379") is first  # the same address: the same engine
    with pytest.raises(InputError, match=r"^Ray is already connected to the cluster at 10\.0\.0\.1:6379 in this "
                                         r"process; run the one at 10\.0\.0\.2:6379 in a process of its own$"):
        ray_engine("10.0.0.2:6379")
    with pytest.raises(InputError, match="run the one at a local instance"):
        ray_engine(None)  # no address (and no $RAY_ADDRESS) asks for a local instance: not the cluster either
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert ray_engine(None) is first  # $RAY_ADDRESS names the same cluster

    # Ray shut down since: the next run starts or joins afresh, at the address it asks for
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    assert ray_engine("10.0.0.2:6379").address == "10.0.0.2:6379"


def test_a_ray_the_caller_started_is_used_as_it_is(ray_instance, monkeypatch):
    monkeypatch.setattr(engine, "_ENGINE", None)
    local = ray_engine(None)
    assert local.start() is ray and not local.started  # the module's ray.init, not ours
    elsewhere = ray_engine("10.0.0.2:6379")  # not an error: this process never joined anything itself
    assert elsewhere.start() is ray and not elsewhere.started


def test_a_quiet_contrastive_run_on_ray_prints_nothing(ray_instance, tiny_marian, tmp_path):
    # a driver of its own (Ray's core worker logs its warnings once per process) joining the module's instance;
    # before max_restarts=0 it printed "Actor ... has constructor arguments in the object store ..." with -q
    address = ray.get_runtime_context().gcs_address
    env = {**os.environ, "DISCOTEST_CACHE": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(filter(None, (str(REPO / "src"), str(REPO), os.environ.get("PYTHONPATH"))))}
    done = subprocess.run([sys.executable, "-m", "discotest", "run", "jazp", "--model", str(tiny_marian),
                           "--batch-size", "8", "--engine", "ray", "--ray-address", address, "--format", "json", "-q",
                           "--ray-actors", "1"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert results_of(done.stdout)[0]["n"] == 44  # jazp's 44 items, scored by the actors
