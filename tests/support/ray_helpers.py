"""What the ray-engine test modules share: one local Ray instance per module, as CI runs it (2 CPUs), and a spy that
records a function's calls while still running it (the proof that a run went through Ray)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any


def local_ray(*by_value: str) -> Iterator[Any]:
    """A module fixture's body: start a local Ray with 2 CPUs, yield the module, shut it down. ``by_value``: modules
    whose functions run as tasks but which workers cannot import (tests/), sent to them by value."""
    import ray

    for name in by_value:
        ray.cloudpickle.register_pickle_by_value(sys.modules[name])
    # no idle workers started ahead: the tests' tasks carry a runtime_env of their own (a fresh cache each), so Ray
    # would never hand them one (~1 s of CPU a start)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             _system_config={"enable_worker_prestart": False, "prestart_worker_first_driver": False})
    yield ray
    ray.shutdown()


def spy(monkeypatch, owner: Any, name: str, record: Callable[..., Any] = lambda *args, **kwargs: args) -> list:
    """Replace ``owner.name`` by a wrapper that appends ``record(*args, **kwargs)`` to the returned list, then calls
    the original."""
    calls: list = []
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        calls.append(record(*args, **kwargs))
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls
