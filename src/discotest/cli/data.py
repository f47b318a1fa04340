"""``discotest data list|fetch|verify``: the third-party data files, their state, origin and licence."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from discotest import api
from discotest.cli.common import common_parser
from discotest.data import catalogue
from discotest.values import float_option

NAME = "data"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(NAME, help="third-party data files: `data list`, `data fetch NAME`, `data verify`, "
                                  "`data prepare SUITE` (build its models ahead of a run)",
                       parents=[common_parser()])
    action = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    ls = action.add_parser("list", parents=[common_parser()],
                           help="each source by suite: status, size on disk, origin URL (checks what is present)")
    ls.add_argument("names", nargs="*", metavar="SUITE_OR_SOURCE", help="only these suites or sources")
    fetch = action.add_parser("fetch", parents=[common_parser()], help="download sources and check their sha256")
    fetch.add_argument("names", nargs="+", metavar="NAME", help="source names (`discotest data list`), or 'all'")
    fetch.add_argument("--timeout", type=float_option("timeout"), default=catalogue.FETCH_TIMEOUT,
                       help=f"seconds a download may stay silent (default {catalogue.FETCH_TIMEOUT:g})")
    fetch.add_argument("--deadline", type=float_option("deadline"), default=catalogue.FETCH_DEADLINE,
                       help=f"seconds a whole download may take (default {catalogue.FETCH_DEADLINE:g})")
    fetch.add_argument("--min-rate", type=float_option("min-rate"), default=catalogue.FETCH_MIN_RATE / 1e3,
                       metavar="KB_PER_S", help="kB a second a download must average once --timeout seconds have "
                       f"passed (default {catalogue.FETCH_MIN_RATE / 1e3:g}): a trickling server is stopped")
    fetch.add_argument("--max-size", type=float_option("max-size"), default=catalogue.FETCH_MAX_SIZE / 1e6,
                       metavar="MB", help="largest download of a source whose size the registry does not know "
                                          f"(default {catalogue.FETCH_MAX_SIZE / 1e6:g} MB; a known size is a cap)")
    verify = action.add_parser("verify", parents=[common_parser()], help="check the sha256 of the files present")
    verify.add_argument("names", nargs="*", metavar="NAME", help="source names (default: all)")
    prepare = action.add_parser("prepare", parents=[common_parser()],
                                help="build what a first run builds (alignment models, the language check's model) "
                                     "into the cache now: for a machine that will run offline, or a quick first run")
    prepare.add_argument("suites", nargs="+", metavar="SUITE", help="suites whose models to build (winomt, mzprt …)")
    prepare.add_argument("--lang", "-l", help="only these languages (comma-separated; default all)")
    prepare.add_argument("--subset", help="mt-geneval: only this subset (default both)")


def _list(args: argparse.Namespace) -> None:
    rows = api.data_status(args.names, args.data_dir)
    print(f"data directory: {catalogue.data_dir(args.data_dir)} ({catalogue.data_dir_origin(args.data_dir)})")
    print("status: verified = sha256 matches its pin; unpinned = present, no published checksum to compare; "
          "MODIFIED = differs from its pin; missing = `discotest data fetch NAME`")
    by_suite: dict[str, list[dict]] = {}
    for row in rows:
        by_suite.setdefault(row["suite"], []).append(row)
    for suite, group in by_suite.items():
        counts = Counter(r["status"] for r in group)
        print(f"\n{suite} ({len(group)} file{'s' * (len(group) != 1)}: "
              f"{', '.join(f'{n} {s}' for s, n in counts.items())}; licence: {group[0]['licence']})")
        width = max(len(r["name"]) for r in group)
        for r in group:
            print(f"  {r['status']:<8}  {r['name']:<{width}}  {r['size']:>8}  {r['url']}")


def run(args: argparse.Namespace) -> int:
    if args.action == "prepare":
        options = {k: getattr(args, k) for k in ("lang", "subset") if getattr(args, k) is not None}
        for line in api.data_prepare(args.suites, data_dir=args.data_dir, quiet=args.quiet, **options):
            print(line)
        return 0
    if args.action == "list":
        _list(args)
        return 0
    if args.action == "fetch":
        fetched = api.data_fetch(args.names, args.data_dir, timeout=args.timeout, deadline=args.deadline,
                                 max_size=int(args.max_size * 1e6), min_rate=args.min_rate * 1e3)
        for name, path, pin in fetched:
            print(f"{name}: {path}" + (f" (no published checksum; pinned sha256 {pin})" if pin else ""))
        return 0
    counts: Counter[str] = Counter()
    for name, status, path in api.data_verify(args.names, args.data_dir):
        counts[status] += 1
        print(f"{status:<8} {name:<26} {path}")
    print(", ".join(f"{n} {status}" for status, n in sorted(counts.items())), file=sys.stderr)
    # with no names, a file not fetched is no failure ("check the files present"); one named must be there
    failed = {status for status in counts if status != "ok" and (args.names or status != "missing")}
    return 1 if failed else 0
