"""Where a run spends its time: always-on, near-free stage timers, reported only when asked.

The pipelines wrap each stage in ``with stage("alignment"):``; a stage's own time excludes the stages nested in it
(the German lexicon loads inside "morphology" and is counted once, under its own name). Wall time and CPU time are
both kept; CPU time (``os.times``: user + system of this process and of the subprocesses it waited for, such as the
aligner) moves less with the load of a shared machine. Nothing is printed, written or changed unless
``DISCOTEST_TIMING`` names a file: then, at exit, the process appends one JSON line (pid, stages in first-seen
order, seconds) to it, with the parent's pid, the process's span (its start and its report, Unix time) and its whole
wall and CPU, its ``label`` (a pool worker's language) and its ``spans`` (a labelled piece of work, such as a card row
in a worker: when it began and ended, its CPU seconds): what a run spends outside the stages, and which process kept
which core busy when (bench/speed/allpairs_spans.py, bench/cards/card_jobs.py). ``DISCOTEST_TIMING_T0`` (a
``time.time()`` of the launcher) lets ``mark_started`` count the interpreter start-up and imports as the stage
"imports". A stage or span counts the CPU of a child process reaped while it is open, even by another thread: the
card's rows, ranked in its main thread while another thread's pool ends its language workers, count those workers'
CPU too (their own lines count it again; the process's ``own_cpu`` does not). Used by
bench/speed/bench_gender_speed.py.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

ENV_VAR = "DISCOTEST_TIMING"
T0_VAR = "DISCOTEST_TIMING_T0"

_wall: dict[str, float] = {}
_cpu: dict[str, float] = {}
_spans: list[tuple[str, float, float, float]] = []  # (label, time.time() at start and end, CPU seconds)
_open = threading.local()  # per thread (a stage of another thread is timed beside it): its open stages, innermost last


def _stack() -> list[list[float]]:
    """This thread's open stages: [wall start, cpu start, nested wall, nested cpu] each."""
    if not hasattr(_open, "stages"):
        _open.stages = []
    return _open.stages


def _cpu_now() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


_adding = threading.Lock()


def _add(name: str, wall: float, cpu: float) -> None:
    with _adding:
        _wall[name] = _wall.get(name, 0.0) + wall
        _cpu[name] = _cpu.get(name, 0.0) + cpu


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Count the time spent inside the block under ``name`` (less any stage nested in it)."""
    stages = _stack()
    stages.append([time.perf_counter(), _cpu_now(), 0.0, 0.0])
    try:
        yield
    finally:
        start_wall, start_cpu, nested_wall, nested_cpu = stages.pop()
        wall, cpu = time.perf_counter() - start_wall, _cpu_now() - start_cpu
        _add(name, wall - nested_wall, cpu - nested_cpu)
        if stages:
            stages[-1][2] += wall
            stages[-1][3] += cpu


@contextmanager
def span(label: str) -> Iterator[None]:
    """Note when the block began and ended (``time.time()``, comparable across processes) and its CPU seconds, under
    ``label``: the report's ``spans``. Nothing nests or is subtracted: a span is a piece of work, not a stage."""
    started, cpu = time.time(), _cpu_now()
    try:
        yield
    finally:
        with _adding:
            _spans.append((label, started, time.time(), _cpu_now() - cpu))


_label: str | None = None


def label(text: str) -> None:
    """Name this process in its report (a pool worker: the language it runs), for a bench to tell the lines apart."""
    global _label
    _label = text


_started = False


def mark_started() -> None:
    """Count everything before this call in this process as "imports" (once per process; only when the launcher
    set ``DISCOTEST_TIMING_T0``: the interpreter's own start-up happens before any code of ours can time it)."""
    global _started
    if _started or not os.environ.get(T0_VAR):
        return
    _started = True
    try:
        t0 = float(os.environ[T0_VAR])
    except ValueError:
        return
    t = os.times()
    _add("imports", max(0.0, time.time() - t0), t.user + t.system)


def totals() -> dict[str, dict[str, float]]:
    """Seconds per stage so far in this process: {"wall": {...}, "cpu": {...}}."""
    return {"wall": dict(_wall), "cpu": dict(_cpu)}


def process_start() -> float | None:
    """When this process started (Unix time, to the kernel's clock tick), from /proc; None where there is none."""
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        ticks = int(stat[stat.rindex(b")") + 2 :].split()[19])  # field 22, starttime: clock ticks after boot
        return time.time() - (time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, AttributeError, IndexError):
        return None


def _report() -> None:
    path = os.environ.get(ENV_VAR)
    if not path or not (_wall or _spans):
        return
    now, started, t = time.time(), process_start(), os.times()
    whole = {"wall": now - started if started is not None else None, "cpu": t.user + t.system + t.children_user +
             t.children_system, "own_cpu": t.user + t.system}  # own: less the children it waited for (workers)
    line = json.dumps({"pid": os.getpid(), "ppid": os.getppid(), "label": _label, "span": [started, now],
                       "process": whole, **totals(),
                       "spans": [list(each) for each in _spans]}) + "\n"
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line)
    except OSError:
        pass  # a figure for a benchmark, never a reason to fail a run


atexit.register(_report)
