"""``discotest make-contrastive``: build a contrastive suite's incorrect variants by swapping a pronoun chain."""

from __future__ import annotations

import argparse
import sys

from discotest import api
from discotest.cli.common import common_parser

NAME = "make-contrastive"


def add(sub: argparse._SubParsersAction) -> None:
    m = sub.add_parser(NAME, help="build incorrect variants by swapping an annotated pronoun chain",
                       parents=[common_parser()])
    m.add_argument("--input", "-i", required=True,
                   help="JSONL: target sentence and its pronoun chain (docs/your-files.md; '-': stdin)")
    m.add_argument("--output", "-o", required=True, help="contrastive suite JSONL to write ('-': stdout)")
    m.add_argument("--replacement", choices=("he", "she", "it", "they"), default=None,
                   help="replace the chain with this pronoun only (default: every other one)")


def run(args: argparse.Namespace) -> int:
    rows = api.make_contrastive(args.input, args.output, replacement=args.replacement)
    if args.output is None:  # -o -: the same rows on stdout
        from discotest.contrastive.build import rows_text

        sys.stdout.write(rows_text(rows))
    print(f"discotest: wrote {len(rows)} contrastive items to {args.output or 'standard output'}", file=sys.stderr)
    return 0
