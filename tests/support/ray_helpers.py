"""What the ray-engine test modules share: one local Ray instance for the whole test session (the ``ray_instance``
fixture of tests/conftest.py), as CI runs it (2 CPUs), and a spy that records a function's calls while still running
it (the proof that a run went through Ray)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any


def local_ray() -> Iterator[Any]:
    """The session fixture's body: start a local Ray with 2 CPUs, yield the module, shut it down. One for the session
    because starting Ray costs seconds on 2 busy cores, and its idle workers are reused by the next module's tasks
    (a run's own settings, such as its cache, travel with each task: ``engine.worker_env``)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


def by_value(ray: Any, *modules: str) -> Any:
    """``ray``, after registering ``modules`` (whose functions run as tasks but which workers cannot import:
    tests/) to be sent to the workers by value."""
    for name in modules:
        ray.cloudpickle.register_pickle_by_value(sys.modules[name])
    return ray


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
