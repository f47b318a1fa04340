"""The hand check of winomt-adj's noun-level verdict: 100 rows of the Google and Bing adjective outputs (every
language) drawn with ``random.Random("issue51:winomt-adj")``, read before the verdict was looked at: which gender
does the translation give the entity through its noun and the words agreeing with it (male, female, or unknown when
they conflict or no person is translated)? ``tests/gold/winomt_adj/validity.jsonl`` keeps the reading, the verdict
it was compared with, and agree/disagree.

    .venv/bin/python -m bench.validity.winomt_adj_gold

It runs the verdicts again (``discotest run winomt-adj … --details``, with the suites' alignment models) and fails
when one changed (read it again: a change to the gender readers moves these verdicts).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.validity.hand_check import ROOT, read_rows, report

os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))
GOLD = "tests/gold/winomt_adj/validity.jsonl"


def verdicts() -> dict[str, str]:
    """Every row's noun-level verdict, keyed as the gold's ids (``system/lang/index``)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for system in ("google", "bing"):
            details = Path(tmp) / f"{system}.jsonl"
            subprocess.run([sys.executable, "-m", "discotest", "run", "winomt-adj", "--lang", "all", "--system",
                            system, "--details", str(details), "-q", "-o", str(Path(tmp) / "report.txt")], check=True)
            for line in details.read_text("utf-8").splitlines():
                r = json.loads(line)
                out[f"{r['system']}/{r['lang']}/{r['index']}"] = r["predicted_gender"]
    return out


def main() -> int:
    rows = read_rows(GOLD)
    now = verdicts()
    changed = [r["id"] for r in rows if now.get(r["id"]) != r["verdict"]]
    if changed:
        print(f"STALE (the verdict changed; read again): {', '.join(changed)}")
    for r in rows:
        r["lang"] = r["id"].split("/")[1]
    report("winomt-adj noun-level verdict against a reading", rows, by="lang")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
