"""Contrastive scoring with a Hugging Face model on Ray: the scorer's own length-sorted batches, scored on an actor
pool (``models.ray_pool``), one model load per actor (a GPU each with ``--device cuda``).

Every batch has the rows, order and padding the local engine gives it, and ``score_batch`` does the same arithmetic
with the same number of torch threads (the driver's; Ray would give an actor one). The content-hash cache stays with
the driver (``HFScorer.score_pair_sets``): actors never write it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any

from discotest.models import ray_pool
from discotest.models.hf_batch import Encoded, score_batch


def scoring_worker(name: str, revision: str | None, device: str, pad: int, threads: int,
                   model=None) -> Callable[[str], str]:
    """On an actor: load the model once; the worker scores one batch (JSON rows of ``Encoded``) per call."""
    import torch

    torch.set_num_threads(threads)
    if model is None:
        from discotest.models.hf_models import load_model

        model = load_model(name, revision)
    model = model.to(device).eval()

    def work(payload: str) -> str:
        rows = [Encoded(*r) for r in json.loads(payload)]
        return json.dumps(score_batch(model, rows, pad, device))

    return work


def score_batches_on_ray(scorer: Any, batches: Sequence[Sequence[Encoded]], pad: int,
                         on_batch: Callable[[int], None] | None = None) -> list[tuple[list[float], list[int]]]:
    """(sums, counts) per batch, in the order of ``batches``, from ``scorer.ray_actors`` actors (``scorer``: the
    ``HFScorer`` whose model, device and Ray settings are used). ``on_batch(position)`` as each batch comes back."""
    import torch

    kwargs = dict(name=scorer.name, revision=scorer.revision, device=scorer.device, pad=pad,
                  threads=torch.get_num_threads(), model=scorer._model)  # a model object handed over travels along
    payloads = [json.dumps([dataclasses.astuple(r) for r in batch]) for batch in batches]
    results = ray_pool.map_on_actors(scoring_worker, kwargs, payloads, actors=scorer.ray_actors,
                                     address=scorer.ray_address, gpus=scorer.device.startswith("cuda"),
                                     on_done=(lambda position, _result: on_batch(position)) if on_batch else None)
    return [tuple(json.loads(r)) for r in results]


def causal_scoring_worker(name: str, revision: str | None, device: str, pad: int, threads: int, share_prompt: bool,
                          model=None) -> Callable[[str], str]:
    """On an actor: load the causal LM once; the worker scores one batch (JSON [prompt ids, candidates' ids] per
    item) per call with ``causal_lm.score_items_batch``, the local engine's arithmetic."""
    import torch

    from discotest.models.causal_lm import CausalItem, score_items_batch

    torch.set_num_threads(threads)
    if model is None:
        from discotest.models.hf_models import load_causal_lm

        model = load_causal_lm(name, revision)
    model = model.to(device).eval()

    def work(payload: str) -> str:
        batch = [CausalItem(p, c) for p, c in json.loads(payload)]
        return json.dumps(score_items_batch(model, batch, pad, device, share_prompt))

    return work


def score_causal_batches_on_ray(scorer: Any, batches: Sequence[Sequence[Any]]) -> list[list[list[float]]]:
    """Per batch of ``causal_lm.CausalItem``, its items' candidate sums, from ``scorer.ray_actors`` actors (``scorer``:
    the ``CausalScorer`` whose model, device, prompt sharing and Ray settings are used), in order."""
    import torch

    from discotest.models.causal_lm import pad_id

    kwargs = dict(name=scorer.name, revision=scorer.revision, device=scorer.device, pad=pad_id(scorer.tokenizer),
                  threads=torch.get_num_threads(), share_prompt=scorer.share_prompt, model=scorer._model)
    payloads = [json.dumps([[item.prompt, item.candidates] for item in batch]) for batch in batches]
    results = ray_pool.map_on_actors(causal_scoring_worker, kwargs, payloads, actors=scorer.ray_actors,
                                     address=scorer.ray_address, gpus=scorer.device.startswith("cuda"))
    return [json.loads(r) for r in results]
