"""``discotest coref SUITE``: English coreference resolvers and MT systems scored on the same suite."""

from __future__ import annotations

import argparse

from discotest import api
from discotest.cli.common import common_parser, emit_report, emitter_options
from discotest.gender.coref import RESOLVERS
from discotest.values import int_option

NAME = "coref"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="English coreference resolvers and MT systems scored on the same suite",
                       parents=[common_parser()])
    p.add_argument("suite", help="winomt, bug or winomt-demo")
    p.add_argument("--resolver", action="append", choices=RESOLVERS, default=[],
                   help="source-side resolvers (default: rules)")
    p.add_argument("--lang", "-l", help="also score MT systems in these languages (comma-separated or 'all')")
    p.add_argument("--system", "-s", default="all", help="published systems for --lang (default all)")
    p.add_argument("--suite-version", default="current")
    p.add_argument("--jobs", "-j", type=int_option("jobs"), default=None)
    emitter_options(p, ("text", "json"))


def run(args: argparse.Namespace) -> int:
    emit_report(args, api.coref(args.suite, resolver=args.resolver or ["rules"], lang=args.lang, system=args.system,
                                suite_version=args.suite_version, jobs=args.jobs, data_dir=args.data_dir,
                                quiet=args.quiet))
    return 0
