"""``discotest augment``: select coreference/gender fine-tuning pairs from a parallel corpus."""

from __future__ import annotations

import argparse
import sys

from discotest import api
from discotest.cli.common import common_parser
from discotest.gender.coref import RESOLVERS
from discotest.values import int_option

NAME = "augment"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="select Coref/Gender fine-tuning data from a parallel corpus",
                       parents=[common_parser()])
    p.add_argument("--input", "-i", required=True, help="English side (or a TSV: English<TAB>target)")
    p.add_argument("--target", "-t", help="target side, line-parallel to --input (omit for a TSV)")
    p.add_argument("--select", choices=("coref", "gender"), default="coref",
                   help="coref: a non-singleton cluster; gender: one holding he/she/him/her/his/hers")
    p.add_argument("--markers", action="store_true", help="mark the clusters inline: <ENT1> it </ENT1>")
    p.add_argument("--resolver", choices=RESOLVERS, default="rules")
    p.add_argument("--output", "-o", required=True, help="JSONL of selected pairs")
    p.add_argument("--summary", help="the counts as JSON (default: OUTPUT.summary.json)")
    p.add_argument("--chunk-size", type=int_option("chunk-size"), default=1000, help="lines per resolver batch")


def run(args: argparse.Namespace) -> int:
    counts = api.augment(args.input, args.output, args.target, select=args.select, markers=args.markers,
                         resolver=args.resolver, chunk_size=args.chunk_size, quiet=args.quiet,
                         summary=args.summary or f"{args.output}.summary.json")
    print(counts.render(), file=sys.stderr)
    print(f"discotest: wrote {counts.written} pairs to {args.output}", file=sys.stderr)
    return 0
