"""The ray engine gives the local engine's numbers, byte for byte, and survives a worker that dies.

One local Ray instance with 2 CPUs serves the whole module (as CI runs it); every run gets a fresh cache, so each
engine computes its alignments and readings itself rather than reading the other's. Models on Ray (translation, and
contrastive scores to the last bit) are test_engine_models.py's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the ray engine needs Ray (pip install 'discotest[ray]'; CI installs it)")

import discotest  # noqa: E402 - after the skip
from discotest.engine import ENGINES, RayEngine, import_ray, resolve_engine  # noqa: E402
from discotest.errors import InputError  # noqa: E402
from tests.support.cli_helpers import results_of, run_cli  # noqa: E402
from tests.support.ray_helpers import local_ray, spy  # noqa: E402


@pytest.fixture(scope="module")
def ray_instance():
    yield from local_ray(__name__)  # the tasks below are this module's functions: workers get them by value


def _fresh_cache(monkeypatch, tmp_path: Path, name: str) -> None:
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / name))


def test_winomt_gives_the_same_json_on_both_engines(ray_instance, shared_data, tmp_path, monkeypatch, capsys):
    """Two languages: the local engine uses its process pool, the ray engine submits a task per language; the same
    JSON, and a rerun in the ray run's cache reads every verdict back without a task. On WinoMT-demo's published
    outputs (de, es: German's and Spanish's analysers), 16 rows each, so that the test pays for the engines' handling,
    not a whole suite's analysis: whole suites on Ray are the next test, against the recorded verdicts."""
    args = ["--data-dir", str(shared_data), "run", "winomt-demo", "--lang", "de,es", "--system", "demo", "--format",
            "json", "-q"]
    tasks = spy(monkeypatch, RayEngine, "map_ordered")
    outputs = {}
    for engine in ENGINES:
        _fresh_cache(monkeypatch, tmp_path, engine)
        code, outputs[engine], err = run_cli(capsys, *args, "--engine", engine)
        assert code == 0, err
    assert outputs["ray"] == outputs["local"]
    assert [len(call[2]) for call in tasks] == [2]  # a task per language, ray run only
    # again in the ray run's cache: every verdict is cached, so they are read back here and Ray gets no task
    code, again, err = run_cli(capsys, *args, "--engine", "ray")
    assert code == 0 and again == outputs["ray"], err
    assert len(tasks) == 1
    # a real run, not two empty reports: both pairs, with the demo's 16 rows each
    assert [(r["system"], r["lang"], r["n"]) for r in results_of(outputs["ray"])] == [("demo", "de", 16),
                                                                                       ("demo", "es", 16)]


# Whole suites on Ray, against the verdicts bench/release/verdict_identity.py recorded from local runs: Arabic and
# Russian, whose analysers (Arabic's Farahidi and word readings, Russian's pymorphy3 and natasha) the demo test above
# (German, Spanish) does not load in a Ray worker. The Ray path is the same for every language (a task per language,
# run.py's worker function in a Ray worker); each language's own verdicts and result, all 8, are
# tests/gender/test_end_to_end.py's test_all_languages_in_one_table (local) against the same record.
RAY_WHOLE_SUITES = ("ar", "ru")


def test_whole_suites_on_ray_give_the_local_verdicts(ray_instance, shared_data, tmp_path, monkeypatch, capsys):
    """``run winomt --lang ar,ru --system google --engine ray --jobs 2``: two languages' analysers in Ray workers (a
    task each, both CPUs), every per-item verdict and JSON result byte-identical to the local engine's, as
    bench/release/verdict_identity.py recorded them from local runs (all 33 pairs on Ray:
    ``python -m bench.release.verdict_identity --engine ray``, minutes more than CI's time allows)."""
    import hashlib

    figures = Path(__file__).resolve().parents[2] / "bench" / "figures" / "winomt_verdicts.json"
    recorded = json.loads(figures.read_text())
    recorded = {k: v for k, v in recorded["noun"].items()
                if k.endswith("/google") and k.split("/")[0] in RAY_WHOLE_SUITES}
    details = tmp_path / "items.jsonl"
    _fresh_cache(monkeypatch, tmp_path, "whole-suites")
    tasks = spy(monkeypatch, RayEngine, "map_ordered")
    code, out, err = run_cli(capsys, "--data-dir", str(shared_data), "run", "winomt", "--lang",
                             ",".join(RAY_WHOLE_SUITES), "--system", "google", "--format", "json", "-q", "--details",
                             str(details), "--engine", "ray", "--jobs", "2")
    assert code == 0, err
    assert [len(call[2]) for call in tasks] == [len(RAY_WHOLE_SUITES)]  # a task per language, on Ray
    lines: dict[str, list[str]] = {}
    for line in details.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        lines.setdefault(f"{item['lang']}/{item['system']}", []).append(line)
    assert sorted(lines) == sorted(recorded) and len(recorded) == len(RAY_WHOLE_SUITES)
    results = results_of(out)
    for key, pair_lines in lines.items():
        lang, system = key.split("/")
        result = [r for r in results if r["lang"] == lang and r["system"] == system]
        assert hashlib.sha256("\n".join(pair_lines).encode()).hexdigest() == recorded[key]["details_sha256"], key
        assert hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest() == \
            recorded[key]["result_sha256"], key


def test_what_ray_prints_goes_to_stderr_not_into_the_json(shared_data, tmp_path):
    """A Ray worker dies during a ``--engine ray --format json`` run: Ray's driver prints ``(raylet) A worker died …``
    to ``sys.stdout`` whatever ``log_to_driver`` says; the CLI sends it (and a native write to fd 1, a child's output,
    a print) to stderr, and the JSON on stdout parses. Its own Ray instance, in a child process."""
    from tests.support.stray_stdout import RAYLET, assert_report_alone, run_with_strays

    proc = run_with_strays(tmp_path / "cache", "--data-dir", str(shared_data), "run", "winomt-demo", "--lang",
                           "de,es", "--system", "demo", "--format", "json", "-q", "--engine", "ray")
    assert proc.returncode == 0, proc.stderr
    assert [(r["lang"], r["n"]) for r in results_of(proc.stdout)] == [("de", 16), ("es", 16)]
    assert_report_alone(proc, RAYLET)


def _dies_once(marker: str, x: int) -> int:
    """x², but the task for x == 1 kills its worker process the first time it runs."""
    if x == 1 and not os.path.exists(marker):
        Path(marker).write_text("died once")
        os._exit(1)
    return x * x


def test_a_killed_worker_is_retried_and_the_order_kept(ray_instance, tmp_path):
    marker = tmp_path / "died"
    seen = []
    results = RayEngine().map_ordered(_dies_once, [(str(marker), x) for x in range(4)], retries=3,
                                      on_done=lambda position, value: seen.append(position))
    assert results == [0, 1, 4, 9]
    assert marker.exists()  # the worker did die once
    assert sorted(seen) == [0, 1, 2, 3]


def test_without_retries_a_killed_worker_fails_the_run(ray_instance, tmp_path):
    # the same function with retries=0: what the retry in the test above saved
    with pytest.raises(ray.exceptions.RayError):
        RayEngine().map_ordered(_dies_once, [(str(tmp_path / "died"), 1)], retries=0)


def test_an_input_error_in_a_task_comes_back_as_itself(ray_instance):
    with pytest.raises(InputError, match="^suite.txt:3: bad row$"):
        RayEngine().map_ordered(_bad_row, [()])


def _bad_row() -> None:
    raise InputError("bad row", "suite.txt", 3)


def test_resolve_engine(monkeypatch):
    monkeypatch.delenv("DISCOTEST_ENGINE", raising=False)
    assert resolve_engine(None) == "local"
    monkeypatch.setenv("DISCOTEST_ENGINE", "ray")
    assert resolve_engine(None) == "ray"
    assert resolve_engine("local") == "local"  # the flag wins over the environment
    with pytest.raises(InputError, match="--engine must be one of local, ray, not 'spark'"):
        resolve_engine("spark")
    monkeypatch.setenv("DISCOTEST_ENGINE", "dask")
    with pytest.raises(InputError, match=r"\$DISCOTEST_ENGINE must be one of local, ray, not 'dask'"):
        resolve_engine(None)


def test_the_api_checks_the_engine_before_any_work(monkeypatch):
    monkeypatch.delenv("DISCOTEST_ENGINE", raising=False)
    with pytest.raises(InputError, match="--engine must be one of"):
        discotest.run("winomt", lang="de", system="google", engine="spark")


def test_without_ray_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(InputError, match=r"pip install 'discotest\[ray\]'"):
        import_ray()


def test_every_family_takes_the_engine_options():
    """--engine and --ray-address on every suite family: gender and contrastive here, translation and gender --model in
    test_engine_models, dip in test_engine_dip, mzprt and winox in test_engine_families (identical JSON each);
    mt-geneval and mittens judge in the driver on both (test_mt_geneval, test_mittens)."""
    from discotest.registry import families

    names = {f.name: {o.name for o in f.options} for f in families()}
    assert set(names) == {"gender", "contrastive", "zero-pronoun", "winox", "dip", "mt-geneval", "mittens"}
    assert all({"engine", "ray_address"} <= options for options in names.values()), names
