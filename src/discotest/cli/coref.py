"""``discotest coref SUITE``: English coreference resolvers and MT systems scored on the same suite."""

from __future__ import annotations

import argparse

from discotest import api
from discotest.cli.parsers import add_declared, declared_values, emit_report, emitter_options, global_flags_parser
from discotest.gender.commands import COREF_OPTIONS

NAME = "coref"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="English coreference resolvers and MT systems scored on the same suite",
                       parents=[global_flags_parser()])
    p.add_argument("suite", help="winomt, bug or winomt-demo")
    add_declared(p, COREF_OPTIONS)
    emitter_options(p, ("text", "json"))


def run(args: argparse.Namespace) -> int:
    emit_report(args, api.coref(args.suite, **declared_values(args, COREF_OPTIONS)))
    return 0
