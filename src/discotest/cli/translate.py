"""``discotest translate``: a gender suite's sources (or an English file) translated by an MT model or LLM."""

from __future__ import annotations

import argparse
import sys

from discotest import api
from discotest.cli.common import common_parser
from discotest.registry import options as common
from discotest.values import int_option

NAME = "translate"


def add(sub: argparse._SubParsersAction) -> None:
    from discotest.gender.family import MODEL_OPTIONS

    p = sub.add_parser(NAME, help="translate a suite's sources (or an English file) with an MT model",
                       parents=[common_parser()])
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--suite", help="gender suite to translate (winomt, winomt-demo, winomt-adj, bug)")
    what.add_argument("--input", "-i", help="English text file, one sentence per line ('-': stdin)")
    p.add_argument("--lang", "-l", required=True, help="target language")
    p.add_argument("--model", "-m", metavar="NAME_OR_PATH",
                   help="Hugging Face seq2seq (Marian, M2M100, mBART-50, NLLB), decoder-only LLM or CTranslate2 "
                   "model")
    p.add_argument("--output", "-o", required=True,
                   help="translations, one per line (what run --input reads); '-': stdout")
    p.add_argument("--suite-version", default="current")
    p.add_argument("--batch-size", type=int_option("batch-size"), default=16, help="sentences per batch")
    p.add_argument("--device", default="cpu", help="torch device (cpu, cuda, cuda:1 …)")
    p.add_argument("--no-cache", dest="use_cache", action="store_false", help="translate even cached sentences")
    engine_options = (*common.ENGINE_OPTIONS, common.RAY_ACTORS)  # --engine ray: generated on an actor pool
    for option in (*MODEL_OPTIONS, *engine_options, common.CONTEXT):
        if option.name not in ("batch_size", "device"):
            p.add_argument(*option.flags, default=option.default, **option.argparse_kwargs())


def run(args: argparse.Namespace) -> int:
    lines = api.translate(args.lang, suite=args.suite, input=args.input, model=args.model, endpoint=args.endpoint,
                          output=args.output, suite_version=args.suite_version, data_dir=args.data_dir,
                          engine=args.engine, context=args.context, src_lang=args.src_lang, tgt_lang=args.tgt_lang,
                          markers=args.markers, resolver=args.resolver, beam=args.beam, max_length=args.max_length,
                          batch_size=args.batch_size, device=args.device, revision=args.revision,
                          use_cache=args.use_cache, quiet=args.quiet, ray_address=args.ray_address,
                          ray_actors=args.ray_actors, prompt_file=args.prompt_file, concurrency=args.concurrency,
                          timeout=args.timeout)
    if args.output is None:  # -o -
        sys.stdout.write("".join(line.replace("\n", " ") + "\n" for line in lines))
    print(f"discotest: wrote {len(lines)} translations to {args.output or 'standard output'}", file=sys.stderr)
    return 0
