"""The DiP coherence models measured out of sample: trained on WMT21, every figure on WMT22 into-English.

Usage: .venv/bin/python -m bench.validity.dip_coherence [--data-dir DIR] [--max-docs N] [--no-cache] [--top N]
                                               [--shuffles K] [--margin Z] [--order-cv]
Prints, for the default model (egrid: WMT21 references vs system outputs, plus shuffled references) and the order
model (WMT21 references vs their shuffles only):
  1. the DiP task: share of (document, system) pairs where score(ref) > score(sys), ties apart (paper: 77.35%);
  2. shuffled documents (Barzilay & Lapata 2008): each reference document of >= 3 lines vs K shuffles (seed 0);
  3. MT vs MT: system pairs of one document whose mean WMT22 DA z-scores differ by >= Z: share where the model
     prefers the system people preferred; system-level Kendall tau_b of mean model score vs mean DA;
  4. per feature group: accuracy of the model restricted to the group and the group's share of score differences.
``--order-cv`` first picks the order model's features by cross-pair validation on WMT21 (ru-en <-> ja-en shuffles).
Training takes ~2 min cold (parses cached); the WMT22 features ~1-5 min (parses cached).
"""

from __future__ import annotations

import argparse
import time

from discotest.data.catalogue import data_dir as resolve_data_dir
from discotest.dip import coherence as coh
from discotest.dip import coherence_eval as ev


def _tally(t: ev.Tally) -> str:
    return f"{t.accuracy:6.1%}  ties {t.ties:5d}  n {t.pairs}"


def order_cv(root, max_docs) -> None:
    """Order-model feature sets, trained on one WMT21 pair's shuffles and tested on the other's (never WMT22)."""
    data = {pair: coh.pair_features(coh._load_pair(root, coh.TRAIN, pair, max_docs), shuffles=coh.ORDER_SHUFFLES)
            for pair in coh.PAIRS[coh.TRAIN]}
    transitions = [f for f in coh.ORDER_SENSITIVE if f.startswith(("sal:", "oth:"))]
    sets = {"order summary (shipped)": coh.ORDER_FEATURES, "+ 80 transitions": coh.ORDER_FEATURES + transitions,
            "transitions only (B&L grid)": transitions}
    print("order model features, cross-pair on WMT21 shuffles (train → test: accuracy)")
    for name, features in sets.items():
        cells = []
        for train, test in (("ru-en", "ja-en"), ("ja-en", "ru-en")):
            model = coh.fit([data[train]], features=features, system_pairs=False)
            cells.append(f"{train}→{test} {ev.tally(model, ev.shuffle_pairs(data[test])).accuracy:6.1%}")
        print(f"  {name:30s} " + "  ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--max-docs", type=int)
    parser.add_argument("--no-cache", action="store_true", help="retrain (parses still come from the parse cache)")
    parser.add_argument("--top", type=int, default=12, help="print the N largest coefficients")
    parser.add_argument("--shuffles", type=int, default=ev.SHUFFLES, help="shuffles per reference document")
    parser.add_argument("--margin", type=float, default=ev.MARGIN, help="DA z difference for MT-vs-MT pairs")
    parser.add_argument("--order-cv", action="store_true", help="cross-pair check of the order model's features")
    args = parser.parse_args()
    root = resolve_data_dir(args.data_dir)
    if args.order_cv:
        order_cv(root, args.max_docs)
    models = {}
    for kind in coh.MODELS:
        start = time.perf_counter()
        models[kind] = (coh.train_model(root, max_docs=args.max_docs, kind=kind) if args.no_cache
                        else coh.load_coherence_model(root, max_docs=args.max_docs, kind=kind))
        model = models[kind]
        ranked = sorted(zip(model.feature_names, model.coef), key=lambda x: -abs(x[1]))[:args.top]
        print(f"{kind}: {model.signature()}  loaded/trained in {time.perf_counter() - start:.1f} s  "
              f"train accuracy {model.info.get('train_accuracy')}  pairs {model.info.get('train_pairs')} + "
              f"{model.info.get('shuffle_pairs')} shuffled")
        print("  largest coefficients: " + ", ".join(f"{n} {c:+.2f}" for n, c in ranked))

    start = time.perf_counter()
    lm = models["egrid"].language_model()
    features, documents, da = {}, {}, {}
    for pair in coh.PAIRS[coh.TEST]:
        data = coh._load_pair(root, coh.TEST, pair, args.max_docs)
        features[pair] = coh.pair_features(data, shuffles=args.shuffles, seed=0, lm=lm)
        documents[pair] = data.documents
        da[pair] = ev.read_da_scores(ev.da_path(pair, root), ev.sid_lines(data.doc_ids))
    print(f"WMT22 features: {time.perf_counter() - start:.1f} s")
    tasks = {
        "DiP task: reference > system output": {p: ev.reference_pairs(pf) for p, pf in features.items()},
        f"shuffled documents: reference > shuffle ({args.shuffles} per document of >= 3 lines, seed 0)":
            {p: ev.shuffle_pairs(pf) for p, pf in features.items()},
        f"MT vs MT: DA-preferred > other (document mean z differs by >= {args.margin})":
            {p: ev.human_pairs(pf, documents[p], da[p], args.margin) for p, pf in features.items()},
    }
    for title, pairs in tasks.items():
        print(title)
        for kind, model in models.items():
            cells = {p: ev.tally(model, ps) for p, ps in pairs.items()}
            total = sum(cells.values(), ev.Tally(0, 0, 0))
            print(f"  {kind:6s} all {_tally(total)}   " + "  ".join(f"{p} {t.accuracy:.1%}" for p, t in cells.items()))
    print("MT vs MT by margin (all pairs pooled): accuracy / n")
    for margin in (0.0, 0.25, 0.5, 1.0):
        pooled = [x for p, pf in features.items() for x in ev.human_pairs(pf, documents[p], da[p], margin)]
        print(f"  >= {margin:4.2f}  " + "  ".join(f"{kind} {ev.tally(m, pooled).accuracy:.1%}"
                                                  for kind, m in models.items()) + f"  n {len(pooled)}")
    print("system-level Kendall tau_b, mean model score vs mean DA z (documents of >= 2 lines)")
    for kind, model in models.items():
        cells = [ev.system_tau(model, pf, documents[p], da[p]) for p, pf in features.items()]
        print(f"  {kind:6s} " + "  ".join(f"{p} {t:+.2f} ({n} systems)" if t is not None else f"{p} -"
                                          for p, (t, n) in zip(features, cells)))
    print("feature groups: accuracy restricted to the group / share of score differences (Σ Δg·Δ / Σ Δ²)")
    for kind, model in models.items():
        for title, pairs in tasks.items():
            pooled = [x for ps in pairs.values() for x in ps]
            parts = ev.decompose(model, pooled)
            print(f"  {kind:6s} {title.split(':')[0]:18s} " + "  ".join(
                f"{g} {v['accuracy']:.1%}/{v['share']:+.2f}" for g, v in parts.items()))


if __name__ == "__main__":
    main()
