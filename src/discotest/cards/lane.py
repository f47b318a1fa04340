"""The card's model lane: the model's requests of the rows to come run beside the card's CPU work on the current row.

One thread walks the card's rows in order and does each row's model work only (``models.ahead``: the row's own run up
to its first model call, which translates or scores into the cache, then stops). The card fills row *i* once the
lane is past it: the row's run finds its translations and scores in the cache and does its CPU work (alignment,
morphology, bootstrap) while the lane asks the model for row *i+1*, *i+2* … So the model's requests go out in the
order of a card filled row after row, each once, and every number is the same: the row's run reads what it would
have asked for. A row whose model call fails (a server error) is not asked again: the card fails it with the lane's
error. A row the lane could not take up to its model call (an error before it) is left to the card, and the lane
waits for the card to finish it, so two threads never ask the model at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from discotest.models.ahead import ModelWorkDone, model_work_only
from discotest.progress import quiet_scope


@dataclass(frozen=True)
class Ahead:
    """What the lane did for one row: the seconds its model work took, and the model call's error, if it failed."""

    seconds: float = 0.0
    error: Exception | None = None


class ModelLane:
    """``with ModelLane(works) as lane``: ``works[i]()`` runs the row's run (the lane makes it stop after the model
    work); the card calls ``ahead_of(i)`` before filling row *i* and ``filled(i)`` after."""

    def __init__(self, works: Sequence[Callable[[], None]]):
        self._works = list(works)
        self._ahead = [threading.Event() for _ in self._works]
        self._filled = [threading.Event() for _ in self._works]
        self._done: list[Ahead] = [Ahead() for _ in self._works]
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._walk, name="discotest-model-lane", daemon=True)

    def __enter__(self) -> ModelLane:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """A card that stops (Ctrl-C, an error) stops the lane after its request under way; nothing waits for it."""
        self._stopped.set()
        for event in self._filled:
            event.set()

    def ahead_of(self, index: int) -> Ahead:
        """Waits until the lane is past row ``index``."""
        self._ahead[index].wait()
        return self._done[index]

    def filled(self, index: int) -> None:
        self._filled[index].set()

    def _walk(self) -> None:
        for index, work in enumerate(self._works):
            if self._stopped.is_set():
                return
            started, left_to_card = time.monotonic(), False
            with model_work_only(), quiet_scope(True):
                try:
                    work()
                except ModelWorkDone as done:
                    self._done[index] = Ahead(time.monotonic() - started, done.error)
                except Exception:  # noqa: BLE001 - before the model call: the card's own run meets it and says why
                    left_to_card = True
            self._ahead[index].set()
            if left_to_card:
                self._filled[index].wait()
