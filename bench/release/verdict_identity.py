"""Every per-item verdict of the published WinoMT pairs, before and after a change: sha256 per pair, compared.

    .venv/bin/python -m bench.release.verdict_identity [--data-dir ../shared/data] [--record] [--only noun,reader]
                                                       [--engine local|ray] [--langs ar,de]

Runs, in fresh processes with one fresh cache: ``run winomt --lang all --system all --details F`` (all 33 pairs, the
noun verdict) and ``run winomt --lang all --system google --verdict reader --details F`` (8 languages, the reader
verdict, which reads pronouns and distractors too) and ``run winomt --lang all --system all --verdict grammatical``
(mt_gender's convention, issue 51), each with ``--format json``. Per (mode, language, system) the
sha256 of that pair's detail lines (in item order) and of its JSON result are compared with
``bench/figures/winomt_verdicts.json``; ``--record`` writes them there instead. A speed change must leave every
hash as recorded: exit 1 names each pair that differs (``--keep DIR`` keeps the details files to diff).
``--engine ray`` runs the same on a local Ray instance (the hashes are recorded from local runs): the ray engine's
all-33-pairs identity, which CI checks on Google's 8 languages only (tests/engine/test_engine.py). ``--langs``: only
these languages' pairs, checked against their recorded hashes (a change to one analyser; not with ``--record``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

from bench.runner import discotest

ROOT = Path(__file__).resolve().parents[2]


FIGURES = ROOT / "bench" / "figures" / "winomt_verdicts.json"
MODES = {
    "noun": ["--lang", "all", "--system", "all"],
    "reader": ["--lang", "all", "--system", "google", "--verdict", "reader"],
    # mt_gender's grammatical convention (issue 51): its details are the noun verdict's before issue 51
    "grammatical": ["--lang", "all", "--system", "all", "--verdict", "grammatical"],
}


def run_mode(mode: str, data_dir: str, cache: str, tmp: Path, engine: str = "local", langs: str = "all"
             ) -> dict[str, dict]:
    """Hashes per ``lang/system`` of one mode's details and JSON result (``langs``: comma-separated, or all)."""
    details, report = tmp / f"{mode}.jsonl", tmp / f"{mode}.json"
    args = [langs if a == "all" and i and MODES[mode][i - 1] == "--lang" else a for i, a in enumerate(MODES[mode])]
    discotest(["--data-dir", data_dir, "run", "winomt", *args, "--format", "json", "--details", str(details),
               "-o", str(report), "--engine", engine], cache)
    lines: dict[str, list[str]] = {}
    for line in details.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        lines.setdefault(f"{item['lang']}/{item['system']}", []).append(line)
    results = json.loads(report.read_text(encoding="utf-8"))
    results = results if isinstance(results, list) else results.get("results", [results])
    out = {}
    for key, pair_lines in sorted(lines.items()):
        lang, system = key.split("/")
        result = [r for r in results if r.get("lang") == lang and r.get("system") == system]
        out[key] = {
            "items": len(pair_lines),
            "details_sha256": hashlib.sha256("\n".join(pair_lines).encode()).hexdigest(),
            "result_sha256": hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest(),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--record", action="store_true", help="write today's hashes as the reference")
    parser.add_argument("--only", default=",".join(MODES), help="modes to run: noun, reader, grammatical")
    parser.add_argument("--keep", help="a folder to keep the details in (to diff by hand)")
    parser.add_argument("--engine", default="local", choices=("local", "ray"), help="the engine the runs use")
    parser.add_argument("--langs", default="all", help="only these languages (comma-separated; default all)")
    args = parser.parse_args()
    if args.record and args.engine != "local":
        parser.error("the reference is recorded from local runs")
    if args.record and args.langs != "all":
        parser.error("the reference is recorded for every language")
    recorded = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    differ = []
    with tempfile.TemporaryDirectory(prefix="verdict-identity-") as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for mode in args.only.split(","):
            pairs = run_mode(mode, args.data_dir, str(Path(tmp) / "cache"), folder, args.engine, args.langs)
            for key, now in pairs.items():
                before = recorded.get(mode, {}).get(key)
                same = before is not None and before == now
                print(f"{mode:6} {key:16} {now['items']:5} items  {now['details_sha256'][:12]}  "
                      f"{'same' if same else 'NEW' if before is None else 'DIFFERENT'}")
                if before is not None and not same:
                    differ.append(f"{mode} {key}: details {before['details_sha256'][:12]} -> "
                                  f"{now['details_sha256'][:12]}, result {before['result_sha256'][:12]} -> "
                                  f"{now['result_sha256'][:12]} (--keep DIR keeps the details to diff)")
            missing = {key for key in set(recorded.get(mode, {})) - set(pairs)
                       if args.langs == "all" or key.split("/")[0] in args.langs.split(",")}
            differ += [f"{mode} {key}: missing from this run" for key in sorted(missing)]
            if args.record:
                recorded[mode] = pairs
    if args.record:
        FIGURES.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        print(f"recorded {FIGURES.relative_to(ROOT)}")
    if differ and not args.record:
        print("\n".join(differ))
        sys.exit(1)
    if not args.record:
        print("every per-item verdict and result as recorded")


if __name__ == "__main__":
    main()
