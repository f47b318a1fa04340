"""Arabic readings per word form (lang/morph/word_table.py), measured leave-one-system-out: the table made from the
other systems' published outputs only, the measured system's output left out, then that system's cold run (a fresh
cache, the alignment model and English roles kept) against the same run of a base checkout, in interleaved pairs.

    .venv/bin/python -m bench.speed.ar_word_table --base-src /tmp/ar-base/src --base-models DIR --models DIR
        [--system google] [--pairs 3]

``--models``: a models folder (``DISCOTEST_MODELS``) of this checkout where a run of the language has trained the
alignment model; its table entry is replaced by the leave-one-out table. ``--base-models``: the same for the base
checkout. Prints the share of the system's word forms the table holds (types, and the words a reading asks for) and
the CPU seconds per stage (the tool's stage timers, ``DISCOTEST_TIMING``), median of the pairs; wall only for scale.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

from bench.runner import REPO, discotest


def leave_one_out_table(system: str, data_dir: str, models: str) -> tuple[set[str], set[str]]:
    """Store the table of the other systems' outputs under the key a run looks up; (table words, system's words)."""
    os.environ["DISCOTEST_MODELS"] = models
    from discotest import cache
    from discotest.gender.run import RunOptions, published_text
    from discotest.lang.morph.ar import ArabicAnalyser
    from discotest.lang.morph.word_table import NAMESPACE, table_key

    options = RunOptions(data_dir=data_dir)
    text = published_text("ar", options)
    others = [s for s in text.systems if s != system]
    analyser = ArabicAnalyser()
    words = analyser.word_forms([t for b in text.bitexts(options, others) for t in b.tgt_tokens])
    cache.store(NAMESPACE, table_key(ArabicAnalyser, text.table_identity()), analyser.export_readings(sorted(words)))
    own = analyser.word_forms([t for b in text.bitexts(options, [system]) for t in b.tgt_tokens])
    return words, own


def cold(src: str, models: str, system: str, data_dir: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="ar-table-") as tmp:
        timing = Path(tmp) / "timing.jsonl"
        run = discotest(["--data-dir", data_dir, "run", "winomt", "--lang", "ar", "--system", system],
                        Path(tmp) / "cache", DISCOTEST_MODELS=models, DISCOTEST_TIMING=str(timing),
                        PYTHONPATH=src)
        stages = json.loads(timing.read_text().splitlines()[-1])["cpu"]
    return {"wall": run.wall, "cpu": sum(stages.values()), **stages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base-src", required=True)
    parser.add_argument("--base-models", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--system", default="google")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--data-dir", default=str(REPO.parent / "shared" / "data"))
    args = parser.parse_args()
    words, own = leave_one_out_table(args.system, args.data_dir, args.models)
    print(f"table of the other systems: {len(words)} word forms; {len(own & words) / len(own):.1%} of "
          f"{args.system}'s {len(own)} word forms (with their clitic-stripped forms) in it")
    runs: dict[str, list[dict]] = {"base": [], "table": []}
    for _ in range(args.pairs):
        runs["base"].append(cold(args.base_src, args.base_models, args.system, args.data_dir))
        runs["table"].append(cold(str(REPO / "src"), args.models, args.system, args.data_dir))
    stages = sorted({k for rs in runs.values() for r in rs for k in r})
    print(f"{'CPU s (median of ' + str(args.pairs) + ')':28} {'base':>8} {'table':>8}")
    for stage in stages:
        print(f"{stage:28} " + " ".join(f"{statistics.median(r.get(stage, 0.0) for r in runs[k]):8.2f}"
                                        for k in ("base", "table")))


if __name__ == "__main__":
    main()
