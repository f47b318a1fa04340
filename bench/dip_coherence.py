"""Train the DiP coherence model on WMT21 (ref vs system outputs) and measure pairwise ranking accuracy on WMT22.

Usage: .venv/bin/python bench/dip_coherence.py [--data-dir DIR] [--max-docs N] [--no-cache] [--top N]
Prints training time (cold = without the model cache; parses stay cached), per-pair accuracy on WMT22 into-English
(share of (document, system) pairs where score(ref) > score(sys), ties apart) and the largest coefficients.
The paper's retrained model reached 77% (Jwalapuram et al. 2020).
"""

from __future__ import annotations

import argparse
import time

from discotest.dip.coherence import evaluate, load_coherence_model, train_model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--max-docs", type=int)
    parser.add_argument("--no-cache", action="store_true", help="retrain (parses still come from the parse cache)")
    parser.add_argument("--top", type=int, default=12, help="print the N largest coefficients")
    parser.add_argument("-C", type=float, default=1.0, help="inverse regularisation strength (with --no-cache)")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.no_cache:
        model = train_model(args.data_dir, max_docs=args.max_docs, c=args.C)
    else:
        model = load_coherence_model(args.data_dir, max_docs=args.max_docs)
    print(f"model {model.signature()}  loaded/trained in {time.perf_counter() - start:.1f} s  info {model.info}")
    start = time.perf_counter()
    result = evaluate(model, args.data_dir, max_docs=args.max_docs)
    print(f"WMT22 evaluation ({time.perf_counter() - start:.1f} s)")
    for pair, row in result.items():
        print(f"  {pair:6s} accuracy {row['accuracy']:6.1%}  ties {row['ties']:4d}  pairs {row['pairs']}")
    ranked = sorted(zip(model.feature_names, model.coef), key=lambda x: -abs(x[1]))[:args.top]
    print("largest coefficients: " + ", ".join(f"{n} {c:+.2f}" for n, c in ranked))


if __name__ == "__main__":
    main()
