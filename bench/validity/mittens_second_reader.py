"""MiTTenS-out draw 3 read by a second reader who did not write the rules (issue 51 items 3 and 5).

    .venv/bin/python -m bench.validity.mittens_second_reader

The second reader's labels are ``tests/gold/mittens/readings_out_second_reader.jsonl``: one row per draw-3 row of
``readings_out.jsonl`` (``id``, ``lang``, ``person`` — female, male, both, or none where the target leaves the person
unmarked — and ``why``), read from ``bench.validity.mittens_blind`` (id, language, English source and translation
only) and committed before the first reader's labels or the rule's readings were opened. The script prints, per
language and over all six: the rule's readings right by the second reader (``read``, the reading recorded under the
rules now, and ``read_drawn``, the reading of commit c8c88b1 the draw was made under: the blind, out-of-sample
figure), with a 95% Wilson interval; the agreement with the first reader (share and Cohen's kappa); and every
disagreement with both whys. The rule's readings are the ones the gold file records (``bench.validity.mittens
--out-only`` checks they are still the rule's); ``tests/gold/test_mittens_second_reader.py`` checks that VALIDITY.md
quotes these figures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from discotest.errors import InputError
from discotest.stats import cohen_kappa, wilson_interval

ROOT = Path(__file__).resolve().parents[2]
FIRST = ROOT / "tests" / "gold" / "mittens" / "readings_out.jsonl"
SECOND = ROOT / "tests" / "gold" / "mittens" / "readings_out_second_reader.jsonl"
DRAW = 3
PERSON = ("female", "male", "both", "none")
READINGS = {"read": "now", "read_drawn": "when drawn (c8c88b1)"}


def read_first(path: Path = FIRST) -> list[dict]:
    """The first reader's draw-3 rows (with the rule's recorded readings)."""
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [r for r in rows if r["draw"] == DRAW]


def read_second(first: list[dict], path: Path = SECOND) -> list[dict]:
    """The second reader's rows, each checked against draw 3 (an id of the draw, its language, a person label and a
    why; every row of the draw read once); a bad row names the file and line."""
    by_id = {r["id"]: r for r in first}
    rows, seen = [], set()
    for n, text in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON: {exc}", path, n) from None
        if not isinstance(row, dict) or row.get("person") not in PERSON or not str(row.get("why", "")).strip():
            raise InputError(f"needs a person ({'/'.join(PERSON)}) and a why", path, n)
        if row.get("id") not in by_id or by_id[row["id"]]["lang"] != row.get("lang"):
            raise InputError(f"id {row.get('id')!r} ({row.get('lang')}) is not a row of draw {DRAW}", path, n)
        if row["id"] in seen:
            raise InputError(f"id {row['id']!r} is read twice", path, n)
        seen.add(row["id"])
        rows.append(row)
    if seen != set(by_id):
        raise InputError(f"{len(set(by_id) - seen)} rows of draw {DRAW} are not read", path)
    return rows


def share(k: int, n: int) -> str:
    """``29 of 30 = 96.7% (95% Wilson 83.3–99.4)``, as VALIDITY.md writes it."""
    low, high = wilson_interval(k, n)
    return f"{k} of {n} = {100 * k / n:.1f}% (95% Wilson {100 * low:.1f}–{100 * high:.1f})"


def figures(first: list[dict], second: list[dict]) -> dict:
    """Per language and ``all``: for each recorded reading, (right by the second reader, n); the agreement with the
    first reader (same, n, Cohen's kappa or None where undefined); and the disagreements (second, first) pairs."""
    by_id = {r["id"]: r for r in first}
    out: dict = {}
    for lang in [*sorted({r["lang"] for r in second}), "all"]:
        mine = [r for r in second if lang in ("all", r["lang"])]
        theirs = [by_id[r["id"]] for r in mine]
        a, b = [t["person"] for t in theirs], [m["person"] for m in mine]
        out[lang] = {
            "rule": {key: (sum(t[key] == m["person"] for m, t in zip(mine, theirs)), len(mine)) for key in READINGS},
            "agree": (sum(x == y for x, y in zip(a, b)), len(mine), cohen_kappa(a, b)),
        }
    out["disagree"] = [(m, by_id[m["id"]]) for m in second if m["person"] != by_id[m["id"]]["person"]]
    return out


def lines(first: list[dict], second: list[dict]) -> list[str]:
    """The figures as VALIDITY.md quotes them, then every disagreement and every reading the second reader calls
    wrong."""
    fig = figures(first, second)
    out = []
    for lang in [k for k in fig if k != "disagree"]:
        rule = "; ".join(f"{name} {share(*fig[lang]['rule'][key])}" for key, name in READINGS.items())
        same, n, kappa = fig[lang]["agree"]
        said = "undefined (one label throughout)" if kappa is None else f"{kappa:.2f}"
        out.append(f"{lang}: rule right by the second reader {rule}; agreement with the first reader "
                   f"{same} of {n} = {100 * same / n:.1f}%, Cohen's kappa {said}")
    by_id = {r["id"]: r for r in first}
    for mine, theirs in fig["disagree"]:
        out.append(f"  disagree {mine['id']} {mine['lang']}: first {theirs['person']} ({theirs['why']}) | second "
                   f"{mine['person']} ({mine['why']}) | rule now {theirs['read']}")
    for mine in second:
        row = by_id[mine["id"]]
        for key, name in READINGS.items():
            if row[key] != mine["person"]:
                out.append(f"  rule {name} {row[key]} on {mine['id']} {mine['lang']}, second reader {mine['person']} "
                           f"({mine['why']})")
    return out


def main() -> int:
    first = read_first()
    try:
        second = read_second(first)
    except InputError as exc:
        print(exc.one_line(), file=sys.stderr)
        return 2
    print("\n".join(lines(first, second)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
