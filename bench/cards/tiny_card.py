"""A tiny model's discourse card over en-de + ja-en + zh-en, timed row by row: what the lead quotes for issue 37.

    .venv/bin/python -m bench.cards.tiny_card [--family llama3_1] [--pairs en-de,ja-en,zh-en] [--limit 12]
                                              [--suites jazp,bsd-zp-ja-en-test] [--cache DIR]

Builds the tiny random model of ``--family`` with its real tokenizer (tests/support/tiny_llm.py; qwen3, llama3_1 or
gemma3), then fills its card as ``discotest card --model PATH --pairs … --limit N`` does (``discotest.cards``: the
same rows, options and cache), in this process with a fresh cache (``--cache``: a folder of your own, e.g. to time a
warm rerun), and prints per row its status, its first number (n, value ± 95% half-width), the wall seconds the row
took, and for a row the model cannot fill, why. ``--limit`` samples every row whose family takes it (all of them since
the card-limit change; docs/card.md lists the strata); the translation rows still dominate: a random model rarely stops
before its 256 new tokens. The table below was measured before the gender, MT-GenEval and MiTTenS rows took --limit.
No timed assertion anywhere: numbers to quote, measured on this machine.

Measured (2 CPU cores shared, load average 9-11; llama3_1, --limit 12; every row of the three pairs but the en-de
gender and MT-GenEval rows, ``--suites mittens,jazp,bsd-zp-ja-en-test,mzprt,dip,ctxpro-auxiliary-en-de-test,
ctxpro-formality-en-de-dev,mittens-out``; 399 s in all; n and value are each row's first line):

| row | status | n | value | seconds |
|---|---|---|---|---|
| en-de/ctxpro-auxiliary-en-de-test, ctxpro-formality-en-de-dev | unfilled: takes translations (`--outputs`) | | | 0.0 |
| en-de/mittens-out | ok | 118 | 0.0 ± 0.0 | 295.9 (205.5 in another run) |
| ja-en/jazp | ok | 12 | 41.7 ± 25.0 | 1.2 |
| ja-en/bsd-zp-ja-en-test | ok | 12 | 75.0 ± 25.0 | 1.4 |
| ja-en/mittens | ok | 82 | 0.0 ± 0.0 | 27.9 |
| ja-en/dip, zh-en/dip | unfilled: a WMT22 system by its name | | | 0.0 |
| zh-en/mzprt | unfilled: takes translations (`--outputs`) | | | 0.0 |
| zh-en/mittens | ok | 82 | 0.0 ± 0.0 | 72.3 |

Not run: en-de/winomt (3,888 sentences), winomt-adj (1,584), bug (1,628) and the two MT-GenEval rows, which run whole;
at the 0.4-0.6 sentences a second the tiny model translated here (256 new tokens each), WinoMT alone takes about
2 hours on this machine.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="llama3_1", choices=("qwen3", "llama3_1", "gemma3"))
    parser.add_argument("--pairs", default="en-de,ja-en,zh-en")
    parser.add_argument("--suites", default=None, help="only these rows (suites or row ids), comma-separated")
    parser.add_argument("--limit", type=int, default=12)
    parser.add_argument("--cache", default=None, help="the cache folder (default: a fresh temporary one)")
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", str(REPO.parent / "shared" / "data")))
    args = parser.parse_args()

    scratch = tempfile.TemporaryDirectory(prefix="discotest-bench-card-")
    os.environ["DISCOTEST_CACHE"] = args.cache or str(Path(scratch.name) / "cache")
    os.environ.setdefault("DISCOTEST_DATA", args.data_dir)

    from tests.support.tiny_llm import build_tiny_llm

    from discotest.cards import build_card, card_settings, common_options, resolve

    model = build_tiny_llm(args.family, Path(args.data_dir) / "llm_tokenizers", Path(scratch.name) / args.family)
    settings = card_settings({"model": str(model), "pairs": args.pairs, "suites": args.suites, "limit": args.limit,
                              "quiet": True, "data_dir": args.data_dir})
    system, pairs, rows = resolve(settings)
    print(f"tiny {args.family} card, pairs {','.join(pairs)}, --limit {args.limit} "
          f"(cache {os.environ['DISCOTEST_CACHE']})")
    print(f"{'row':<36} {'status':<9} {'n':>5} {'value':>14} {'seconds':>8}  reason", flush=True)
    started = last = time.perf_counter()

    def on_row(row: dict) -> None:  # printed as each row finishes: a long card shows where it is
        nonlocal last
        now = time.perf_counter()
        line = row["lines"][0] if row["lines"] else None
        value = f"{line['value']:.1f} ± {line['ci95']:.1f}" if line else "–"
        n = str(line["n"]) if line else "–"
        print(f"{row['pair'] + '/' + row['id']:<36} {row['status']:<9} {n:>5} {value:>14} {now - last:8.1f}  "
              f"{row['reason'] or ''}", flush=True)
        last = now

    build_card(system, rows, pairs, common_options(settings), settings.bootstrap, settings.seed, on_row=on_row)
    print(f"{time.perf_counter() - started:.1f} s in all")
    scratch.cleanup()


if __name__ == "__main__":
    main()
