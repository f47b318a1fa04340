"""The DiP subcommands (``mine dip``, ``run dip``, ``rank dip``): argparse wiring over ``discotest.dip.api``.

Kept out of ``discotest.cli`` so the shared CLI module only gains a few hook lines.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from discotest.dip import api
from discotest.dip.documents import pair_paths, system_paths
from discotest.dip.mine import PHENOMENA
from discotest.errors import InputError
from discotest.options import int_option


def add_run_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("dip (mined document-level test sets)")
    g.add_argument("--tests", metavar="DIR", help="dip: test sets written by 'discotest mine dip'")
    g.add_argument("--pronoun-scorer", default="offline", metavar="NAME",
                   help="dip: anaphora scorer ('offline', or 'hf:<causal LM name or path>')")
    g.add_argument("--anaphora-mode", choices=api.ANAPHORA_MODES, default=api.DEFAULT_ANAPHORA_MODE,
                   help="dip: score the reference with the system's pronoun swapped in (default), or the system "
                        "sentence in its own context (the paper's Eq. 1 taken literally)")


def _pair_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("benchmark", choices=("dip",), help="the benchmark (dip)")
    p.add_argument("--data", default="wmt22", help="WMT test set: wmt22 (default) or wmt21")
    p.add_argument("--pair", required=True, help="into-English language pair, e.g. de-en")
    p.add_argument("--ref", default="A", help="reference to mine against (default A; some pairs have B)")
    p.add_argument("--holdout", metavar="SYSTEM", help="mine without this system")
    p.add_argument("--systems", metavar="A,B,…", help="use only these systems (default: all of the pair)")
    p.add_argument("--max-docs", type=int_option("max-docs"), metavar="N",
                   help="only the first N documents (quick runs)")
    p.add_argument("--phenomena", default=",".join(PHENOMENA),
                   help=f"comma-separated subset of {','.join(PHENOMENA)} (default: all)")
    p.add_argument("--no-cache", dest="use_cache", action="store_false", help="reparse instead of using the cache")


def add_commands(sub: argparse._SubParsersAction, common: Callable[[], argparse.ArgumentParser]) -> None:
    m = sub.add_parser("mine", help="mine document-level test sets from WMT system outputs", parents=[common()])
    _pair_options(m)
    m.add_argument("--output", "-o", required=True, metavar="DIR", help="folder for the JSONL files and manifest")
    r = sub.add_parser("rank", help="rank WMT systems per phenomenon on mined test sets", parents=[common()])
    _pair_options(r)
    r.add_argument("--pronoun-scorer", default="offline", metavar="NAME",
                   help="anaphora scorer ('offline', or 'hf:<causal LM name or path>')")
    r.add_argument("--anaphora-mode", choices=api.ANAPHORA_MODES, default=api.DEFAULT_ANAPHORA_MODE,
                   help="score the reference with the system's pronoun swapped in (default), or the system "
                        "sentence in its own context (the paper's Eq. 1 taken literally)")
    r.add_argument("--bootstrap", type=int_option("bootstrap"), default=1000, metavar="N",
                   help="paired bootstrap resamples")
    r.add_argument("--format", "-f", choices=("text", "json", "html"), default="text")
    r.add_argument("--details", metavar="FILE", help="write one JSON line per item and system with its verdict")
    r.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout")


def _warn(args: argparse.Namespace, message: str) -> None:
    print(f"discotest: {message}", file=sys.stderr)


def _phenomena(args: argparse.Namespace) -> list[str]:
    wanted = [p.strip() for p in args.phenomena.split(",") if p.strip()]
    unknown = [p for p in wanted if p not in PHENOMENA]
    if unknown:
        raise InputError(f"unknown phenomenon {', '.join(unknown)} (known: {', '.join(PHENOMENA)})")
    return wanted


def _models(args: argparse.Namespace, phenomena: list[str], pronoun: bool, data: str | None = None,
            pair: str | None = None):
    """Load the models the phenomena need; a model module missing from this installation skips its phenomenon."""
    scorer = coherence = None
    if pronoun and "anaphora" in phenomena:
        try:
            scorer = api.load_pronoun_scorer(args.pronoun_scorer, args.data_dir, data, pair)
        except api.ModelUnavailable as exc:
            _warn(args, f"anaphora not scored: {exc.one_line()}")
    if "coherence" in phenomena:
        try:
            coherence = api.load_coherence(args.data_dir, use_cache=getattr(args, "use_cache", True))
        except api.ModelUnavailable as exc:
            _warn(args, f"coherence skipped: {exc.one_line()}")
    return scorer, coherence


def _systems(args: argparse.Namespace) -> list[str] | None:
    return [s.strip() for s in args.systems.split(",") if s.strip()] if args.systems else None


def _mined_count(args: argparse.Namespace) -> int:
    """How many system outputs mining parses (the progress bar's total)."""
    names = _systems(args) or list(system_paths(args.data, args.pair, args.data_dir))
    return len([n for n in names if n != args.holdout])


def cmd_mine(args: argparse.Namespace) -> int:
    from discotest.cli import _progress_bar

    phenomena = _phenomena(args)
    pair_paths(args.data, args.pair, args.ref, args.data_dir)  # a wrong pair fails before any model loads
    _, coherence = _models(args, phenomena, pronoun=False)
    with _progress_bar(args, "parsed system outputs", "system", total=_mined_count(args)) as bar:
        manifest = api.mine(args.data, args.pair, args.output, ref=args.ref, holdout=args.holdout,
                            systems=_systems(args), max_docs=args.max_docs, phenomena=phenomena,
                            coherence_model=coherence, data_dir=args.data_dir, use_cache=args.use_cache,
                            progress=bar.update)
    counts = ", ".join(f"{p} {n}" for p, n in manifest["counts"].items())
    if not args.quiet:
        print(f"discotest: mined {counts} from {len(manifest['systems_mined'])} systems into {args.output}",
              file=sys.stderr)
    return 0


def cmd_rank(args: argparse.Namespace) -> int:
    from discotest.cli import _emit, _html, _progress_bar
    from discotest.dip.report import (
        rank_detail_rows,
        rank_summaries,
        render_rank_json,
        render_rank_table,
        write_rank_details,
    )

    phenomena = _phenomena(args)
    pair_paths(args.data, args.pair, args.ref, args.data_dir)
    scorer, coherence = _models(args, phenomena, pronoun=True, data=args.data, pair=args.pair)
    with _progress_bar(args, "parsed system outputs", "system", total=_mined_count(args)) as bar:
        report = api.rank(args.data, args.pair, ref=args.ref, holdout=args.holdout, systems=_systems(args),
                          max_docs=args.max_docs, phenomena=phenomena, pronoun_scorer=scorer,
                          coherence_model=coherence, data_dir=args.data_dir, n_bootstrap=args.bootstrap,
                          use_cache=args.use_cache, progress=bar.update, anaphora_mode=args.anaphora_mode)
    if args.details:
        write_rank_details(args.details, report)
    if args.format == "html":
        _emit(args, _html(args, f"discotest · DiP ranking {args.data} {args.pair}", rank_summaries(report),
                          rank_detail_rows(report)))
    else:
        _emit(args, render_rank_json(report) if args.format == "json" else render_rank_table(report))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from discotest.cli import _emit, _html
    from discotest.dip.report import (
        render_score_json,
        render_score_table,
        score_detail_rows,
        score_summaries,
        write_score_details,
    )

    if not args.tests or not args.input:
        raise InputError("run dip needs --tests DIR (from 'discotest mine dip') and --input FILE (your translations)")
    manifest, _ = api.read_tests(args.tests)
    if "pair_lines" in manifest:  # a misaligned input fails before any model loads
        api.read_input(args.input, manifest["pair_lines"], f"{manifest['data']} {manifest['pair']}")
    scorer, coherence = _models(args, list(manifest.get("counts", {})), pronoun=True, data=manifest.get("data"),
                                pair=manifest.get("pair"))
    report = api.score(args.tests, args.input, pronoun_scorer=scorer, coherence_model=coherence,
                       data_dir=args.data_dir, use_cache=args.use_cache, anaphora_mode=args.anaphora_mode)
    if args.details:
        write_score_details(args.details, report)
    if args.format == "html":
        _emit(args, _html(args, f"discotest · DiP {report.system}", score_summaries(report),
                          score_detail_rows(report)))
    else:
        _emit(args, render_score_json(report) if args.format == "json" else render_score_table(report))
    return 0
