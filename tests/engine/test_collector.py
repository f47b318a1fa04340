"""The command and its language workers collect cyclic garbage at discotest's pace (``engine.pace_collector``), not at
CPython's default, which scanned a cold run's heap over and over (10-12 % of its own CPU)."""

from __future__ import annotations

import gc

from discotest.cli import main
from discotest.engine import COLLECTOR_THRESHOLDS, each_in_own_process
from discotest.gender.run import _start_worker


def test_the_command_paces_the_collector(capsys):
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # CPython's default
    try:
        assert main(["suites"]) == 0
        assert gc.get_threshold() == COLLECTOR_THRESHOLDS
    finally:
        gc.set_threshold(*before)
    assert COLLECTOR_THRESHOLDS[0] > 700 and gc.isenabled()  # slower, never off


def test_a_language_worker_paces_its_collector():
    """The workers of ``run --lang all``: spawned, so they start at CPython's default and set the pace themselves."""
    got: dict = {}
    each_in_own_process({"x": (gc.get_threshold, ())}, 1, lambda pending, running: pending[0], got.__setitem__,
                        _start_worker, (True,))
    assert got == {"x": COLLECTOR_THRESHOLDS}
