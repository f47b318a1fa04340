"""A run's model work done ahead, alone: inside ``model_work_only()`` (one thread), every translator and scorer the
door opens does its first model call for real (translations, candidate scores: cached by the backend, one sentence or
candidate at a time) and then stops the run with ``ModelWorkDone`` instead of returning, so none of the CPU work after
it is done. The card's model lane (``cards/lane.py``) runs the next rows this way while the card scores the current
one; the row's own run then finds its model's answers in the cache.

The lane runs the family's own ``run`` up to the door, so it sends exactly the requests the run would (the same items,
sample, prompts and settings) without a second description of them; that is why this is a mode of the door and not a
hook per family. ``ModelWorkDone`` is a BaseException: a wing's ``except Exception`` does not swallow it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

# the calls that ask the model: a translator's (``interface.Translator``: translate, and translate_in_context, which
# CTXPRO, mZPRT and DiP call), and a scorer's (score_contexts and score_items call logprobs)
MODEL_CALLS = frozenset({"translate", "translate_in_context", "logprobs", "score_contexts", "score_items",
                         "continuation_logprobs"})

_mode = threading.local()
T = TypeVar("T")


class ModelWorkDone(BaseException):
    """The run's first model call is done (its answers cached); ``error``: the call failed with it (a server error),
    which the run itself would meet too."""

    def __init__(self, error: Exception | None = None):
        super().__init__(error)
        self.error = error


@contextmanager
def model_work_only() -> Iterator[None]:
    """Translators and scorers opened in this thread inside the block stop the run after their first model call."""
    _mode.on = True
    try:
        yield
    finally:
        _mode.on = False


def active() -> bool:
    return getattr(_mode, "on", False)


def wrapped(backend: T) -> T:
    """``backend`` itself, or, inside ``model_work_only``, a stand-in that stops the run after its first model call."""
    return _StopAfterModel(backend) if active() else backend  # type: ignore[return-value]


class _StopAfterModel:
    """Everything of the backend it stands for, but its model calls, which run and then raise ``ModelWorkDone``."""

    def __init__(self, backend: Any):
        self._backend = backend

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._backend, name)
        if name not in MODEL_CALLS or not callable(value):
            return value
        return _stopping(value)


def _stopping(call: Callable[..., Any]) -> Callable[..., Any]:
    def stopped(*args: Any, **kwargs: Any) -> Any:
        try:
            call(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - handed to the run that meets it
            raise ModelWorkDone(exc) from exc
        raise ModelWorkDone()

    return stopped
