"""Peak memory of the ray engine's gender tasks: how Ray workers are reused decides how many analysers one worker
process keeps loaded.

    .venv/bin/python -m bench.speed.bench_ray_memory [--jobs 2] [--variants pair,pair-fresh,lang] [--local]

``run winomt --lang all --system all --engine ray --jobs 2 --format json``, each run a fresh process with an empty
cache, the summed RSS of its process tree (driver, Ray's daemons, its workers, the aligners' children) sampled every
0.1 s. Variants of the tasks ``gender_run._run_on_ray`` submits:

- ``pair``: one task per (language, system), workers reused (``max_calls=0``): a worker that ran French then Russian
  keeps both analysers;
- ``pair-fresh``: the same tasks, a fresh worker process per task (``max_calls=1``): every task loads its analyser;
- ``lang``: one task per language (all its systems), a fresh worker per task: what the local engine's pool does
  (``max_tasks_per_child=1``).

``--local`` also runs the local engine, and every output is compared with the first one's bytes.

Measured 2026-11-25 at 998ad00 on 2 CPU cores shared with three other busy sessions (load average 9-12, so the wall
times say little), ray 2.60.0, --jobs 2, cold caches:

    pair        wall 620.5 s  tree peak 2914 MiB  (workers reused: one held 1 GB of analysers)
    pair-fresh  wall 613.3 s  tree peak 2079 MiB  (again: 537.5 s, 2100 MiB)
    lang        wall 421.5 s  tree peak 1793 MiB  same bytes as pair and local   <- gender_run._run_on_ray since
    local       wall 290.0 s  tree peak  937 MiB

A local Ray instance alone (its daemons and two idle workers) is 861 MiB, so no Ray variant fits in 1 GB. pair-fresh
printed other bytes than the others: ru/systran evaluated alone in a process scores 45.83, after google, bing and aws
in the same process (local ``--system all``, lang, pair) 46.14, so a verdict of Russian depends on what the process
read before. Fixed since (the Russian analyser memoised natasha's tag of a word pymorphy3 does not know as a noun,
by form; tests/lang/test_morph_ru.py): every variant now gives 45.83, and bench/figures/winomt_verdicts.json has it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench.speed.bench_gender_speed import _TreeSampler

REPO = Path(__file__).resolve().parents[2]


LAUNCH = """
import sys
from discotest.gender import run as gender_run
variant = {variant!r}
if variant:
    def _run_on_ray(tasks, opts, jobs, address, progress):
        from discotest.engine import ray_engine
        langs = gender_run._slowest_first(tasks)
        if variant == "lang":
            args = [(lang, tasks[lang], opts, (), (), True) for lang in langs]
        else:
            args = [(lang, [s], opts, (), (), True) for lang in langs for s in tasks[lang]]
        done = ray_engine(address, jobs).map_ordered(gender_run._evaluate_language, args,
                                                     max_calls=0 if variant == "pair" else 1)
        return [r for results in done for r in results]
    gender_run._run_on_ray = _run_on_ray
from discotest.cli import main
sys.exit(main())
"""


def _env(cache: Path) -> dict[str, str]:
    import os

    src = str(REPO / "src")
    return {**os.environ, "DISCOTEST_CACHE": str(cache),
            "PYTHONPATH": os.pathsep.join(filter(None, (src, os.environ.get("PYTHONPATH"))))}


def run(args: list[str], cache: Path, variant: str | None, every: float = 0.1) -> tuple[float, float, bytes]:
    """(wall seconds, peak tree RSS in MiB, stdout) of one discotest process."""
    import subprocess
    import time

    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH.format(variant=variant), *args, "-q"], env=_env(cache),
                                stdout=out, stderr=err)
        sampler = _TreeSampler(proc.pid, every)
        sampler.start()
        proc.wait()
        sampler.stop()
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise SystemExit(f"{variant} failed:\n{err.read().decode(errors='replace')[-2000:]}")
        return wall, sampler.peak_kib / 1024, out.read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants", default="pair,pair-fresh,lang")
    parser.add_argument("--local", action="store_true", help="also the local engine (the bytes to compare with)")
    parser.add_argument("--keep", metavar="DIR", help="write each run's JSON to DIR/VARIANT.json (to diff them)")
    options = parser.parse_args()
    winomt = ["run", "winomt", "--lang", "all", "--system", "all", "--format", "json", "--jobs", str(options.jobs)]
    runs = [(v, [*winomt, "--engine", "ray"]) for v in options.variants.split(",")]
    if options.local:
        runs.append(("local", [*winomt, "--engine", "local"]))
    first = None
    with tempfile.TemporaryDirectory(prefix="bench-ray-memory-") as tmp:
        for variant, args in runs:
            wall, peak, out = run(args, Path(tmp) / variant, None if variant == "local" else variant)
            first = first if first is not None else out
            if options.keep:
                Path(options.keep).mkdir(parents=True, exist_ok=True)
                (Path(options.keep) / f"{variant}.json").write_bytes(out)
            print(f"{variant:10}  wall {wall:6.1f} s  tree peak {peak:6.0f} MiB  same bytes as the first: "
                  f"{out == first}", flush=True)


if __name__ == "__main__":
    main()
