"""The command and its language workers collect cyclic garbage at discotest's pace (``engine.pace_collector``), not at
CPython's default, which scanned a cold run's heap over and over (10-12 % of its own CPU)."""

from __future__ import annotations

import gc
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from discotest.cli import main
from discotest.engine import COLLECTOR_THRESHOLDS
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
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_start_worker, initargs=(True,)) as pool:
        assert pool.submit(gc.get_threshold).result() == COLLECTOR_THRESHOLDS
