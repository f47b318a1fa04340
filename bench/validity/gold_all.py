"""Every hand-checked gold set the project holds, per language, in one run: no rule tuned to one set at another's cost.

    .venv/bin/python -m bench.validity.gold_all [--sets entity,pronoun,...] [--langs de,es] [--json PATH]
        [--before PATH]

Each set is measured by its own bench's functions (nothing is re-implemented here):

- ``entity``: the noun-level gender end to end (aligner + entity lexicon + analyser, the language's alignment model,
  ``bench.validity.locate_agreement``, row "suite · lexicon on") against ``tests/gold/gender/``;
- ``entity-words``: the same gold with its own target words given (``tests/lang/test_gender_gold.py``'s reading);
- ``pronoun``: the pronoun's gender or omission in a real run against ``tests/gold/pronoun/``
  (``bench.validity.pronoun_agreement``);
- ``reader``: the reader-level verdict of ``run winomt --system google --verdict reader`` against
  ``tests/gold/reader/`` (``bench.validity.reader_agreement``), and ``reader-noun``: the noun verdict on those rows;
- ``reader-words``: the reader verdict with the gold's words given (``tests/gender/test_reader_gold.py``'s reading);
- ``mittens``: the English readings of MiTTenS labelled ``agree`` that the rule still makes
  (``bench.validity.mittens``, ``tests/gold/mittens/readings.jsonl``);
- ``bsd``: the BSD zero-pronoun items labelled valid that are still in the suite as checked (``bench.validity.bsd_zp``;
  ``ja-en`` the first, in-sample round, ``ja-en fresh`` the rounds drawn after the rules, rows left out not counted,
  ``ja-en fresh, second reader`` the rounds only a later reader read, ``zp_second_reader.jsonl``: rounds 7 and 8);
- ``dip``: the DiP connective sample's "after" rows labelled ok that the detector still makes
  (``bench.validity.dip_connectives_sample``);
- ``mittens-out``: the hand-read out-of-English readings (``tests/gold/mittens/readings_out.jsonl``, every draw) the
  rule reads as the reader did; ``mittens-out-passages``: the same file's into-English passages read as translations
  (ids ``in:``, Arabic's draw 4), apart;
- ``winomt-adj``, ``mt-geneval``: the card rows' hand checks (``tests/gold/<suite>/validity.jsonl``): verdicts run
  again and compared with the reader's fixed reading, so a verdict that moves moves the figure;
- ``contrastive``, ``ctxpro``, ``jazp``: the items hand-checked valid that are still in the suite as read.

A figure is agreeing rows / rows (a stale row, whose reading or item changed since it was checked, counts as not
agreeing until it is checked again). ``--json PATH`` writes every figure; ``--before PATH`` (an earlier ``--json``)
prints before → after and flags (``LOWER``) every set and language more than 0.5 points lower: such a change says why
in its commit. The figures of the project's main branch before issue 51 are in ``bench/figures/gold_all_before.json``,
after it in ``bench/figures/gold_all.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))

LANGS = ("ar", "de", "es", "fr", "he", "it", "ru", "uk")
SETS = ("entity", "entity-words", "pronoun", "reader", "reader-noun", "reader-words", "mittens", "mittens-out",
        "mittens-out-passages", "bsd", "dip", "winomt-adj", "mt-geneval", "contrastive", "ctxpro", "jazp")
DROP = 0.5  # points: a set lower by more than this is flagged


def _entity(langs: list[str]) -> dict[str, tuple[int, int]]:
    from bench.validity.locate_agreement import gold_bitexts, measure
    from discotest.gender.winomt import load_winomt
    from discotest.lang.align import DEFAULT_ALIGNER, DEFAULT_SAMPLERS, DEFAULT_SEED, make_aligner
    from discotest.lang.morph import load_analyser

    items = load_winomt("2019")
    aligner = make_aligner(DEFAULT_ALIGNER, seed=DEFAULT_SEED, samplers=DEFAULT_SAMPLERS)
    out = {}
    for lang in langs:
        gold, bitexts, corpus = gold_bitexts(lang, items)
        m = measure(lang, gold, bitexts, corpus, aligner, "suite", "on", load_analyser(lang))
        out[lang] = (m.agree or 0, m.n)
    return out


def _entity_words(langs: list[str]) -> dict[str, tuple[int, int]]:
    from tests.support.gender_gold import gold_readings, load_gold

    from discotest.gender.pipeline import noun_gender
    from discotest.lang.morph import load_analyser

    out = {}
    for lang in langs:
        rows = load_gold(lang)
        readings = gold_readings(rows, load_analyser(lang))
        out[lang] = (sum(noun_gender(r) == row.gender for r, row in zip(readings, rows)), len(rows))
    return out


def _pronoun(langs: list[str]) -> dict[str, tuple[int, int]]:
    from bench.validity.pronoun_agreement import agreement

    return {lang: agreement(lang)[:2] for lang in langs}


def _reader(langs: list[str]) -> dict[str, dict[str, tuple[int, int]]]:
    """``reader`` and ``reader-noun`` from one run of google's outputs with the reader verdict."""
    import discotest
    from bench.validity.reader_agreement import agreement

    results = discotest.run("winomt", lang=",".join(langs), system="google", verdict="reader", quiet=True)
    rows = {(r.system, r.lang, v.index): v.to_json() for r in results for v in r.verdicts}
    found = agreement(rows)
    return {"reader": {lang: (found[lang][0], found[lang][2]) for lang in langs if lang in found},
            "reader-noun": {lang: (found[lang][1], found[lang][2]) for lang in langs if lang in found}}


def _reader_words(langs: list[str]) -> dict[str, tuple[int, int]]:
    from tests.support.reader_gold import load_reader_gold, tool_reading

    from discotest.lang.morph import load_analyser

    out = {}
    for lang in langs:
        rows = load_reader_gold(lang)
        got = tool_reading(rows, load_analyser(lang))
        out[lang] = (sum(c.gender == row.conveyed_gender for c, row in zip(got, rows)), len(rows))
    return out


def _mittens() -> dict[str, tuple[int, int]]:
    from bench.validity.mittens import hand_checked

    rows, stale = hand_checked()
    return {"en": (sum(r["label"] == "agree" and r["id"] not in stale for r in rows), len(rows))}


def _bsd() -> dict[str, tuple[int, int]]:
    from bench.validity.bsd_zp import SECOND_ONLY, hand_checked, load_items, read_second, stale_second

    items = load_items()
    rows, stale = hand_checked(items)
    second = read_second(rows)
    stale += stale_second(items, second)
    kept = [r for r in rows if not r.get("left_out")]  # a later rule left the item out of the suite
    rounds = {"ja-en": [r for r in kept if r.get("round", 1) == 1],  # the first sample (in sample)
              "ja-en fresh": [r for r in kept if r.get("round", 1) >= 2],  # later samples, drawn after rules
              "ja-en fresh, second reader": [r for r in second  # rounds only a later reader read (7 and 8);
                                             if r["round"] in SECOND_ONLY and not r.get("left_out")]}  # rows a
    # later rule left out are marked and not counted, an item gone unmarked or changed is stale: counted, not valid
    return {key: (sum(r["label"] == "valid" and r["id"] not in stale for r in group), len(group))
            for key, group in rounds.items() if group}


def _dip() -> dict[str, tuple[int, int]]:
    from bench.validity.dip_connectives_sample import GOLD, detections, not_reproduced, read_gold

    sample = read_gold(GOLD / "dip_connectives_wmt22.tsv")
    _, _, found = detections()
    stale = {(r["line"], r["token"]) for r in not_reproduced(sample, found)}
    after = [r for r in sample if r["set"] == "after"]
    return {"de-en": (sum(r["label"] == "ok" and (r["line"], r["token"]) not in stale for r in after), len(after))}


def _mittens_out(passages: bool = False) -> dict[str, tuple[int, int]]:
    """The hand-read out-of-English readings (every draw) that the rule reads as the reader did, per language: the
    references of the out-of-English rows, or (``passages``) the into-English rows' original passages read as if they
    were translations (Arabic's draw 4: long biographies no mittens-out row scores, kept apart so that a figure on
    the row's own text compares with its before)."""
    from bench.validity.mittens import out_of_english_readings

    rows, read = out_of_english_readings()
    rows = [r for r in rows if r["id"].startswith("in:") == passages]
    langs = sorted({r["lang"] for r in rows})
    return {lang: (sum(read[r["id"]] == r["person"] for r in rows if r["lang"] == lang),
                   sum(r["lang"] == lang for r in rows)) for lang in langs}


def _against_reading(rows: list[dict], now: dict[str, str], lang_of) -> dict[str, tuple[int, int]]:
    """Rows whose verdict now equals the reader's reading (the reading is fixed; a verdict may move), per language."""
    out: dict[str, tuple[int, int]] = {}
    for r in rows:
        agree, n = out.get(lang_of(r), (0, 0))
        out[lang_of(r)] = (agree + (now.get(r["id"]) == r["reading"]), n + 1)
    return dict(sorted(out.items()))


def _winomt_adj() -> dict[str, tuple[int, int]]:
    from bench.validity.hand_check import read_rows
    from bench.validity.winomt_adj_gold import GOLD, verdicts

    return _against_reading(read_rows(GOLD), verdicts(), lambda r: r["id"].split("/")[1])


def _mt_geneval() -> dict[str, tuple[int, int]]:
    from bench.validity.hand_check import read_rows
    from bench.validity.mt_geneval_gold import GOLD, verdicts

    rows = read_rows(GOLD)
    return _against_reading(rows, verdicts(sorted({r["id"].split("/")[0] for r in rows})),
                            lambda r: r["id"].split("/")[0])


def _items(gold: str, key: str) -> dict[str, tuple[int, int]]:
    """A suite's hand check of its items (valid or not), an item that changed since it was read counting as not."""
    from bench.validity.contrastive_gold import stale
    from bench.validity.hand_check import HOLDS, read_rows

    rows = read_rows(gold)
    old = set(stale(rows))
    return {key: (sum(r["label"] in HOLDS and r["id"] not in old for r in rows), len(rows))}


def measure_all(sets: list[str], langs: list[str]) -> dict[str, dict[str, dict]]:
    """{set: {language: {"agree", "n", "pct"}}} for the sets and languages asked (the English, ja-en and de-en sets
    have one "language" each)."""
    found: dict[str, dict[str, tuple[int, int]]] = {}
    for name in sets:
        if name in found:
            continue
        print(f"measuring {name} …", file=sys.stderr, flush=True)
        if name in ("reader", "reader-noun"):
            found.update(_reader(langs))
        elif name == "entity":
            found[name] = _entity(langs)
        elif name == "entity-words":
            found[name] = _entity_words(langs)
        elif name == "pronoun":
            found[name] = _pronoun(langs)
        elif name == "reader-words":
            found[name] = _reader_words(langs)
        else:
            found[name] = {
                "mittens": _mittens, "mittens-out": _mittens_out,
                "mittens-out-passages": lambda: _mittens_out(passages=True), "bsd": _bsd, "dip": _dip,
                "winomt-adj": _winomt_adj,
                "mt-geneval": _mt_geneval,
                "contrastive": lambda: _items("tests/gold/contrastive/validity.jsonl", "all"),
                "ctxpro": lambda: _items("tests/gold/ctxpro/validity.jsonl", "all"),
                "jazp": lambda: _items("tests/gold/jazp/validity.jsonl", "ja-en"),
            }[name]()
    out: dict[str, dict[str, dict]] = {}
    for name in sets:
        per = dict(found[name])
        if len(per) > 1:
            per["all"] = (sum(a for a, _ in per.values()), sum(n for _, n in per.values()))
        out[name] = {lang: {"agree": a, "n": n, "pct": round(100 * a / n, 1) if n else None}
                     for lang, (a, n) in per.items()}
    return out


def report(figures: dict[str, dict[str, dict]], before: dict | None) -> list[str]:
    """Print one table per set (before → after with ``before``); return the flagged "set lang" names."""
    flagged = []
    for name, per in figures.items():
        print(f"\n{name}")
        for lang, f in per.items():
            line = f"  {lang:<6} {f['agree']:>4}/{f['n']:<4} {f['pct']:5.1f}%"
            old = (before or {}).get(name, {}).get(lang)
            if old is not None:
                delta = f["pct"] - old["pct"]
                flag = "  LOWER" if delta < -DROP else ""
                line += f"   before {old['agree']:>4}/{old['n']:<4} {old['pct']:5.1f}% → {f['pct']:5.1f}% " \
                        f"({delta:+.1f}){flag}"
                if flag:
                    flagged.append(f"{name} {lang}")
            print(line)
    return flagged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--before", help="an earlier --json: print before → after, flag drops over 0.5 points")
    args = parser.parse_args()
    sets = args.sets.split(",")
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        print(f"unknown set {unknown[0]!r}; choose from {', '.join(SETS)}", file=sys.stderr)
        return 2
    before = json.loads(Path(args.before).read_text("utf-8")) if args.before else None
    figures = measure_all(sets, args.langs.split(","))
    flagged = report(figures, before)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", "utf-8")
    if flagged:
        print(f"\nlower by more than {DROP} points: {', '.join(flagged)} (say why in the commit)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
