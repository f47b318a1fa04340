"""``discotest finetune``: fine-tune a Marian model on ``augment``'s pairs, coreference markers in its vocabulary."""

from __future__ import annotations

import argparse
import json

from discotest import api
from discotest.cli.common import common_parser
from discotest.values import float_option, int_option

NAME = "finetune"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="fine-tune a Marian model on augment's JSONL, markers in its vocabulary",
                       parents=[common_parser()])
    p.add_argument("--model", "-m", required=True, help="Marian (Opus-MT) model directory or hub name")
    p.add_argument("--data", required=True, help="JSONL from `discotest augment`")
    p.add_argument("--output", "-o", required=True, help="directory for the fine-tuned model")
    p.add_argument("--steps", type=int_option("steps"), default=1000)
    p.add_argument("--batch-size", type=int_option("batch-size"), default=16)
    p.add_argument("--lr", type=float_option("lr"), default=5e-5)
    p.add_argument("--max-length", type=int_option("max-length"), default=128)
    p.add_argument("--no-markers", dest="markers", action="store_false", help="do not add <ENTk> tokens")
    p.add_argument("--device", default="cpu")
    p.add_argument("--seed", type=int_option("seed"), default=1)


def run(args: argparse.Namespace) -> int:
    report = api.finetune(args.model, args.data, args.output, steps=args.steps, batch_size=args.batch_size,
                          lr=args.lr, max_length=args.max_length, markers=args.markers, device=args.device,
                          seed=args.seed, quiet=args.quiet)
    print(json.dumps(report.to_json()))
    return 0
