"""``discotest validate sample|score``: human validation of gender verdicts — a sample sheet for people, and the
agreement of a filled sheet with the verdicts."""

from __future__ import annotations

import argparse
import json

from discotest import api
from discotest.cli.outputs import print_out
from discotest.cli.parsers import add_declared, declared_values, global_flags_parser
from discotest.gender.commands import VALIDATE_SAMPLE_OPTIONS, VALIDATE_SCORE_OPTIONS

NAME = "validate"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="human validation of gender verdicts: export a sample, score it",
                       parents=[global_flags_parser()])
    action = p.add_subparsers(dest="action", required=True)
    s = action.add_parser("sample", help="a stratified sample of verdicts to a CSV for a person",
                          parents=[global_flags_parser()])
    add_declared(s, VALIDATE_SAMPLE_OPTIONS)

    f = action.add_parser("score", help="score a filled sample CSV", parents=[global_flags_parser()])
    f.add_argument("csv", help="the filled sample")
    f.add_argument("--format", choices=("text", "json"), default="text")
    add_declared(f, VALIDATE_SCORE_OPTIONS)


def run(args: argparse.Namespace) -> int:
    if args.action == "score":
        from discotest.gender.validate import render_scores

        scores = api.validate_score(args.csv, **declared_values(args, VALIDATE_SCORE_OPTIONS))
        as_json = args.format == "json"
        print_out(json.dumps([s.to_json() for s in scores], indent=1) if as_json else render_scores(scores))
        return 0
    options = declared_values(args, VALIDATE_SAMPLE_OPTIONS)
    count, kind = api.validate_sample(options.pop("suite"), options.pop("lang"), options.pop("output"), **options)
    print_out(f"wrote {count} items to {args.output}: fill in aligned_word_correct and gender_correct (yes/no) and "
              f"{kind.person_column}: {kind.question}; then run `discotest validate score {args.output}`")
    return 0
