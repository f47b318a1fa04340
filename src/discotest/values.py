"""How a value written as text is read and checked: the JSON grammar of a number (every reader and option), range
checks for numeric options shared by the CLI (argparse ``type=`` functions, so a bad value fails at parse time) and the
Python API (so ``discotest.run("mzprt", window=-1, …)`` fails the same way), and the one-line parser.

The bounds are generous sanity limits, not tuning: they only keep out values that cannot be meant (a negative
window, zero bootstrap resamples, a billion worker processes) and would otherwise crash or hang deep inside.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from discotest.errors import InputError

# the one grammar of a number written as text, in every reader and option: JSON's (ASCII digits; no "1_000", "+1",
# ".5", "1.", "nan", "inf", "０", "١"; surrounding spaces allowed). Python's float()/int() accept all of those.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_JSON_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
NUMBER_GRAMMAR = "written as in JSON: 12, -0.5, 1e-3"
WHOLE_GRAMMAR = "written as in JSON: 12, 1000"


def is_number(text: str) -> bool:
    """Whether ``text`` (spaces around it aside) is one number in JSON's grammar."""
    return _JSON_NUMBER.fullmatch(text.strip(" \t")) is not None


def is_whole_number(text: str) -> bool:
    """Whether ``text`` (spaces around it aside) is one integer in JSON's grammar (no sign "+", no leading 0)."""
    return _JSON_INTEGER.fullmatch(text.strip(" \t")) is not None



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
    "limit": (1, 10_000_000),
    "n-samples": (1, 10_000_000),
    "max-docs": (1, 10_000_000),
    "steps": (1, 100_000_000),
    "lr": (0.0, 10.0),  # exclusive of 0
    "timeout": (0.0, 86_400.0),  # seconds, exclusive of 0
    "deadline": (0.0, 30 * 86_400.0),
    "max-size": (0.0, 2.0**20),  # MB
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
    whole = convert is int

    def parse(text: str):
        # the readers' grammar (JSON numbers): int("1_000"), int("٣"), float("nan") would be accepted otherwise
        if not (is_whole_number(text) if whole else is_number(text)):
            kind = "a whole number" if whole else "a number"
            grammar = WHOLE_GRAMMAR if whole else NUMBER_GRAMMAR
            raise argparse.ArgumentTypeError(f"expected {kind} ({grammar}), got {text[:40]!r}")
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text[:40]!r}") from None
        try:
            return check(value, name)
        except InputError as exc:
            raise argparse.ArgumentTypeError(exc.detail.removeprefix(f"--{name} ")) from None

    parse.__name__ = name  # argparse names the type in its message
    parse.check = lambda value: check(value, name)  # the same range, for a number given in Python (Option.check)
    return parse


def int_option(name: str):
    """argparse ``type=`` for the whole-number option ``--name`` (bounds in ``LIMITS``)."""
    return _argtype(name, int, check_int)


def float_option(name: str):
    """argparse ``type=`` for a positive float option ``--name`` (upper bound in ``LIMITS``)."""
    return _argtype(name, float, check_positive_float)


def subset_option(name: str, known: tuple[str, ...]):
    """argparse ``type=`` for ``--name a,b``: a comma-separated subset of ``known``, returned in ``known``'s order
    (a list given in Python is checked the same way); an unknown name is one error naming the known ones."""

    def check(value: object, _name: str = name) -> list[str]:
        wanted = [v.strip() for v in value.split(",") if v.strip()] if isinstance(value, str) else list(value)
        unknown = [str(v) for v in wanted if v not in known]
        if unknown or not wanted:
            raise InputError(f"--{_name}: unknown {', '.join(unknown)[:80] or 'empty list'} (known: "
                             f"{', '.join(known)})")
        return [k for k in known if k in wanted]

    def parse(text: str) -> list[str]:
        try:
            return check(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(exc.detail.removeprefix(f"--{name}: ")) from None

    parse.__name__ = name
    parse.check = check
    return parse


# what to do instead of repeating a single-value option of `run` (the option's dest -> advice)
REPEAT_HINTS = {
    "input": "to compare two translation files use `discotest compare SUITE --input A --input B`",
    "scores": "to compare two scores files use `discotest compare SUITE --input A --input B`",
    "system": "several systems are one comma-separated list (--system a,b); to compare two use "
              "`discotest compare SUITE --system a --system b`",
    "lang": "several languages are one comma-separated list (--lang de,fr)",
    "phenomena": "several phenomena are one comma-separated list",
}


class StoreOnce(argparse._StoreAction):
    """argparse's ``store``, except that a second occurrence is an error naming the option (argparse would keep the
    last value without a word: ``--input A --input B`` scored B alone). Options that take several values say so
    with ``action="append"``."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, "_options_given", None)
        if given is None:
            given = set()
            namespace._options_given = given
        if self.dest in given:
            hint = REPEAT_HINTS.get(self.dest) if parser.prog.endswith(" run") else None
            hint = hint and hint.replace("SUITE", str(getattr(namespace, "suite", None) or "SUITE"))
            raise argparse.ArgumentError(self, "given twice; it takes one value" + (f": {hint}" if hint else ""))
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as the one line every discotest error is (``discotest: error: …``, exit status 2), not
    argparse's usage block; subparsers inherit the class, so every subcommand behaves the same. Every single-value
    option of every parser (and its argument groups, which share the registry) is ``StoreOnce``. An ``epilog`` may
    be a function: it is called when the help is shown (``run``'s list of suites reads every family's catalogue,
    which a run itself never shows)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)

    def format_help(self) -> str:
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()

    def error(self, message: str):
        self.exit(2, f"discotest: error: {' '.join(message.split())} (see {self.prog} --help)\n")
