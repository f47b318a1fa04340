"""What every command's parser shares: the global flags, the report options, a family's options, and the
report's output."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import textwrap
from collections.abc import Sequence

from discotest import families, timing
from discotest.cli.outputs import report_stdout
from discotest.errors import InputError
from discotest.registry import Family, Option
from discotest.registry.options import GLOBAL_FLAGS, GLOBAL_OPTIONS, LATEX_FLOAT
from discotest.report.charts import FIGURE_FORMATS
from discotest.report.emit import FORMATS, SCORE_ONLY, Report, emit
from discotest.values import OneLineParser


def global_flags_parser() -> argparse.ArgumentParser:
    """Options accepted before or after the subcommand (``discotest -q run …`` and ``discotest run … -q``); their
    defaults are set once, on the top parser (``global_defaults``), so a subcommand's copy never overwrites a value
    given before it."""
    parser = OneLineParser(add_help=False)
    for option in GLOBAL_OPTIONS:
        parser.add_argument(*option.flags, default=argparse.SUPPRESS, **option.argparse_kwargs())
    return parser


def global_defaults() -> dict[str, object]:
    """The global flags' defaults, from their declarations."""
    return {option.name: option.default for option in GLOBAL_OPTIONS}


def add_declared(p: argparse.ArgumentParser | argparse._ArgumentGroup, options: Sequence[Option],
                 skip: Sequence[str] = GLOBAL_FLAGS) -> None:
    """A command's declared options as its flags (each with its declared default), the global ones aside: the
    command line and the API (``checked_settings`` on the same declarations) take the same names, types and
    choices."""
    for option in options:
        if option.name not in skip:
            p.add_argument(*option.flags, default=option.default, **option.argparse_kwargs())


def declared_values(args: argparse.Namespace, options: Sequence[Option]) -> dict:
    """The values of ``options`` on the command line, as the API's keywords."""
    return {o.name: getattr(args, o.name) for o in options if hasattr(args, o.name)}


def figure_formats(text: str) -> tuple[str, ...]:
    """argparse ``type=`` of ``--figures-format``: a comma-separated subset of svg, pdf, png, in the order given."""
    formats = tuple(dict.fromkeys(f.strip().lower() for f in text.split(",") if f.strip()))
    unknown = [f for f in formats if f not in FIGURE_FORMATS]
    if unknown or not formats:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of {', '.join(FIGURE_FORMATS)}, got "
                                         f"{text[:40]!r}")
    return formats


def emitter_options(p: argparse.ArgumentParser, formats: tuple[str, ...] = FORMATS) -> None:
    p.add_argument("--format", "-f", choices=formats, default="text",
                   help="text table, JSON (one schema for every suite: docs/json.md), html (one "
                        "self-contained page with the summary and every item's evidence), or a table for a paper: "
                        "latex, markdown or csv (one row per system and language/domain, signatures as a note)"
                   if "html" in formats else "text table or JSON")
    if "latex" in formats:
        add_declared(p, [LATEX_FLOAT])
    p.add_argument("--figures", metavar="DIR",
                   help="also write each chart of the HTML page as files in DIR (FAMILY-MEASURE.svg, .pdf, .png)")
    p.add_argument("--figures-format", metavar="LIST", type=figure_formats,
                   help="which figure files to write, comma-separated (default: svg,pdf,png: PDF for LaTeX, PNG "
                        "for slides and documents, SVG for the web); pdf and png need the 'figures' extra")
    p.add_argument("--score-only", "-b", action="store_true",
                   help="print only the headline number of each result, one line each (as sacrebleu -b)")
    p.add_argument("--details", metavar="FILE", help="write one JSON line of evidence per item")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout ('-': stdout)")


def add_options(p: argparse.ArgumentParser, options_by_family: list[tuple[Family, tuple[Option, ...]]]) -> None:
    """Each option once (shared ones in a group of their own), defaults left to the family (argparse leaves an
    option out of the namespace unless it is given), so the CLI and ``discotest.run`` fill defaults alike."""
    users: dict[tuple[str, ...], list[str]] = {}
    specs: dict[tuple[str, ...], Option] = {}
    for family, options in options_by_family:
        for option in options:
            if option.name in GLOBAL_FLAGS:
                continue
            specs[option.flags] = _merged(specs[option.flags], option) if option.flags in specs else option
            users.setdefault(option.flags, []).append(family.title)
    shared = p.add_argument_group("options of several suite families")
    groups = {family.title: p.add_argument_group(f"{family.title}: {family.doc}" if family.doc else family.title)
              for family, _ in options_by_family}
    for flags, option in specs.items():
        group = shared if len(users[flags]) > 1 else groups[users[flags][0]]
        group.add_argument(*flags, default=argparse.SUPPRESS, **option.argparse_kwargs())


def _merged(first: Option, other: Option) -> Option:
    """One argparse flag for an option two families declare with their own vocabulary (``--align-extra``: the
    gender suites' and mzprt's): the union of their choices and both helps (``--input``: one file, or mzprt's list
    of one per domain, both helps); each family's own declaration checks
    the value once the suite is known (``registry.checked_settings``). Any other difference is a declaration error."""
    if first == other:
        return first
    same = ("name", "type", "action", "metavar", "nargs", "required")
    if any(getattr(first, key) != getattr(other, key) for key in same):
        raise ValueError(f"{first.flags[0]} is declared twice with different meanings")
    if first.choices == other.choices is None:  # the same value but a list for one family (mzprt's --input per
        helps = [h for h in (first.help, other.help) if h]  # domain): one string on the command line for both
        return dataclasses.replace(first, help="; ".join(dict.fromkeys(helps)), default=None)
    if first.choices is None or other.choices is None:
        raise ValueError(f"{first.flags[0]} is declared twice with different meanings")
    choices = (*first.choices, *(c for c in other.choices if c not in first.choices))
    helps = [h for h in (first.help, other.help) if h]
    return dataclasses.replace(first, choices=choices, help="; ".join(dict.fromkeys(helps)), default=None)


def family_list(compare: bool) -> str:
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


def compare_options(family: Family) -> tuple[Option, ...]:
    overridden = {o.name for o in family.compare_options}
    return (*(o for o in family.options if o.name not in overridden), *family.compare_options)


def help_target(argv: Sequence[str]) -> tuple[str, Family | bool] | None:
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


def family_options(args: argparse.Namespace, options: tuple[Option, ...]) -> dict:
    """The options given on the command line, as ``discotest.run`` keywords; one for another family is an error."""
    mine = {o.name for o in options}
    known = {o.name for f in families.families() for o in (*f.options, *f.compare_options)}
    given = {k: v for k, v in vars(args).items() if k in known and k not in GLOBAL_FLAGS}
    foreign = sorted(k for k in given if k not in mine)
    if foreign:
        raise InputError(f"--{foreign[0].replace('_', '-')} does not apply to suite {args.suite!r}")
    return {**given, **{k: getattr(args, k) for k in GLOBAL_FLAGS if k in mine}}


def emit_report(args: argparse.Namespace, report: Report) -> None:
    with timing.stage("output"):
        fmt = SCORE_ONLY if getattr(args, "score_only", False) else args.format
        emit(report, fmt, getattr(args, "output", None), getattr(args, "details", None),
             getattr(args, "command_line", ""), getattr(args, "figures", None),
             getattr(args, "figures_format", None) or FIGURE_FORMATS, getattr(args, "latex_float", "auto"),
             report_stdout())
    for warning in report.warnings:
        print(f"discotest: {warning}", file=sys.stderr)
