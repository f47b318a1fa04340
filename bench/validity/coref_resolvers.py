"""English resolvers beside the MT-derived decisions (issue 54 item 4; Yehudai et al. 2023's Table 2 in form, not in
resolvers): the rule resolver and neuralcoref 4.0 (2019) on WinoMT and BUG, pro vs anti, and every published WinoMT
system's decisions read from its translation, with their agreement with each resolver.

    scripts/neuralcoref-env                                       # once: the neuralcoref environment
    .venv/bin/python -m bench.validity.coref_resolvers [--json bench/figures/coref_resolvers.json]

Prints the markdown tables docs/gender.md quotes ("English resolvers beside the MT systems"). Everything is
``discotest coref``: ``coref winomt --resolver rules --resolver neuralcoref --lang all --system all`` and
``coref bug --resolver rules --resolver neuralcoref`` (BUG has no published translations), and BUG's decisions by
stereotype (pro, anti, neither) from the same results' details.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))

RESOLVERS = ("rules", "neuralcoref")


def run() -> dict[str, list]:
    """Each suite's ``CorefResult``s."""
    from discotest import api

    return {suite: api.coref(suite, resolver=list(RESOLVERS), quiet=True, **options).results
            for suite, options in (("winomt", {"lang": "all", "system": "all"}), ("bug", {}))}


def as_json(results: dict[str, list]) -> dict[str, list[dict]]:
    """As ``coref --format json`` gives them (scores rounded to 2 decimals, and the signature)."""
    return {suite: [{"system": r.system, "lang": r.lang, "scores": r.scores.to_json(),
                     "signature": r.signature.format()} for r in rows] for suite, rows in results.items()}


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def tables(results: dict[str, list]) -> str:
    """Resolvers on both suites, then each MT system per language with its agreement with each resolver (from the
    unrounded scores: the JSON's 2-decimal figures rounded again would be off by 0.1 at times)."""
    lines = ["| resolver | suite | n | decided % | Acc % | Acc % of decided | Acc % pro | Acc % anti |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for suite, rows in results.items():
        for r in rows:
            if r.lang is None:
                s = r.scores
                lines.append(f"| {r.system.split(' ')[0]} | {suite} | {s.n} | {s.decided:.1f} | {s.accuracy:.1f} | "
                             f"{s.accuracy_decided:.1f} | {_cell(s.accuracy_pro)} | {_cell(s.accuracy_anti)} |")
    lines += ["", "| system / lang | decided % | Acc % | Acc % of decided | Acc % pro | Acc % anti | "
              + " | ".join(f"agree % {n} (n)" for n in RESOLVERS) + " |",
              "|---|---:|---:|---:|---:|---:|" + "---:|" * len(RESOLVERS)]
    for r in results["winomt"]:
        if r.lang is not None:
            s = r.scores
            agree = [f"{s.agreement[n].agree:.1f} ({s.agreement[n].n})" for n in RESOLVERS]
            lines.append(f"| {r.system} | {s.decided:.1f} | {s.accuracy:.1f} | {s.accuracy_decided:.1f} | "
                         f"{_cell(s.accuracy_pro)} | {_cell(s.accuracy_anti)} | " + " | ".join(agree) + " |")
    return "\n".join(lines)


def bug_subsets(results: dict[str, list]) -> str:
    """Each resolver on BUG's pro-, anti- and un-stereotyped items: decided, right over all and over the decided."""
    from discotest.gender.suites import load_gender_suite

    label = {item.index: item.stereotype or "neither" for item in load_gender_suite("bug", "current")}
    lines = ["| resolver | BUG items | n | decided % | Acc % | Acc % of decided |", "|---|---|---:|---:|---:|---:|"]
    for r in results["bug"]:
        for subset in ("pro", "anti", "neither"):
            mine = [d for row, d in r.resolutions if label[row] == subset]
            decided = sum(d != "none" for d in mine)
            right = sum(d == "entity" for d in mine)
            lines.append(f"| {r.system.split(' ')[0]} | {subset} | {len(mine)} | {100 * decided / len(mine):.1f} | "
                         f"{100 * right / len(mine):.1f} | {100 * right / decided if decided else 0:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args(argv)
    results = run()
    if args.json:
        Path(args.json).write_text(json.dumps(as_json(results), indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(tables(results))
    print()
    print(bug_subsets(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
