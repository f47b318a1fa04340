"""The one caching wrapper of the models floor: a backend answers requests uncached (``Asking.answer``); ``cached``
finds what the cache holds, sends the rest, and stores each answer as it arrives, so a run stopped halfway (Ctrl-C,
``kill -9``) asks nothing twice when it resumes.

A backend states, per kind of request it answers, an ``Asking``: the cache namespace, the key of one request (the
model's fingerprint and every setting that changes the answer, as each backend has always keyed it, so users' caches
stay valid), how an answer is written and read back, and how the requests not cached are answered (batched, on Ray,
or concurrently to a server). Nothing else on this floor loads or stores a model's answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from discotest import cache

CACHE_ENDS = "translation-ends"  # beside each cached translation: "length" (cut by --max-length) or "stop"
R = TypeVar("R")  # one request
A = TypeVar("A")  # its answer


@dataclass(frozen=True)
class Asking(Generic[R, A]):
    """How one kind of request is keyed, stored and answered. ``answer(requests, done)`` answers every request
    (uncached) and calls ``done(position, answer)`` as each arrives (from any thread); ``write``/``read`` turn an
    answer into the cached text and back (``read`` raises on a damaged entry, which is then asked again)."""

    namespace: str
    key: Callable[[R], str]
    answer: Callable[[Sequence[R], Callable[[int, A], None]], None]
    write: Callable[[A], str] = str
    read: Callable[[str, R], A] | None = None


@dataclass
class Answered(Generic[A]):
    """The answers in request order, and how many distinct requests came from the cache and how many were sent."""

    answers: list[A]
    hits: int
    sent: int


def cached(asking: Asking[R, A], requests: Sequence[R], use_cache: bool = True, cut: set | None = None
           ) -> Answered[A]:
    """Every request's answer: requests with the same key are asked once; cached answers are read; the rest go to
    ``asking.answer`` in the order first asked, each stored as soon as it is back.

    ``cut``: a translator's answers that stopped at ``--max-length`` before they ended (the backend adds each as it
    generates it). Beside each answer stored, whether it is in ``cut`` (``CACHE_ENDS``: "length" or "stop", under the
    answer's key), and a cached answer stored "length" is added to ``cut`` when read back (an answer cached before the
    flag was kept reads as not cut), so a resumed run counts the same cut translations as the first."""
    keys = [asking.key(request) for request in requests]
    first: dict[str, int] = {}
    for n, key in enumerate(keys):
        first.setdefault(key, n)
    found: dict[str, Any] = {}
    todo: list[str] = []
    read = asking.read
    for key, n in first.items():
        hit = None
        if use_cache:
            parse = None if read is None else (lambda text, request=requests[n]: read(text, request))
            hit = cache.load(asking.namespace, key, parse)
        if hit is not None:
            found[key] = hit
            if cut is not None and hit not in cut and cache.load(CACHE_ENDS, key) == "length":
                cut.add(hit)
        else:
            todo.append(key)
    hits = len(found)
    lock = threading.Lock()

    def done(position: int, answer: A) -> None:
        key = todo[position]
        if use_cache:
            if cut is not None:  # first: a translation cached is never without its flag
                cache.store(CACHE_ENDS, key, "length" if answer in cut else "stop")
            cache.store(asking.namespace, key, asking.write(answer))
        with lock:
            found[key] = answer

    if todo:
        asking.answer([requests[first[key]] for key in todo], done)
    missing = [key for key in todo if key not in found]
    if missing:
        raise RuntimeError(f"{len(missing)} of {len(todo)} requests were not answered")  # a backend's bug
    return Answered([found[key] for key in keys], hits, len(todo))


def one_by_one(function: Callable[[R], A]) -> Callable[[Sequence[R], Callable[[int, A], None]], None]:
    """An ``Asking.answer`` that answers the requests one after the other with ``function``."""

    def answer(requests: Sequence[R], done: Callable[[int, A], None]) -> None:
        for n, request in enumerate(requests):
            done(n, function(request))

    return answer


def in_batches(generate: Callable[[list[R]], list[A]], size: int, order: Callable[[R], Any] | None = None,
               on_batch: Callable[[int], None] | None = None,
               ) -> Callable[[Sequence[R], Callable[[int, A], None]], None]:
    """An ``Asking.answer`` that answers ``size`` requests at a time with ``generate`` (sorted by ``order`` first,
    stably, so equal keys keep their order); ``on_batch(n)`` after each batch of n."""

    def answer(requests: Sequence[R], done: Callable[[int, A], None]) -> None:
        positions = list(range(len(requests)))
        if order is not None:
            positions.sort(key=lambda n: order(requests[n]))
        for at in range(0, len(positions), size):
            batch = positions[at:at + size]
            for n, value in zip(batch, generate([requests[n] for n in batch]), strict=True):
                done(n, value)
            if on_batch is not None:
                on_batch(len(batch))

    return answer

