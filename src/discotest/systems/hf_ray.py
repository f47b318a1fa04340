"""Contrastive scoring on Ray: the scorer's own length-sorted batches, scored by a Ray Data ``map_batches`` over an
actor pool, one model load per actor (a GPU each with ``--device cuda``).

One Ray Data row is one of our batches (``batch_size=1``), so every batch has the rows, order and padding the local
engine gives it, and ``score_batch`` does the same arithmetic with the same number of torch threads (the driver's).
Output order is preserved. The content-hash cache stays with the driver (``HFScorer.score_pairs``): actors never
write it.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from discotest.engine import ray_engine, worker_env
from discotest.errors import InputError
from discotest.systems.hf_batch import Encoded, score_batch


class BatchScorer:
    """A Ray Data actor holding one loaded model; ``__call__`` scores a block of our batches (one per row)."""

    def __init__(self, name: str, revision: str | None, device: str, pad: int, threads: int, model=None) -> None:
        import torch

        torch.set_num_threads(threads)
        if model is None:
            from discotest.systems.hf_models import load_model

            model = load_model(name, revision)
        self.model = model.to(device).eval()
        self.device, self.pad = device, pad

    def __call__(self, block: dict[str, Any]) -> dict[str, Any]:
        import numpy as np

        out = []
        for payload in block["rows"]:
            rows = [Encoded(*r) for r in json.loads(payload)]
            out.append(json.dumps(score_batch(self.model, rows, self.pad, self.device)))
        return {"scores": np.array(out, dtype=object)}


def score_batches_on_ray(scorer: Any, batches: Sequence[Sequence[Encoded]], pad: int,
                         on_batch: Callable[[int], None] | None = None) -> list[tuple[list[float], list[int]]]:
    """(sums, counts) per batch, in the order of ``batches``, from ``scorer.ray_actors`` actors (``scorer``: the
    ``HFScorer`` whose model, device and Ray settings are used)."""
    import torch

    if not batches:
        return []
    ray = ray_engine(scorer.ray_address).start()
    import ray.data  # noqa: F811 - the same module, its data package loaded
    from ray.util.annotations import RayDeprecationWarning

    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = False  # the scorer's own bar counts batches
    context.print_on_execution_start = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    given = scorer._model  # a model object handed to the scorer (tests, notebooks) travels to the actors
    cuda = scorer.device.startswith("cuda")
    payloads = [{"rows": json.dumps([dataclasses.astuple(r) for r in batch])} for batch in batches]
    # max_restarts=0: Ray Data passes every actor its context by object reference, and Ray's core worker logs an
    # error line on stderr for any such actor that may restart (ray-project/ray#57733), even with -q; the only
    # setting for it is the deprecated **ray_remote_args, hence the narrow filter. An actor that dies fails the run.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RayDeprecationWarning)
        dataset = ray.data.from_items(payloads).map_batches(
            BatchScorer, batch_size=1, compute=ray.data.ActorPoolStrategy(size=scorer.ray_actors),
            fn_constructor_kwargs=dict(name=scorer.name, revision=scorer.revision, device=scorer.device, pad=pad,
                                       threads=torch.get_num_threads(), model=given),
            num_gpus=1 if cuda else None, runtime_env={"env_vars": worker_env()}, max_restarts=0)
    out = []
    try:
        for row in dataset.iter_rows():
            sums, counts = json.loads(row["scores"])
            out.append((sums, counts))
            if on_batch:
                on_batch(1)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, InputError):
            raise cause from None
        raise
    if len(out) != len(batches):
        raise RuntimeError(f"Ray Data returned {len(out)} scored batches for {len(batches)}")
    return out
