"""The ``discotest`` command. Every subcommand maps onto a function of ``discotest.api``.

Bad input ends with exit status 2 and one line on stderr naming the file and line; so does an output that
cannot be written (checked before the work by ``check_outputs``, or failing while written). A stdout pipe closed
by its reader ends quietly with 141 (see ``main``).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

# One BLAS thread per process: discotest parallelises across languages itself, and a multi-threaded
# OpenBLAS on busy cores made the Russian tagger 5-20 times slower (measured). Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from discotest import api
from discotest.atomic import check_output, write_text_atomic
from discotest.data import registry
from discotest.dip import commands as dip_commands
from discotest.errors import InputError
from discotest.lang.align import ALIGNERS, DEFAULT_ALIGNER
from discotest.lang.locate import LEXICON_MODES
from discotest.options import OneLineParser, float_option, int_option
from discotest.report.html import render_html
from discotest.report.render import (
    detail_rows,
    render_consistency_table,
    render_json,
    render_table,
    write_details,
    write_jsonl,
)
from discotest.systems.files import INPUT_FORMATS


def _split(value: str) -> list[str] | str:
    return "all" if value == "all" else [v.strip() for v in value.split(",") if v.strip()]


def _measures(value: str) -> tuple[str, ...]:
    """--measure: accuracy always, consistency on request ("all" = both)."""
    wanted = ["consistency"] if value == "all" else _split(value)
    return tuple(dict.fromkeys(["accuracy", *wanted]))


def _common() -> argparse.ArgumentParser:
    """Options accepted before or after the subcommand (``discotest -q run …`` and ``discotest run … -q``)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS,
                        help=f"data directory (default: ${registry.ENV_VAR}, else the user cache)")
    common.add_argument("--quiet", "-q", action="store_true", default=argparse.SUPPRESS, help="no progress bars")
    common.add_argument("--allow-modified-data", action="store_true", default=argparse.SUPPRESS,
                        help="use data files that differ from their pinned checksum (the signature says so); "
                             "without it such a file is an error")
    return common


def _add_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="evaluate translations on a suite", parents=[_common()])
    p.add_argument("suite", help=f"suite name ({', '.join(registry.suites())})")
    p.add_argument("--lang", "-l", help="target language, comma-separated list, or 'all' (gender suites)")
    p.add_argument("--domain", "-d", help="mZPRT domain (QA GR MS PP WF, MS-valid, WF-valid), list, or 'all'")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--system", "-s", help="published system output(s): name, comma-separated list, or 'all'")
    source.add_argument("--input", "-i", help="your translations: plain text, 'source ||| translation', or JSONL")
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="auto",
                   help="how --input is read (gender suites, winox, ctxpro-*): auto (JSONL if every line is a JSON "
                        "object, 'source ||| translation' if every line has one '|||', else plain), or forced")
    p.add_argument("--format", "-f", choices=("text", "json", "html"), default="text",
                   help="html: one self-contained page with the summary and every item's evidence")
    p.add_argument("--measure", default="accuracy",
                   help="gender suites: accuracy, consistency, or both comma-separated (consistency adds accuracy)")
    p.add_argument("--details", metavar="FILE", help="write one JSON line of evidence per item")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--suite-file", metavar="FILE",
                   help="the suite's file instead of the data directory's (winox; file suites such as jazp, winox-mt)")
    p.add_argument("--suite-version", default="current",
                   help="WinoMT files: 'current' (repository HEAD) or '2019' (the published outputs' source)")
    p.add_argument("--aligner", choices=ALIGNERS, default=DEFAULT_ALIGNER,
                   help="word aligner (default: Thot's eflomal model, seeded; 'eflomal' is the unseeded binary)")
    p.add_argument("--align-extra", choices=("auto", "none", "published", "wmt"), default=None,
                   help="extra aligner training text: all published outputs of the language (gender suites; "
                        "default auto = only for inputs under 2000 rows) or the WMT21/22 zh-en test sets "
                        "(mzprt; default wmt)")
    p.add_argument("--window", type=int_option("window"), default=1,
                   help="mzprt: candidate words each side of the aligned word")
    p.add_argument("--reach", type=int_option("reach"), default=0,
                   help="mzprt: also accept an unclaimed right pronoun up to N words beyond the window (0 = paper)")
    p.add_argument("--bleu", action="store_true", help="mzprt: also report sacrebleu BLEU")
    p.add_argument("--lexicon", choices=LEXICON_MODES, default="on",
                   help="use the entity lexicon to confirm or find the target entity")
    p.add_argument("--no-cache", dest="use_cache", action="store_false", help="recompute alignments")
    p.add_argument("--jobs", "-j", type=int_option("jobs"), default=None, help="worker processes for several languages")
    c = p.add_argument_group("contrastive suites (voita-*, bawden-*, scat, ctxpro-*, jazp, winox-mt, contrapro)")
    c.add_argument("--scores", metavar="FILE", help="one score per candidate line, suite order (higher = better)")
    c.add_argument("--scores-are-losses", action="store_true", help="the --scores file holds losses (lower = better)")
    c.add_argument("--model", metavar="NAME_OR_PATH",
                   help="Hugging Face seq2seq or CTranslate2 model: scores the candidates (contrastive suites) or "
                        "translates the suite (gender suites)")
    c.add_argument("--context", type=int_option("context"), action="append", default=[], metavar="K",
                   help="context sentences given to --model (repeat to run several sizes; default 0)")
    c.add_argument("--compare", action="store_true", help="paired test between the two systems or context sizes")
    c.add_argument("--baseline", action="append", default=[], choices=("majority", "cooccur", "cooccur-st"),
                   help="the paper's baselines (repeatable); they learn from --train-text")
    c.add_argument("--train-text", metavar="FILE", help="baseline training text (target, or 'source ||| target')")
    c.add_argument("--contrapro-context", nargs=2, metavar=("SRC", "TGT"),
                   help="contrapro: context files written by ContraPro's scripts (N lines per item, N = --context)")
    c.add_argument("--opensubtitles", metavar="PREFIX",
                   help="contrapro: rebuild the context from OPUS OpenSubtitles2018.de-en.{ids,en,de} at PREFIX")
    c.add_argument("--batch-size", type=int_option("batch-size"), default=32, help="--model: candidates per batch")
    c.add_argument("--device", default="cpu", help="--model: torch device (cpu, cuda, cuda:1 …)")
    c.add_argument("--separator", default=" ",
                   help="--model: joins context and current sentence, source and target side (default: a space)")
    c.add_argument("--logprob", choices=("sum", "mean"), default="sum",
                   help="--model: a candidate's score is the sum of its token log-probabilities, or their mean")
    c.add_argument("--no-target-context", dest="target_context", action="store_false",
                   help="--model: give the context on the source side only (default: also the target context, "
                        "teacher-forced, when the suite has it)")
    c.add_argument("--compute-type", default="default",
                   help="--model with a CTranslate2 directory: int8, float16, … (default: the model's own)")
    _add_model_options(p.add_argument_group("gender suites with --model (winomt, winomt-demo, bug)"))
    dip_commands.add_run_options(p)


def _add_model_options(g) -> None:
    """Decoding and marker options of a translating model (run --model, translate)."""
    from discotest.translate import MARKERS

    g.add_argument("--beam", type=int_option("beam"), default=4, help="beam size (default 4)")
    g.add_argument("--max-length", type=int_option("max-length"), default=256,
                   help="maximum source/output tokens (default 256)")
    g.add_argument("--markers", choices=MARKERS, default="none",
                   help="coreference markers on the source: from the English resolver or the suite's gold cluster")
    g.add_argument("--resolver", choices=("rules", "fastcoref"), default="rules", help="--markers predicted: resolver")
    g.add_argument("--src-lang", default=None,
                   help="source language code, ISO 639-1 or the model family's own (default: en; contrastive "
                        "suites: the suite's)")
    g.add_argument("--tgt-lang", default=None,
                   help="target language code (default: from --lang; contrastive suites: the suite's)")
    g.add_argument("--revision", default=None, help="hub model revision")


def _model_options(args: argparse.Namespace) -> dict:
    return dict(markers=args.markers, resolver=args.resolver, beam=args.beam, max_length=args.max_length,
                batch_size=args.batch_size, device=args.device, revision=args.revision, src_code=args.src_lang or "en",
                tgt_code=args.tgt_lang, use_cache=args.use_cache, quiet=args.quiet)


def _add_compare(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="paired significance between two systems", parents=[_common()])
    p.add_argument("suite", help="suite name (mzprt)")
    p.add_argument("--domain", "-d", required=True, help="mZPRT domain")
    p.add_argument("--input", "-i", action="append", default=[],
                   help="hypothesis file (give two, or one and --system)")
    p.add_argument("--system", "-s", action="append", default=[],
                   help="published system (give two, or one and --input)")
    p.add_argument("--bootstrap", type=int_option("bootstrap"), default=1000, help="paired bootstrap resamples")
    p.add_argument("--seed", type=int_option("seed"), default=12345)
    p.add_argument("--window", type=int_option("window"), default=1)
    p.add_argument("--reach", type=int_option("reach"), default=0)
    p.add_argument("--align-extra", choices=("none", "wmt"), default="wmt")
    p.add_argument("--no-cache", dest="use_cache", action="store_false")


def _add_coref(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("coref", help="English coreference resolvers and MT systems scored on the same suite",
                       parents=[_common()])
    p.add_argument("suite", help="winomt, bug or winomt-demo")
    p.add_argument("--resolver", action="append", choices=("rules", "fastcoref"), default=[],
                   help="source-side resolvers (default: rules)")
    p.add_argument("--lang", "-l", help="also score MT systems in these languages (comma-separated or 'all')")
    p.add_argument("--system", "-s", default="all", help="published systems for --lang (default all)")
    p.add_argument("--suite-version", default="current")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")
    p.add_argument("--jobs", "-j", type=int_option("jobs"), default=None)


def _cmd_coref(args: argparse.Namespace) -> int:
    from discotest.coref.compare import mt_resolution, render_coref_table, score_resolutions
    from discotest.coref.resolvers import FastcorefResolver, RulesResolver

    options = dict(suite_version=args.suite_version, data_dir=args.data_dir)
    items = api.load_suite(api.RunOptions(suite=args.suite, **options))
    scores = []
    for name in args.resolver or ["rules"]:
        resolver = RulesResolver() if name == "rules" else FastcorefResolver()
        scores.append(score_resolutions(f"{name} ({resolver.version()})", resolver.resolve(items)))
    if args.lang:
        with _progress_bar(args, "system×language pairs", "pair") as bar:
            results = api.run_many(args.suite, _split(args.lang), _split(args.system), jobs=args.jobs,
                                   progress=lambda n: bar.update(n), measure=("accuracy", "consistency"), **options)
        scores += [score_resolutions(f"{r.system}/{r.lang}", [mt_resolution(v) for v in r.verdicts])
                   for r in results]
    if args.format == "json":
        print(json.dumps([s.to_json() for s in scores], indent=1))
    else:
        print(render_coref_table(scores))
    return 0


def _add_validate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="human validation of gender verdicts: export a sample, score it",
                       parents=[_common()])
    action = p.add_subparsers(dest="action", required=True)
    s = action.add_parser("sample", help="a stratified sample of verdicts to a CSV for a person", parents=[_common()])
    s.add_argument("--suite", default="winomt")
    s.add_argument("--lang", "-l", required=True, help="language(s), comma-separated, or 'all'")
    s.add_argument("--system", "-s", required=True, help="published system(s), comma-separated, or 'all'")
    s.add_argument("-n", type=int_option("n"), default=50, help="items in the sample")
    s.add_argument("--seed", type=int_option("seed"), default=13)
    s.add_argument("--output", "-o", required=True, metavar="CSV")
    s.add_argument("--jobs", "-j", type=int_option("jobs"), default=None)
    f = action.add_parser("score", help="score a filled sample CSV", parents=[_common()])
    f.add_argument("csv", help="the filled sample")
    f.add_argument("--format", choices=("text", "json"), default="text")


def _add_translate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("translate", help="translate a suite's sources (or an English file) with an MT model",
                       parents=[_common()])
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--suite", help="gender suite to translate (winomt, winomt-demo, bug)")
    what.add_argument("--input", "-i", help="English text file, one sentence per line")
    p.add_argument("--lang", "-l", required=True, help="target language")
    p.add_argument("--model", "-m", required=True, metavar="NAME_OR_PATH",
                   help="Hugging Face seq2seq (Marian, M2M100, mBART-50, NLLB) or CTranslate2 model")
    p.add_argument("--output", "-o", required=True, help="translations, one per line (what run --input reads)")
    p.add_argument("--suite-version", default="current")
    p.add_argument("--batch-size", type=int_option("batch-size"), default=16, help="sentences per batch")
    p.add_argument("--device", default="cpu", help="torch device (cpu, cuda, cuda:1 …)")
    p.add_argument("--no-cache", dest="use_cache", action="store_false", help="translate even cached sentences")
    _add_model_options(p)


def _cmd_translate(args: argparse.Namespace) -> int:
    from discotest.translate import translate_file, translate_suite

    options = _model_options(args)
    if args.suite:
        lines = translate_suite(args.suite, args.lang, args.model, args.output, data_dir=args.data_dir,
                                suite_version=args.suite_version, **options)
    else:
        lines = translate_file(args.input, args.lang, args.model, args.output, **options)
    print(f"discotest: wrote {len(lines)} translations to {args.output}", file=sys.stderr)
    return 0


def _add_augment(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("augment", help="select Coref/Gender fine-tuning data from a parallel corpus",
                       parents=[_common()])
    p.add_argument("--input", "-i", required=True, help="English side (or a TSV: English<TAB>target)")
    p.add_argument("--target", "-t", help="target side, line-parallel to --input (omit for a TSV)")
    p.add_argument("--select", choices=("coref", "gender"), default="coref",
                   help="coref: a non-singleton cluster; gender: one holding he/she/him/her/his/hers")
    p.add_argument("--markers", action="store_true", help="mark the clusters inline: <ENT1> it </ENT1>")
    p.add_argument("--resolver", choices=("rules", "fastcoref"), default="rules")
    p.add_argument("--output", "-o", required=True, help="JSONL of selected pairs")
    p.add_argument("--summary", help="the counts as JSON (default: OUTPUT.summary.json)")
    p.add_argument("--chunk-size", type=int_option("chunk-size"), default=1000, help="lines per resolver batch")


def _cmd_augment(args: argparse.Namespace) -> int:
    from discotest.augment import augment

    counts = augment(args.input, args.output, args.target, select=args.select, markers=args.markers,
                     resolver=args.resolver, chunk_size=args.chunk_size, quiet=args.quiet,
                     summary=args.summary or f"{args.output}.summary.json")
    print(counts.render(), file=sys.stderr)
    print(f"discotest: wrote {counts.written} pairs to {args.output}", file=sys.stderr)
    return 0


def _add_finetune(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("finetune", help="fine-tune a Marian model on augment's JSONL, markers in its vocabulary",
                       parents=[_common()])
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


def _cmd_finetune(args: argparse.Namespace) -> int:
    from discotest.finetune import finetune

    report = finetune(args.model, args.data, args.output, steps=args.steps, batch_size=args.batch_size, lr=args.lr,
                      max_length=args.max_length, markers=args.markers, device=args.device, seed=args.seed,
                      quiet=args.quiet)
    print(json.dumps(report.to_json()))
    return 0


def _add_data(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("data", help="list, fetch or verify third-party data files", parents=[_common()])
    p.add_argument("action", choices=("list", "fetch", "verify"))
    p.add_argument("names", nargs="*", help="source names (default for verify: all)")
    p.add_argument("--timeout", type=float, default=registry.FETCH_TIMEOUT,
                   help=f"fetch: seconds a download may stay silent (default {registry.FETCH_TIMEOUT:g})")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="discotest", description="Discourse test bench for machine translation.", parents=[_common()]
    )
    parser.add_argument("--version", action="version", version=f"discotest {api.package_version('discotest')}")
    parser.set_defaults(data_dir=None, quiet=False, allow_modified_data=False)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run(sub)
    _add_compare(sub)
    _add_validate(sub)
    _add_coref(sub)
    _add_data(sub)
    _add_translate(sub)
    _add_augment(sub)
    _add_finetune(sub)
    dip_commands.add_commands(sub, _common)
    sub.add_parser("suites", help="list the suites and their published systems", parents=[_common()])
    m = sub.add_parser("make-contrastive", help="build incorrect variants by swapping an annotated pronoun chain",
                       parents=[_common()])
    m.add_argument("--input", "-i", required=True, help="JSONL: target sentence and its pronoun chain")
    m.add_argument("--output", "-o", required=True, help="contrastive suite JSONL to write")
    m.add_argument("--replacement", choices=("he", "she", "it", "they"), default=None,
                   help="replace the chain with this pronoun only (default: every other one)")
    return parser


# Options naming files (or folders) a command reads: no output may be one of them.
INPUT_OPTIONS = ("input", "scores", "suite_file", "train_text", "target", "data", "tests", "csv", "model",
                 "contrapro_context")
# Commands whose --output is a folder, and commands that print nothing but messages to stdout when -o is given.
FOLDER_OUTPUT = ("mine", "finetune")
STDOUT_FREE = ("translate", "augment", "make-contrastive", "mine")


def _outputs(args: argparse.Namespace) -> list[str]:
    """Every file or folder the command will write, as given."""
    out = [getattr(args, "output", None), getattr(args, "details", None)]
    if args.command == "augment" and args.output:
        out.append(args.summary or f"{args.output}.summary.json")
    return [o for o in out if o is not None]


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse unusable output paths before any work: one of the command's inputs, a directory where a file is
    expected, a device, FIFO or socket, a name too long, a missing or unwritable folder, two outputs on one file,
    a registered file of the data directory; and a closed stdout when the report goes there."""
    inputs: list[str] = []
    for name in INPUT_OPTIONS:
        value = getattr(args, name, None)
        if name == "data" and args.command != "finetune":
            continue  # mine/rank --data names a WMT test set, not a file
        inputs += [str(v) for v in value] if isinstance(value, list) else [value] if isinstance(value, str) else []
    outputs = _outputs(args)
    data = registry.data_dir(getattr(args, "data_dir", None)).resolve()
    registered = {data / p for source in registry.SOURCES.values() for p in (source.path, source.usable_path)}
    for i, path in enumerate(outputs):
        folder = i == 0 and args.command in FOLDER_OUTPUT
        check_output(path, inputs, folder=folder)
        resolved = Path(path).resolve()
        if any(resolved == Path(other).resolve() for other in outputs[:i]):
            raise InputError("the same file is given for two outputs", path)
        if resolved in registered:
            raise InputError(f"is a file of the data directory {data}; refusing to overwrite third-party data", path)
    if sys.stdout is None and not (getattr(args, "output", None) or args.command in STDOUT_FREE):
        raise InputError("standard output is closed; give --output FILE or redirect it to a file")


def _emit(args: argparse.Namespace, report: str) -> None:
    if getattr(args, "output", None):
        write_text_atomic(args.output, report + "\n")
    else:
        print(report)


def _html(args: argparse.Namespace, title: str, summaries: list[dict], rows: list[dict]) -> str:
    return render_html(title, summaries, rows, command=getattr(args, "command_line", ""))


def _progress_bar(args: argparse.Namespace, desc: str, unit: str, total: int | None = None):
    from tqdm import tqdm

    return tqdm(desc=desc, unit=unit, total=total, disable=args.quiet, file=sys.stderr)


def _cmd_run_mzprt(args: argparse.Namespace) -> int:
    from discotest.pipelines.azpt import run_mzprt
    from discotest.report.azpt import azpt_detail_rows, render_azpt_json, render_azpt_table, write_azpt_details

    if not args.domain:
        raise InputError("mzprt needs --domain (QA GR MS PP WF, MS-valid, WF-valid, a comma-separated list, or 'all')")
    if not (args.system or args.input):
        raise InputError("give --system (published outputs, or 'all') or --input (your hypotheses)")
    if args.align_extra == "published":
        raise InputError("--align-extra for mzprt is 'wmt' or 'none'")
    with _progress_bar(args, "domain×system results", "result") as bar:
        results = run_mzprt(
            _split(args.domain),
            systems=_split(args.system) if args.system else None,
            inputs=[args.input] if args.input else None,
            data_dir=args.data_dir,
            window=args.window,
            reach=args.reach,
            bleu=args.bleu,
            use_cache=args.use_cache,
            extra="wmt" if args.align_extra in (None, "auto") else args.align_extra,
            aligner=args.aligner,
            progress=lambda n: bar.update(n),
            input_format=args.input_format,
        )
    if args.details:
        write_azpt_details(args.details, results)
    if args.format == "html":
        _emit(args, _html(args, "discotest · mZPRT zero pronouns (AZPT)", [r.to_json() for r in results],
                          azpt_detail_rows(results)))
    else:
        _emit(args, render_azpt_json(results) if args.format == "json" else render_azpt_table(results))
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from discotest.pipelines.azpt import run_mzprt
    from discotest.pipelines.azpt_compare import compare_mzprt, compare_results
    from discotest.report.azpt import render_comparison
    from discotest.suites.mzprt import load_mzprt

    if args.suite != "mzprt":
        raise InputError(f"compare supports the mzprt suite, not {args.suite!r}")
    if len(args.input) + len(args.system) != 2:
        raise InputError("compare needs two systems: --input A --input B, --system A --system B, or one of each")
    common = dict(window=args.window, reach=args.reach, use_cache=args.use_cache, extra=args.align_extra)
    if len(args.input) == 2:
        comparison = compare_mzprt(args.domain, args.input[0], args.input[1], data_dir=args.data_dir,
                                   n_bootstrap=args.bootstrap, seed=args.seed, **common)
    else:
        results = run_mzprt([args.domain], systems=args.system or None, inputs=args.input or None,
                            data_dir=args.data_dir, bleu=True, **common)
        by_name = {r.system: r for r in results}
        order = [*args.system, *(Path(p).name for p in args.input)]
        a, b = (by_name.get(name, results[i]) for i, name in enumerate(order))
        comparison = compare_results(a, b, load_mzprt(args.domain, args.data_dir), args.bootstrap, args.seed)
    print(render_comparison(comparison))
    return 0


def _cmd_run_contrastive(args: argparse.Namespace) -> int:
    from discotest.pipelines.contrastive import compare_results, run_contrastive
    from discotest.report.contrastive import (
        contrastive_detail_rows,
        render_comparison,
        render_contrastive_json,
        render_contrastive_table,
        write_contrastive_details,
    )
    from discotest.suites.contrastive import FILE_SUITES, is_expected_word

    published = {system: name for (system, _), name in registry.system_outputs(args.suite).items()}
    if args.system and args.system not in published:
        known = ", ".join(published) or "none"
        raise InputError(f"{args.suite} has no published system {args.system!r} (published: {known}); "
                         "give --scores, --model or --baseline")
    if args.baseline and not args.train_text:
        raise InputError("--baseline needs --train-text (the text the baseline learns pronoun statistics from)")
    suite_file = (args.suite_file or args.input) if args.suite in FILE_SUITES else None
    translations = args.input if is_expected_word(args.suite) else None
    if args.system:
        translations = registry.locate(published[args.system], args.data_dir)
    if args.input and suite_file is None and translations is None:
        raise InputError(f"{args.suite} is scored from candidate scores: use --scores FILE, not --input")
    results = run_contrastive(
        args.suite, scores=args.scores, scores_are_losses=args.scores_are_losses, translations=translations,
        model=args.model, contexts=args.context or [0], baselines=args.baseline, train_text=args.train_text,
        suite_file=suite_file, data_dir=args.data_dir, batch_size=args.batch_size, device=args.device,
        use_cache=args.use_cache, quiet=args.quiet, contrapro_context=args.contrapro_context,
        opensubtitles=args.opensubtitles, input_format=args.input_format,
        scorer_options=dict(separator=args.separator.replace("\\n", "\n").replace("\\t", "\t"),
                            normalise=args.logprob == "mean", use_target_context=args.target_context,
                            src_lang=args.src_lang, tgt_lang=args.tgt_lang, revision=args.revision,
                            compute_type=args.compute_type),
    )
    if args.details:
        write_contrastive_details(args.details, results)
    if args.format == "html":
        report = _html(args, f"discotest · {args.suite}", [r.to_json() for r in results],
                       contrastive_detail_rows(results))
    else:
        report = render_contrastive_json(results) if args.format == "json" else render_contrastive_table(results)
    if args.compare:
        if len(results) != 2:
            raise InputError(f"--compare needs exactly two systems or context sizes, got {len(results)}")
        report += "\n\n" + render_comparison(compare_results(*results))
    _emit(args, report)
    return 0


def _cmd_make_contrastive(args: argparse.Namespace) -> int:
    from discotest.suites.contrastive.build import build_file

    count = build_file(args.input, args.output, replacement=args.replacement)
    print(f"discotest: wrote {count} contrastive items to {args.output}", file=sys.stderr)
    return 0


def _cmd_run_winox(args: argparse.Namespace) -> int:
    from discotest.pipelines.winox import run_winox
    from discotest.report.winox import render_winox_table

    if not args.input:
        raise InputError("winox needs --input (your translations of the Wino-X English sentences)")
    if not args.lang or "," in args.lang or args.lang == "all":
        raise InputError("winox needs exactly one --lang (de, fr or ru)")
    result = run_winox(args.lang, args.input, args.data_dir, args.suite_file, args.input_format)
    if args.details:
        write_jsonl(args.details, result.details())
    if args.format == "html":
        _emit(args, _html(args, "discotest · Wino-X pronoun accuracy", [result.to_json()], result.details()))
    else:
        _emit(args, json.dumps(result.to_json(), ensure_ascii=False, indent=1) if args.format == "json"
              else render_winox_table([result]))
    if result.unmatched:
        print(f"discotest: winox/{args.lang}: {len(result.unmatched)} items have no translation; left out",
              file=sys.stderr)
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    from discotest.suites.contrastive import is_contrastive

    if args.suite == "dip":
        return dip_commands.cmd_run(args)
    if args.suite == "mzprt":
        return _cmd_run_mzprt(args)
    if args.suite == "winox":
        return _cmd_run_winox(args)
    if is_contrastive(args.suite):
        return _cmd_run_contrastive(args)
    if args.align_extra == "wmt":
        raise InputError("--align-extra for gender suites is 'auto', 'published' or 'none'")
    options = dict(
        suite_version=args.suite_version,
        data_dir=args.data_dir,
        aligner=args.aligner,
        align_extra=args.align_extra or "auto",
        measure=_measures(args.measure),
        lexicon=args.lexicon,
        use_cache=args.use_cache,
        input_format=args.input_format,
    )
    if not args.lang:
        raise InputError(f"suite {args.suite!r} needs --lang (a language, a comma-separated list, or 'all')")
    if not (args.system or args.input or args.model):
        raise InputError("give --system (published outputs), --input (your translations) or --model (an MT model)")
    if args.model and (args.system or args.input):
        raise InputError("--model translates the suite itself: give it without --system/--input")
    if args.markers != "none" and not args.model:
        raise InputError("--markers marks the source a --model translates: give --model")
    langs = _split(args.lang)
    if args.model:
        if langs == "all" or len(langs) != 1:
            raise InputError("--model needs exactly one --lang")
        results = [api.run(args.suite, lang=langs[0], model=args.model, model_options=_model_options(args),
                           **options)]
    elif args.input:
        if langs == "all" or len(langs) != 1:
            raise InputError("--input needs exactly one --lang")
        results = [api.run(args.suite, lang=langs[0], input=args.input, **options)]
    else:
        with _progress_bar(args, "system×language pairs", "pair") as bar:
            results = api.run_many(
                args.suite, langs, _split(args.system), jobs=args.jobs,
                progress=lambda n: bar.update(n), **options,
            )
    if args.format == "html":
        report = _html(args, f"discotest · {args.suite}", [r.to_json() for r in results], detail_rows(results))
    else:
        report = render_json(results) if args.format == "json" else render_table(results)
    if args.format == "text" and any(r.consistency for r in results):
        report += "\n\n" + render_consistency_table(results)
    if args.details:
        write_details(args.details, results)
    _emit(args, report)
    for r in results:
        if r.unmatched:
            print(
                f"discotest: {r.system}/{r.lang}: {len(r.unmatched)} suite rows have no translation "
                f"(rows {', '.join(map(str, r.unmatched[:10]))}{' …' if len(r.unmatched) > 10 else ''}); "
                "they are left out of the scores",
                file=sys.stderr,
            )
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from discotest import validate

    if args.action == "score":
        scores = validate.score(validate.read_filled(args.csv))
        if args.format == "json":
            print(json.dumps([s.to_json() for s in scores], indent=1))
        else:
            print(validate.render_scores(scores))
        return 0
    with _progress_bar(args, "system×language pairs", "pair") as bar:
        results = api.run_many(args.suite, _split(args.lang), _split(args.system), jobs=args.jobs,
                               progress=lambda n: bar.update(n), data_dir=args.data_dir)
    rows = validate.sample(results, args.n, args.seed)
    validate.write_sample(args.output, rows)
    print(f"wrote {len(rows)} items to {args.output}: fill in aligned_word_correct and gender_correct (yes/no), "
          f"then run `discotest validate score {args.output}`")
    return 0


def _cmd_data(args: argparse.Namespace) -> int:
    if args.action == "list":
        root = registry.data_dir(args.data_dir)
        print(f"data directory: {root}")
        for source in registry.SOURCES.values():
            present = "✓" if source.bundled or (root / source.usable_path).is_file() else " "
            print(f"{present} {source.name:<26} {source.usable_path:<52} {source.description}")
        return 0
    if args.action == "fetch":
        if not args.names:
            raise InputError("name the sources to fetch (`discotest data list` shows them), or 'all'")
        names = list(registry.SOURCES) if args.names == ["all"] else args.names
        for name in names:
            path = registry.fetch(name, args.data_dir, timeout=args.timeout)
            source = registry.get_source(name)
            root = registry.data_dir(args.data_dir)
            pin = "" if source.sha256 or source.bundled else registry.pinned_sha256(source, root)
            print(f"{name}: {path}" + (f" (no published checksum; pinned sha256 {pin})" if pin else ""))
        return 0
    bad = 0
    for name in args.names or list(registry.SOURCES):
        status, path = registry.verify(name, args.data_dir)
        bad += status != "ok"
        print(f"{status:<8} {name:<26} {path}")
    return 1 if bad else 0


def _cmd_suites(args: argparse.Namespace) -> int:
    from discotest.systems.published import published_systems

    for suite in registry.suites():
        print(suite)
        if suite == "mzprt":
            from discotest.suites.mzprt import DOMAINS
            from discotest.systems.mzprt_outputs import published_systems as mzprt_systems

            for domain in DOMAINS:
                print(f"  {domain:<8} {' '.join(mzprt_systems(domain))}")
            continue
        for system, langs in published_systems(suite).items():
            print(f"  {system:<8} {' '.join(langs)}")
    return 0


def _stdout_problem() -> str | None:
    """Flush stdout now (not at interpreter exit, where a failure is a traceback and exit 120); the error if any."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _silence_stdout()
        return f"cannot write standard output: {exc.strerror or exc}"
    return None


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's last flush of a dead stdout cannot fail loudly."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        pass


def _reserve_standard_fds() -> None:
    """Put /dev/null on a closed fd 0, 1 or 2, so that no file opened later (an output's temporary file, a cache
    entry) takes that number and receives what a child process or a library writes to "stdout" or "stderr".
    ``sys.stdout``/``sys.stderr`` stay None, so a closed stdout is still reported."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


SIGPIPE_STATUS = 141  # what a shell reports for a program killed by SIGPIPE (`yes | head -1`)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Exit status: 0 success; 2 bad input, an output that cannot be written (disk full,
    permission denied …) or another system error (one line on stderr, ``discotest: error: FILE: message``);
    141 quietly when stdout is a pipe closed by its reader
    (``discotest … | head -1``), as for any Unix filter; 130 on Ctrl-C."""
    _reserve_standard_fds()
    if sys.stderr is None:  # started with stderr closed (2>&-): progress bars and warnings go nowhere, not to stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    try:
        return _main(argv)
    except BrokenPipeError:
        _silence_stdout()
        return SIGPIPE_STATUS


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    args.command_line = shlex.join(["discotest", *(sys.argv[1:] if argv is None else argv)])
    commands = {
        "run": _cmd_run, "compare": _cmd_compare, "validate": _cmd_validate, "coref": _cmd_coref,
        "data": _cmd_data, "suites": _cmd_suites,
        "make-contrastive": _cmd_make_contrastive, "translate": _cmd_translate, "augment": _cmd_augment,
        "finetune": _cmd_finetune, "mine": dip_commands.cmd_mine, "rank": dip_commands.cmd_rank,
    }
    try:
        check_outputs(args)
        with registry.modified_allowed_while(args.allow_modified_data):  # every reader (and worker) sees it
            status = commands[args.command](args)
        if (problem := _stdout_problem()) is not None:
            raise InputError(problem)
        return status
    except InputError as exc:
        print(f"discotest: error: {exc.one_line()}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except OSError as exc:  # the environment failed (stdout on a full disk, an unreadable file …): one line too
        # a failed write to stdout leaves its buffer full, so flushing again names the culprit
        message = _stdout_problem() or InputError(exc.strerror or str(exc), exc.filename).one_line()
        print(f"discotest: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("discotest: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
