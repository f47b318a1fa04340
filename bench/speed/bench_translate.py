"""Wall time of `discotest run SUITE --model`: a cold run (translate, align, score), a warm rerun (no translation).

    .venv/bin/python -m bench.speed.bench_translate --data-dir ../shared/data [--suite winomt] [--lang de] [--model DIR]

Without ``--model`` a tiny random Marian model is built (tests/support/tiny_marian.py); such a model rarely emits
``</s>``, so every sentence runs to ``--max-length`` and the cold time is an upper bound for that length. A fresh cache
directory is used. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--suite", default="winomt")
    parser.add_argument("--lang", default="de")
    parser.add_argument("--model", default=None)
    parser.add_argument("--max-length", type=int, default=64)
    parser.add_argument("--beam", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DISCOTEST_CACHE"] = str(Path(tmp) / "cache")
        import discotest.api as api
        from discotest.models.translator import ModelTranslator

        model = args.model
        if model is None:
            from tests.support.tiny_marian import build_tiny_marian

            model = str(build_tiny_marian(Path(tmp) / "tiny"))
        counted = {"n": 0}
        real = ModelTranslator.generate

        def counting(self, texts):
            counted["n"] += len(texts)
            return real(self, texts)

        ModelTranslator.generate = counting
        options = dict(beam=args.beam, max_length=args.max_length, quiet=False)
        for label in ("cold", "warm"):
            counted["n"] = 0
            start = time.perf_counter()
            (result,) = api.run(args.suite, lang=args.lang, model=model, data_dir=args.data_dir, **options)
            print(f"{label}: {time.perf_counter() - start:.1f} s, {counted['n']} sentences translated, "
                  f"n={result.scores.n}, accuracy={result.scores.accuracy:.1f}")
        print(result.signature.format())


if __name__ == "__main__":
    main()
