"""``discotest card``: one system on every suite of its language pairs (``discotest.card``); ``--init`` writes the
sources an outputs folder needs, ``--dry-run`` prints the plan; text, JSON, Markdown, LaTeX or an HTML card whose rows
link to each suite's own page."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from discotest.cli.outputs import print_out
from discotest.cli.parsers import global_flags_parser

if TYPE_CHECKING:
    from discotest.cards.rows import FilledRow

NAME = "card"


def add(sub: argparse._SubParsersAction) -> None:
    from discotest.cards import OPTIONS
    from discotest.cards.render import FORMATS
    from discotest.registry.options import GLOBAL_FLAGS

    p = sub.add_parser(NAME, help="one system on every suite of its language pairs: a discourse card",
                       parents=[global_flags_parser()])
    for option in OPTIONS:
        if option.name not in GLOBAL_FLAGS:
            p.add_argument(*option.flags, default=argparse.SUPPRESS, **option.argparse_kwargs())
    p.add_argument("--format", "-f", choices=FORMATS, default="text",
                   help="text table, JSON (docs/card.md), markdown, latex, or html (with -o: each suite's own page "
                        "beside it, linked from its row)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the card here instead of stdout")


def run(args: argparse.Namespace) -> int:
    """The card from the command's options, made by the card's machinery itself (``cards.build.make_card``, which
    ``discotest.card`` calls too): ``--limit`` and a model's ``--max-length`` go from here to each row's Settings in
    ``cards.build`` (``CardOptions.run_options``, ``model_options_for``) and on to its family's run, nowhere else;
    ``--init``, ``--check`` and ``--dry-run`` go through the API's functions."""
    from discotest import api
    from discotest.cards import OPTIONS
    from discotest.cards.build import make_card
    from discotest.cards.render import render
    from discotest.cards.versus import make_versus

    options = {o.name: getattr(args, o.name) for o in OPTIONS if hasattr(args, o.name)}
    if options.pop("init", False):
        for line in api.card_init(**{k: v for k, v in options.items() if k != "dry_run"}):
            print_out(line)
        return 0
    if options.pop("check", False):
        lines, right = api.card_check(**{k: v for k, v in options.items() if k != "dry_run"})
        print_out("\n".join(lines))
        return 0 if right else 1
    if options.pop("dry_run", False):
        _print_plan(api.card_plan(**options))
        return 0
    _check_output(args.output, options)
    if options.get("versus"):
        from discotest.cards.versus import render_versus

        first, second, lines = make_versus(**options)
        text = (json.dumps({"a": first.to_json(), "b": second.to_json(), "lines": lines}, ensure_ascii=False,
                           indent=1, sort_keys=True) if args.format == "json" else render_versus(first, second, lines))
        _write(args.output, text)
        return _status([*first.rows, *second.rows])
    pages_wanted = bool(args.format == "html" and args.output)
    card = make_card(keep_reports=pages_wanted, **options)
    pages = _write_pages(card, args.output, args.command_line) if pages_wanted else {}
    _write(args.output, render(card, args.format, pages))
    return _status(card.rows)


def _status(rows: list[FilledRow]) -> int:
    """0: every row filled or unfillable by nature; 1: some row failed (each said on stderr); a card that could not
    start at all has ended with 2 before (docs/card.md, 'Exit status')."""
    failed = [row for row in rows if row.status == "failed"]
    for row in failed:
        print(f"discotest: warning: {row.key}: {row.reason}", file=sys.stderr)
    return 1 if failed else 0


def _check_output(output: str | None, options: dict) -> None:
    """-o onto an input of the card (the manifest, a row's file, of either system) is refused before any work."""
    if not output:
        return
    from discotest.cards import card_settings
    from discotest.cards.build import resolve
    from discotest.cards.checks import check_output
    from discotest.cards.versus import versus_system

    s = card_settings(options)
    system, _, _ = resolve(s)
    other = versus_system(s.versus, {}) if s.versus and not s.versus.startswith(("http://", "https://")) else None
    check_output(output, s, system, other)


def _write(output: str | None, text: str) -> None:
    if output:
        from discotest.atomic import write_text_atomic

        write_text_atomic(output, text + "\n")
    else:
        print_out(text)


def _print_plan(steps: list[dict]) -> None:
    from discotest.report.table import fixed_width

    rows = [[p["row"], p["suite"], p["status"], "?" if p["items"] is None else str(p["items"]),
             "–" if p["seconds"] is None else f"{p['seconds']:.0f}"] for p in steps]
    print_out("card plan:")
    print_out("\n".join(fixed_width(["row", "suite", "status", "items", "seconds"], rows, left=3)))
    for p in steps:
        if p["reason"]:
            print_out(f"  {p['row']}: {p['reason']}")
    todo = [p for p in steps if p["status"] == "to run"]
    known = sum(p["seconds"] or 0 for p in todo)
    unknown = sum(p["seconds"] is None for p in todo)
    sources = [f"{n} row{'s' if n != 1 else ''} {what}" for what, n in (
        ("measured here", sum(p.get("estimate") == "measured" for p in todo)),
        ("at their kind's typical cost per item, cards/costs.json", sum(p.get("estimate") == "typical" for p in todo)))
        if n]
    print_out(f"{len(todo)} rows to run, {sum(p['status'] == 'cached' for p in steps)} done, "
              f"{sum(p['status'] == 'unfilled' for p in steps)} not fillable; estimate {known:.0f} s"
              + (f" ({', '.join(sources)})" if sources else "")
              + (f", plus {unknown} rows with no estimate until they have run here (a model's speed is its own; "
                 "costs.json has no figure of their kind)" if unknown else ""))
    load, cores = _load()
    if known and load > cores:  # the estimate is a quiet machine's; a row runs one process, which gets cores/load
        print_out(f"  the figures are a quiet machine's (CPU seconds); at this machine's load ({load:.0f} on {cores} "
                  f"cores) about {known * load / cores:.0f} s")


def _load() -> tuple[float, int]:
    """The machine's load average over the last minute and its cores (a loaded machine runs each row slower)."""
    return os.getloadavg()[0], os.cpu_count() or 1


def _write_pages(card, output: str, command: str) -> dict[str, str]:
    """Each filled row's own report as an HTML page in ``OUTPUT.d/`` (the suite's summary and every item's
    evidence); row key -> its path relative to the card."""
    folder = Path(output).with_name(Path(output).name + ".d")
    folder.mkdir(exist_ok=True)
    pages = {}
    for key, report in card.reports.items():
        name = key.replace("/", "_") + ".html"
        from discotest.atomic import write_text_atomic

        write_text_atomic(folder / name, report.render("html", command) + "\n")
        pages[key] = f"{folder.name}/{name}"
    return pages
