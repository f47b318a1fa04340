"""Speed of the word aligners on one WinoMT bitext, and whether each gives the same links twice.

    .venv/bin/python -m bench.speed.bench_aligners [--lang de] [--system google] [--aligners thot-eflomal,eflomal]

For every aligner: wall time of two trainings on the same pairs (both directions + grow-diag-final-and, no
cache) and how many of the pairs got different links the second time. The accuracy of each aligner against the
hand-checked gold is measured by bench/validity/locate_agreement.py, bench/validity/pronoun_agreement.py and
bench/validity/mzprt_gold_spans.py. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from discotest.gender.pipeline import Bitext
from discotest.gender.published import published_translations
from discotest.gender.winomt import load_winomt
from discotest.lang.align import ALIGNERS, make_aligner

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="de")
    parser.add_argument("--system", default="google")
    parser.add_argument("--aligners", default=",".join(ALIGNERS))
    parser.add_argument("--samplers", default="1,2", help="sampler counts to try for the eflomal models")
    args = parser.parse_args()
    items = load_winomt("2019")
    pairs = Bitext(items, published_translations(args.system, args.lang, items).by_row, args.lang).pairs
    print(f"WinoMT {args.system}/{args.lang}: {len(pairs)} pairs, {os.cpu_count()} cores")
    for name in args.aligners.split(","):
        for samplers in ([int(s) for s in args.samplers.split(",")] if "eflomal" in name else [1]):
            try:
                aligner = make_aligner(name, samplers=samplers)
            except Exception as exc:  # noqa: BLE001 - an aligner whose extra is not installed is reported, not fatal
                print(f"{name:<18} not available ({exc})")
                continue
            times, runs = [], []
            for _ in range(2):
                start = time.perf_counter()
                runs.append(aligner.align(pairs))
                times.append(time.perf_counter() - start)
            differ = sum(a != b for a, b in zip(*runs))
            print(f"{aligner.signature():<44} {times[0]:6.2f} s {times[1]:6.2f} s   pairs with other links "
                  f"on the second run: {differ}")


if __name__ == "__main__":
    main()
