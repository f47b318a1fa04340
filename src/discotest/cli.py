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
import textwrap
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

# One BLAS thread per process: discotest parallelises across languages itself, and a multi-threaded
# OpenBLAS on busy cores made the Russian tagger 5-20 times slower (measured). Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from discotest import api, families, timing
from discotest.atomic import check_output
from discotest.data import readers, registry
from discotest.errors import STDIN, InputError
from discotest.families.options import GLOBAL_FLAGS
from discotest.families.registry import Family, Option, lang_codes, split_list
from discotest.options import OneLineParser, float_option, int_option
from discotest.progress import progress_bar
from discotest.report.charts import FIGURE_FORMATS, require_cairosvg
from discotest.report.emit import FORMATS, SCORE_ONLY, Report, emit
from discotest.version import VERSION


def _common() -> argparse.ArgumentParser:
    """Options accepted before or after the subcommand (``discotest -q run …`` and ``discotest run … -q``)."""
    common = OneLineParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS,
                        help=f"data directory (default: ${registry.ENV_VAR}, else the user cache)")
    common.add_argument("--quiet", "-q", action="store_true", default=argparse.SUPPRESS, help="no progress bars")
    common.add_argument("--allow-modified-data", action="store_true", default=argparse.SUPPRESS,
                        help="use data files that differ from their pinned checksum (the signature says so); "
                             "without it such a file is an error")
    return common


def _figure_formats(text: str) -> tuple[str, ...]:
    """argparse ``type=`` of ``--figures-format``: a comma-separated subset of svg, pdf, png, in the order given."""
    formats = tuple(dict.fromkeys(f.strip().lower() for f in text.split(",") if f.strip()))
    unknown = [f for f in formats if f not in FIGURE_FORMATS]
    if unknown or not formats:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of {', '.join(FIGURE_FORMATS)}, got "
                                         f"{text[:40]!r}")
    return formats


def _emitter_options(p: argparse.ArgumentParser, formats: tuple[str, ...] = FORMATS) -> None:
    p.add_argument("--format", "-f", choices=formats, default="text",
                   help="text table, JSON (one schema for every suite: README 'JSON output'), html (one "
                        "self-contained page with the summary and every item's evidence), or a table for a paper: "
                        "latex, markdown or csv (one row per system and language/domain, signatures as a note)"
                   if "html" in formats else "text table or JSON")
    p.add_argument("--figures", metavar="DIR",
                   help="also write each chart of the HTML page as files in DIR (FAMILY-MEASURE.svg, .pdf, .png)")
    p.add_argument("--figures-format", metavar="LIST", type=_figure_formats,
                   help="which figure files to write, comma-separated (default: svg,pdf,png: PDF for LaTeX, PNG "
                        "for slides and documents, SVG for the web); pdf and png need the 'figures' extra")
    p.add_argument("--score-only", "-b", action="store_true",
                   help="print only the headline number of each result, one line each (as sacrebleu -b)")
    p.add_argument("--details", metavar="FILE", help="write one JSON line of evidence per item")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout ('-': stdout)")


def _add_options(p: argparse.ArgumentParser, options_by_family: list[tuple[Family, tuple[Option, ...]]]) -> None:
    """Each option once (shared ones in a group of their own), defaults left to the family (argparse leaves an
    option out of the namespace unless it is given), so the CLI and ``discotest.run`` fill defaults alike."""
    users: dict[tuple[str, ...], list[str]] = {}
    specs: dict[tuple[str, ...], Option] = {}
    for family, options in options_by_family:
        for option in options:
            if option.name in GLOBAL_FLAGS:
                continue
            if option.flags in specs and specs[option.flags] != option:
                raise ValueError(f"{option.flags[0]} is declared twice with different meanings")
            specs[option.flags] = option
            users.setdefault(option.flags, []).append(family.title)
    shared = p.add_argument_group("options of several suite families")
    groups = {family.title: p.add_argument_group(f"{family.title}: {family.doc}" if family.doc else family.title)
              for family, _ in options_by_family}
    for flags, option in specs.items():
        group = shared if len(users[flags]) > 1 else groups[users[flags][0]]
        group.add_argument(*flags, default=argparse.SUPPRESS, **option.argparse_kwargs())


def _family_list(compare: bool) -> str:
    """The epilog of ``run --help``/``compare --help``: each family, its suites, and how to see its options."""
    command = "compare" if compare else "run"
    lines = [f"suite families (options differ per family; `discotest {command} SUITE --help` shows one suite's):"]
    for family in families.families():
        if compare and family.compare is None:
            continue
        names = sorted(family.suites())
        shown = ", ".join(names[:6]) + (f", … ({len(names)} suites)" if len(names) > 6 else "")
        lines.append(textwrap.fill(f"{family.title}: {shown}", 100, initial_indent="  ", subsequent_indent="    "))
    lines.append("`discotest suites` lists every suite with its size, languages and licence.")
    return "\n".join(lines)


def _add_run(sub: argparse._SubParsersAction, only: Family | None = None) -> None:
    """``run``; with ``only`` (``run SUITE --help``), just that family's options, else every family's (parsing) —
    or, for ``run --help`` without a suite, none but the common ones and a list of families (``only`` False)."""
    p = sub.add_parser("run", help="evaluate translations on a suite", parents=[_common()],
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=None if only else _family_list(compare=False))
    p.add_argument("suite", help="suite name (`discotest suites` lists them)")
    _emitter_options(p)
    if only is not False:
        _add_options(p, [(f, f.options) for f in ([only] if only else families.families())])


def _compare_options(family: Family) -> tuple[Option, ...]:
    overridden = {o.name for o in family.compare_options}
    return (*(o for o in family.options if o.name not in overridden), *family.compare_options)


def _add_compare(sub: argparse._SubParsersAction, only: Family | None = None) -> None:
    p = sub.add_parser("compare", help="two systems on the same items: paired bootstrap and sign test per metric",
                       parents=[_common()], formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=None if only else _family_list(compare=True))
    p.add_argument("suite", help="suite name (`discotest suites` lists them)")
    _emitter_options(p)
    if only is not False:
        chosen = [only] if only else [f for f in families.families() if f.compare]
        _add_options(p, [(f, _compare_options(f)) for f in chosen])


def _help_target(argv: Sequence[str]) -> tuple[str, Family | bool] | None:
    """For ``run|compare [SUITE] --help``: the command and the suite's family (False without a known suite), so
    the help shows only what applies; None when no such help is asked for (then every option is parsed)."""
    if not any(a in ("-h", "--help") for a in argv):
        return None
    tokens = iter(argv)
    for token in tokens:
        if token == "--data-dir":
            next(tokens, None)
        elif not token.startswith("-"):
            if token not in ("run", "compare"):
                return None
            rest = [t for t in tokens if not t.startswith("-")]
            if rest:
                try:
                    family = families.family_of(rest[0])
                except InputError:
                    return token, False
                return token, family if token == "run" or family.compare else False
            return token, False
    return None


def _family_options(args: argparse.Namespace, options: tuple[Option, ...]) -> dict:
    """The options given on the command line, as ``discotest.run`` keywords; one for another family is an error."""
    mine = {o.name for o in options}
    known = {o.name for f in families.families() for o in (*f.options, *f.compare_options)}
    given = {k: v for k, v in vars(args).items() if k in known and k not in GLOBAL_FLAGS}
    foreign = sorted(k for k in given if k not in mine)
    if foreign:
        raise InputError(f"--{foreign[0].replace('_', '-')} does not apply to suite {args.suite!r}")
    return {**given, **{k: getattr(args, k) for k in GLOBAL_FLAGS if k in mine}}


def _emit(args: argparse.Namespace, report: Report) -> None:
    with timing.stage("output"):
        fmt = SCORE_ONLY if getattr(args, "score_only", False) else args.format
        emit(report, fmt, getattr(args, "output", None), getattr(args, "details", None),
             getattr(args, "command_line", ""), getattr(args, "figures", None),
             getattr(args, "figures_format", None) or FIGURE_FORMATS)
    for warning in report.warnings:
        print(f"discotest: {warning}", file=sys.stderr)


def _cmd_run(args: argparse.Namespace) -> int:
    family = families.family_of(args.suite)
    _emit(args, api.run(args.suite, **_family_options(args, family.options)))
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    family = families.family_of(args.suite)
    if family.compare is None:
        raise InputError(f"{args.suite} results cannot be compared item by item")
    _emit(args, api.compare(args.suite, **_family_options(args, _compare_options(family))))
    return 0


def _add_coref(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("coref", help="English coreference resolvers and MT systems scored on the same suite",
                       parents=[_common()])
    p.add_argument("suite", help="winomt, bug or winomt-demo")
    p.add_argument("--resolver", action="append", choices=("rules", "fastcoref"), default=[],
                   help="source-side resolvers (default: rules)")
    p.add_argument("--lang", "-l", help="also score MT systems in these languages (comma-separated or 'all')")
    p.add_argument("--system", "-s", default="all", help="published systems for --lang (default all)")
    p.add_argument("--suite-version", default="current")
    p.add_argument("--jobs", "-j", type=int_option("jobs"), default=None)
    _emitter_options(p, ("text", "json"))


def _cmd_coref(args: argparse.Namespace) -> int:
    from discotest.coref.compare import coref_result, mt_resolution, render_coref_table
    from discotest.coref.resolvers import FastcorefResolver, RulesResolver
    from discotest.pipelines.gender_run import planned_pairs, run_many
    from discotest.suites.gender import load_gender_suite

    items = load_gender_suite(args.suite, args.suite_version, args.data_dir)
    results = []
    names = args.resolver or ["rules"]
    with progress_bar(f"coref: resolving {len(items)} {args.suite} items", "resolver", total=len(names),
                      quiet=args.quiet) as bar:
        for name in names:
            resolver = RulesResolver() if name == "rules" else FastcorefResolver()
            results.append(coref_result(args.suite, args.suite_version, f"{name} ({resolver.version()})",
                                        [item.index for item in items], resolver.resolve(items),
                                        (("resolver", resolver.version()),)))
            bar.update(1)
    if args.lang:
        pairs = planned_pairs(args.suite, lang_codes(args.lang), split_list(args.system))
        with progress_bar("system×language pairs", "pair", total=sum(map(len, pairs.values())),
                          quiet=args.quiet) as bar:
            gender = run_many(args.suite, lang_codes(args.lang), split_list(args.system), jobs=args.jobs,
                              progress=bar.update, measure=("accuracy", "consistency"),
                              suite_version=args.suite_version, data_dir=args.data_dir)
        results += [coref_result(args.suite, args.suite_version, f"{r.system}/{r.lang}", [v.index for v in r.verdicts],
                                 [mt_resolution(v) for v in r.verdicts], r.signature.fields, r.lang) for r in gender]
    _emit(args, Report(f"discotest · coreference on {args.suite}", results, text=render_coref_table))
    return 0


def _add_validate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="human validation of gender verdicts: export a sample, score it",
                       parents=[_common()])
    action = p.add_subparsers(dest="action", required=True)
    s = action.add_parser("sample", help="a stratified sample of verdicts to a CSV for a person", parents=[_common()])
    s.add_argument("--suite", default="winomt")
    s.add_argument("--lang", "-l", required=True, help="language(s), comma-separated, or 'all'")
    s.add_argument("--system", "-s", help="published system(s), comma-separated, or 'all'")
    s.add_argument("--input", "-i", help="your translations of the suite (one --lang; the formats of `run --input`) "
                                         "instead of --system")
    s.add_argument("--verdict", default="noun", metavar="TYPE",
                   help="which verdict the sheet validates (discotest.validate.VERDICT_TYPES): noun (the entity's "
                        "gender, default), consistency (does the pronoun agree with its entity?) or reader (the gender "
                        "a reader takes from the whole translation)")
    s.add_argument("--annotators", type=int_option("annotators"), choices=(1, 2), default=1,
                   help="2 adds a second person's columns (suffix _2) for person-vs-person agreement")
    s.add_argument("-n", type=int_option("n"), default=50, help="items in the sample")
    s.add_argument("--seed", type=int_option("seed"), default=13)
    s.add_argument("--output", "-o", required=True, metavar="CSV")
    s.add_argument("--jobs", "-j", type=int_option("jobs"), default=None)
    f = action.add_parser("score", help="score a filled sample CSV", parents=[_common()])
    f.add_argument("csv", help="the filled sample")
    f.add_argument("--format", choices=("text", "json"), default="text")
    f.add_argument("--n-samples", type=int_option("n-samples"), default=1000,
                   help="bootstrap resamples for the agreement intervals")
    f.add_argument("--seed", type=int_option("seed"), default=None,
                   help="bootstrap seed (default: discotest.stats.DEFAULT_SEED)")


def _add_translate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("translate", help="translate a suite's sources (or an English file) with an MT model",
                       parents=[_common()])
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
    from discotest.families import options as common
    from discotest.families.gender import MODEL_OPTIONS

    engine_options = (*common.ENGINE_OPTIONS, common.RAY_ACTORS)  # --engine ray: generated on an actor pool
    for option in (*MODEL_OPTIONS, *engine_options, common.CONTEXT):
        if option.name not in ("batch_size", "device"):
            p.add_argument(*option.flags, default=option.default, **option.argparse_kwargs())


def _cmd_translate(args: argparse.Namespace) -> int:
    from discotest.engine import resolve_engine
    from discotest.families.gender import one_context
    from discotest.translate import translate_file, translate_suite

    options = dict(markers=args.markers, resolver=args.resolver, beam=args.beam, max_length=args.max_length,
                   batch_size=args.batch_size, device=args.device, revision=args.revision,
                   src_code=args.src_lang or "en", tgt_code=args.tgt_lang, use_cache=args.use_cache, quiet=args.quiet,
                   runner=resolve_engine(args.engine), ray_address=args.ray_address, ray_actors=args.ray_actors,
                   prompt_file=args.prompt_file, context=one_context(args.context), endpoint=args.endpoint,
                   concurrency=args.concurrency)
    if not (args.model or args.endpoint):
        raise InputError("give --model (a model folder or hub name) or --endpoint URL")
    if args.suite:
        lines = translate_suite(args.suite, args.lang, args.model, args.output, data_dir=args.data_dir,
                                suite_version=args.suite_version, **options)
    else:
        lines = translate_file(args.input, args.lang, args.model, args.output, **options)
    if args.output is None:  # -o -
        sys.stdout.write("".join(line.replace("\n", " ") + "\n" for line in lines))
    print(f"discotest: wrote {len(lines)} translations to {args.output or 'standard output'}", file=sys.stderr)
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
    p = sub.add_parser("data", help="third-party data files: `data list`, `data fetch NAME`, `data verify`",
                       parents=[_common()])
    action = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    ls = action.add_parser("list", parents=[_common()],
                           help="each source by suite: status, size on disk, origin URL (checks what is present)")
    ls.add_argument("names", nargs="*", metavar="SUITE_OR_SOURCE", help="only these suites or sources")
    fetch = action.add_parser("fetch", parents=[_common()], help="download sources and check their sha256")
    fetch.add_argument("names", nargs="+", metavar="NAME", help="source names (`discotest data list`), or 'all'")
    fetch.add_argument("--timeout", type=float_option("timeout"), default=registry.FETCH_TIMEOUT,
                       help=f"seconds a download may stay silent (default {registry.FETCH_TIMEOUT:g})")
    fetch.add_argument("--deadline", type=float_option("deadline"), default=registry.FETCH_DEADLINE,
                       help=f"seconds a whole download may take (default {registry.FETCH_DEADLINE:g})")
    fetch.add_argument("--max-size", type=float_option("max-size"), default=registry.FETCH_MAX_SIZE / 1e6,
                       metavar="MB", help="largest download of a source whose size the registry does not know "
                                          f"(default {registry.FETCH_MAX_SIZE / 1e6:g} MB; a known size is a cap)")
    verify = action.add_parser("verify", parents=[_common()], help="check the sha256 of the files present")
    verify.add_argument("names", nargs="*", metavar="NAME", help="source names (default: all)")


def build_parser(help_for: tuple[str, Family | bool] | None = None) -> argparse.ArgumentParser:
    """The whole parser; ``help_for`` (from ``_help_target``) narrows ``run``/``compare`` to what its help shows."""
    parser = OneLineParser(
        prog="discotest", description="Discourse test bench for machine translation.", parents=[_common()]
    )
    parser.add_argument("--version", action="version", version=f"discotest {VERSION}")
    parser.set_defaults(data_dir=None, quiet=False, allow_modified_data=False)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run(sub, help_for[1] if help_for and help_for[0] == "run" else None)
    _add_compare(sub, help_for[1] if help_for and help_for[0] == "compare" else None)
    _add_validate(sub)
    _add_coref(sub)
    _add_data(sub)
    _add_translate(sub)
    _add_augment(sub)
    _add_finetune(sub)
    _add_dip_commands(sub)
    suites = sub.add_parser("suites", help="every suite: size, languages, licence and published systems",
                            parents=[_common()])
    suites.add_argument("--format", "-f", choices=("text", "json"), default="text",
                        help="text, or JSON: one object per suite (family, size, languages, licence, systems)")
    m = sub.add_parser("make-contrastive", help="build incorrect variants by swapping an annotated pronoun chain",
                       parents=[_common()])
    m.add_argument("--input", "-i", required=True,
                   help="JSONL: target sentence and its pronoun chain (README 'Input formats'; '-': stdin)")
    m.add_argument("--output", "-o", required=True, help="contrastive suite JSONL to write ('-': stdout)")
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
    if getattr(args, "figures_format", None) and not getattr(args, "figures", None):
        raise InputError("--figures-format says which figure files --figures DIR writes; give --figures DIR too")
    if getattr(args, "figures", None):
        check_output(args.figures, inputs, folder=True)
        if set(getattr(args, "figures_format", None) or FIGURE_FORMATS) - {"svg"}:
            require_cairosvg()  # its missing extra said before the work, not after
    to_stdout = getattr(args, "output_to_stdout", False)
    if sys.stdout is None and (to_stdout or not (getattr(args, "output", None) or args.command in STDOUT_FREE)):
        raise InputError("standard output is closed; give --output FILE or redirect it to a file")


def _check_model(args: argparse.Namespace) -> None:
    """A --model that cannot load (missing folder; hub name, no network, not cached) fails before any work (the
    coreference resolver of --markers predicted, aligners …), not after it. With --endpoint, --model names the
    served model: the server is asked, not the disk or the hub."""
    model = getattr(args, "model", None)
    if getattr(args, "endpoint", None):
        return
    if isinstance(model, str) and model and args.command != "finetune":  # finetune reads its (small) data first
        from discotest.systems.hf_models import check_model

        check_model(model, getattr(args, "revision", None))


def _cmd_make_contrastive(args: argparse.Namespace) -> int:
    from discotest.suites.contrastive.build import build_file, build_item

    if args.output is None:  # -o -: the same rows on stdout
        from discotest.data.readers import json_objects

        rows = [json.dumps(build_item(row, args.replacement, args.input, n), ensure_ascii=False)
                for n, row in json_objects(args.input)]
        if not rows:
            raise InputError("no rows in the file", args.input)
        print("\n".join(rows))
        count = len(rows)
    else:
        count = build_file(args.input, args.output, replacement=args.replacement)
    print(f"discotest: wrote {count} contrastive items to {args.output or 'standard output'}", file=sys.stderr)
    return 0


# Commands whose --output may be '-' (standard output, as for sacrebleu); for the others it names a folder or a
# file beside which more files go, so '-' is refused.
DASH_OUTPUT = ("run", "compare", "rank", "coref", "translate", "make-contrastive")


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else [value]


def _dash_output(args: argparse.Namespace) -> None:
    """``--output -`` means standard output: ``args.output`` becomes None and ``args.output_to_stdout`` True."""
    dashes = [name for name in INPUT_OPTIONS for value in _as_list(getattr(args, name, None)) if value == STDIN]
    if len(dashes) > 1:
        raise InputError("standard input ('-') can be read by one input only; name files for the others")
    if getattr(args, "details", None) == STDIN:
        raise InputError("--details - is not possible: the report goes to standard output; name a file")
    if getattr(args, "output", None) != STDIN:
        return
    if args.command not in DASH_OUTPUT:
        raise InputError(f"--output - (standard output) is not possible for `discotest {args.command}`; name a "
                         f"{'folder' if args.command in FOLDER_OUTPUT else 'file'}")
    args.output, args.output_to_stdout = None, True


def _cmd_validate(args: argparse.Namespace) -> int:
    from discotest import validate
    from discotest.stats import DEFAULT_SEED

    if args.action == "score":
        seed = DEFAULT_SEED if args.seed is None else args.seed
        scores = validate.score(validate.read_filled(args.csv), n_samples=args.n_samples, seed=seed)
        if args.format == "json":
            print(json.dumps([s.to_json() for s in scores], indent=1))
        else:
            print(validate.render_scores(scores))
        return 0
    from discotest.pipelines.gender_run import planned_pairs, run_many

    kind = validate.verdict_kind(args.verdict)
    if (args.system is None) == (args.input is None):
        raise InputError("validate sample: give --system (published outputs) or --input (your translations)")
    if args.input is not None:
        from discotest.pipelines.gender_run import run_one

        langs = lang_codes(args.lang)
        if not isinstance(langs, list) or len(langs) != 1:
            raise InputError("validate sample --input needs exactly one --lang")
        results = [run_one(args.suite, lang=langs[0], input=args.input, measure=kind.measure,
                           verdict=kind.run_verdict, data_dir=args.data_dir)]
    else:
        total = sum(map(len, planned_pairs(args.suite, lang_codes(args.lang), split_list(args.system)).values()))
        with progress_bar("system×language pairs", "pair", total=total, quiet=args.quiet) as bar:
            results = run_many(args.suite, lang_codes(args.lang), split_list(args.system), jobs=args.jobs,
                               progress=bar.update, measure=kind.measure, verdict=kind.run_verdict,
                               data_dir=args.data_dir)
    rows = validate.sample(results, args.n, args.seed, kind.name, args.annotators)
    validate.write_sample(args.output, rows, validate.sheet_columns(kind, args.annotators))
    print(f"wrote {len(rows)} items to {args.output}: fill in aligned_word_correct and gender_correct (yes/no) and "
          f"{kind.person_column}: {kind.question}; then run `discotest validate score {args.output}`")
    return 0


# How `data list` names the state of a source (registry.verify's status).
_DATA_STATUS = {"ok": "verified", "mismatch": "MODIFIED", "missing": "missing", "unpinned": "unpinned"}


def _sources_named(names: list[str]) -> list[registry.Source]:
    """The sources of the named suites or sources, in registry order; an unknown name is an error."""
    if not names:
        return list(registry.SOURCES.values())
    for name in names:
        if name not in registry.SOURCES and not any(s.suite == name for s in registry.SOURCES.values()):
            raise InputError(f"no data source or suite {name!r}; `discotest data list` shows them")
    return [s for s in registry.SOURCES.values() if s.name in names or s.suite in names]


def _list_data(args: argparse.Namespace) -> None:
    root = registry.data_dir(args.data_dir)
    sources = _sources_named(args.names)
    print(f"data directory: {root} ({registry.data_dir_origin(args.data_dir)})")
    print("status: verified = sha256 matches its pin; unpinned = present, no published checksum to compare; "
          "MODIFIED = differs from its pin; missing = `discotest data fetch NAME`")
    by_suite: dict[str, list[registry.Source]] = {}
    for source in sources:
        by_suite.setdefault(source.suite, []).append(source)
    for suite, group in by_suite.items():
        rows = []
        for source in group:
            status, path = registry.verify(source.name, args.data_dir)
            status = "bundled" if source.bundled else _DATA_STATUS.get(status, status)
            size = registry.size_text(Path(path).stat().st_size) if Path(path).is_file() else "-"
            rows.append((status, source.name, size, source.url or "(ships with discotest)"))
        counts = {s: sum(r[0] == s for r in rows) for s in dict.fromkeys(r[0] for r in rows)}
        print(f"\n{suite} ({len(rows)} file{'s' * (len(rows) != 1)}: "
              f"{', '.join(f'{n} {s}' for s, n in counts.items())}; licence: {registry.licence(group[0])})")
        width = max(len(r[1]) for r in rows)
        for status, name, size, url in rows:
            print(f"  {status:<8}  {name:<{width}}  {size:>8}  {url}")


def _cmd_data(args: argparse.Namespace) -> int:
    if args.action == "list":
        _list_data(args)
        return 0
    if args.action == "fetch":
        names = list(registry.SOURCES) if args.names == ["all"] else args.names
        for name in names:
            path = registry.fetch(name, args.data_dir, limits=registry.Limits(
                timeout=args.timeout, deadline=args.deadline, max_size=int(args.max_size * 1e6)))
            source = registry.get_source(name)
            root = registry.data_dir(args.data_dir)
            pin = "" if source.sha256 or source.bundled else registry.pinned_sha256(source, root)
            print(f"{name}: {path}" + (f" (no published checksum; pinned sha256 {pin})" if pin else ""))
        return 0
    counts: Counter[str] = Counter()
    for name in args.names or list(registry.SOURCES):
        status, path = registry.verify(name, args.data_dir)
        counts[status] += 1
        print(f"{status:<8} {name:<26} {path}")
    print(", ".join(f"{n} {status}" for status, n in sorted(counts.items())), file=sys.stderr)
    # with no names, a file not fetched is no failure ("check the files present"); one named must be there
    failed = {status for status in counts if status != "ok" and (args.names or status != "missing")}
    return 1 if failed else 0


def _cmd_suites(args: argparse.Namespace) -> int:
    """Every suite by family: its size (counted from the data), languages, licence and published systems (a family
    without a ``describe`` hook, e.g. one registered by a user, gets its suite names and systems only)."""
    if args.format == "json":
        print(json.dumps(api.suite_facts(args.data_dir), ensure_ascii=False, indent=1))
        return 0
    for family in families.families():
        print(f"# {family.title}: {family.doc}" if family.doc else f"# {family.title}")
        for suite, systems in sorted(family.suites().items()):
            if family.describe is None:
                print(suite)
            else:
                facts = family.describe(suite, args.data_dir)
                print(f"{suite}: {facts.size}; {facts.langs}; licence: {facts.licence or 'see `discotest data list`'}")
            if systems:
                print(f"  published systems: {', '.join(systems)}")
        print()
    return 0


def _add_dip_commands(sub: argparse._SubParsersAction) -> None:
    from discotest.families.dip import ANAPHORA_MODE, MINE_OPTIONS, PRONOUN_SCORER
    from discotest.families.options import BOOTSTRAP

    m = sub.add_parser("mine", help="mine document-level test sets from WMT system outputs", parents=[_common()])
    r = sub.add_parser("rank", help="rank WMT systems per phenomenon on mined test sets (same as run dip --pair)",
                       parents=[_common()])
    for p in (m, r):
        p.add_argument("benchmark", choices=("dip",), help="the benchmark (dip)")
        for option in MINE_OPTIONS:
            p.add_argument(*option.flags, default=option.default, **option.argparse_kwargs())
    m.add_argument("--output", "-o", required=True, metavar="DIR", help="folder for the JSONL files and manifest")
    for option in (PRONOUN_SCORER, ANAPHORA_MODE, BOOTSTRAP):
        r.add_argument(*option.flags, default=option.default, **option.argparse_kwargs())
    _emitter_options(r)


def _cmd_mine(args: argparse.Namespace) -> int:
    from discotest.dip.documents import pair_paths
    from discotest.engine import resolve_engine
    from discotest.families.dip import load_models, mined_count, phenomena
    from discotest.pipelines.dip import mine

    wanted = phenomena(args.phenomena)
    settings = vars(args)
    engine = resolve_engine(args.engine)  # a wrong engine or pair fails before any model loads
    pair_paths(args.data, args.pair, args.ref, args.data_dir)
    _, coherence, warnings = load_models(settings, wanted, pronoun=False)
    for warning in warnings:
        print(f"discotest: {warning}", file=sys.stderr)
    with progress_bar("parsed system outputs", "system", total=mined_count(settings), quiet=args.quiet) as bar:
        manifest = mine(args.data, args.pair, args.output, ref=args.ref, holdout=args.holdout,
                        systems=split_list(args.system) if args.system else None, max_docs=args.max_docs,
                        phenomena=wanted, coherence_model=coherence, data_dir=args.data_dir,
                        use_cache=args.use_cache, progress=bar.update, engine=engine,
                        ray_address=args.ray_address, jobs=args.jobs)
    counts = ", ".join(f"{p} {n}" for p, n in manifest["counts"].items())
    if not args.quiet:
        print(f"discotest: mined {counts} from {len(manifest['systems_mined'])} systems into {args.output}",
              file=sys.stderr)
    return 0


def _cmd_rank(args: argparse.Namespace) -> int:
    from discotest.families.dip import FAMILY

    args.suite = "dip"
    _emit(args, api.run("dip", **_family_options(args, FAMILY.options)))
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


class _NamedStdout:
    """``sys.stdout`` whose write errors name it: a full disk under ``discotest … > file`` is reported as
    ``standard output: No space left on device``, not as a bare "No space left on device"."""

    def __init__(self, stream):
        self._stream = stream

    def _named(self, call, *args):
        try:
            return call(*args)
        except OSError as exc:
            if exc.filename is None:
                exc.filename = "standard output"
            raise

    def write(self, text: str) -> int:
        return self._named(self._stream.write, text)

    def flush(self) -> None:
        self._named(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Exit status: 0 success; 2 bad input, an output that cannot be written (disk full,
    permission denied …) or another system error (one line on stderr, ``discotest: error: FILE: message``);
    141 quietly when stdout is a pipe closed by its reader
    (``discotest … | head -1``), as for any Unix filter; 130 on Ctrl-C."""
    _reserve_standard_fds()
    if sys.stderr is None:  # started with stderr closed (2>&-): progress bars and warnings go nowhere, not to stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    plain = sys.stdout
    if plain is not None and not isinstance(plain, _NamedStdout):
        sys.stdout = _NamedStdout(plain)
    try:
        return _main(argv)
    except BrokenPipeError:
        _silence_stdout()
        return SIGPIPE_STATUS
    finally:
        if isinstance(sys.stdout, _NamedStdout) and sys.stdout._stream is plain:
            sys.stdout = plain


def _main(argv: Sequence[str] | None) -> int:
    timing.mark_started()
    argv = sys.argv[1:] if argv is None else list(argv)
    readers.set_stdin(None)  # '-' reads this call's standard input (main may run several times in one process)
    args = build_parser(_help_target(argv)).parse_args(argv)
    args.command_line = shlex.join(["discotest", *argv])
    commands = {
        "run": _cmd_run, "compare": _cmd_compare, "validate": _cmd_validate, "coref": _cmd_coref,
        "data": _cmd_data, "suites": _cmd_suites,
        "make-contrastive": _cmd_make_contrastive, "translate": _cmd_translate, "augment": _cmd_augment,
        "finetune": _cmd_finetune, "mine": _cmd_mine, "rank": _cmd_rank,
    }
    try:
        _dash_output(args)
        check_outputs(args)
        _check_model(args)
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
