"""Wall time and peak memory of the WinoMT gender evaluation.

    .venv/bin/python -m bench.speed.bench_winomt --data-dir ../shared/data [--lang de] [--system google] [--skip-all]

Prints: analyser load time; one language (3888 items, translation file to scores) with a cold and a
warm alignment cache; the all-pairs run (every published system × language, fresh cache, then warm);
peak resident memory of this process and of its worker processes. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
from pathlib import Path

import discotest.api as api
from bench.runner import timed
from discotest import cache
from discotest.lang.morph import load_analyser


def peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=str(Path(__file__).resolve().parents[3] / "shared" / "data"))
    parser.add_argument("--lang", default="de")
    parser.add_argument("--system", default="google")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-all", action="store_true")
    args = parser.parse_args()
    os.environ[cache.ENV_VAR] = tempfile.mkdtemp(prefix="discotest-bench-")
    opts = {"data_dir": args.data_dir}
    print(f"cores: {os.cpu_count()}  lang: {args.lang}  system: {args.system}")
    timed(f"load analyser ({args.lang})", lambda: load_analyser(args.lang))
    r = timed("one language, cold alignment cache",
              lambda: api.run("winomt", lang=args.lang, system=args.system, **opts))[0]
    timed("one language, warm cache", lambda: api.run("winomt", lang=args.lang, system=args.system, **opts))
    timed("one language, aligner also trained on all published outputs, cold",
          lambda: api.run("winomt", lang=args.lang, system=args.system, align_extra="published", use_cache=False,
                          **opts))
    print(f"  -> accuracy {r.scores.accuracy:.1f} on {r.scores.n} items")
    if not args.skip_all:
        os.environ[cache.ENV_VAR] = tempfile.mkdtemp(prefix="discotest-bench-")
        results = timed(f"all pairs, fresh cache, {args.jobs} workers (loads analysers)",
                        lambda: api.run("winomt", lang="all", system="all", jobs=args.jobs, **opts))
        timed(f"all pairs, warm cache, {args.jobs} workers (loads analysers)",
              lambda: api.run("winomt", lang="all", system="all", jobs=args.jobs, **opts))
        print(f"  -> {len(results)} system×language pairs")
    main_mb, worker_mb = peak_mb(resource.RUSAGE_SELF), peak_mb(resource.RUSAGE_CHILDREN)
    print(f"peak RSS: main {main_mb:.0f} MB, largest worker {worker_mb:.0f} MB")


if __name__ == "__main__":
    main()
