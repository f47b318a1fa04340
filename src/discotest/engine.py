"""Where the expensive stages run: ``local`` (this process and a local process pool) or ``ray`` (Ray tasks and
actors, on a local Ray instance or a cluster). Both run the same functions on the same inputs, so the numbers are
the same; the engine is therefore not part of any signature.

Ray is an optional dependency (``pip install 'discotest[ray]'``): it is imported only when the ray engine starts.
Ray is started (or joined, at ``--ray-address``/``$RAY_ADDRESS``) once per process, and a later run in the process
asking for another address is an InputError (``ray_engine``); a Ray instance the caller already started (a script, a
test) is used as it is.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence

from discotest.errors import TYPE_CHECKING, InputError

if TYPE_CHECKING:  # annotations only: Thot's decode children import this module for ``end_with_parent``
    from collections.abc import Mapping
    from multiprocessing.connection import Connection
    from typing import Any

ENGINES = ("local", "ray")
ENV_ENGINE = "DISCOTEST_ENGINE"
ENV_ADDRESS = "RAY_ADDRESS"
# what a worker must see as the driver does: the cache (entries are shared by content hash), the data directory,
# and this very copy of discotest
FORWARDED_ENV = ("DISCOTEST_CACHE", "DISCOTEST_MODELS", "DISCOTEST_DATA", "HF_HOME", "HF_HUB_OFFLINE",
                 "TRANSFORMERS_OFFLINE")


def resolve_engine(name: str | None) -> str:
    """``name``, else ``$DISCOTEST_ENGINE``, else ``local``; an unknown name is an InputError."""
    chosen = name or os.environ.get(ENV_ENGINE) or "local"
    if chosen not in ENGINES:
        source = "--engine" if name else f"${ENV_ENGINE}"
        raise InputError(f"{source} must be one of {', '.join(ENGINES)}, not {chosen!r}")
    return chosen


def import_ray():
    """The ``ray`` module, or an InputError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError("--engine ray needs Ray: pip install 'discotest[ray]'") from None
    return ray


def package_root() -> str:
    """The folder this discotest was imported from (workers import the same copy)."""
    from pathlib import Path

    return str(Path(__file__).resolve().parents[1])


def own_pythonpath() -> str:
    """``$PYTHONPATH`` with this discotest's folder first: what a child process or worker needs to import the very copy
    of discotest the parent runs (the aligner's child processes, Ray workers)."""
    return os.pathsep.join(filter(None, (package_root(), os.environ.get("PYTHONPATH"))))


PARENT_PID_ENV = "DISCOTEST_PARENT_PID"
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def child_env() -> dict[str, str]:
    """The environment of a child process discotest starts itself (``python -m discotest.…``): this discotest first on
    PYTHONPATH, and this process's pid, so the child can check at its start that its parent is still the one that
    started it (``end_with_parent``)."""
    return {**os.environ, "PYTHONPATH": own_pythonpath(), PARENT_PID_ENV: str(os.getpid())}


def start_worker() -> None:
    """The start of a local pool worker (one per core): it ends with its parent (``end_with_parent``), and OpenMP code
    in it (Thot's decoder) runs one thread: two workers each decoding with two threads on two cores spent a third of
    their CPU time waiting on each other. The links are the same for any thread count
    (tests/lang/test_align_model.py). Its collector keeps the command's pace (``pace_collector``)."""
    os.environ["OMP_NUM_THREADS"] = "1"  # read when the OpenMP runtime loads, with Thot, after this
    pace_collector()
    end_with_parent()


# the cyclic garbage collector's thresholds in a discotest command and its workers (CPython's: 700, 10, 10)
COLLECTOR_THRESHOLDS = (50_000, 20, 10)


def pace_collector() -> None:
    """Collect cyclic garbage less often than CPython does by default. A run builds a few hundred thousand objects
    that live to its end (the suite, a token per word, the readings, the analysers' tables) and makes few reference
    cycles; at the default pace the collector scanned them over and over, four or five times the whole heap: 0.15 s
    of CPU in a cold Hebrew run, 0.25 s in German, 0.4 s in Russian (10-12 % of the run's own CPU), 0.04-0.09 s at
    this pace, with the same peak memory (measured 2026-11-27). Results do not depend on it: nothing of discotest's
    has a finaliser."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def end_with_parent() -> None:
    """Called first thing in a child process (an aligner's, a pool worker's): the child ends when its parent does,
    even when the parent is SIGKILLed and cannot clean up (it would otherwise run on for seconds or minutes, holding
    CPU and memory for a result nobody reads). On Linux the kernel sends it SIGKILL (``prctl(PR_SET_PDEATHSIG)``;
    Linux sends it when the parent *thread* that started the child ends, and discotest starts children from the
    thread that waits for them); elsewhere a daemon thread polls the parent pid. A parent that died before this
    call (its pid is in ``DISCOTEST_PARENT_PID``, else the parent at the time of the call) ends the child now."""
    expected = os.environ.pop(PARENT_PID_ENV, None)  # not inherited by this child's own children
    parent = int(expected) if expected and expected.isascii() and expected.isdigit() else os.getppid()
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            _watch_parent(parent)
    else:
        _watch_parent(parent)
    if os.getppid() != parent:  # the parent died between fork and here: nobody will read our result
        os._exit(1)


def _watch_parent(parent: int) -> None:
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="discotest-parent-watch", daemon=True).start()


class RemoteTraceback(Exception):
    """The traceback of a task's exception in its process, as the cause of the exception raised here."""

    def __str__(self) -> str:
        return f"\n\"\"\"\n{self.args[0]}\"\"\""


class WorkerDied(Exception):
    """A process of ``each_in_own_process`` ended without a result (killed for memory, or it could not start)."""


def each_in_own_process(tasks: Mapping[str, tuple[Callable[..., Any], tuple]], jobs: int,
                        choose: Callable[[list[str], list[str]], str], on_done: Callable[[str, Any], None],
                        initializer: Callable[..., None] = start_worker, initargs: tuple = ()) -> None:
    """Each task ``name: (fn, args)`` in a spawned process of its own, at most ``jobs`` at once: a free place takes
    ``choose(pending, running)`` (names), and ``on_done(name, fn(*args))`` is called here as each one ends. A task's
    exception is raised here as itself (the others are ended); a process that ended without a result raises
    ``WorkerDied``.

    One task per process, as ``max_tasks_per_child=1`` gave a process pool: a process that went on to the next
    language kept the last one's analyser loaded. Unlike such a pool's worker, a process here ends as the discotest
    command does (``cli.command``) once its result is sent: its exit handlers run (the timing report) and it leaves
    without freeing its heap object by object, 0.3-0.5 s of CPU per language it spent after its work. Spawned, not
    forked: a fork copies the native thread state of an aligner or tagger this process already ran, and a spawned
    process imports the caller's script again (scripts call this under ``if __name__ == "__main__":``)."""
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("spawn")
    pending, running = list(tasks), {}
    try:
        while pending or running:
            while pending and len(running) < jobs:
                name = choose(pending, [n for n, _ in running.values()])
                pending.remove(name)
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_own_process, args=(send, os.getpid(), initializer, initargs,
                                                                     *tasks[name]), name=name)
                process.start()
                send.close()  # this end is the child's: its death then reads here as the end of the pipe
                running[receive] = (name, process)
            for receive in wait(list(running)):
                name, process = running.pop(receive)
                try:
                    message = receive.recv()
                except EOFError:
                    message = None
                receive.close()
                process.join()
                if message is None:
                    raise WorkerDied(f"the process of {name} ended without a result (exit {process.exitcode})")
                if message[0] == "error":
                    raise message[1] from RemoteTraceback(message[2])
                on_done(name, message[1])
    finally:
        for receive, (_, process) in running.items():
            process.kill()
            process.join()
            receive.close()


def _own_process(send: Connection, parent: int, initializer: Callable[..., None], initargs: tuple,
                 fn: Callable[..., Any], args: tuple) -> None:
    """A task's process (``each_in_own_process``): started as a pool worker (``initializer``, told its parent's pid so
    that a parent killed before ``end_with_parent`` still ends it), ``fn(*args)`` sent back, or its exception and
    traceback; then the exit handlers, and out without the interpreter's teardown."""
    import atexit
    import threading
    import traceback
    from multiprocessing import current_process

    from discotest import timing

    os.environ[PARENT_PID_ENV] = str(parent)
    timing.label(current_process().name)
    try:
        initializer(*initargs)
        message: tuple = ("done", fn(*args))
    except BaseException as exc:  # every failure goes back to the parent, which raises it
        message = ("error", exc, traceback.format_exc())
    try:
        send.send(message)
    except Exception as exc:  # an unpicklable result or exception: say what it was
        send.send(("error", RuntimeError(f"a task's result could not be sent back: {exc!r}"), ""))
    send.close()
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    if others:
        return  # the ordinary exit, which waits for them
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    atexit._run_exitfuncs()
    os._exit(0)


def worker_env() -> dict[str, str]:
    """Environment variables every Ray worker gets: PYTHONPATH to this discotest first, and the settings a result
    depends on (cache and data directories, offline switches) as the driver has them now."""
    env = {k: os.environ[k] for k in FORWARDED_ENV if os.environ.get(k)}
    env["PYTHONPATH"] = own_pythonpath()
    return env


class RayEngine:
    """Ray started or joined once per process; ``map_ordered`` runs a function over argument tuples as tasks."""

    def __init__(self, address: str | None = None, jobs: int | None = None):
        self.address = address or os.environ.get(ENV_ADDRESS) or None
        self.jobs = jobs
        self.started = False  # whether this engine started or joined Ray (not the caller's own ray.init)

    def start(self):
        """Join the cluster at ``address``, or start a local instance with ``jobs`` CPUs (all by default); a Ray
        already initialised in this process is used as it is. Returns the ``ray`` module."""
        ray = import_ray()
        if not ray.is_initialized():
            options: dict[str, Any] = dict(log_to_driver=False, include_dashboard=False, logging_level="ERROR",
                                           configure_logging=True, runtime_env={"env_vars": worker_env()})
            if self.address:
                options["address"] = self.address
            elif self.jobs:
                options["num_cpus"] = self.jobs
            try:
                ray.init(**options)
            except ConnectionError as exc:
                raise InputError(f"cannot join the Ray cluster at {self.address!r}: {exc}") from None
            self.started = True
        return ray

    def map_ordered(self, fn: Callable[..., Any], args_list: Sequence[tuple], retries: int = 3,
                    on_done: Callable[[int, Any], None] | None = None, max_calls: int = 0) -> list:
        """``fn(*args)`` for every tuple of ``args_list`` as Ray tasks; results in the order of ``args_list``.

        A task whose worker dies is run again, up to ``retries`` times (finished tasks are kept); an exception
        ``fn`` raises is raised here as itself. ``on_done(position, result)`` is called as each task finishes
        (progress bars); ``max_calls=1`` gives every task a fresh worker process.
        """
        ray = self.start()
        remote = ray.remote(max_retries=retries, max_calls=max_calls,
                            runtime_env={"env_vars": worker_env()})(fn)
        refs = [remote.remote(*args) for args in args_list]
        position = {ref: i for i, ref in enumerate(refs)}
        results: list[Any] = [None] * len(refs)
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    results[position[ref]] = value = get(ray, ref)
                    if on_done:
                        on_done(position[ref], value)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return results


def get(ray, ref):
    """``ray.get``, with an exception the task raised re-raised as itself (an InputError stays one line)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise


_ENGINE: RayEngine | None = None


def ray_engine(address: str | None = None, jobs: int | None = None) -> RayEngine:
    """The process's RayEngine: Ray is started or joined once per process, so every later run reuses it.

    A later run asking for the same address (``None``: ``$RAY_ADDRESS``, else a local instance) gets the same engine;
    one asking for another address while that Ray is still up is an InputError, not silently the first one's cluster.
    A Ray the caller started itself (``ray.init`` in a script or test) is used as it is, whatever the address; after
    ``ray.shutdown()`` the next run starts or joins afresh. ``jobs`` (a local instance's CPUs) is the first caller's.
    """
    global _ENGINE
    wanted = RayEngine(address, jobs)
    ray = sys.modules.get("ray")
    if _ENGINE is not None and _ENGINE.started and ray is not None and ray.is_initialized():
        if wanted.address != _ENGINE.address:
            where = f"the cluster at {_ENGINE.address}" if _ENGINE.address else "a local Ray instance"
            raise InputError(f"Ray is already connected to {where} in this process; run the one at "
                             f"{wanted.address or 'a local instance'} in a process of its own")
        return _ENGINE
    _ENGINE = wanted  # nothing started by us yet, or shut down since: start or join afresh (or the caller's Ray)
    return _ENGINE
