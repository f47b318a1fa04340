"""``discotest finetune``: fine-tune a Marian model on ``augment``'s pairs, coreference markers in its vocabulary."""

from __future__ import annotations

import argparse
import json

from discotest import api
from discotest.cli.outputs import print_out
from discotest.cli.parsers import add_declared, declared_values, global_flags_parser
from discotest.gender.commands import FINETUNE_OPTIONS

NAME = "finetune"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="fine-tune a Marian model on augment's JSONL, markers in its vocabulary",
                       parents=[global_flags_parser()])
    add_declared(p, FINETUNE_OPTIONS)


def run(args: argparse.Namespace) -> int:
    options = declared_values(args, FINETUNE_OPTIONS)
    report = api.finetune(options.pop("model"), options.pop("data"), options.pop("output"), **options)
    print_out(json.dumps(report.to_json()))
    return 0
