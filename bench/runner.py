"""The one way a bench runs discotest: ``python -m discotest ARGS`` in a fresh process, with this checkout's sources
first on the path and a cache of its own (a fresh temporary folder unless one is given), timed.

A fresh process pays every import and model load as a user's command does; a cache of its own makes "cold" mean cold
(and "warm" the same cache run again). Used by the speed benches, the determinism check and the verdict identity
check, so all three measure the same thing the same way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Run:
    """One finished command: wall seconds, exit status and what it wrote."""

    wall: float
    returncode: int
    stdout: bytes
    stderr: bytes

    def failure(self, args: list[str]) -> str:
        return f"discotest {' '.join(args)} failed ({self.returncode}):\n{self.stderr.decode(errors='replace')[-2000:]}"


def timed(label: str, fn, width: int = 60):
    """``fn()`` run in this process, its wall time printed beside ``label``; its result returned."""
    start = time.perf_counter()
    result = fn()
    print(f"{label:<{width}} {time.perf_counter() - start:7.2f} s")
    return result


def fresh_env(cache: str | Path, **extra: str) -> dict[str, str]:
    """The environment of a run: this checkout's ``src`` first on the path, ``DISCOTEST_CACHE`` set to ``cache``."""
    src = str(REPO / "src")
    return {**os.environ, "DISCOTEST_CACHE": str(cache),
            "PYTHONPATH": os.pathsep.join(filter(None, (src, os.environ.get("PYTHONPATH")))), **extra}


def discotest(args: list[str], cache: str | Path | None = None, check: bool = True, quiet: bool = True,
              **env: str) -> Run:
    """``python -m discotest ARGS`` (``-q`` added unless ``quiet`` is False) in a fresh process; ``cache``: its
    cache folder (default: a new temporary one, removed after); ``env``: more environment variables. ``check``:
    a failed command ends the bench with its stderr."""
    with tempfile.TemporaryDirectory(prefix="discotest-bench-") as scratch:
        command = [sys.executable, "-m", "discotest", *args, *(["-q"] if quiet else [])]
        start = time.perf_counter()
        done = subprocess.run(command, env=fresh_env(cache or scratch, **env), capture_output=True, cwd=REPO)
        run = Run(time.perf_counter() - start, done.returncode, done.stdout, done.stderr)
    if check and run.returncode != 0:
        raise SystemExit(run.failure(args))
    return run
