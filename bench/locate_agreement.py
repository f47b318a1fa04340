"""How well the aligner (with and without extra text and the entity lexicon) finds the gold target entity.

    .venv/bin/python bench/locate_agreement.py [--langs de,fr] [--analyse] [--aligner thot-eflomal]

For every row of the hand-checked gold samples (tests/gold/gender/<lang>.tsv) it compares the located
target words with the gold words: exact (same tokens), overlap (share a token), miss. With --analyse it
also runs the analyser on the located words and reports end-to-end gender agreement with the gold.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))

from tests.gender_gold import GOLD_DIR, gold_entity, load_gold  # noqa: E402

from discotest.lang.align import DEFAULT_ALIGNER, DEFAULT_SAMPLERS, DEFAULT_SEED, make_aligner  # noqa: E402
from discotest.lang.locate import locate_entity, source_entity_tokens  # noqa: E402
from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import TargetEntity  # noqa: E402
from discotest.pipelines.gender import Bitext, align_in_corpus  # noqa: E402
from discotest.suites.winomt import load_winomt  # noqa: E402
from discotest.systems.published import available_published, published_translations  # noqa: E402

SETTINGS = {
    "align only": dict(extra=False, lexicon="off"),
    "align + extra text": dict(extra=True, lexicon="off"),
    "align + lexicon (default)": dict(extra=False, lexicon="on"),
    "align + extra + lexicon": dict(extra=True, lexicon="on"),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--langs", default=",".join(sorted(p.stem for p in GOLD_DIR.glob("*.tsv"))))
    parser.add_argument("--analyse", action="store_true")
    parser.add_argument("--aligner", default=DEFAULT_ALIGNER, help="an aligner name (discotest.lang.align.ALIGNERS)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the Thot aligners' seed")
    parser.add_argument("--samplers", type=int, default=DEFAULT_SAMPLERS, help="eflomal samplers")
    args = parser.parse_args()
    items = load_winomt("2019")
    aligner = make_aligner(args.aligner, seed=args.seed, samplers=args.samplers)
    print(f"aligner {aligner.signature()}")
    for lang in args.langs.split(","):
        gold = load_gold(lang)
        systems = sorted({r.system for r in gold})
        bitexts = {s: Bitext(items, published_translations(s, lang, items).by_row, lang) for s in systems}
        corpus = [
            (bitexts[s] if s in bitexts else Bitext(items, published_translations(s, lang, items).by_row, lang)).pairs
            for s in available_published(lang)
        ]
        analyser = load_analyser(lang) if args.analyse else None
        print(f"\n{lang}: {len(gold)} gold rows from {', '.join(systems)}")
        for label, setting in SETTINGS.items():
            counts: Counter[str] = Counter()
            how: Counter[str] = Counter()
            located = []
            links_by_system = {
                s: align_in_corpus(aligner, b.pairs, corpus if setting["extra"] else []) for s, b in bitexts.items()
            }
            position = defaultdict(dict)
            for s, b in bitexts.items():
                for k, item in enumerate(b.items):
                    position[s][item.index] = k
            for row in gold:
                b = bitexts[row.system]
                k = position[row.system][row.index]
                item, src, tgt = b.items[k], b.src_tokens[k], b.tgt_tokens[k]
                src_entity = source_entity_tokens(item.sentence, src, item.entity_word_span)
                span, by = locate_entity(
                    src_entity, len(src), links_by_system[row.system][k], tgt, item.entity, lang, setting["lexicon"]
                )
                how[by] += 1
                want = set(gold_entity(row).entity)
                got = set(span)
                counts["exact" if got == want else "overlap" if got & want else "miss"] += 1
                located.append(TargetEntity(b.translations[k], tgt, tuple(span)))
            n = len(gold)
            line = "  ".join(f"{k} {100 * counts[k] / n:5.1f}%" for k in ("exact", "overlap", "miss"))
            extra = ""
            if analyser:
                readings = analyser.read(located)
                agree = sum(r.gender.value == g.gender for r, g in zip(readings, gold))
                extra = f"  end-to-end gender agreement {100 * agree / n:5.1f}%"
            print(f"  {label:<36} {line}{extra}   [{', '.join(f'{k}:{v}' for k, v in sorted(how.items()))}]")


if __name__ == "__main__":
    main()
