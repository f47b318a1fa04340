"""``discotest make-contrastive``: build a contrastive suite's incorrect variants by swapping a pronoun chain."""

from __future__ import annotations

import argparse
import sys

from discotest import api
from discotest.cli.outputs import report_stdout
from discotest.cli.parsers import add_declared, declared_values, global_flags_parser
from discotest.registry.commands import MAKE_CONTRASTIVE_OPTIONS

NAME = "make-contrastive"


def add(sub: argparse._SubParsersAction) -> None:
    m = sub.add_parser(NAME, help="build incorrect variants by swapping an annotated pronoun chain",
                       parents=[global_flags_parser()])
    add_declared(m, MAKE_CONTRASTIVE_OPTIONS)


def run(args: argparse.Namespace) -> int:
    options = declared_values(args, MAKE_CONTRASTIVE_OPTIONS)
    rows = api.make_contrastive(options.pop("input"), options.pop("output"), **options)
    if args.output is None:  # -o -: the same rows on stdout
        from discotest.contrastive.build import rows_text

        report_stdout().write(rows_text(rows))
    print(f"discotest: wrote {len(rows)} contrastive items to {args.output or 'standard output'}", file=sys.stderr)
    return 0
