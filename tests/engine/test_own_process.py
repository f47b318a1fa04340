"""``engine.each_in_own_process``, the language workers of ``run --lang all`` and the card's WinoMT rows: one task per
spawned process, the caller choosing which task a free place takes, each result handed back as its process ends, a
task's error raised as itself, a process that died named, and a process that ends as the command does (its exit
handlers run: the timing report)."""

from __future__ import annotations

import json
import os

import pytest

from discotest import timing
from discotest.engine import WorkerDied, each_in_own_process
from discotest.errors import InputError


def _pid_and_value(value: int) -> tuple[int, int]:
    return os.getpid(), value * 2


def _refuse(message: str) -> None:
    raise InputError(message)


def _die() -> None:
    os._exit(3)


def _timed(name: str) -> str:
    with timing.stage(name):
        pass
    return name


def test_each_task_runs_in_a_process_of_its_own_in_the_order_chosen():
    chosen: list[tuple[list[str], list[str]]] = []
    done: dict[str, tuple[int, int]] = {}

    def choose(pending: list[str], running: list[str]) -> str:
        chosen.append((list(pending), list(running)))
        return pending[-1]  # the last first: the caller's order, not the tasks'

    each_in_own_process({name: (_pid_and_value, (n,)) for n, name in enumerate("abc")}, 2, choose,
                        done.__setitem__)
    assert {name: value for name, (_, value) in done.items()} == {"a": 0, "b": 2, "c": 4}
    assert len({pid for pid, _ in done.values()} | {os.getpid()}) == 4  # three processes, none of them this one
    assert chosen[:2] == [(["a", "b", "c"], []), (["a", "b"], ["c"])]  # two places: the second chosen beside c


def test_a_task_error_is_raised_as_itself_and_a_dead_process_is_named():
    with pytest.raises(InputError, match="^no such file$"):
        each_in_own_process({"x": (_refuse, ("no such file",))}, 1, lambda p, r: p[0], lambda n, v: None)
    with pytest.raises(WorkerDied, match="the process of y ended without a result .exit 3."):
        each_in_own_process({"y": (_die, ())}, 1, lambda p, r: p[0], lambda n, v: None)


def test_a_process_runs_its_exit_handlers_named_by_its_task(tmp_path, monkeypatch):
    """It leaves without the interpreter's teardown, but after its exit handlers: the timing report is written, and it
    names the task (bench/speed/allpairs_spans.py tells the languages' workers apart by it)."""
    report = tmp_path / "timing.jsonl"
    monkeypatch.setenv(timing.ENV_VAR, str(report))
    each_in_own_process({"de": (_timed, ("alignment",))}, 1, lambda p, r: p[0], lambda n, v: None)
    (line,) = [json.loads(text) for text in report.read_text().splitlines()]
    assert line["label"] == "de" and "alignment" in line["wall"] and line["ppid"] == os.getpid()
    start, end = line["span"]
    assert start <= end and line["process"]["cpu"] >= line["process"]["own_cpu"] >= 0
