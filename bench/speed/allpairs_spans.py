"""Where `run winomt --lang all --system all` spends its time cold: per process (the parent and each language's
worker), its span, CPU, stages and what is in no stage, and where a core is idle.

    .venv/bin/python -m bench.speed.allpairs_spans [--repeats 3] [--cache DIR] [--src SRC] [--json FILE]
        [--lang all] [--system all] [--args "--jobs 2"]

With ``--lang de --system google`` the same for one language's process (its time outside the stages: before the
process starts, in it outside every stage, and after its report until it is reaped).

One first run trains the alignment models into ``--cache`` (default: a temporary folder; a folder given is reused, so
a second call trains nothing); then each repeat empties the cache but for the compiled resources and the models
(``bench_gender_speed.keep_resources_only``: what "cold" means there) and runs the command once with
``DISCOTEST_TIMING``. Each discotest process reports its span, its whole wall and CPU and its stages
(``discotest.timing``); a pool worker names its language. Printed per repeat: the busy spans of the workers on a time
line, each process's CPU in and outside the stages, the core-seconds no process used (the cores times the run's wall,
less the tree's CPU), and the medians over the repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import tempfile
from pathlib import Path

from bench.speed.bench_gender_speed import discotest_env, keep_resources_only, run_process

ROOT = Path(__file__).resolve().parents[2]


def one_run(src: Path, cache: Path, data_dir: str, extra: list[str], timing: Path, lang: str = "all",
            system: str = "all") -> dict:
    """The command once in ``cache``: its wall and tree CPU (``run_process``), when it was launched and every
    process's timing line."""
    import sys
    import time

    env = discotest_env(src, str(cache))
    env["DISCOTEST_TIMING"] = str(timing)
    timing.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "discotest", "run", "winomt", "--lang", lang, "--system", system, "--data-dir",
           data_dir, "--quiet", *extra]
    launched = time.time()
    out = run_process(cmd, env)
    lines = [json.loads(line) for line in timing.read_text().splitlines() if line.strip()] if timing.exists() else []
    out["processes"] = lines
    out["launched"] = launched
    return out


def describe(run: dict, cores: int) -> dict:
    """Spans relative to the parent's start, each process's CPU inside and outside its stages, idle core-seconds."""
    procs = run["processes"]
    parent = next((p for p in procs if not any(q["pid"] == p["ppid"] for q in procs)), None)
    t0 = min(p["span"][0] for p in procs if p["span"][0] is not None)
    rows = []
    workers_cpu = sum(p["process"]["cpu"] for p in procs if p is not parent)
    for p in sorted(procs, key=lambda p: p["span"][0] or 0):
        stages_cpu = sum(p["cpu"].values())
        # a process's CPU with the programs it waited for (the stages count them: the aligner's), the parent's less
        # its workers'
        own = p["process"]["cpu"] - (workers_cpu if p is parent else 0.0)
        rows.append({
            "who": "parent" if p is parent else p.get("label") or str(p["pid"]),
            "start": p["span"][0] - t0, "end": p["span"][1] - t0,
            "cpu": own, "in_stages": stages_cpu, "outside": own - stages_cpu,
            "stages": p["cpu"],
        })
    workers = [r for r in rows if r["who"] != "parent"]
    end = max(r["end"] for r in rows)
    # idle core-seconds by the workers' spans (a worker is busy from its start to its report): cores × the run's
    # span less the spans, clipped at the cores; and by CPU: cores × wall less the tree's CPU
    edges = sorted({0.0, end, *(r["start"] for r in workers), *(r["end"] for r in workers)})
    idle_spans = 0.0
    for a, b in zip(edges, edges[1:]):
        busy = sum(1 for r in workers if r["start"] <= a and r["end"] >= b)
        idle_spans += max(0, cores - busy) * (b - a)
    # the parent's wall outside its span: from the launch to its start (the interpreter's own start-up before any of
    # its code runs is in its span), and from its report to its end as the launcher saw it (reaped)
    before = parent["span"][0] - run["launched"] if parent else 0.0
    after = run["launched"] + run["wall"] - parent["span"][1] if parent else 0.0
    return {"wall": run["wall"], "cpu": run["cpu"], "rows": rows, "idle_by_spans": idle_spans,
            "idle_by_cpu": cores * run["wall"] - run["cpu"], "before_start": before, "after_report": after,
            "parent_wall_outside": (parent["span"][1] - parent["span"][0]) - sum(parent["wall"].values())
            if parent else 0.0}


def print_run(d: dict, width: int = 60) -> None:
    scale = width / max(d["wall"], 1e-9)
    print(f"  wall {d['wall']:.2f} s, tree CPU {d['cpu']:.2f} s; idle core-s: {d['idle_by_cpu']:.2f} by CPU, "
          f"{d['idle_by_spans']:.2f} outside the workers' spans; the parent's wall outside its stages "
          f"{d['parent_wall_outside']:.3f} s, before its start {d['before_start']:.3f} s, after its report "
          f"{d['after_report']:.3f} s")
    print(f"  {'process':<8}{'start':>7}{'end':>7}{'CPU':>7}{'stages':>7}{'outside':>8}  time line")
    for r in d["rows"]:
        a, b = int(r["start"] * scale), max(int(r["start"] * scale) + 1, int(r["end"] * scale))
        print(f"  {r['who']:<8}{r['start']:7.2f}{r['end']:7.2f}{r['cpu']:7.2f}{r['in_stages']:7.2f}"
              f"{r['outside']:8.2f}  {' ' * a}{'#' * (b - a)}")


def medians(described: list[dict]) -> dict:
    """Per process label: median CPU, outside-stage CPU and each stage's CPU; the run's wall, CPU and idle."""
    out: dict = {k: statistics.median(d[k] for d in described) for k in (
        "wall", "cpu", "idle_by_cpu", "idle_by_spans", "parent_wall_outside", "before_start", "after_report")}
    who = sorted({r["who"] for d in described for r in d["rows"] if not r["who"].isdigit()})
    per: dict = {}
    for name in who:
        rows = [r for d in described for r in d["rows"] if r["who"] == name]
        stages = sorted({s for r in rows for s in r["stages"]})
        per[name] = {"cpu": statistics.median(r["cpu"] for r in rows),
                     "outside": statistics.median(r["outside"] for r in rows),
                     "stages": {s: statistics.median(r["stages"].get(s, 0.0) for r in rows) for s in stages}}
    out["processes"] = per
    return out


def print_medians(m: dict, n: int) -> None:
    print(f"\nmedian of {n}: wall {m['wall']:.2f} s, tree CPU {m['cpu']:.2f} s, idle core-s {m['idle_by_cpu']:.2f}; "
          f"the parent's wall outside its stages {m['parent_wall_outside']:.3f} s (before its start "
          f"{m['before_start']:.3f}, after its report {m['after_report']:.3f})")
    procs = m["processes"]
    stages = [s for s in sorted({s for p in procs.values() for s in p["stages"]})
              if any(p["stages"].get(s, 0) >= 0.005 for p in procs.values())]
    names = sorted(procs, key=lambda w: (w != "parent", w))
    print(f"{'CPU s':<24}" + "".join(f"{w:>8}" for w in names) + f"{'sum':>8}")
    for s in stages:
        vals = [procs[w]["stages"].get(s, 0.0) for w in names]
        print(f"{s:<24}" + "".join(f"{v:8.2f}" for v in vals) + f"{sum(vals):8.2f}")
    for key in ("outside", "cpu"):
        vals = [procs[w][key] for w in names]
        print(f"{'(' + key + ')':<24}" + "".join(f"{v:8.2f}" for v in vals) + f"{sum(vals):8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cache", help="a cache folder to keep the trained models in (reused if it has them)")
    parser.add_argument("--src", default=str(ROOT / "src"), help="discotest sources to measure (PYTHONPATH)")
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data")))
    parser.add_argument("--lang", default="all")
    parser.add_argument("--system", default="all")
    parser.add_argument("--args", default="", help="more arguments for the command (e.g. '--jobs 2')")
    parser.add_argument("--json", help="write every run's figures and the medians here")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    src = Path(args.src).resolve()
    own = args.cache is None
    cache = Path(args.cache or tempfile.mkdtemp(prefix="discotest-allpairs-"))
    cache.mkdir(parents=True, exist_ok=True)
    timing = Path(tempfile.mkdtemp(prefix="discotest-allpairs-timing-")) / "timing.jsonl"
    extra = shlex.split(args.args)
    print(f"{cores} cores, load average {os.getloadavg()[0]:.2f}, sources {src}, cache {cache}")
    try:
        # trains what is missing; warms nothing kept
        first = one_run(src, cache, args.data_dir, extra, timing, args.lang, args.system)
        print(f"first (models trained where missing): wall {first['wall']:.1f} s, CPU {first['cpu']:.1f} s")
        described = []
        for n in range(args.repeats):
            keep_resources_only(cache)
            print(f"\ncold run {n + 1}, load average {os.getloadavg()[0]:.2f}")
            d = describe(one_run(src, cache, args.data_dir, extra, timing, args.lang, args.system), cores)
            print_run(d)
            described.append(d)
        m = medians(described)
        print_medians(m, len(described))
        if args.json:
            Path(args.json).write_text(json.dumps({"runs": described, "median": m}, indent=1) + "\n")
    finally:
        shutil.rmtree(timing.parent, ignore_errors=True)
        if own:
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
