"""Progress bars on stderr for long work (``--quiet``/``quiet=True`` silences them): one constructor for all."""

from __future__ import annotations

import sys


def progress_bar(desc: str, unit: str, total: int | None = None, quiet: bool = False):
    """A tqdm bar on stderr, used as a context manager; ``bar.update(n)`` advances it."""
    from tqdm import tqdm

    return tqdm(desc=desc, unit=unit, total=total, disable=quiet, file=sys.stderr)
