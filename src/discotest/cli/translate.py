"""``discotest translate``: a gender suite's sources (or an English file) translated by an MT model or LLM."""

from __future__ import annotations

import argparse
import sys

from discotest import api
from discotest.cli.outputs import report_stdout
from discotest.cli.parsers import add_declared, declared_values, global_flags_parser

NAME = "translate"


def add(sub: argparse._SubParsersAction) -> None:
    from discotest.gender.commands import TRANSLATE_OPTIONS, TRANSLATE_WHAT

    p = sub.add_parser(NAME, help="translate a suite's sources (or an English file) with an MT model",
                       parents=[global_flags_parser()])
    add_declared(p.add_mutually_exclusive_group(required=True), TRANSLATE_WHAT)
    add_declared(p, [o for o in TRANSLATE_OPTIONS if o not in TRANSLATE_WHAT])


def run(args: argparse.Namespace) -> int:
    from discotest.gender.commands import TRANSLATE_OPTIONS

    options = declared_values(args, TRANSLATE_OPTIONS)
    lines = api.translate(options.pop("lang"), **options)
    if args.output is None:  # -o -
        report_stdout().write("".join(line.replace("\n", " ") + "\n" for line in lines))
    print(f"discotest: wrote {len(lines)} translations to {args.output or 'standard output'}", file=sys.stderr)
    return 0
