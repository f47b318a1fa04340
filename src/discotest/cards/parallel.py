"""The card's rows scored in worker processes, one row per task, taken back in row order: a row's CPU work (aligning,
reading, scoring, the paired bootstraps of its ranking) is its own, so two rows can run on two cores while the card
still prints, caches and reports them in row order, byte for byte as one process would (tests/cards/test_card_jobs.py).

A row comes here whole (a published system's or a folder's: ``build._to_workers``), or, for a model or an endpoint,
its score phase alone once its requests are answered in the card's process (``build._scored_apart``): its first phase
and answers packed with each model stood in for by what names it (``registry.packed``), so a worker opens no model
and reaches no server; such a row's work that its answers do not change is handed to a worker first (``ahead``,
``build._prepare``), while the model answers. A worker imports
discotest afresh (spawned, not forked: a fork copies the native thread state of an aligner the parent ran, as
``gender.run.run_many`` says) and starts like every local pool worker (``engine.start_worker``). The cache is shared by
content hash and written atomically, and a model two rows would both train is made once (``cache.making``)."""

from __future__ import annotations

import multiprocessing
import os
import resource
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from discotest.engine import PARENT_PID_ENV, start_worker
from discotest.progress import quiet_scope


def workers(jobs: int | None, tasks: int) -> int:
    """The processes for ``tasks`` rows: ``jobs`` (``--jobs``), else one per core, never more than the rows; one
    means no pool (the rows run in the card's own process)."""
    return max(1, min(jobs or os.cpu_count() or 1, tasks))


@dataclass
class Done:
    """What a row's task gave back (``value``: what the function returned) and what it cost in its worker: wall
    seconds, and CPU seconds of the worker and of the processes it waited for (an aligner's)."""

    value: Any
    seconds: float
    cpu: float


def cpu_seconds() -> float:
    """This process's CPU seconds and those of its children it has waited for (user and system)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(fn: Callable[..., Any], *args: Any) -> Done:
    """``fn(*args)`` with its wall and CPU seconds (in a worker: the task's; the worker's start is not counted)."""
    started, cpu = time.monotonic(), cpu_seconds()
    value = fn(*args)
    return Done(value, time.monotonic() - started, cpu_seconds() - cpu)


def _start(quiet: bool, parent: int) -> None:
    """A row worker's start: ``engine.start_worker``, and the card's ``--quiet`` for whatever its row prints.
    ``parent``: the card's pid, taken when the pool was made: a card killed while this worker was still starting
    (before ``end_with_parent`` asks the kernel to end it with its parent) must end it now, or the orphan would wait
    for rows forever on a queue whose writing end it holds itself (and hold the card's stdout and stderr open)."""
    os.environ[PARENT_PID_ENV] = str(parent)
    start_worker()
    quiet_scope(quiet).__enter__()  # for the rest of this process


class RowPool:
    """Rows handed to ``jobs`` worker processes as they are submitted and taken back by index (``take``), in
    whatever order the caller wants them (the card's: row order). A task whose worker
    died (killed for memory) breaks the pool: ``take`` then runs it, and every row still to take, here in the caller's
    process: a row is never lost to the pool."""

    def __init__(self, jobs: int, quiet: bool):
        self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_start, initargs=(quiet, os.getpid()))
        self._tasks: dict[int, tuple[Future | None, Callable[..., Any], tuple]] = {}
        self._ahead: dict[int, Future] = {}

    def submit(self, index: int, fn: Callable[..., Any], *args: Any) -> None:
        """Row ``index``'s task to a worker; where the pool is broken already, kept for ``take`` to run here."""
        try:
            future: Future | None = self._pool.submit(timed, fn, *args)
        except BrokenProcessPool:
            future = None
        self._tasks[index] = (future, fn, args)

    def ahead(self, index: int, fn: Callable[..., Any], *args: Any) -> None:
        """Row ``index``'s work that can be done before its own task is submitted (a model's row: what its score
        phase reads that its answers do not change, done while the model answers). Its value is taken with
        ``readied``; submitted before the rows' own tasks, it is started before them. On a broken pool: none."""
        with suppress(BrokenProcessPool):
            self._ahead[index] = self._pool.submit(fn, *args)

    def getting_ready(self, index: int) -> bool:
        """Whether row ``index``'s work ahead (``ahead``) is submitted and not yet done."""
        return index in self._ahead and not self._ahead[index].done()

    def readied(self, index: int) -> Any:
        """The value of row ``index``'s work ahead, waiting for it; None where there was none, it failed, or the
        pool broke (the row's own task then does that work itself, and says why it fails)."""
        future = self._ahead.pop(index, None)
        if future is None:
            return None
        try:
            return future.result()
        except Exception:  # noqa: BLE001 - its own task meets the same failure and reports it
            return None

    def __contains__(self, index: int) -> bool:
        return index in self._tasks

    def take(self, index: int) -> Done:
        """The task's result, waiting for it; an exception ``fn`` raised is raised here as itself."""
        future, fn, args = self._tasks.pop(index)
        if future is None:
            return timed(fn, *args)
        try:
            return future.result()
        except BrokenProcessPool:  # its worker, or another's, died: the pool is gone, the row is not
            return timed(fn, *args)

    def close(self) -> None:
        """Stop: rows not started are dropped (a Ctrl-C'd card), those under way end with their worker."""
        self._pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def row_pool(jobs: int, quiet: bool) -> Iterator[RowPool | None]:
    """A ``RowPool`` of ``jobs`` workers, or None for one job (the rows run in this process, as before)."""
    if jobs < 2:
        yield None
        return
    pool = RowPool(jobs, quiet)
    try:
        yield pool
    finally:
        pool.close()
