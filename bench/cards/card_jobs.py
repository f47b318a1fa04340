"""A published system's whole card, cold, with 1 and with 2 row workers (``--jobs``): wall and CPU seconds, the load
around it, and each row's seconds. Issue 55's goal is ``card --system google`` over every pair cold in <= 60 s on a
quiet machine; issue 52 item 4 scores the rows in parallel over cores (``cards/parallel.py``).

    .venv/bin/python -m bench.cards.card_jobs [--system google] [--pairs all] [--jobs 1,2] [--src DIR]

Each run is ``discotest card --system S --format json`` in a process of its own with a fresh ``DISCOTEST_CACHE``
(cold: every verdict, link and reading computed again) and ``DISCOTEST_MODELS`` at the user cache, where the alignment
models are trained already (a first run trains them: its time is then not the card's). ``--src`` times another
checkout's card (its ``src`` folder; ``--jobs 0`` gives no ``--jobs``: that checkout's default). CPU seconds are the
process tree's (``RUSAGE_CHILDREN``: the card, its workers and their aligners). Per row: its measured seconds as the
card records them for ``--dry-run`` (``cards.build._measured``: the row's own run, with its share of a run over
several languages). The JSON of every run is compared: the cards must be byte-identical. No timed assertion: figures
to quote with the load they were taken at.

Measured 2026-11-29 (2 cores shared by seven sessions, load averages 17-30: wall times say nothing of a quiet
machine; CPU seconds of the whole process tree; 16 rows to run, WinoMT and WinoMT-adj of 8 pairs, 41 unfillable;
every card byte-identical, sha256 3f1d1ac5cab5):

| code | --jobs | wall s | CPU s | load before -> after |
|---|---|---|---|---|
| main a43750d (languages in 2 workers, rows one after another) | default | 1226.8 | 125.8 | 27.1 -> 20.0 |
| this branch | 1 | 1294.5 / 1164.9 | 137.4 / 132.7 | 25.6 -> 28.7 / 26.5 -> 19.0 |
| this branch | 2 | 943.9 / 742.7 | 131.2 / 127.1 | 27.2 -> 25.8 / 29.0 -> 17.2 |

Where the CPU goes (``DISCOTEST_TIMING``, summed over the card's processes, --jobs 2): alignment 58.8 s, morphology
28.9, analyser load 8.2, locate 3.0, tokenise 2.6, verdict cache 2.6, suite and translations 1.6, scoring 0.3; about
20 s in no stage (19 interpreters' imports, the rankings' paired bootstraps). Nearly all of it is the run of each
suite over the 8 languages (``build._run_together``, already in worker processes per language); each row then reads
its verdicts back and ranks them. At about 127-137 CPU s, two cores cannot make this card in 60 s of wall even when
both are busy the whole time (>= 64 s): the goal needs the cold path's alignment and morphology cut (issue 55).

Measured 2026-11-29 evening, median of 3 each (loads 25 -> 11 for two pairs of runs, 2 -> 5 for the third; default
--jobs, i.e. 2; the alignment models trained beforehand: main's first run, which trained the WinoMT-adj models, is left
out): main 097bcea against this branch (the seeded bootstrap draw kept, ``stats.resample_counts``; the rows' ranking
timed as the stage "ranking"; WinoMT and WinoMT-adj run in one worker per language, ``gender/together.py``). Every
card byte-identical, sha256 1bf881467713fede0ced05f761414193a9137207aa05702c5160edbded4c0883. CPU s:

| code | processes | whole (3 runs) | alignment | morphology | analyser load | ranking | other stages | outside |
|---|---|---|---|---|---|---|---|---|
| main 097bcea | 19 | 116.0 (118.9, 116.0, 112.5) | 55.6 | 26.5 | 7.0 | (outside) | 9.6 | 17.3 |
| this branch | 11 | 103.3 (105.1, 103.3, 101.0) | 55.9 | 25.0 | 3.7 | 1.7 | 9.6 | 7.4 |

Main's 17 s outside the stages were mostly the rows' paired bootstraps (cProfile of the card with --jobs 1: 57% of the
rows' time, the draw made again for each of a row's nine tests) and the eight more interpreters of a worker per
suite and language; an interpreter's imports are 0.13-0.25 CPU s, not the bulk.

Measured 2026-11-29 night (issue 55, the card's rows beside the languages' runs; loads 15-32, so wall times and the
cores-busy line say nothing of a quiet machine; every card byte-identical, sha256 26c66846f616…, main 73cab0a and
this branch). Main, median of 3: CPU 105.7 s (143.2, 103.8, 105.7), 11 processes; by stage alignment 57.7,
morphology 22.3, analyser load 3.9, locate 2.9, tokenise 2.6, verdict cache 2.5, ranking 2.2, suite and
translations 1.6, scoring 0.2; outside the stages 8.9. Its timeline (process spans): 8 language workers, two at a
time, the last language (uk) alone on its core for 13-15% of the wall (76 of 568 s, 222 of 1,443 s), then the 16 rows
in two new workers (18-80 s, 3-5.5%). On this branch the card's process ranks each language's two rows as soon as its
verdicts are in (``cards.build._together_and_ranked``): no row workers (9 processes), the rows of the first seven
languages ranked while the workers run, and 10 s of 1,562 (1.4 s of 682) after the last language's worker ends.
This branch, median of 2: CPU 103.0 s (103.5, 102.6); its stage split is not comparable (the card's rows' stages
count the language workers the pool reaps meanwhile, ``timing``'s docstring: "outside the stages" came out -25.7).
Tree peak (RSS summed over the processes, sampled every 0.5 s, run 2) 963 MiB, the card's process 227 MiB of it.
Still left to the languages' schedule (gender/together.py): the last language's worker alone on its core.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class BusyCores(threading.Thread):
    """The CPU seconds the card's process tree spends in each interval of ``every`` seconds, read from /proc (each
    living process's user + system ticks, a process first seen counted whole): how many cores it kept busy, when. A
    process that ends between two reads loses its last interval's ticks (under ``every`` of CPU each)."""

    def __init__(self, root: int, every: float = 0.25):
        super().__init__(daemon=True)
        self.root, self.every, self.samples = root, every, []  # (seconds since start, CPU seconds in the interval)
        self._stop_event = threading.Event()
        self._ticks = os.sysconf("SC_CLK_TCK")

    def _cpu(self) -> dict[int, float]:
        parents, used = {}, {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            used[int(entry)] = (int(fields[11]) + int(fields[12])) / self._ticks
        tree, grown = {self.root}, True
        while grown:
            more = {pid for pid, parent in parents.items() if parent in tree} - tree
            tree |= more
            grown = bool(more)
        return {pid: used[pid] for pid in tree if pid in used}

    def run(self) -> None:
        started, last = time.monotonic(), {}
        while not self._stop_event.is_set():
            now = self._cpu()
            self.samples.append((time.monotonic() - started,
                                 sum(cpu - last.get(pid, 0.0) for pid, cpu in now.items())))
            last = now
            self._stop_event.wait(self.every)

    def stop(self) -> list[tuple[float, float]]:
        self._stop_event.set()
        self.join()
        return self.samples


def one_card(system: str, pairs: str, jobs: int, src: Path, scratch: Path, repeat: int = 0) -> dict:
    """One cold card in a process of its own: wall, CPU, load before and after, its JSON's sha256, per-row seconds,
    the stages, and when its processes kept the cores busy (``BusyCores``, the processes' ``timing`` lines)."""
    cache = scratch / f"cache-{src.parent.name}-j{jobs}-{repeat}"
    out = scratch / f"card-{src.parent.name}-j{jobs}-{repeat}.json"
    models = os.environ.get("DISCOTEST_MODELS") or str(Path.home() / ".cache" / "discotest")
    timing = scratch / f"timing-{src.parent.name}-j{jobs}-{repeat}.jsonl"
    env = {**os.environ, "DISCOTEST_CACHE": str(cache), "DISCOTEST_MODELS": models, "PYTHONPATH": str(src),
           "DISCOTEST_TIMING": str(timing)}
    command = [sys.executable, "-m", "discotest", "card", "--system", system, "--format", "json", "-o", str(out), "-q",
               *(["--pairs", pairs] if pairs != "all" else []), *(["--jobs", str(jobs)] if jobs else [])]
    load = os.getloadavg()[0]
    cpu, started, epoch = _children_cpu(), time.monotonic(), time.time()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)
        sampler = BusyCores(process.pid)
        sampler.start()
        returncode = process.wait()
        busy = sampler.stop()
        wall, cpu = time.monotonic() - started, _children_cpu() - cpu
        if returncode not in (0, 1):
            err.seek(0)
            raise SystemExit(f"{' '.join(command)}: exit status {returncode}\n{err.read().decode(errors='replace')}")
    return {"src": str(src), "jobs": jobs, "wall": wall, "cpu": cpu, "load": (load, os.getloadavg()[0]),
            "sha256": hashlib.sha256(out.read_bytes()).hexdigest(), "rows": row_seconds(system, pairs, cache),
            "stages": stages(timing), "busy": busy, "processes": processes(timing, epoch)}


def processes(timing: Path, epoch: float) -> list[dict]:
    """Each reporting process (``timing``'s lines): seconds from the card's start to its own start and end, its CPU
    seconds in stages and its own (children left out: the card's stages count the language workers its pool reaps
    meanwhile), and its spans (label, start, end, CPU) on the same clock, in order of start."""
    lines = [json.loads(line) for line in timing.read_text().splitlines()] if timing.exists() else []
    out = []
    for line in lines:
        began, ended = line["span"]
        out.append({"pid": line["pid"], "start": None if began is None else began - epoch, "end": ended - epoch,
                    "cpu": sum(line["cpu"].values()), "own": line["process"]["own_cpu"],
                    "spans": [(label, a - epoch, b - epoch, c) for label, a, b, c in line.get("spans", [])]})
    return sorted(out, key=lambda p: (p["start"] is None, p["start"] or 0.0))


def busy_profile(busy: list[tuple[float, float]], wall: float, parts: int = 10) -> list[float]:
    """Mean cores busy in each tenth of the card's wall time (``BusyCores``' samples)."""
    edges = [wall * i / parts for i in range(parts + 1)]
    out = []
    for low, high in zip(edges, edges[1:]):
        spent = sum(cpu for t, cpu in busy if low < t <= high)
        out.append(spent / (high - low) if high > low else 0.0)
    return out


def stages(timing: Path) -> tuple[int, dict[str, float]]:
    """The processes that reported (``DISCOTEST_TIMING``: the card's, its workers') and their CPU seconds per
    stage, summed (``timing.py``: each stage's own time, nested stages apart)."""
    lines = [json.loads(line) for line in timing.read_text().splitlines()] if timing.exists() else []
    out: dict[str, float] = {}
    for line in lines:
        for name, seconds in line["cpu"].items():
            out[name] = out.get(name, 0.0) + seconds
    return len(lines), dict(sorted(out.items(), key=lambda kv: -kv[1]))


def row_seconds(system: str, pairs: str, cache: Path) -> dict[str, float]:
    """Each row's measured seconds in ``cache`` (``cards.build._measured``), by row key."""
    os.environ["DISCOTEST_CACHE"] = str(cache)
    from discotest.cards import card_settings
    from discotest.cards.build import _measured, resolve

    spec, _, rows = resolve(card_settings({"system": system, **({"pairs": pairs} if pairs != "all" else {})}))
    return {row.key: measured["seconds"] for row in rows if (measured := _measured(spec, row)) is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="google")
    parser.add_argument("--pairs", default="all")
    parser.add_argument("--jobs", default="1,2", help="the --jobs of each run, comma-separated (0: none given)")
    parser.add_argument("--src", default=str(REPO / "src"),
                        help="the src folder of the checkout to time; several, comma-separated, run interleaved")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each (src, jobs), interleaved; medians")
    parser.add_argument("--json", help="write every run's figures here")
    args = parser.parse_args()
    sources = [Path(src).resolve() for src in args.src.split(",")]
    with tempfile.TemporaryDirectory(prefix="discotest-bench-card-jobs-") as scratch:
        runs = [one_card(args.system, args.pairs, int(jobs), src, Path(scratch), repeat)
                for repeat in range(args.repeats) for src in sources for jobs in args.jobs.split(",")]
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1))
    print(f"card --system {args.system} --pairs {args.pairs}, cold (fresh cache, alignment models trained), "
          f"{os.cpu_count()} cores")
    for run in runs:
        print(f"{run['src']} --jobs {run['jobs'] or '(default)'}: wall {run['wall']:.1f} s, CPU {run['cpu']:.1f} s, "
              f"load {run['load'][0]:.1f} -> {run['load'][1]:.1f}, card sha256 {run['sha256']}")
        print("  cores busy per tenth of the wall: " + " ".join(f"{c:.2f}" for c in busy_profile(run["busy"],
                                                                                             run["wall"])))
        for each in run["processes"]:
            spans = "; ".join(f"{label} {a:.1f}-{b:.1f} ({c:.1f} CPU)" for label, a, b, c in each["spans"])
            start = "?" if each["start"] is None else f"{each['start']:.1f}"
            own = "" if each.get("own") is None else f", {each['own']:.1f} CPU s its own"
            print(f"  pid {each['pid']}: {start}-{each['end']:.1f} s, {each['cpu']:.1f} CPU s in stages{own}"
                  + (f": {spans}" if spans else ""))
    print("byte-identical cards:", len({run["sha256"] for run in runs}) == 1)
    for src in sources:
        for jobs in args.jobs.split(","):
            mine = [run for run in runs if run["src"] == str(src) and run["jobs"] == int(jobs)]
            names = dict.fromkeys(name for run in mine for name in run["stages"][1])
            print(f"{src} --jobs {jobs}, median of {len(mine)}: wall {statistics.median(r['wall'] for r in mine):.1f}"
                  f" s, CPU {statistics.median(r['cpu'] for r in mine):.1f} s "
                  f"({', '.join(format(r['cpu'], '.1f') for r in mine)}), processes {mine[0]['stages'][0]}; "
                  "CPU s by stage: "
                  + ", ".join(f"{name} {statistics.median(r['stages'][1].get(name, 0.0) for r in mine):.1f}"
                              for name in names)
                  + f"; outside the stages "
                    f"{statistics.median(r['cpu'] - sum(r['stages'][1].values()) for r in mine):.1f}")
    keys = list(runs[0]["rows"])
    print(f"{'row':<24}" + "".join(f"{'j' + str(run['jobs']):>9}" for run in runs) + "  (seconds, as recorded)")
    for key in keys:
        print(f"{key:<24}" + "".join(f"{run['rows'].get(key, float('nan')):9.1f}" for run in runs))


if __name__ == "__main__":
    main()
