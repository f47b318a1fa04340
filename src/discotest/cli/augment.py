"""``discotest augment``: select coreference/gender fine-tuning pairs from a parallel corpus."""

from __future__ import annotations

import argparse
import sys

from discotest import api
from discotest.cli.parsers import add_declared, declared_values, global_flags_parser
from discotest.gender.commands import AUGMENT_OPTIONS

NAME = "augment"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="select Coref/Gender fine-tuning data from a parallel corpus",
                       parents=[global_flags_parser()])
    add_declared(p, AUGMENT_OPTIONS)


def run(args: argparse.Namespace) -> int:
    options = declared_values(args, AUGMENT_OPTIONS)
    options["summary"] = args.summary or f"{args.output}.summary.json"
    counts = api.augment(options.pop("input"), options.pop("output"), options.pop("target"), **options)
    print(counts.render(), file=sys.stderr)
    print(f"discotest: wrote {counts.written} pairs to {args.output}", file=sys.stderr)
    return 0
