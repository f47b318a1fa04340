"""Text table and JSON renderings of results, and the per-item details file."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from discotest.atomic import write_text_atomic
from discotest.report.result import GenderResult, grouped_signatures

_COLUMNS = (
    ("system", "system"), ("lang", "lang"), ("n", "n"), ("Acc", "accuracy"),
    ("P♂", "precision_male"), ("R♂", "recall_male"), ("F1♂", "f1_male"),
    ("P♀", "precision_female"), ("R♀", "recall_female"), ("F1♀", "f1_female"),
    ("ΔG", "delta_g"), ("ΔS", "delta_s"), ("unk%", "unknown"), ("unmatched", "unmatched"),
)


def _cell(result: GenderResult, key: str) -> str:
    if key in ("system", "lang"):
        return getattr(result, key)
    if key == "unmatched":
        return str(len(result.unmatched))
    value = getattr(result.scores, key)
    if value is None:
        return "–"
    return str(value) if isinstance(value, int) else f"{value:.1f}"


def render_table(results: Sequence[GenderResult]) -> str:
    """A fixed-width table, one row per system and language, then the signatures."""
    header = [name for name, _ in _COLUMNS]
    rows = [[_cell(r, key) for _, key in _COLUMNS] for r in results]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    out = [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]
    if results:
        title = f"{results[0].suite} ({results[0].version}); percentages; ΔG = F1♂ − F1♀, ΔS = Acc(pro) − Acc(anti)"
        out.insert(0, title)
    out += ["", *grouped_signatures([r.signature for r in results], "system")]
    return "\n".join(out)


_OMISSION_COLUMNS = (
    ("poss", "possessive-agrees-with-possessed"), ("dropped", "pronoun-dropped"), ("neutral", "neutral-form"),
    ("no-words", "no-target-words"), ("pron?", "pronoun-unreadable"), ("entity?", "entity-unreadable"),
)


def render_consistency_table(results: Sequence[GenderResult]) -> str:
    """Target-side consistency per system and language, with the omitted items counted by reason."""
    header = ["system", "lang", "n", "scored", "Cons%", "trivial%", *(name for name, _ in _OMISSION_COLUMNS)]
    rows = []
    for r in results:
        c = r.consistency
        if c is None:
            continue
        rows.append([r.system, r.lang, str(c.n), str(c.scored), f"{c.consistency:.1f}", f"{c.trivial:.1f}",
                     *(str(c.omitted.get(key, 0)) for _, key in _OMISSION_COLUMNS)])
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    title = ("target-side consistency: Cons% = pronoun gender agrees with the entity's, over the scored items; "
             "trivial% = entity and distractor share a gender; then items left out, by reason (pron?/entity? = the "
             "pronoun's/entity's gender could not be read)")
    return "\n".join([title, line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)])


def render_json(results: Sequence[GenderResult]) -> str:
    payload = [r.to_json() for r in results]
    return json.dumps(payload[0] if len(payload) == 1 else payload, ensure_ascii=False, indent=1)


def detail_rows(results: Sequence[GenderResult]) -> list[dict]:
    """One dict per item; ``system`` and ``lang`` are added so several runs can share a file."""
    return [{"system": r.system, "lang": r.lang, **v.to_json()} for r in results for v in r.verdicts]


def write_details(path: str | Path, results: Sequence[GenderResult]) -> None:
    write_jsonl(path, detail_rows(results))


def write_jsonl(path: str | Path, rows: Sequence[dict]) -> None:
    """Detail rows as JSON lines, written atomically (every --details file goes through here)."""
    write_text_atomic(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
