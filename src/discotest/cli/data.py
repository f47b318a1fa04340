"""``discotest data list|fetch|verify``: the third-party data files, their state, origin and licence."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import Counter

from discotest import api
from discotest.cli.outputs import print_out
from discotest.cli.parsers import add_declared, declared_values, global_flags_parser
from discotest.data import catalogue
from discotest.registry.commands import DATA_FETCH_OPTIONS, DATA_PREPARE_OPTIONS

NAME = "data"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="third-party data files: `data list`, `data fetch NAME`, `data verify`, "
                                  "`data prepare SUITE` (build its models ahead of a run)",
                       parents=[global_flags_parser()])
    action = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    ls = action.add_parser("list", parents=[global_flags_parser()],
                           help="each source by suite: status, size on disk, origin URL (checks what is present)")
    ls.add_argument("names", nargs="*", metavar="SUITE_OR_SOURCE", help="only these suites or sources")
    fetch = action.add_parser("fetch", parents=[global_flags_parser()], help="download sources and check their sha256")
    fetch.add_argument("names", nargs="+", metavar="NAME", help="source names (`discotest data list`), or 'all'")
    add_declared(fetch, DATA_FETCH_OPTIONS)
    verify = action.add_parser("verify", parents=[global_flags_parser()], help="check the sha256 of the files present")
    verify.add_argument("names", nargs="*", metavar="NAME", help="source names (default: all)")
    prepare = action.add_parser("prepare", parents=[global_flags_parser()],
                                help="build what a first run builds (alignment models, the language check's model) "
                                     "into the cache now: for a machine that will run offline, or a quick first run")
    prepare.add_argument("suites", nargs="+", metavar="SUITE", help="suites whose models to build (winomt, mzprt …)")
    add_declared(prepare, DATA_PREPARE_OPTIONS)


def _list(args: argparse.Namespace) -> None:
    rows = api.data_status(args.names, args.data_dir)
    print_out(f"data directory: {catalogue.data_dir(args.data_dir)} ({catalogue.data_dir_origin(args.data_dir)})")
    print_out("status: verified = sha256 matches its pin; unpinned = present, no published checksum to compare; "
              "MODIFIED = differs from its pin; missing = `discotest data fetch NAME`")
    by_suite: dict[str, list[dict]] = {}
    for row in rows:
        by_suite.setdefault(row["suite"], []).append(row)
    for suite, group in by_suite.items():
        counts = Counter(r["status"] for r in group)
        print_out(f"\n{suite} ({len(group)} file{'s' * (len(group) != 1)}: "
                  f"{', '.join(f'{n} {s}' for s, n in counts.items())}; licence: {group[0]['licence']})")
        width = max(len(r["name"]) for r in group)
        for r in group:
            print_out(f"  {r['status']:<8}  {r['name']:<{width}}  {r['size']:>8}  {r['url']}")


def run(args: argparse.Namespace) -> int:
    if args.action == "prepare":
        options = {k: v for k, v in declared_values(args, DATA_PREPARE_OPTIONS).items() if v is not None}
        for line in api.data_prepare(args.suites, data_dir=args.data_dir, quiet=args.quiet, **options):
            print_out(line)
        return 0
    if args.action == "list":
        _list(args)
        return 0
    if args.action == "fetch":
        with warnings.catch_warnings(record=True) as said:  # a deprecated flag's line: one line, as every warning
            warnings.simplefilter("always", FutureWarning)
            fetched = api.data_fetch(args.names, **declared_values(args, DATA_FETCH_OPTIONS))
        for warning in said:
            print(f"discotest: warning: {warning.message}", file=sys.stderr)
        for name, path, pin in fetched:
            print_out(f"{name}: {path}" + (f" (no published checksum; pinned sha256 {pin})" if pin else ""))
        return 0
    counts: Counter[str] = Counter()
    for name, status, path in api.data_verify(args.names, args.data_dir):
        counts[status] += 1
        print_out(f"{status:<8} {name:<26} {path}")
    print(", ".join(f"{n} {status}" for status, n in sorted(counts.items())), file=sys.stderr)
    # with no names, a file not fetched is no failure ("check the files present"); one named must be there
    failed = {status for status in counts if status != "ok" and (args.names or status != "missing")}
    return 1 if failed else 0
