"""Range checks for numeric options, shared by the CLI (argparse ``type=`` functions, so a bad value fails at parse
time) and the Python API (so ``discotest.run("mzprt", window=-1, …)`` fails the same way), and the one-line parser.

The bounds are generous sanity limits, not tuning: they only keep out values that cannot be meant (a negative
window, zero bootstrap resamples, a billion worker processes) and would otherwise crash or hang deep inside.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from discotest.errors import InputError

SEED_MAX = 2**32 - 1  # numpy and torch refuse larger seeds

# option -> (lowest, highest) allowed value
LIMITS: dict[str, tuple[float, float]] = {
    "bootstrap": (1, 1_000_000),
    "seed": (0, SEED_MAX),
    "jobs": (1, 1024),
    "ray-actors": (1, 10_000),
    "window": (0, 1000),
    "reach": (0, 1000),
    "context": (0, 100),
    "batch-size": (1, 1_000_000),
    "chunk-size": (1, 10_000_000),
    "beam": (1, 1000),
    "max-length": (1, 1_000_000),
    "n": (1, 10_000_000),
    "max-docs": (1, 10_000_000),
    "steps": (1, 100_000_000),
    "lr": (0.0, 10.0),  # exclusive of 0
}


def check_int(value: object, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number within [low, high] (defaults from ``LIMITS[name]``), else an InputError naming
    the option as the CLI spells it."""
    default_low, default_high = LIMITS.get(name, (None, None))
    low = default_low if low is None else low
    high = default_high if high is None else high
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"--{name} must be a whole number, not {value!r}"[:200])
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputError(f"--{name} must be between {low} and {high}, not {value}")
    return value


def check_positive_float(value: object, name: str, high: float | None = None) -> float:
    """A finite number above 0 and at most ``high`` (default from ``LIMITS[name]``)."""
    high = LIMITS.get(name, (0.0, math.inf))[1] if high is None else high
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"--{name} must be a finite number, not {value!r}"[:200])
    if not 0 < value <= high:
        raise InputError(f"--{name} must be above 0 and at most {high}, not {value}")
    return float(value)


def _argtype(name: str, convert: Callable[[str], object], check: Callable[[object, str], object]):
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text[:40]!r}") from None
        try:
            return check(value, name)
        except InputError as exc:
            raise argparse.ArgumentTypeError(exc.detail.removeprefix(f"--{name} ")) from None

    parse.__name__ = name  # argparse names the type in its message
    return parse


def int_option(name: str):
    """argparse ``type=`` for the whole-number option ``--name`` (bounds in ``LIMITS``)."""
    return _argtype(name, int, check_int)


def float_option(name: str):
    """argparse ``type=`` for a positive float option ``--name`` (upper bound in ``LIMITS``)."""
    return _argtype(name, float, check_positive_float)


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as the one line every discotest error is (``discotest: error: …``, exit status 2), not
    argparse's usage block; subparsers inherit the class, so every subcommand behaves the same."""

    def error(self, message: str):
        self.exit(2, f"discotest: error: {' '.join(message.split())} (see {self.prog} --help)\n")
