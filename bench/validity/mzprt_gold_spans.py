"""How well AZPT finds a ZP's translation, measured on the references against the authors' own marks.

    .venv/bin/python -m bench.validity.mzprt_gold_spans [--data-dir ../shared/data] [--extra wmt|none] [--window 1]
                                               [--aligner NAME] [--no-cache]

The mZPRT release marks, in a tokenised copy of each reference (``labled-target/*.zp_target.en``), the
English word that renders each ZP. Two measurements:

- the reference scored as a system: a verdict is a true positive when the word AZPT matched is one of
  those marks (each mark used once per sentence), a false positive when it matched an unmarked word;
  recall's denominator is the number of ZPs a mark of an expected word can pair with;
- the reference with the marked words deleted (a system that dropped exactly the ZPs, which is what
  most wrong MT outputs do): every ZP that had a mark should now be wrong, so the share judged
  correct is the false-positive rate of the span rule.

The references are aligned with the usual background corpus; each domain's reduced reference with the
background plus itself, as an input file would be. This is the check we used to choose the
aligner settings, the extra alignment text and the span rule for unaligned ZPs. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import difflib
import re
import time
from collections import Counter

from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.zero_pronoun.corpus import azpt_aligner, build_corpus
from discotest.zero_pronoun.hypotheses import REFERENCE, Hypotheses, english_words, reference_hypotheses
from discotest.zero_pronoun.judge import DEFAULT_REACH, score_azpt
from discotest.zero_pronoun.mzprt import DOMAINS
from discotest.zero_pronoun.run import evaluate

_MARK = re.compile(r"^<(.*)>$")


def marked_positions(marked_line: str, words: list[str]) -> dict[int, str]:
    """Positions in ``words`` (our tokens of the raw reference) that the authors marked, with the word."""
    tokens = marked_line.replace("@@ ", "").split()
    plain, marked = [], set()
    for k, token in enumerate(tokens):
        match = _MARK.match(token)
        if match and match.group(1):
            marked.add(k)
            token = match.group(1)
        plain.extend([(k, w) for w in english_words(token)])
    matcher = difflib.SequenceMatcher(None, [w.lower() for _, w in plain], [w.lower() for w in words], autojunk=False)
    out = {}
    for block in matcher.get_matching_blocks():
        for i in range(block.size):
            k, _ = plain[block.a + i]
            if k in marked:
                out[block.b + i] = words[block.b + i].lower()
    return out


def precision_recall(verdicts, marks_file: list[str]) -> Counter:
    counts: Counter = Counter()
    by_segment: dict[int, list] = {}
    for v in verdicts:
        if v.correct is not None:
            by_segment.setdefault(v.segment, []).append(v)
    for segment, verdicts in by_segment.items():
        gold = marked_positions(marks_file[segment], verdicts[0].hypothesis)
        # recall denominator: ZPs that a distinct mark of an expected word can pair with (greedy)
        free = dict(gold)
        for v in verdicts:
            hit = next((p for p, w in free.items() if w in v.expected), None)
            if hit is not None:
                counts["pairable"] += 1
                del free[hit]
        used: set[int] = set()
        for v in verdicts:
            counts["zps"] += 1
            if not v.correct:
                continue
            position = v.matched_at
            if position in gold and position not in used:
                counts["tp"] += 1
                used.add(position)
            else:
                counts["fp_ref"] += 1
            counts[f"found_by:{v.found_by}/{v.matched_by}:{'tp' if position in used else 'fp'}"] += 1
    return counts


def false_positives(verdicts, pairable: set[tuple[int, int]]) -> Counter:
    """On the reference without its marked ZP words: ZPs that had a mark and are still judged correct."""
    counts: Counter = Counter()
    for v in verdicts:
        if v.correct is not None and (v.segment, v.ordinal) in pairable:
            counts["dropped"] += 1
            counts["fp"] += bool(v.correct)
            counts[f"fp:{v.found_by}/{v.matched_by}"] += bool(v.correct)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--extra", default="wmt")
    parser.add_argument("--window", type=int, default=1)
    parser.add_argument("--reach", type=int, default=DEFAULT_REACH)
    parser.add_argument("--aligner", default="default", help="an aligner name (default: the one AZPT uses)")
    parser.add_argument("--no-cache", action="store_true")
    args = parser.parse_args()
    root = args.data_dir
    aligner = azpt_aligner(args.aligner)
    start = time.perf_counter()
    corpus = build_corpus(aligner, root, args.extra, use_cache=not args.no_cache)
    marks = {d: read_lines(catalogue.locate(f"mzprt-{d}-zp-target", root)) for d in DOMAINS}
    dropped = []
    for d in DOMAINS:
        by_segment = {}
        for seg in corpus.suites[d].segments:
            words = english_words(seg.reference)
            gone = marked_positions(marks[d][seg.index], words) if seg.zps else {}
            by_segment[seg.index] = " ".join(w for k, w in enumerate(words) if k not in gone)
        dropped.append(Hypotheses(d, "reference-minus-marks", "input", "", "all-segments", by_segment))
    corpus = build_corpus(aligner, root, args.extra, inputs=dropped, use_cache=not args.no_cache)
    elapsed = time.perf_counter() - start
    print(f"extra={args.extra} window={args.window} reach={args.reach} aligner={aligner.signature()} "
          f"corpus={corpus.description(('input', '0'))} ({elapsed:.1f} s)")
    print(f"{'domain':<7}{'ref AZPT':>9}{'P':>7}{'R':>7}{'F1':>7}{'zps':>6}{'FP% dropped':>13}")
    total: Counter = Counter()
    for k, d in enumerate(DOMAINS):
        ref = reference_hypotheses(corpus.suites[d], zp_only=False)
        ref_verdicts = _verdicts(corpus, d, ref, (d, REFERENCE), args.window, args.reach)
        counts = precision_recall(ref_verdicts, marks[d])
        pairable = _pairable(ref_verdicts, marks[d])
        dropped_verdicts = _verdicts(corpus, d, dropped[k], ("input", str(k)), args.window, args.reach)
        counts.update(false_positives(dropped_verdicts, pairable))
        total.update(counts)
        print(_row(d, score_azpt(ref_verdicts).accuracy, counts))
    print(_row("all", None, total))
    print("  reference:", ", ".join(f"{k[9:]}={n}" for k, n in sorted(total.items()) if k.startswith("found_by")))
    print("  dropped, judged correct by:", ", ".join(f"{k[3:]}={n}" for k, n in sorted(total.items())
                                                    if k.startswith("fp:")))


def _verdicts(corpus, domain, hyps, key, window, reach):
    segments, pairs = hyps.pairs(corpus.sources[domain].words)
    by_segment = corpus.links_of(key)
    return evaluate(corpus.suites[domain], corpus.sources[domain], hyps, segments, pairs,
                    [by_segment[i] for i in segments], window, reach)


def _pairable(verdicts, marks_file: list[str]) -> set[tuple[int, int]]:
    out = set()
    by_segment: dict[int, list] = {}
    for v in verdicts:
        if v.correct is not None:
            by_segment.setdefault(v.segment, []).append(v)
    for segment, vs in by_segment.items():
        free = dict(marked_positions(marks_file[segment], vs[0].hypothesis))
        for v in vs:
            hit = next((p for p, w in free.items() if w in v.expected), None)
            if hit is not None:
                out.add((v.segment, v.ordinal))
                del free[hit]
    return out


def _row(name: str, azpt: float | None, c: Counter) -> str:
    p = c["tp"] / (c["tp"] + c["fp_ref"]) if c["tp"] + c["fp_ref"] else 0.0
    r = c["tp"] / c["pairable"] if c["pairable"] else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    fp = 100 * c["fp"] / c["dropped"] if c["dropped"] else 0.0
    shown = f"{azpt:9.1f}" if azpt is not None else f"{'':9}"
    return f"{name:<7}{shown}{100 * p:7.1f}{100 * r:7.1f}{100 * f:7.1f}{c['zps']:6d}{fp:13.1f}"


if __name__ == "__main__":
    main()
