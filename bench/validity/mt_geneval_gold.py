"""The hand check of MT-GenEval's reference-based verdict: 100 test items (de es fr it ru, 10 per language and
subset, drawn with ``random.Random("issue51:mt-geneval")``, each scored on the reference or the other-gender reference
by a seeded coin), read before the verdict was looked at: does the translation give the person the gender the source
(counterfactual) or its context (contextual) states (``correct``), the other (``wrong``), or does the text not state
one (``undecidable``, to match ``undecided``)? ``tests/gold/mt_geneval/validity.jsonl`` keeps the reading, the
verdict it was compared with, and agree/disagree.

    .venv/bin/python -m bench.validity.mt_geneval_gold

It runs the verdicts again (``discotest run mt-geneval … --details``) and fails when one changed (read it again).
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
GOLD = "tests/gold/mt_geneval/validity.jsonl"


def verdicts(langs: list[str]) -> dict[str, str]:
    """Every item's verdict on the two references, keyed as the gold's ids."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for subset in ("counterfactual", "contextual"):
            for system in ("reference", "other-reference"):
                details = Path(tmp) / f"{subset}.{system}.jsonl"
                subprocess.run([sys.executable, "-m", "discotest", "run", "mt-geneval", "--subset", subset, "--lang",
                                ",".join(langs), "--system", system, "--details", str(details), "-q", "-o",
                                str(Path(tmp) / "report.txt")], check=True)
                for line in details.read_text("utf-8").splitlines():
                    r = json.loads(line)
                    out[f"{r['lang']}/{r['subset']}/{r['index']}/{r['gender']}/{r['system']}"] = r["outcome"]
    return out


def main() -> int:
    rows = read_rows(GOLD)
    now = verdicts(sorted({r["id"].split("/")[0] for r in rows}))
    changed = [r["id"] for r in rows if now.get(r["id"]) != r["verdict"]]
    if changed:
        print(f"STALE (the verdict changed; read again): {', '.join(changed)}")
    for r in rows:
        r["lang"], r["subset"] = r["id"].split("/")[:2]
    report("MT-GenEval reference-based verdict against a reading", rows, by="subset")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
