"""Byte-identical output on whole runs: each main command twice, in fresh processes with fresh caches and
different hash seeds, then once more warm; prints the sha256 of each output, the wall times, and whether they match.

    .venv/bin/python -m bench.release.determinism [--data-dir ../shared/data] [--only winomt,mzprt,dip,contrastive]

The tests (tests/house/test_determinism.py) run the same check on one language, one domain and a few documents; this is
the full-size version: every published WinoMT pair, every mZPRT domain and system, a DiP ranking of every WMT22
de-en system, and a contrastive run with a tiny model the script builds. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

from bench.runner import discotest

ROOT = Path(__file__).resolve().parents[2]


def commands(data_dir: str, tiny: Path | None) -> dict[str, list[str]]:
    runs = {
        "winomt": ["--data-dir", data_dir, "run", "winomt", "--lang", "all", "--system", "all", "--format", "json"],
        "mzprt": ["--data-dir", data_dir, "run", "mzprt", "--domain", "all", "--system", "all", "--format", "json"],
        "dip": ["--data-dir", data_dir, "rank", "dip", "--data", "wmt22", "--pair", "de-en", "--format", "json"],
    }
    if tiny is not None:
        runs["contrastive"] = ["--data-dir", data_dir, "run", "voita-deixis", "--model", str(tiny), "--context", "1",
                               "--format", "json"]
    return runs


def run_once(args: list[str], cache: Path, hash_seed: str) -> tuple[str, float]:
    run = discotest(args, cache, check=False, PYTHONHASHSEED=hash_seed)
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.decode().strip()[-200:]}", run.wall
    return hashlib.sha256(run.stdout).hexdigest()[:16], run.wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--only", default="winomt,mzprt,dip,contrastive")
    args = parser.parse_args()
    wanted = args.only.split(",")
    with tempfile.TemporaryDirectory(prefix="discotest-determinism-") as tmp:
        tiny = None
        if "contrastive" in wanted:
            from tests.support.tiny_marian import build_tiny_marian

            tiny = build_tiny_marian(Path(tmp) / "tiny")
        for name, argv in commands(args.data_dir, tiny).items():
            if name not in wanted:
                continue
            cold_a = run_once(argv, Path(tmp) / f"{name}-a", "1")
            cold_b = run_once(argv, Path(tmp) / f"{name}-b", "2")
            warm_a = run_once(argv, Path(tmp) / f"{name}-a", "3")
            same = cold_a[0] == cold_b[0] == warm_a[0]
            print(f"{name:<12} cold {cold_a[0]} {cold_a[1]:6.1f} s | cold {cold_b[0]} {cold_b[1]:6.1f} s | "
                  f"warm {warm_a[0]} {warm_a[1]:6.1f} s | {'identical' if same else 'DIFFERENT'}", flush=True)


if __name__ == "__main__":
    main()
