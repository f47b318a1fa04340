"""MiTTenS-out read by a second reader who did not write the rules (issue 51 items 3 and 5).

    .venv/bin/python -m bench.validity.mittens_second_reader

The second reader's labels are ``tests/gold/mittens/readings_out_second_reader.jsonl``: one row per read row of
``readings_out.jsonl`` (``id``, ``lang``, ``person`` — female, male, both, or none where the target leaves the person
unmarked — and ``why``), read from ``bench.validity.mittens_blind`` (id, language, English source and translation
only) and committed before the first reader's labels or the rule's readings were opened. Two rounds: draw 3 (rows
with no ``round``: the rows the rule read a gender on), and ``"round": "hard"``, the rows the first reader alone had
read (draw 1's strata "none" and "wrong", draw 2's "other": ``mittens_blind --hard``).

The script prints, for draw 3 per language and over all six, and for the hard round per language, per stratum and
per language and stratum: the rule's readings right by the second reader (``read``, the reading recorded under the
rules now; for draw 3 and draw 2 also ``read_drawn``, the reading of the commit the draw was made under, the blind,
out-of-sample figure), with a 95% Wilson interval; the agreement with the first reader (share and Cohen's kappa);
and every disagreement with both whys and who is right (``readings_out_second_reader_adjudged.jsonl``, written after
the labels were committed and compared; the labels are not edited, a slip of the second reader is reported). The
rule's readings are the ones the gold file records (``bench.validity.mittens --out-only`` checks they are still the
rule's); ``tests/cards/test_mittens_second_reader.py`` checks that VALIDITY.md quotes these figures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bench.validity.hand_check import numbered_rows
from bench.validity.mittens_blind import DRAW, HARD
from discotest.errors import InputError
from discotest.stats import cohen_kappa, wilson_interval

ROOT = Path(__file__).resolve().parents[2]
FIRST = ROOT / "tests" / "gold" / "mittens" / "readings_out.jsonl"
SECOND = ROOT / "tests" / "gold" / "mittens" / "readings_out_second_reader.jsonl"
ADJUDGED = ROOT / "tests" / "gold" / "mittens" / "readings_out_second_reader_adjudged.jsonl"
PERSON = ("female", "male", "both", "none")
READINGS = {"read": "now", "read_drawn": "when drawn (c8c88b1)"}
ROUNDS: dict[str | None, dict[int, tuple[str, ...] | None]] = {None: {DRAW: None}, "hard": HARD}
RIGHT = ("first", "second", "neither", "either")  # who is right on a disagreement


def read_first(path: Path = FIRST, round_: str | None = None) -> list[dict]:
    """The first reader's rows of a round (with the rule's recorded readings): draw 3, or the hard strata."""
    select = ROUNDS[round_]
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [r for r in rows if r["draw"] in select and (select[r["draw"]] is None or r["stratum"] in select[r["draw"]])]


def read_second(first: list[dict], path: Path = SECOND, round_: str | None = None) -> list[dict]:
    """The second reader's rows of a round, each checked against the first reader's rows of that round (an id of
    them, its language, a person label and a why; every row read once); a bad row names the file and line."""
    by_id = {r["id"]: r for r in first}
    rows, seen = [], set()
    for n, row in numbered_rows(path):
        if row.get("person") not in PERSON or not str(row.get("why", "")).strip():
            raise InputError(f"needs a person ({'/'.join(PERSON)}) and a why", path, n)
        if row.get("round") not in ROUNDS:
            raise InputError(f"round {row.get('round')!r} is not one of {sorted(map(str, ROUNDS))}", path, n)
        if row.get("round") != round_:
            continue
        if row.get("id") not in by_id or by_id[row["id"]]["lang"] != row.get("lang"):
            raise InputError(f"id {row.get('id')!r} ({row.get('lang')}) is not a row of {_round_name(round_)}",
                             path, n)
        if row["id"] in seen:
            raise InputError(f"id {row['id']!r} is read twice", path, n)
        seen.add(row["id"])
        rows.append(row)
    if seen != set(by_id):
        raise InputError(f"{len(set(by_id) - seen)} rows of {_round_name(round_)} are not read", path)
    return rows


def _round_name(round_: str | None) -> str:
    return f"draw {DRAW}" if round_ is None else f"round {round_!r}"


def read_adjudged(first: list[dict], second: list[dict], path: Path = ADJUDGED) -> dict[str, dict]:
    """Who is right on each disagreement of the hard round (one row per disagreement, none on an agreed row)."""
    by_id = {r["id"]: r for r in first}
    differ = {m["id"] for m in second if m["person"] != by_id[m["id"]]["person"]}
    out: dict[str, dict] = {}
    for n, row in numbered_rows(path):
        if row.get("right") not in RIGHT or not str(row.get("why", "")).strip():
            raise InputError(f"needs right ({'/'.join(RIGHT)}) and a why", path, n)
        if row.get("id") not in differ or row["id"] in out:
            raise InputError(f"id {row.get('id')!r} is not a disagreement, or is judged twice", path, n)
        out[row["id"]] = row
    if set(out) != differ:
        raise InputError(f"{len(differ - set(out))} disagreements are not judged: {sorted(differ - set(out))}", path)
    return out


def share(k: int, n: int) -> str:
    """``29 of 30 = 96.7% (95% Wilson 83.3–99.4)``, as VALIDITY.md writes it."""
    low, high = wilson_interval(k, n)
    return f"{k} of {n} = {100 * k / n:.1f}% (95% Wilson {100 * low:.1f}–{100 * high:.1f})"


def _cell(mine: list[dict], theirs: list[dict], keys: tuple[str, ...]) -> dict:
    """The rule right by the second reader per reading key, and the agreement with the first reader."""
    a, b = [t["person"] for t in theirs], [m["person"] for m in mine]
    return {
        "rule": {key: (sum(t[key] == m["person"] for m, t in zip(mine, theirs)), len(mine)) for key in keys},
        "agree": (sum(x == y for x, y in zip(a, b)), len(mine), cohen_kappa(a, b)),
    }


def figures(first: list[dict], second: list[dict]) -> dict:
    """Draw 3, per language and ``all``: for each recorded reading, (right by the second reader, n); the agreement
    with the first reader (same, n, Cohen's kappa or None where undefined); and the disagreements (second, first)."""
    by_id = {r["id"]: r for r in first}
    out: dict = {}
    for lang in [*sorted({r["lang"] for r in second}), "all"]:
        mine = [r for r in second if lang in ("all", r["lang"])]
        out[lang] = _cell(mine, [by_id[r["id"]] for r in mine], tuple(READINGS))
    out["disagree"] = [(m, by_id[m["id"]]) for m in second if m["person"] != by_id[m["id"]]["person"]]
    return out


def stratum(row: dict) -> str:
    """``draw 1 none``: the draw and the stratum (what the rule read when the row was drawn) of a first-reader row."""
    return f"draw {row['draw']} {row['stratum']}"


def figures_hard(first: list[dict], second: list[dict]) -> dict:
    """The hard round: ``cells`` keyed (language or ``all``, stratum or ``all``), the rule now right by the second
    reader (and when drawn, for draw 2 alone) and the agreement with the first reader; ``disagree``, the (second,
    first) pairs that differ."""
    by_id = {r["id"]: r for r in first}
    langs = [*sorted({r["lang"] for r in second}), "all"]
    strata = [*sorted({stratum(r) for r in first}), "all"]
    cells: dict[tuple[str, str], dict] = {}
    for lang in langs:
        for name in strata:
            mine = [m for m in second if lang in ("all", m["lang"]) and name in ("all", stratum(by_id[m["id"]]))]
            if not mine:
                continue
            theirs = [by_id[m["id"]] for m in mine]
            keys = ("read", "read_drawn") if {t["draw"] for t in theirs} == {2} else ("read",)
            cells[lang, name] = _cell(mine, theirs, keys)
    return {"cells": cells,
            "disagree": [(m, by_id[m["id"]]) for m in second if m["person"] != by_id[m["id"]]["person"]]}


def _agree(cell: dict) -> str:
    same, n, kappa = cell["agree"]
    said = "undefined (one label throughout)" if kappa is None else f"{kappa:.2f}"
    return f"agreement with the first reader {same} of {n} = {100 * same / n:.1f}%, Cohen's kappa {said}"


def lines(first: list[dict], second: list[dict]) -> list[str]:
    """Draw 3's figures as VALIDITY.md quotes them, then every disagreement and every reading the second reader calls
    wrong."""
    fig = figures(first, second)
    out = []
    for lang in [k for k in fig if k != "disagree"]:
        rule = "; ".join(f"{name} {share(*fig[lang]['rule'][key])}" for key, name in READINGS.items())
        out.append(f"{lang}: rule right by the second reader {rule}; {_agree(fig[lang])}")
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


def lines_hard(first: list[dict], second: list[dict], adjudged: dict[str, dict]) -> list[str]:
    """The hard round's figures per language, stratum and both, then every disagreement with who is right, then every
    reading now the second reader calls wrong."""
    fig = figures_hard(first, second)
    names = {"read": "now", "read_drawn": "when drawn (2ef20c3)"}
    out = []
    for (lang, name), cell in fig["cells"].items():
        rule = "; ".join(f"{names[key]} {share(*v)}" for key, v in cell["rule"].items())
        out.append(f"{lang} / {name}: rule right by the second reader {rule}; {_agree(cell)}")
    for mine, theirs in fig["disagree"]:
        judged = adjudged[mine["id"]]
        out.append(f"  disagree {mine['id']} {mine['lang']} ({stratum(theirs)}): first {theirs['person']} "
                   f"({theirs['why']}) | second {mine['person']} ({mine['why']}) | rule now {theirs['read']} | right: "
                   f"{judged['right']} ({judged['why']})")
    by_id = {r["id"]: r for r in first}
    for mine in second:
        row = by_id[mine["id"]]
        if row["read"] != mine["person"]:
            out.append(f"  rule now {row['read']} on {mine['id']} {mine['lang']} ({stratum(row)}), second reader "
                       f"{mine['person']} ({mine['why']}), first reader {row['person']}")
    return out


def main() -> int:
    try:
        first = read_first()
        second = read_second(first)
        hard_first = read_first(round_="hard")
        hard_second = read_second(hard_first, round_="hard")
        adjudged = read_adjudged(hard_first, hard_second)
    except InputError as exc:
        print(exc.one_line(), file=sys.stderr)
        return 2
    print(f"draw {DRAW} (the rows the rule read a gender on):")
    print("\n".join(lines(first, second)))
    print("\nhard rows (draw 1 none/wrong, draw 2 other: the first reader alone read them before):")
    print("\n".join(lines_hard(hard_first, hard_second, adjudged)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
