"""``discotest compare SUITE``: two systems on the same items, a paired bootstrap and sign test per metric."""

from __future__ import annotations

import argparse
from functools import partial

from discotest import api, families
from discotest.cli.parsers import (
    add_options,
    compare_options,
    emit_report,
    emitter_options,
    family_list,
    family_options,
    global_flags_parser,
)
from discotest.errors import InputError
from discotest.registry import Family

NAME = "compare"


def add(sub: argparse._SubParsersAction, only: Family | bool | None = None) -> None:
    p = sub.add_parser(NAME, help="two systems on the same items: paired bootstrap and sign test per metric",
                       parents=[global_flags_parser()], formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=None if only else partial(family_list, compare=True))
    p.add_argument("suite", help="suite name (`discotest suites` lists them)")
    emitter_options(p)
    if only is not False:
        chosen = [only] if only else [f for f in families.families() if f.compare]
        add_options(p, [(f, compare_options(f)) for f in chosen])


def run(args: argparse.Namespace) -> int:
    family = families.family_of(args.suite)
    if family.compare is None:
        raise InputError(f"{args.suite} results cannot be compared item by item")
    emit_report(args, api.compare(args.suite, **family_options(args, compare_options(family))))
    return 0
