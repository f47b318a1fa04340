"""``discotest mine dip``: mine document-level test sets from one WMT pair's system outputs."""

from __future__ import annotations

import argparse
import sys

from discotest import api
from discotest.cli.parsers import global_flags_parser

NAME = "mine"


def add_benchmark(p: argparse.ArgumentParser) -> None:
    """The benchmark argument and the mining options ``mine`` and ``rank`` share."""
    from discotest.dip.family import MINE_OPTIONS

    p.add_argument("benchmark", choices=("dip",), help="the benchmark (dip)")
    for option in MINE_OPTIONS:
        p.add_argument(*option.flags, default=option.default, **option.argparse_kwargs())


def add(sub: argparse._SubParsersAction) -> None:
    m = sub.add_parser(NAME, help="mine document-level test sets from WMT system outputs",
                       parents=[global_flags_parser()])
    add_benchmark(m)
    m.add_argument("--output", "-o", required=True, metavar="DIR", help="folder for the JSONL files and manifest")


def run(args: argparse.Namespace) -> int:
    from discotest.dip.family import MINE_OPTIONS

    options = {o.name: getattr(args, o.name) for o in MINE_OPTIONS}
    manifest, warnings = api.mine(args.benchmark, output=args.output, data_dir=args.data_dir, quiet=args.quiet,
                                  **options)
    for warning in warnings:
        print(f"discotest: {warning}", file=sys.stderr)
    counts = ", ".join(f"{p} {n}" for p, n in manifest["counts"].items())
    if not args.quiet:
        print(f"discotest: mined {counts} from {len(manifest['systems_mined'])} systems into {args.output}",
              file=sys.stderr)
    return 0
