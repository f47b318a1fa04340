"""``discotest rank dip``: rank the WMT systems of a pair per phenomenon (the same as ``run dip --pair``)."""

from __future__ import annotations

import argparse

from discotest import api
from discotest.cli.mine import add_benchmark
from discotest.cli.parsers import emit_report, emitter_options, family_options, global_flags_parser

NAME = "rank"


def add(sub: argparse._SubParsersAction) -> None:
    from discotest.dip.family import ANAPHORA_MODE, PRONOUN_SCORER
    from discotest.registry.options import BOOTSTRAP

    r = sub.add_parser(NAME, help="rank WMT systems per phenomenon on mined test sets (same as run dip --pair)",
                       parents=[global_flags_parser()])
    add_benchmark(r)
    for option in (PRONOUN_SCORER, ANAPHORA_MODE, BOOTSTRAP):
        r.add_argument(*option.flags, default=option.default, **option.argparse_kwargs())
    emitter_options(r)


def run(args: argparse.Namespace) -> int:
    from discotest.dip.family import FAMILY

    args.suite = "dip"
    emit_report(args, api.run("dip", **family_options(args, FAMILY.options)))
    return 0
