"""What every hand-checked gold file under ``tests/gold/<suite>/validity.jsonl`` shares: its rows, the share that
holds with its Wilson interval, and the line VALIDITY.md quotes. One JSON object per line: ``id`` (the item), what was
checked, ``label`` (``valid``/``invalid`` for an item, ``agree``/``disagree`` for a verdict read against the text) and
``why`` (one line). The card's badge (``cards/validity.json``, ``hand_check``) names the gold file and the rows it
counts; ``tests/cards/test_hand_checks.py`` checks that the badge, VALIDITY.md and the gold agree.
"""

from __future__ import annotations

import json
from pathlib import Path

from discotest.errors import InputError
from discotest.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[2]
HOLDS = {"valid", "agree"}
LABELS = HOLDS | {"invalid", "disagree"}


def numbered_rows(path: Path) -> list[tuple[int, dict]]:
    """(line number, row) of a JSONL gold file; a line that is not a JSON object names the file and line."""
    out = []
    for n, text in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON: {exc}", path, n) from None
        if not isinstance(row, dict):
            raise InputError("not a JSON object", path, n)
        out.append((n, row))
    return out


def read_rows(path: str | Path, where: dict | None = None) -> list[dict]:
    """The gold rows of ``path`` (relative to the repository root), those whose fields equal ``where`` when given."""
    rows = [json.loads(line) for line in (ROOT / path).read_text("utf-8").splitlines() if line.strip()]
    for k, row in enumerate(rows, 1):
        if row.get("label") not in LABELS or len(row.get("why", "")) < 10 or "id" not in row:
            raise ValueError(f"{path} line {k}: a row needs an id, a label ({', '.join(sorted(LABELS))}) and a why")
    return [r for r in rows if all(r.get(key) == value for key, value in (where or {}).items())]


def figure(rows: list[dict]) -> tuple[int, int, float, float]:
    """(rows that hold, rows, Wilson low %, high %)."""
    holds = sum(r["label"] in HOLDS for r in rows)
    low, high = wilson_interval(holds, len(rows))
    return holds, len(rows), 100 * low, 100 * high


def quoted(rows: list[dict]) -> str:
    """The figure as VALIDITY.md writes it: ``97 of 100 = 97.0% (95% Wilson 91.5–99.0)``."""
    holds, n, low, high = figure(rows)
    return f"{holds} of {n} = {100 * holds / n:.1f}% (95% Wilson {low:.1f}–{high:.1f})"


def report(title: str, rows: list[dict], by: str | None = None) -> None:
    """Print the figure, per value of ``by`` when given, and every row that does not hold."""
    print(f"{title}: {quoted(rows)}")
    if by:
        for value in sorted({r[by] for r in rows}):
            print(f"  {value}: {quoted([r for r in rows if r[by] == value])}")
    for r in rows:
        if r["label"] not in HOLDS:
            print(f"  {r['label']} {r['id']}: {r['why']}")
