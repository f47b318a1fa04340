"""``discotest run SUITE``: evaluate translations on a suite (every family, through ``api.run``)."""

from __future__ import annotations

import argparse
from functools import partial

from discotest import api, families
from discotest.cli.parsers import (
    add_options,
    emit_report,
    emitter_options,
    family_list,
    family_options,
    global_flags_parser,
)
from discotest.registry import Family

NAME = "run"


def add(sub: argparse._SubParsersAction, only: Family | bool | None = None) -> None:
    """``run``; with ``only`` (``run SUITE --help``), just that family's options, else every family's (parsing) —
    or, for ``run --help`` without a suite, none but the common ones and a list of families (``only`` False)."""
    p = sub.add_parser(NAME, help="evaluate translations on a suite", parents=[global_flags_parser()],
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=None if only else partial(family_list, compare=False))
    p.add_argument("suite", help="suite name (`discotest suites` lists them)")
    emitter_options(p)
    if only is not False:
        add_options(p, [(f, f.options) for f in ([only] if only else families.families())])


def run(args: argparse.Namespace) -> int:
    family = families.family_of(args.suite)
    emit_report(args, api.run(args.suite, **family_options(args, family.options)))
    return 0
