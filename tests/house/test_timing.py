"""discotest.timing: nested stages are counted once, and nothing is written unless DISCOTEST_TIMING asks.

The clocks are replaced by a fake one the test advances by hand, so every figure below is exact (no timed assertion).
"""

from __future__ import annotations

import json
import threading
import types

import pytest

from discotest import timing


class FakeClock:
    """Wall and CPU seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0

    def advance(self, wall: float, cpu: float) -> None:
        self.wall += wall
        self.cpu += cpu

    def times(self):
        return types.SimpleNamespace(user=self.cpu, system=0.0, children_user=0.0, children_system=0.0)


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(timing.time, "perf_counter", lambda: fake.wall)
    monkeypatch.setattr(timing.os, "times", fake.times)
    monkeypatch.setattr(timing, "_wall", {})
    monkeypatch.setattr(timing, "_cpu", {})
    monkeypatch.setattr(timing, "_open", threading.local())  # no stage open in any thread
    monkeypatch.setattr(timing, "_spans", [])
    return fake


def test_a_stage_in_another_thread_is_not_nested_in_this_ones(clock):
    """Two threads time their stages side by side: a stage nests only in its own thread's, so neither takes the
    other's seconds off its own."""
    opened, close = threading.Event(), threading.Event()

    def other() -> None:
        with timing.stage("translation"):
            opened.set()
            close.wait()

    thread = threading.Thread(target=other)
    thread.start()
    opened.wait()
    with timing.stage("scoring"):
        clock.advance(1.0, 0.5)
    close.set()
    thread.join()
    assert timing._wall == {"scoring": 1.0, "translation": 1.0}


def test_nested_stage_counted_once(clock):
    with timing.stage("morphology"):
        clock.advance(1.0, 0.5)
        with timing.stage("lexicon load (de)"):
            clock.advance(3.0, 2.0)
        clock.advance(2.0, 1.0)
    with timing.stage("morphology"):  # a second visit adds up
        clock.advance(0.5, 0.5)
    # morphology: 1 + 2 + 0.5 s of its own; the 3 s inside the lexicon load are the lexicon's only
    assert timing.totals() == {"wall": {"lexicon load (de)": 3.0, "morphology": 3.5},
                               "cpu": {"lexicon load (de)": 2.0, "morphology": 2.0}}


def test_stage_counts_a_failing_block(clock):
    with pytest.raises(ValueError), timing.stage("alignment"):
        clock.advance(1.5, 1.0)
        raise ValueError
    assert timing.totals()["wall"] == {"alignment": 1.5}


def test_report_only_when_asked(clock, tmp_path, monkeypatch):
    with timing.stage("scoring"):
        clock.advance(0.25, 0.25)
    monkeypatch.delenv(timing.ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    timing._report()  # not asked: nothing written (not even in the working directory)
    assert not list(tmp_path.iterdir())
    out = tmp_path / "timing.jsonl"
    monkeypatch.setenv(timing.ENV_VAR, str(out))
    timing._report()
    timing._report()  # appended: one line per report (each process writes its own)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2
    assert lines[0]["wall"] == {"scoring": 0.25} and isinstance(lines[0]["pid"], int)


def test_spans_and_the_process_s_start_and_end_are_reported(clock, tmp_path, monkeypatch):
    """A span is a labelled piece of work on ``time.time()``'s clock (comparable across a card's processes), its CPU
    beside it; the line says when the process started (from /proc, before any code of ours) and ended."""
    now = [1000.0]
    monkeypatch.setattr(timing.time, "time", lambda: now[0])
    with timing.span("row en-de/winomt"):
        clock.advance(2.0, 1.5)
        now[0] += 2.0
    out = tmp_path / "timing.jsonl"
    monkeypatch.setenv(timing.ENV_VAR, str(out))
    timing._report()  # a process with spans and no stage still reports
    line = json.loads(out.read_text())
    assert line["spans"] == [["row en-de/winomt", 1000.0, 1002.0, 1.5]]
    started, ended = line["span"]
    assert ended == 1002.0 and line["wall"] == {} and line["process"]["own_cpu"] == 1.5  # the fake clock's user time
    assert started is None or started <= 1002.0
