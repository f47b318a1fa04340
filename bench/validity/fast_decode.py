"""The alignment model decoded in this process (``--align-decode fast``, lang/align/fast_decode.py) against Thot's
decode, on every published WinoMT pair: what the verdicts read and what they say.

    .venv/bin/python -m bench.validity.fast_decode [--decoder checked] [--langs de,ru] [--json PATH] [--list N] [--cpu]
                                                   [--why]

Per language, every published system is run twice with the reader-level verdict and consistency measured (so the
entity's words, the pronoun's words and the reader's words are all read): once with Thot's decode, once with the fast
one (``--decoder``: ``fast``, or ``checked``, which sends the sentences it is unsure of to Thot); nothing else differs
(same model, same analyser, verdict caches keyed apart by the signature). Reported:

- ``words``: items whose words the verdict reads differ (the entity's target words, the pronoun's, the distractor's);
- ``noun``: items whose noun verdict (the gender read, hence correct or not) changes; ``reader``: the reader-level
  gender; ``consistency``: the pronoun–entity agreement;
- the accuracy of every system, Thot → fast;
- ``checked``: the share of the language's sentences sent to Thot (``routed``);
- the reader and consistency verdicts that change while the noun verdict stays (``other_changes`` in ``--json``).

``--why``: per language, the share of every published output's sentences the checked decode sends to Thot, and the
watched words in doubt by the test that fires (``fast_decode.Tables.examine``'s bits), pronouns apart from the other
words; nothing is run through the verdicts.

``--cpu``: per language, the alignment CPU (this process and its children) of decoding google's output, uncached, with
Thot's decode and with ``--decoder``'s (tables loaded first; median of 3).

The figures of 2026-11-29 (all 33 pairs, every changed noun verdict; the decode with its fertility factor) are in
``bench/figures/fast_decode.json`` (the fast decode) and ``bench/figures/checked_decode.json`` (the checked one, with
the unaligned-pronoun rule, ``gender.run.UNALIGNED_PRONOUNS``, and the attached-pronoun rule,
``gender.run.ATTACHED_PRONOUNS``); ``--why``'s in ``bench/figures/checked_why.json``.
``--list N`` prints up to N changed noun verdicts (system, item, source, translation, both readings) to read by hand.
Link-level agreement with Thot (per target word, each direction) is in ``lang.align.fast_decode``'s docstring.
``--gold SETS`` instead runs ``bench/validity/gold_all.py --sets SETS`` with ``--decoder`` as every alignment model's
default (``lang.align.model.DEFAULT_DECODER``), for the gold figures after (``--json``/``--before`` as gold_all's).
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


def _words(v) -> tuple:
    return (tuple(v.target_entity or ()), tuple(v.target_pronoun or ()), tuple(v.target_distractor or ()),
            tuple(v.conveyed_evidence or ()))


def compare(lang: str, decoder: str = "fast") -> dict:
    """Thot's decode and ``decoder``'s of every published system of ``lang``: counts of what differs, and the changed
    noun verdicts."""
    from discotest.gender.run import RunOptions, _evaluate_language, language_aligner, planned_pairs
    from discotest.lang.align import model

    systems = planned_pairs("winomt", [lang], "all")[lang]
    runs = {}
    for name in ("thot", decoder):
        options = RunOptions(measure=("accuracy", "consistency"), verdict="reader", align_decode=name)
        runs[name] = {r.system: r for r in _evaluate_language(lang, systems, options)}
    out: dict = {"systems": {}, "changed": [], "other_changes": []}
    if decoder == "checked":  # counted only where the verdicts were not cached
        key = language_aligner(lang, RunOptions(align_decode=decoder)).key
        out["routed"] = model.checked_counts.get(key)
    for system in systems:
        thot, fast = runs["thot"][system], runs[decoder][system]
        counts = {"items": 0, "words": 0, "noun": 0, "reader": 0, "consistency": 0}
        for a, b in zip(thot.verdicts, fast.verdicts):
            assert a.index == b.index
            counts["items"] += 1
            counts["words"] += _words(a) != _words(b)
            counts["reader"] += a.conveyed_gender != b.conveyed_gender
            counts["consistency"] += a.consistent != b.consistent
            if a.predicted_gender == b.predicted_gender and (a.conveyed_gender != b.conveyed_gender
                                                              or a.consistent != b.consistent):
                out["other_changes"].append({
                    "system": system, "index": a.index, "source": a.source, "translation": a.translation,
                    "thot": [a.target_entity, a.target_pronoun, a.conveyed_gender, a.consistent],
                    "fast": [b.target_entity, b.target_pronoun, b.conveyed_gender, b.consistent]})
            if a.predicted_gender != b.predicted_gender:
                counts["noun"] += 1
                out["changed"].append({
                    "system": system, "index": a.index, "source": a.source, "translation": a.translation,
                    "entity": a.entity, "gold": a.gold_gender,
                    "thot": [a.target_entity, a.predicted_gender, a.correct],
                    "fast": [b.target_entity, b.predicted_gender, b.correct]})
        counts["accuracy"] = [thot.scores.accuracy, fast.scores.accuracy]
        out["systems"][system] = counts
    return out


def cpu(lang: str, decoder: str) -> dict[str, float]:
    """Median of 3 CPU seconds (this process and its children) of aligning google's ``lang`` output uncached, with
    Thot's decode and with ``decoder``'s (the model and its tables ready beforehand)."""
    import resource
    import statistics

    from discotest.gender.pipeline import Bitext
    from discotest.gender.run import RunOptions, language_aligner
    from discotest.gender.training_text import published_rows
    from discotest.lang.align import align_cached

    options = RunOptions()
    items, translations = published_rows("google", lang, options)
    bitext = Bitext(items, translations, lang)
    pairs, watch = bitext.pairs, bitext.watched
    out = {}
    for name in ("thot", decoder):
        aligner = language_aligner(lang, RunOptions(align_decode=name))
        aligner.folder()
        if name != "thot":
            aligner.tables()
        seconds = []
        for _ in range(3):
            before = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
            align_cached(aligner, pairs, use_cache=False, watch=watch)
            after = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
            seconds.append(sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before)))
        out[name] = statistics.median(seconds)
    return out


PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers", "himself", "herself"})


def why(lang: str) -> dict:
    """Per published system of ``lang``, the sentences the checked decode sends to Thot, and over all of them the
    watched words in doubt by the doubt bits that fire (``fast_decode.Tables.examine``), the pronouns apart from the
    other words (entity, distractor)."""
    from collections import Counter

    from discotest.gender.pipeline import Bitext
    from discotest.gender.run import RunOptions, language_aligner, planned_pairs
    from discotest.gender.training_text import published_rows
    from discotest.lang.align import fast_decode

    aligner = language_aligner(lang, RunOptions(align_decode="checked"))
    names = {fast_decode.DISAGREE: "disagree", fast_decode.UNALIGNED: "unaligned",
             fast_decode.REVERSE_CLOSE: "reverse-close", fast_decode.FORWARD_CLOSE: "forward-close",
             fast_decode.EMPTY: "empty"}
    out: dict = {"pairs": 0, "sent": 0, "systems": {}, "bits": Counter(), "alone": Counter()}
    for system in planned_pairs("winomt", [lang], "all")[lang]:
        items, translations = published_rows(system, lang, RunOptions())
        bitext = Bitext(items, translations, lang)
        pairs = bitext.pairs
        _, unsure, doubts = aligner.tables().examine(pairs, bitext.watched, aligner.dropped, aligner.attached)
        out["systems"][system] = [len(unsure), len(pairs)]
        out["pairs"] += len(pairs)
        out["sent"] += len(unsure)
        for n in unsure:
            for s in doubts[n].nonzero()[0]:
                kind = "pronoun" if pairs[n][0][s].lower() in PRONOUNS else "other"
                fired = [name for bit, name in names.items() if doubts[n][s] & bit]
                out["alone"][f"{kind}: {'+'.join(fired)}"] += 1
                for name in fired:
                    out["bits"][f"{kind}: {name}"] += 1
    out["bits"], out["alone"] = dict(out["bits"].most_common()), dict(out["alone"].most_common())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--decoder", default="checked", choices=("fast", "checked"), help="compared with Thot's")
    parser.add_argument("--cpu", action="store_true", help="the alignment CPU of each decode instead")
    parser.add_argument("--why", action="store_true", help="the checked decode's share sent to Thot and why, instead")
    parser.add_argument("--json", help="write every figure and changed verdict here")
    parser.add_argument("--list", type=int, default=0, help="print up to N changed noun verdicts")
    parser.add_argument("--gold", help="gold_all.py's sets measured with the fast decode as the default")
    parser.add_argument("--before", help="--gold: gold_all.py's --before")
    args = parser.parse_args(argv)
    if args.gold:
        from bench.validity import gold_all
        from discotest.lang.align import model

        model.DEFAULT_DECODER = args.decoder
        sys.argv = ["gold_all", "--sets", args.gold, "--langs", args.langs,
                    *(["--json", args.json] if args.json else []), *(["--before", args.before] if args.before else [])]
        return gold_all.main()
    langs = [x for x in args.langs.split(",") if x]
    if args.why:
        reasons = {lang: why(lang) for lang in langs}
        for lang, r in reasons.items():
            print(f"{lang}: {r['sent']} of {r['pairs']} sentences ({r['sent'] / r['pairs']:.1%}) sent to Thot; watched "
                  f"words in doubt by rule: " + ", ".join(f"{k} {v}" for k, v in r["bits"].items()))
            print("    the rules that fire together: " + ", ".join(f"{k} {v}" for k, v in list(r["alone"].items())[:8]))
        if args.json:
            Path(args.json).write_text(json.dumps(reasons, ensure_ascii=False, indent=1))
        return 0
    if args.cpu:
        for lang in langs:
            print(f"{lang}: alignment CPU, google, uncached: " + ", ".join(
                f"{name} {seconds:.2f} s" for name, seconds in cpu(lang, args.decoder).items()))
        return 0
    results = {}
    totals = {"pairs": 0, "items": 0, "words": 0, "noun": 0, "reader": 0, "consistency": 0, "right": 0, "wrong": 0}
    print("lang system    items  words  noun  reader  cons.  accuracy thot → fast")
    for lang in langs:
        results[lang] = compare(lang, args.decoder)
        for system, c in results[lang]["systems"].items():
            totals["pairs"] += 1
            for k in ("items", "words", "noun", "reader", "consistency"):
                totals[k] += c[k]
            print(f"{lang:4} {system:9} {c['items']:5} {c['words']:6} {c['noun']:5} {c['reader']:7} "
                  f"{c['consistency']:6}  {c['accuracy'][0]:.1f} → {c['accuracy'][1]:.1f}")
        if results[lang].get("routed"):
            done, routed = results[lang]["routed"]
            print(f"{lang}: {routed} of {done} sentences ({routed / done:.1%}) sent to Thot's decode")
        for row in results[lang]["changed"]:
            totals["right"] += row["fast"][2] and not row["thot"][2]
            totals["wrong"] += row["thot"][2] and not row["fast"][2]
    print(f"all  {totals['pairs']} pairs {totals['items']} items: words differ {totals['words']}, noun verdicts "
          f"{totals['noun']} (now correct {totals['right']}, now wrong {totals['wrong']}), reader "
          f"{totals['reader']}, consistency {totals['consistency']}")
    shown = 0
    for lang in langs:
        for row in results[lang]["changed"]:
            if shown >= args.list:
                break
            shown += 1
            print(f"- {lang} {row['system']} #{row['index']} ({row['entity']}, gold {row['gold']}): {row['source']}\n"
                  f"  {row['translation']}\n  thot {row['thot']}  fast {row['fast']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"totals": totals, "langs": results}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
