"""The Russian analyser's shortcut (``RussianAnalyser._context_free``: a masculine lexicon noun with no word that could
agree with it in the feminine is read without natasha) against natasha's full reading of every item, on every
published WinoMT Russian output: the verdicts must be the same.

    .venv/bin/python -m bench.validity.ru_context_free [--json PATH]

Per verdict mode (the noun verdict; the reader verdict with consistency, which also reads each distractor; mt_gender's
grammatical convention) every published system is evaluated twice, each time with a fresh cache (the alignment models
kept: ``$DISCOTEST_MODELS``, default the user cache) and a fresh analyser: as shipped, and with the shortcut off (every
item tagged and parsed by natasha where its reading asks for it). Reported per mode and system: items, the sentences
natasha tagged and parsed each way, and the items whose verdicts differ (the noun verdict, the reader verdict, the
consistency) and whose details differ (reason and evidence: a masculine verdict read without natasha lists no
masculine agreeing word). Exit 1 when a verdict differs. The figures of 2026-11-29 (all four outputs, every mode: no
verdict differs) are in ``bench/figures/ru_context_free.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))

MODES = {
    "noun": {},
    "reader": {"measure": ("accuracy", "consistency"), "verdict": "reader"},
    "grammatical": {"verdict": "grammatical"},
}


def evaluate(mode: str, shortcut: bool, counts: dict[str, int]) -> dict:
    """The results of every published Russian system in ``mode``, in a fresh cache, with the shortcut or without."""
    from discotest.gender.run import RunOptions, _evaluate_language, planned_pairs
    from discotest.lang.morph import load_analyser
    from discotest.lang.morph.ru import RussianAnalyser

    load_analyser.cache_clear()  # a fresh analyser: nothing tagged or parsed before
    original = RussianAnalyser._context_free
    if not shortcut:
        RussianAnalyser._context_free = lambda self, item, key: None  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory(prefix="ru-context-free-") as cache:
            os.environ["DISCOTEST_CACHE"] = cache
            systems = planned_pairs("winomt", ["ru"], "all")["ru"]
            before = dict(counts)
            results = {r.system: r for r in _evaluate_language("ru", systems, RunOptions(**MODES[mode]))}
            return {"results": results, "tagged": counts["tag"] - before["tag"],
                    "parsed": counts["parse"] - before["parse"]}
    finally:
        RussianAnalyser._context_free = original  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    os.environ.setdefault("DISCOTEST_MODELS", str(_user_cache()))
    from discotest.lang.morph import ru_natasha

    counts = {"tag": 0, "parse": 0}
    tag_ids, arcs = ru_natasha.Natasha.tag_ids, ru_natasha.Natasha.arcs

    def counted_tags(self, sentences):  # type: ignore[no-untyped-def]
        counts["tag"] += len(sentences)
        return tag_ids(self, sentences)

    def counted_arcs(self, sentences):  # type: ignore[no-untyped-def]
        counts["parse"] += len(sentences)
        return arcs(self, sentences)

    ru_natasha.Natasha.tag_ids, ru_natasha.Natasha.arcs = counted_tags, counted_arcs  # type: ignore[method-assign]
    figures: dict = {}
    differ = 0
    for mode in MODES:
        full, short = evaluate(mode, False, counts), evaluate(mode, True, counts)
        row: dict = {"tagged": [full["tagged"], short["tagged"]], "parsed": [full["parsed"], short["parsed"]],
                     "systems": {}}
        for system, a in full["results"].items():
            b = short["results"][system]
            pairs = list(zip(a.verdicts, b.verdicts))
            assert all(x.index == y.index for x, y in pairs)
            got = {"items": len(pairs),
                   "noun": sum(x.predicted_gender != y.predicted_gender for x, y in pairs),
                   "reader": sum(x.conveyed_gender != y.conveyed_gender for x, y in pairs),
                   "consistency": sum(x.consistent != y.consistent for x, y in pairs),
                   "details": sum((x.reason, x.evidence, x.conveyed_evidence) != (y.reason, y.evidence,
                                                                                 y.conveyed_evidence)
                                  for x, y in pairs),
                   "scores_same": (a.scores, a.consistency) == (b.scores, b.consistency)}
            differ += got["noun"] + got["reader"] + got["consistency"] + (not got["scores_same"])
            row["systems"][system] = got
        figures[mode] = row
        print(f"{mode}: natasha tagged {row['tagged'][0]} -> {row['tagged'][1]} sentences, parsed "
              f"{row['parsed'][0]} -> {row['parsed'][1]} (full reading -> shortcut, all systems)")
        for system, got in row["systems"].items():
            print(f"  {system:8} {got['items']:5} items  verdicts differ: noun {got['noun']}, reader {got['reader']}, "
                  f"consistency {got['consistency']}; scores {'same' if got['scores_same'] else 'DIFFERENT'}; "
                  f"details differ {got['details']}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    print("every verdict the same" if not differ else f"{differ} verdicts or scores differ")
    return 1 if differ else 0


def _user_cache() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("discotest"))


if __name__ == "__main__":
    sys.exit(main())
