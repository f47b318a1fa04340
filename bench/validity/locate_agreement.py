"""How well the aligner (trained on what, with and without the entity lexicon) finds the gold target entity.

    .venv/bin/python -m bench.validity.locate_agreement [--langs de,fr] [--analyse] [--aligner thot-eflomal]
        [--texts input,input+extra,suite,suite-loo]

For every row of the hand-checked gold samples (tests/gold/gender/<lang>.tsv) it compares the located
target words with the gold words: exact (same tokens), overlap (share a token), miss. With --analyse it
also runs the analyser on the located words and reports end-to-end gender agreement with the gold (a silent noun
completed by its pronoun's aligned words, as the pipeline does: ``gender.pipeline.complete_silent``).

What the aligner is trained on (``--texts``): ``input`` = the gold row's system's own output (``--align-train input``,
the default before 2026-11), ``input+extra`` = that plus every published output, ``suite`` = the language's alignment
model (``--align-train suite``, the default: trained once on every published output, each sentence decoded),
``suite-loo`` = the same model trained without the gold row's own system (the leave-one-out question of issue 23: is a
published system that is in the model's training text advantaged over a new file?).
"""

from __future__ import annotations

import argparse
import os
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from tests.support.gender_gold import ADJ, GOLD_DIR, gold_entity, load_gold

from discotest import cache
from discotest.gender.pipeline import Bitext, _pronoun_words, align_in_corpus, complete_silent, noun_gender
from discotest.gender.published import available_published, published_translations
from discotest.gender.winomt import load_winomt
from discotest.gender.winomt_adj import load_winomt_adj
from discotest.lang.align import (
    DEFAULT_ALIGNER,
    DEFAULT_SAMPLERS,
    DEFAULT_SEED,
    MODEL_REL_FERTILITY,
    MODEL_REL_ITERATIONS,
    make_aligner,
)
from discotest.lang.align.model import AlignmentModel
from discotest.lang.locate import locate_entity, source_entity_tokens
from discotest.lang.morph import load_analyser
from discotest.lang.morph.base import TargetEntity

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))


TEXTS = ("input", "input+extra", "suite", "suite-loo")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--langs", default=",".join(sorted(p.stem for p in GOLD_DIR.glob("*.tsv"))))
    parser.add_argument("--analyse", action="store_true")
    parser.add_argument("--aligner", default=DEFAULT_ALIGNER, help="an aligner name (discotest.lang.align.ALIGNERS)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the Thot aligners' seed")
    parser.add_argument("--samplers", type=int, default=DEFAULT_SAMPLERS, help="eflomal samplers")
    parser.add_argument("--texts", default=",".join(TEXTS), help=f"aligner training texts to compare ({TEXTS})")
    args = parser.parse_args()
    items = load_winomt("2019")
    aligner = make_aligner(args.aligner, seed=args.seed, samplers=args.samplers)
    print(f"aligner {aligner.signature()}")
    for lang in args.langs.split(","):
        gold, bitexts, corpus = gold_bitexts(lang, items)
        analyser = load_analyser(lang) if args.analyse else None
        print(f"\n{lang}: {len(gold)} gold rows from {', '.join(sorted(bitexts))}")
        settings = [(text, lexicon) for text in args.texts.split(",") for lexicon in ("off", "on")]
        for text, lexicon in settings:
            label = f"{text} · lexicon {lexicon}" + (" (default)" if (text, lexicon) == ("suite", "on") else "")
            m = measure(lang, gold, bitexts, corpus, aligner, text, lexicon, analyser)
            n = len(gold)
            line = "  ".join(f"{k} {100 * m.counts[k] / n:5.1f}%" for k in ("exact", "overlap", "miss"))
            extra = f"  end-to-end gender agreement {100 * m.agree / n:5.1f}%" if m.agree is not None else ""
            print(f"  {label:<36} {line}{extra}   [{', '.join(f'{k}:{v}' for k, v in sorted(m.how.items()))}]")


def gold_bitexts(lang: str, items: list) -> tuple[list, dict[str, Bitext], list]:
    """The language's gold rows, the bitext of each system they come from, and every published output's pairs (the
    aligner's training text)."""
    gold = load_gold(lang)
    systems = sorted({r.system for r in gold})
    bitexts = {s: _bitext(s, lang, items) for s in systems}
    corpus = [
        (bitexts[s] if s in bitexts else Bitext(items, published_translations(s, lang, items).by_row, lang)).pairs
        for s in available_published(lang)
    ]
    return gold, bitexts, corpus


@dataclass(frozen=True)
class Measured:
    """One setting's figures on a language's gold: located words exact/overlap/miss, how they were located, and
    (with an analyser) how many rows' noun-level gender agrees with the gold (None without)."""

    counts: Counter
    how: Counter
    agree: int | None
    n: int


def measure(lang: str, gold: list, bitexts: dict[str, Bitext], corpus: list, aligner, text: str, lexicon: str,
            analyser=None) -> Measured:
    """The gold rows located with the aligner trained on ``text`` and the entity lexicon ``lexicon``; with
    ``analyser`` also read, end to end, as the pipeline reads them (``noun_gender`` of the completed reading)."""
    counts: Counter[str] = Counter()
    how: Counter[str] = Counter()
    located, located_items, pronoun_links = [], [], []
    links_by_system = _links(text, aligner, lang, bitexts, corpus, available_published(lang))
    position = defaultdict(dict)
    for s, b in bitexts.items():
        for k, item in enumerate(b.items):
            position[s][item.index] = k
    for row in gold:
        b = bitexts[row.system]
        k = position[row.system][row.index]
        item, src, tgt = b.items[k], b.src_tokens[k], b.tgt_tokens[k]
        src_entity = source_entity_tokens(item.sentence, src, item.entity_word_span)
        span, by = locate_entity(src_entity, len(src), links_by_system[row.system][k], tgt, item.entity, lang, lexicon)
        how[by] += 1
        want = set(gold_entity(row).entity)
        got = set(span)
        counts["exact" if got == want else "overlap" if got & want else "miss"] += 1
        located.append(TargetEntity(b.translations[k], tgt, tuple(span)))
        located_items.append(item)
        pronoun_links.append((links_by_system[row.system][k], by))
    agree = None
    if analyser:
        readings = complete_silent(  # as the pipeline does: a silent noun completed by its pronoun
            located_items, located, analyser.read(located), analyser,
            lambda j, m, pl=pronoun_links, lo=located: _pronoun_words(pl[j][0], m.word, lo[j].entity, pl[j][1]),
        )
        agree = sum(noun_gender(r) == g.gender for r, g in zip(readings, gold))
    return Measured(counts, how, agree, len(gold))


_links_memo: dict[tuple[str, str], dict] = {}


def _bitext(system: str, lang: str, items: list) -> Bitext:
    """A gold system's bitext: a WinoMT output, or (``adj-google``) a winomt-adj output over its own items."""
    if system.startswith(ADJ):
        adj_items = load_winomt_adj()
        return Bitext(adj_items, published_translations(system[len(ADJ):], lang, adj_items, suite="winomt-adj").by_row,
                      lang)
    return Bitext(items, published_translations(system, lang, items).by_row, lang)


def _links(text: str, aligner, lang: str, bitexts: dict, corpus: list, systems: list[str]) -> dict:
    """The links of every gold system's bitext with the aligner trained on ``text`` (memoised per language)."""
    if (text, lang) in _links_memo:
        return _links_memo[(text, lang)]
    if text in ("input", "input+extra"):
        extra = corpus if text == "input+extra" else []
        out = {s: align_in_corpus(aligner, b.pairs, extra) for s, b in bitexts.items()}
    else:
        aligner = make_aligner(aligner.name, seed=aligner.seed, samplers=aligner.samplers,
                               rel_iterations=MODEL_REL_ITERATIONS,
                               rel_fertility=MODEL_REL_FERTILITY)  # the pipeline's model settings
        out = {}
        for s, b in bitexts.items():
            kept = [k for k, name in enumerate(systems) if text == "suite" or name != s]
            model = AlignmentModel(aligner, f"bench-{lang}:{'+'.join(systems[k] for k in kept)}",
                                   cache.content_key(["bench-2019", lang, *map(str, kept)]),
                                   lambda kept=kept: [pair for k in kept for pair in corpus[k]], code=cache.code_key())
            out[s] = model.align(b.pairs, b.watched if model.reads_watch else None)  # as the pipeline does
    _links_memo[(text, lang)] = out
    return out


if __name__ == "__main__":
    main()
