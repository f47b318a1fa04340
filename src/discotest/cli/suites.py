"""``discotest suites``: every suite by family, its size (counted from the data), languages, licence and systems."""

from __future__ import annotations

import argparse
import json

from discotest import api, families
from discotest.cli.outputs import print_out
from discotest.cli.parsers import add_declared, global_flags_parser
from discotest.registry.commands import SUITES_OPTIONS

NAME = "suites"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="every suite: size, languages, licence and published systems",
                       parents=[global_flags_parser()])
    add_declared(p, SUITES_OPTIONS)


def run(args: argparse.Namespace) -> int:
    """A family without a ``describe`` hook (e.g. one registered by a user) gets its suite names and systems only."""
    if args.format == "json":
        print_out(json.dumps(api.suite_facts(args.data_dir), ensure_ascii=False, indent=1))
        return 0
    for family in families.families():
        print_out(f"# {family.title}: {family.doc}" if family.doc else f"# {family.title}")
        for suite, systems in sorted(family.suites().items()):
            if family.describe is None:
                print_out(suite)
            else:
                facts = family.describe(suite, args.data_dir)
                licence = facts.licence or "see `discotest data list`"
                print_out(f"{suite}: {facts.size}; {facts.langs}; licence: {licence}")
            if systems:
                print_out(f"  published systems: {', '.join(systems)}")
        print_out()
    return 0
