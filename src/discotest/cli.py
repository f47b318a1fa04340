"""The ``discotest`` command. Every subcommand maps onto a function of ``discotest.api``.

Bad input ends with exit status 2 and one line on stderr naming the file and line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

# One BLAS thread per process: discotest parallelises across languages itself, and a multi-threaded
# OpenBLAS on busy cores made the Russian tagger 5-20 times slower (measured). Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from discotest import api
from discotest.atomic import write_text_atomic
from discotest.data import registry
from discotest.errors import InputError
from discotest.lang.align import ALIGNERS
from discotest.lang.locate import LEXICON_MODES
from discotest.report.render import render_json, render_table, write_details


def _split(value: str) -> list[str] | str:
    return "all" if value == "all" else [v.strip() for v in value.split(",") if v.strip()]


def _common() -> argparse.ArgumentParser:
    """Options accepted before or after the subcommand (``discotest -q run …`` and ``discotest run … -q``)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS,
                        help=f"data directory (default: ${registry.ENV_VAR}, else the user cache)")
    common.add_argument("--quiet", "-q", action="store_true", default=argparse.SUPPRESS, help="no progress bars")
    return common


def _add_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="evaluate translations on a suite", parents=[_common()])
    p.add_argument("suite", help=f"suite name ({', '.join(registry.suites())})")
    p.add_argument("--lang", "-l", help="target language, comma-separated list, or 'all' (gender suites)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--system", "-s", help="published system output(s): name, comma-separated list, or 'all'")
    source.add_argument("--input", "-i", help="your translations: plain text, 'source ||| translation', or JSONL")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")
    p.add_argument("--details", metavar="FILE", help="write one JSON line of evidence per item")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--suite-version", default="current",
                   help="WinoMT files: 'current' (repository HEAD) or '2019' (the published outputs' source)")
    p.add_argument("--aligner", choices=ALIGNERS, default="eflomal")
    p.add_argument("--align-extra", action="store_true",
                   help="train the aligner on all published outputs of the language as well as the evaluated bitext")
    p.add_argument("--lexicon", choices=LEXICON_MODES, default="on",
                   help="use the entity lexicon to confirm or find the target entity")
    p.add_argument("--no-cache", dest="use_cache", action="store_false", help="recompute alignments")
    p.add_argument("--jobs", "-j", type=int, default=None, help="worker processes for several languages")


def _add_data(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("data", help="list, fetch or verify third-party data files", parents=[_common()])
    p.add_argument("action", choices=("list", "fetch", "verify"))
    p.add_argument("names", nargs="*", help="source names (default for verify: all)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="discotest", description="Discourse test bench for machine translation.", parents=[_common()]
    )
    parser.add_argument("--version", action="version", version=f"discotest {api.package_version('discotest')}")
    parser.set_defaults(data_dir=None, quiet=False)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run(sub)
    _add_data(sub)
    sub.add_parser("suites", help="list the suites and their published systems", parents=[_common()])
    return parser


def _cmd_run(args: argparse.Namespace) -> int:
    options = dict(
        suite_version=args.suite_version,
        data_dir=args.data_dir,
        aligner=args.aligner,
        align_extra=args.align_extra,
        lexicon=args.lexicon,
        use_cache=args.use_cache,
    )
    if not args.lang:
        raise InputError(f"suite {args.suite!r} needs --lang (a language, a comma-separated list, or 'all')")
    if not (args.system or args.input):
        raise InputError("give --system (published outputs) or --input (your translations)")
    langs = _split(args.lang)
    if args.input:
        if langs == "all" or len(langs) != 1:
            raise InputError("--input needs exactly one --lang")
        results = [api.run(args.suite, lang=langs[0], input=args.input, **options)]
    else:
        from tqdm import tqdm

        with tqdm(desc="system×language pairs", unit="pair", disable=args.quiet, file=sys.stderr) as bar:
            results = api.run_many(
                args.suite, langs, _split(args.system), jobs=args.jobs,
                progress=lambda n: bar.update(n), **options,
            )
    report = render_json(results) if args.format == "json" else render_table(results)
    if args.details:
        write_details(args.details, results)
    if args.output:
        write_text_atomic(args.output, report + "\n")
    else:
        print(report)
    for r in results:
        if r.unmatched:
            print(
                f"discotest: {r.system}/{r.lang}: {len(r.unmatched)} suite rows have no translation "
                f"(rows {', '.join(map(str, r.unmatched[:10]))}{' …' if len(r.unmatched) > 10 else ''}); "
                "they are left out of the scores",
                file=sys.stderr,
            )
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
            print(f"{name}: {registry.fetch(name, args.data_dir)}")
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
        for system, langs in published_systems(suite).items():
            print(f"  {system:<8} {' '.join(langs)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    commands = {"run": _cmd_run, "data": _cmd_data, "suites": _cmd_suites}
    try:
        return commands[args.command](args)
    except InputError as exc:
        print(f"discotest: error: {exc.one_line()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("discotest: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
