"""``discotest validate sample|score``: human validation of gender verdicts — a sample sheet for people, and the
agreement of a filled sheet with the verdicts."""

from __future__ import annotations

import argparse
import json

from discotest import api
from discotest.cli.common import common_parser
from discotest.values import int_option

NAME = "validate"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="human validation of gender verdicts: export a sample, score it",
                       parents=[common_parser()])
    action = p.add_subparsers(dest="action", required=True)
    s = action.add_parser("sample", help="a stratified sample of verdicts to a CSV for a person",
                          parents=[common_parser()])
    s.add_argument("--suite", default="winomt")
    s.add_argument("--lang", "-l", required=True, help="language(s), comma-separated, or 'all'")
    s.add_argument("--system", "-s", help="published system(s), comma-separated, or 'all'")
    s.add_argument("--input", "-i", help="your translations of the suite (one --lang; the formats of `run --input`) "
                                         "instead of --system")
    s.add_argument("--verdict", default="noun", metavar="TYPE",
                   help="which verdict the sheet validates (gender.validate.VERDICT_TYPES): noun (the entity's "
                        "gender, default), consistency (does the pronoun agree with its entity?) or reader (the gender "
                        "a reader takes from the whole translation)")
    s.add_argument("--annotators", type=int_option("annotators"), choices=(1, 2), default=1,
                   help="2 adds a second person's columns (suffix _2) for person-vs-person agreement")
    s.add_argument("-n", type=int_option("n"), default=50, help="items in the sample")
    s.add_argument("--seed", type=int_option("seed"), default=13)
    s.add_argument("--output", "-o", required=True, metavar="CSV")
    s.add_argument("--jobs", "-j", type=int_option("jobs"), default=None)
    f = action.add_parser("score", help="score a filled sample CSV", parents=[common_parser()])
    f.add_argument("csv", help="the filled sample")
    f.add_argument("--format", choices=("text", "json"), default="text")
    f.add_argument("--n-samples", type=int_option("n-samples"), default=1000,
                   help="bootstrap resamples for the agreement intervals")
    f.add_argument("--seed", type=int_option("seed"), default=None,
                   help="bootstrap seed (default: discotest.stats.DEFAULT_SEED)")


def run(args: argparse.Namespace) -> int:
    if args.action == "score":
        from discotest.gender.validate import render_scores

        scores = api.validate_score(args.csv, n_samples=args.n_samples, seed=args.seed)
        print(json.dumps([s.to_json() for s in scores], indent=1) if args.format == "json" else render_scores(scores))
        return 0
    count, kind = api.validate_sample(args.suite, args.lang, args.output, system=args.system, input=args.input,
                                      verdict=args.verdict, annotators=args.annotators, n=args.n, seed=args.seed,
                                      jobs=args.jobs, data_dir=args.data_dir, quiet=args.quiet)
    print(f"wrote {count} items to {args.output}: fill in aligned_word_correct and gender_correct (yes/no) and "
          f"{kind.person_column}: {kind.question}; then run `discotest validate score {args.output}`")
    return 0
