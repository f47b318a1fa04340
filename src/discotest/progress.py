"""Progress bars on stderr for long work (``--quiet``/``quiet=True`` silences them): one constructor for all.

A long command shows its stages one bar each ("mZPRT: aligning the background 1/1", "DiP: scoring systems 3/14"),
so a user sees what is happening. Deep code (a pipeline, a model loader) opens its stage bars with ``quiet=None``:
they follow the innermost enclosing bar or ``quiet_scope`` — a family's ``run`` wraps its work in
``quiet_scope(s.quiet)`` and the CLI's own bars pass ``quiet=args.quiet`` — and show when there is none. Bars
never touch stdout, so outputs stay byte-identical with and without them.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_QUIET: ContextVar[bool] = ContextVar("discotest_progress_quiet", default=False)
_SHOWN: ContextVar[int] = ContextVar("discotest_progress_shown", default=0)  # shown bars open around this code


def is_quiet() -> bool:
    """Whether bars opened with ``quiet=None`` here are silent."""
    return _QUIET.get()


@contextmanager
def quiet_scope(quiet: bool | None) -> Iterator[None]:
    """Bars opened with ``quiet=None`` inside follow ``quiet`` (``None``: leave the setting as it is)."""
    token = _QUIET.set(bool(quiet)) if quiet is not None else None
    try:
        yield
    finally:
        if token is not None:
            _QUIET.reset(token)


HEARTBEAT = 1.0  # seconds between redraws of a shown bar on a terminal, so a long single step's clock keeps going


class _Bar:
    """A tqdm bar on stderr; entering it also sets the quiet setting of the bars opened inside it. On a terminal its
    elapsed time keeps counting while one long step runs (training a model is a 1/1 stage)."""

    def __init__(self, desc: str, unit: str, total: int | None, quiet: bool):
        self.quiet = quiet
        if quiet:  # shows nothing, so tqdm is not imported (it imports importlib.metadata: 25 ms of a warm run)
            self._bar = _Silent()
        else:
            from tqdm import tqdm

            self._bar = tqdm(desc=desc, unit=unit, total=total, file=sys.stderr)
        self._scope = quiet_scope(quiet)
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None
        if not quiet and getattr(sys.stderr, "isatty", lambda: False)():
            self._beat = threading.Thread(target=self._heartbeat, daemon=True)
            self._beat.start()

    def _heartbeat(self) -> None:
        while not self._stop.wait(HEARTBEAT):
            self._bar.refresh()

    def update(self, n: int = 1) -> None:
        self._bar.update(n)

    def set_description(self, desc: str) -> None:
        """Name what the bar's work is doing now (e.g. the system being scored)."""
        self._bar.set_description(desc)

    def __enter__(self) -> _Bar:
        self._scope.__enter__()
        self._shown = _SHOWN.set(_SHOWN.get() + 1) if not self.quiet else None
        return self

    def __exit__(self, *exc) -> None:
        if self._shown is not None:
            _SHOWN.reset(self._shown)
        self._scope.__exit__(*exc)
        self.close()

    def close(self) -> None:
        self._stop.set()
        if self._beat is not None:
            self._beat.join()
        self._bar.close()


class _Silent:
    """What a quiet bar does: nothing (tqdm's ``disable=True``)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_description(self, desc: str) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(desc: str, unit: str = "step", total: int | None = None, quiet: bool | None = None) -> _Bar:
    """A bar on stderr, used as a context manager; ``bar.update(n)`` advances it. ``quiet=None`` follows the
    enclosing bar or ``quiet_scope`` (shown when there is none)."""
    return _Bar(desc, unit, total, is_quiet() if quiet is None else quiet)


def note(text: str) -> None:
    """One line on stderr about a long step that has no bar of its own (training an alignment model, once), shown
    where a bar would be seen: not under ``quiet``, except inside a shown bar that stands for quiet work (the card's
    bar over its rows' runs, which run quiet: a cold card says why a row takes a minute). Written above a shown bar
    (``tqdm.write``), so the bar is redrawn below it, never through it; never on stdout."""
    shown = _SHOWN.get() > 0
    if is_quiet() and not shown or sys.stderr is None:
        return
    if shown:
        from tqdm import tqdm

        tqdm.write(text, file=sys.stderr)
    else:
        print(text, file=sys.stderr, flush=True)
