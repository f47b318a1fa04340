"""An ordered map over a Ray Data actor pool: payload rows in, result rows out, in the same order.

Model work on Ray (contrastive scoring with Transformers or CTranslate2, translation) is one pattern: the driver
forms the very batches the local engine forms, turns each into one JSON payload, and a pool of actors — each holding
one loaded model, built once by ``make(**kwargs)`` — turns every payload into one JSON result. One Ray Data row is one
batch (``batch_size=1``), so no batch is split or merged. The Ray Data settings (order preserved, no progress bars of
its own, quiet logging) are made here only; callers keep their own progress bars and their own caches.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from discotest.engine import ray_engine, worker_env
from discotest.errors import InputError


class PoolActor:
    """A Ray Data actor: ``make(**kwargs)`` once (the model load), then that worker on every payload of a block."""

    def __init__(self, make: Callable[..., Callable[[str], str]], kwargs: dict[str, Any]) -> None:
        self.work = make(**kwargs)

    def __call__(self, block: dict[str, Any]) -> dict[str, Any]:
        import numpy as np

        return {"result": np.array([self.work(payload) for payload in block["payload"]], dtype=object)}


def map_on_actors(make: Callable[..., Callable[[str], str]], kwargs: dict[str, Any], payloads: Sequence[str], *,
                  actors: int, address: str | None = None, gpus: bool = False,
                  on_done: Callable[[int, str], None] | None = None) -> list[str]:
    """``make(**kwargs)(payload)`` for every payload, on ``actors`` actors (a GPU each with ``gpus``); results in the
    order of ``payloads``. ``on_done(position, result)`` is called as each result arrives (progress bars, a cache the
    driver writes as it goes). An InputError a worker raises is raised here as itself."""
    if not payloads:
        return []
    ray = ray_engine(address).start()
    import ray.data  # noqa: F811 - the same module, its data package loaded

    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = False  # the caller's own bar counts batches
    context.print_on_execution_start = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    from ray.util.annotations import RayDeprecationWarning

    # max_restarts=0: Ray Data passes every actor its context by object reference, and Ray's core worker logs an
    # error line on stderr for any such actor that may restart (ray-project/ray#57733), even with -q; the only
    # setting for it is the deprecated **ray_remote_args, hence the narrow filter. An actor that dies fails the run.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RayDeprecationWarning)
        dataset = ray.data.from_items([{"payload": p} for p in payloads]).map_batches(
            PoolActor, batch_size=1, compute=ray.data.ActorPoolStrategy(size=actors),
            fn_constructor_kwargs=dict(make=make, kwargs=kwargs), num_gpus=1 if gpus else None,
            runtime_env={"env_vars": worker_env()}, max_restarts=0)
    out: list[str] = []
    try:
        for row in dataset.iter_rows():
            out.append(row["result"])
            if on_done:
                on_done(len(out) - 1, out[-1])
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, InputError):
            raise cause from None
        raise
    if len(out) != len(payloads):
        raise RuntimeError(f"Ray Data returned {len(out)} results for {len(payloads)} payloads")
    return out
