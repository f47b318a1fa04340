"""The options of the commands that are no suite family's (``data``, ``suites``, ``make-contrastive``), declared
once as data as a family's are: ``cli/`` builds the flags from them and ``api`` checks its keywords against them."""

from __future__ import annotations

import argparse

from discotest.data import catalogue
from discotest.errors import InputError
from discotest.registry import Option, Settings
from discotest.registry.options import DATA_DIR, QUIET
from discotest.values import float_option

# data fetch: the API takes the command line's units (seconds, kB a second, MB)
DATA_FETCH_OPTIONS = (
    Option("silence", ("--silence",), f"seconds a download may stay silent (default {catalogue.FETCH_SILENCE:g})",
           default=catalogue.FETCH_SILENCE, type=float_option("silence"), metavar="SECONDS"),
    # the old name of --silence (``--timeout`` is an endpoint's wait everywhere else): still taken, said to be
    # deprecated (``TIMEOUT_RENAMED``), not listed in --help
    Option("timeout", ("--timeout",), argparse.SUPPRESS, type=float_option("timeout")),
    Option("deadline", ("--deadline",), f"seconds a whole download may take (default {catalogue.FETCH_DEADLINE:g})",
           default=catalogue.FETCH_DEADLINE, type=float_option("deadline")),
    Option("min_rate", ("--min-rate",), "kB a second a download must average once --silence seconds have passed "
           f"(default {catalogue.FETCH_MIN_RATE / 1e3:g}): a trickling server is stopped",
           default=catalogue.FETCH_MIN_RATE / 1e3, type=float_option("min-rate"), metavar="KB_PER_S"),
    Option("max_size", ("--max-size",), "largest download of a source whose size the registry does not know "
           f"(default {catalogue.FETCH_MAX_SIZE / 1e6:g} MB; a known size is a cap)",
           default=catalogue.FETCH_MAX_SIZE / 1e6, type=float_option("max-size"), metavar="MB"),
    DATA_DIR,
)


TIMEOUT_RENAMED = ("data fetch --timeout is now --silence (seconds a download may stay silent; Python: silence=); "
                   "--timeout will be removed")


def fetch_limits(s: Settings) -> catalogue.Limits:
    """``data fetch``'s checked settings as the download limits (bytes and bytes a second); the deprecated
    ``timeout`` stands for ``silence`` (both given, and different: an InputError)."""
    silence = s.silence
    if s.timeout is not None:
        if s.silence != catalogue.FETCH_SILENCE and s.silence != s.timeout:
            raise InputError("data fetch: give --silence only (--timeout is its old name)")
        silence = s.timeout
    return catalogue.Limits(silence=silence, deadline=s.deadline, max_size=int(s.max_size * 1e6),
                            min_rate=s.min_rate * 1e3)


# data prepare: the family options it passes on (each checked by the suite's family)
DATA_PREPARE_OPTIONS = (
    Option("lang", ("--lang", "-l"), "only these languages (comma-separated; default all)", many=True),
    Option("subset", ("--subset",), "mt-geneval: only this subset (default both)"),
)
DATA_LIST_OPTIONS = (DATA_DIR,)
DATA_VERIFY_OPTIONS = (DATA_DIR,)

SUITES_FORMAT = Option("format", ("--format", "-f"), "text, or JSON: one object per suite (family, size, languages, "
                       "licence, systems)", default="text", choices=("text", "json"))
SUITES_OPTIONS = (SUITES_FORMAT, DATA_DIR, QUIET)

MAKE_CONTRASTIVE_OPTIONS = (
    Option("input", ("--input", "-i"), "JSONL: target sentence and its pronoun chain (docs/your-files.md; '-': "
           "stdin)", required=True),
    Option("output", ("--output", "-o"), "contrastive suite JSONL to write ('-': stdout)", required=True),
    Option("replacement", ("--replacement",), "replace the chain with this pronoun only (default: every other one)",
           choices=("he", "she", "it", "they")),
)
