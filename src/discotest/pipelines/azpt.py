"""AZPT on mZPRT: read the suite and the hypotheses, segment, align, score; compare two systems.

The aligner trains on a fixed background corpus — every domain's ZP-labelled source with its reference,
the two validation sets, every published output present in the data directory, and (``extra="wmt"``) the
WMT21/22 zh–en test sources with their references. One alignment of the background serves every published
system and the references, whichever domains or systems are asked for. Each input file is aligned with the
background plus itself alone, so its score never depends on which other files share the command
(``run`` and ``compare`` give the same AZPT for the same file).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import version as package_version
from pathlib import Path

import numpy as np

from discotest import cache as content_cache
from discotest.data import registry
from discotest.data.readers import read_lines
from discotest.errors import InputError
from discotest.lang import segment_zh
from discotest.lang.align import DEFAULT_ALIGNER, align_cached, make_aligner
from discotest.lang.align.base import Links, Pair, WordAligner
from discotest.lang.pronouns import load_zh_en
from discotest.lang.tokenize import normalise_moses
from discotest.options import check_int
from discotest.phenomena.zero_pronoun import DEFAULT_REACH, ZPVerdict, judge_segment, score_azpt
from discotest.report.azpt_result import AZPTResult, ComparisonResult, MetricComparison
from discotest.report.result import Signature
from discotest.stats import DEFAULT_SEED, accuracy_from_sums, paired_bootstrap, sign_test
from discotest.suites.mzprt import DOMAINS, VALID_FILES, MZPRTSuite, check_domain, load_mzprt
from discotest.systems.files import detect_format, read_translations
from discotest.systems.mzprt_outputs import PublishedOutput, ReleasedVerdict, published_systems, read_published

EXTRA_TEXT = {
    "none": (),
    "wmt": (("wmt21-zh-en-src", "wmt21-zh-en-ref-A"), ("wmt22-zh-en-src", "wmt22-zh-en-ref-A"),
            ("wmt22-zh-en-src", "wmt22-zh-en-ref-B")),
}
# a clitic stays one word, attached ("I'm") or Moses-spaced ("i 'm"); a quote before a word does not
_EN_WORD = re.compile(r"(?<=\w)'(?:s|m|d|t|re|ve|ll)(?!\w)|(?<!\S)'(?:s|m|d|t|re|ve|ll)(?!\w)|\w+(?:-\w+)*|[^\w\s]",
                      re.IGNORECASE)
_MOSES_CLITIC = re.compile(r" ('(?:s|m|d|t|re|ve|ll))(?!\w)", re.IGNORECASE)


def english_words(text: str) -> list[str]:
    """English words for alignment and matching: clitics split off (``I'm`` -> ``I`` ``'m``) so a
    pronoun is always a word of its own, in plain and in Moses-tokenised text alike."""
    return _EN_WORD.findall(normalise_moses(text).replace("’", "'"))


def azpt_aligner(name: str = "default") -> WordAligner:
    """The aligner AZPT uses: ``default`` is the package default (seeded Thot eflomal, two samplers, which found more
    of the marked ZP translations in the references than one: bench/mzprt_gold_spans.py); any other name as
    ``make_aligner`` gives it."""
    return make_aligner(DEFAULT_ALIGNER if name == "default" else name)


# ---------------------------------------------------------------- hypotheses


@dataclass
class _Sources:
    """Segmented ZP-labelled source of a domain: words per segment and each ZP's word position."""

    words: list[list[str]]
    zp_word: dict[tuple[int, int], int]


REFERENCE = "reference"  # the test set's own English reference, scored like a system (a sanity figure)


@dataclass
class Hypotheses:
    """One system's hypotheses on one domain, keyed by segment index."""

    domain: str
    system: str
    kind: str  # "published" / "input" / "reference"
    path: str
    layout: str
    by_segment: dict[int, str]
    published: PublishedOutput | None = None
    _pairs: tuple[list[int], list[Pair]] | None = field(default=None, repr=False)

    def pairs(self, sources: _Sources) -> tuple[list[int], list[Pair]]:
        """(segment indices, (labelled source words, hypothesis words) per segment), computed once."""
        if self._pairs is None:
            segments = sorted(self.by_segment)
            self._pairs = segments, [
                (tuple(sources.words[i]), tuple(english_words(self.by_segment[i]))) for i in segments
            ]
        return self._pairs


def read_input(path: str | Path, suite: MZPRTSuite, input_format: str = "auto") -> Hypotheses:
    """A hypothesis file: plain text, one line per test sentence, in one of two layouts:

    - one line per segment, **without** the ``[doc]`` lines (1171 lines for QA) — the usual case;
    - one line per line of the raw test file, ``[doc]`` lines included (1353 for QA); the lines at
      ``[doc]`` positions are ignored, whatever they hold.

    Empty lines are allowed (an empty translation translates no ZP). Any other line count is an
    InputError naming the file and the first line that does not fit.

    Or, for part of a test set, ``Chinese source ||| hypothesis`` lines (or JSONL with ``source``), matched to
    the segments by ``systems.files.read_translations``; a sentence the test set repeats (in other documents,
    with other zero pronouns) must then be given once per occurrence, in test-set order.
    """
    path = Path(path)
    lines = read_lines(path)
    sources = {seg.index: seg.source for seg in suite.segments}
    if input_format != "plain":
        known = {" ".join(s.split()) for s in sources.values()}
        fmt = input_format if input_format != "auto" else detect_format(path, lines, known)
        if fmt != "plain":
            found = read_translations(path, sources, fmt, context_dependent=True)
            return Hypotheses(suite.domain, path.name, "input", str(path), "by-source", found.by_row)
    n_seg, n_raw = len(suite.segments), suite.n_lines
    if len(lines) == n_seg:
        by_segment, layout = dict(enumerate(lines)), "all-segments"
    elif len(lines) == n_raw:
        raw_numbers = {seg.line: seg.index for seg in suite.segments}
        by_segment = {raw_numbers[k]: line for k, line in enumerate(lines, start=1) if k in raw_numbers}
        layout = "raw-lines"
    else:
        raise InputError(
            f"expected {n_seg} lines (one per {suite.domain} test sentence, no [doc] lines) or {n_raw} "
            f"(with the [doc] lines), found {len(lines)}",
            path,
            min(len(lines), n_seg) + 1,
        )
    return Hypotheses(suite.domain, path.name, "input", str(path), layout, by_segment)


def published_hypotheses(domain: str, system: str, suite: MZPRTSuite, root: str | None) -> Hypotheses:
    output = read_published(domain, system, suite, root)
    return Hypotheses(domain, system, "published", output.path, output.layout, output.hypotheses, output)


# ---------------------------------------------------------------- alignment corpus


def reference_hypotheses(suite: MZPRTSuite, zp_only: bool = True) -> Hypotheses:
    """The reference as a system: every segment for the alignment corpus, the ZP sentences to score."""
    by_segment = {seg.index: seg.reference for seg in suite.segments if seg.zps or not zp_only}
    return Hypotheses(suite.domain, REFERENCE, "reference", suite.en_path, "zp-segments", by_segment)


def _segment_suite(suite: MZPRTSuite, use_cache: bool) -> _Sources:
    rows = segment_zh.segment_cached(
        [s.labelled for s in suite.segments], [[(zp.start, zp.end) for zp in s.zps] for s in suite.segments], use_cache
    )
    zp_word = {
        (zp.segment, zp.ordinal): at
        for seg, (_, positions) in zip(suite.segments, rows)
        for zp, at in zip(seg.zps, positions)
    }
    return _Sources([words for words, _ in rows], zp_word)


def _extra_pairs(extra: str, root: str | None, use_cache: bool) -> tuple[list[Pair], list[str]]:
    if extra not in EXTRA_TEXT:
        raise InputError(f"unknown extra alignment text {extra!r}; choose from {', '.join(EXTRA_TEXT)}")
    pairs: list[Pair] = []
    used = []
    for src_name, ref_name in EXTRA_TEXT[extra]:
        src_path, ref_path = registry.locate(src_name, root), registry.locate(ref_name, root)
        src, ref = read_lines(src_path), read_lines(ref_path)
        if len(src) != len(ref):
            raise InputError(f"{len(ref)} lines, but {src_path.name} has {len(src)}", ref_path)
        rows = segment_zh.segment_cached(src, None, use_cache)
        pairs.extend((tuple(words), tuple(english_words(r))) for (words, _), r in zip(rows, ref))
        used.append(ref_name)
    return pairs, used


def _present_published(root: str | None) -> list[tuple[str, str]]:
    present = []
    for domain in DOMAINS:
        for system in published_systems(domain):
            try:
                registry.locate(f"mzprt-{domain}-{system}-tagged", root)
            except registry.MissingDataError:  # absent; a modified file is an error, not skipped
                continue
            present.append((domain, system))
    return present


def _has_source(domain: str, root: str | None) -> bool:
    try:
        registry.locate(f"mzprt-{domain}-zh", root)
        registry.locate(f"mzprt-{domain}-en", root)
    except registry.MissingDataError:
        return False
    return True


@dataclass
class Corpus:
    """The background corpus of one run (suites, segmented sources, blocks) and the links of each evaluated block.

    Links are computed on first use: the background in one alignment run, each input in a run of its own over the
    background plus that input (``links_of``)."""

    suites: dict[str, MZPRTSuite]
    sources: dict[str, _Sources]
    blocks: dict[tuple[str, str], int]  # (domain, system) -> background block number
    pairs: list[list[Pair]]
    segments: list[list[int]]  # the segment of each pair of each block (empty for the extra text)
    inputs: list[tuple[list[int], list[Pair]]]  # (segments, pairs) of input k
    aligner: WordAligner
    text: str  # what the background is, for the signature
    use_cache: bool = True
    _background: list[list[Links]] | None = field(default=None, repr=False)

    def _split(self, flat: list[Links]) -> list[list[Links]]:
        out, at = [], 0
        for block in self.pairs:
            out.append(flat[at : at + len(block)])
            at += len(block)
        return out

    def links_of(self, key: tuple[str, str]) -> dict[int, Links]:
        """Segment -> links for one background block or one input (``("input", k)``)."""
        background = [pair for block in self.pairs for pair in block]
        if key[0] == "input":
            segments, pairs = self.inputs[int(key[1])]
            flat = align_cached(self.aligner, background + pairs, self.use_cache)
            return dict(zip(segments, flat[len(background) :]))
        if self._background is None:
            self._background = self._split(align_cached(self.aligner, background, self.use_cache))
        block = self.blocks[key]
        return dict(zip(self.segments[block], self._background[block]))

    def description(self, key: tuple[str, str]) -> str:
        """What the aligner trained on for ``key``: the background, plus the input itself for an input."""
        size = sum(len(block) for block in self.pairs)
        if key[0] == "input":
            return f"{self.text}+input:{size + len(self.inputs[int(key[1])][1])}"
        return f"{self.text}:{size}"


def build_corpus(
    aligner: WordAligner,
    root: str | None = None,
    extra: str = "wmt",
    domains: Sequence[str] = (),
    published: Sequence[Hypotheses] = (),
    inputs: Sequence[Hypotheses] = (),
    use_cache: bool = True,
) -> Corpus:
    """The fixed background (every domain's labelled source with its reference — these blocks are also the
    ``reference`` system — the validation sets, the published outputs present, the extra text) and the
    ``inputs``. ``domains`` adds suites that must be loaded (a validation set asked for); ``published`` passes
    outputs already read, so they are not read twice. Nothing is aligned until ``Corpus.links_of``."""
    names = [d for d in (*DOMAINS, *VALID_FILES) if d in DOMAINS or d in domains or _has_source(d, root)]
    suites = {d: load_mzprt(d, root) for d in names}
    sources = {d: _segment_suite(s, use_cache) for d, s in suites.items()}
    block_pairs: list[list[Pair]] = []
    block_segments: list[list[int]] = []
    blocks: dict[tuple[str, str], int] = {}

    def add(key: tuple[str, str], hyps: Hypotheses) -> None:
        segments, pairs = hyps.pairs(sources[hyps.domain])
        blocks[key] = len(block_pairs)
        block_pairs.append(pairs)
        block_segments.append(segments)

    for d, suite in suites.items():
        add((d, REFERENCE), reference_hypotheses(suite, zp_only=False))
    extra_pairs, extra_used = _extra_pairs(extra, root, use_cache)
    block_pairs.append(extra_pairs)
    block_segments.append([])
    given = {(h.domain, h.system): h for h in published}
    present = _present_published(root)
    for d, system in present:
        add((d, system), given.get((d, system)) or published_hypotheses(d, system, suites[d], root))
    typed_inputs = [hyps.pairs(sources[hyps.domain]) for hyps in inputs]
    text = "+".join(["mzprt-refs", *(["published"] if present else []), *extra_used])
    return Corpus(suites, sources, blocks, block_pairs, block_segments, typed_inputs, aligner, text, use_cache)


# ---------------------------------------------------------------- scoring


def evaluate(
    suite: MZPRTSuite, sources: _Sources, hyps: Hypotheses, segments: list[int], pairs: list[Pair],
    links: Sequence[Links], window: int = 1, reach: int = DEFAULT_REACH,
) -> list[ZPVerdict]:
    """One verdict per ZP of the segments that have a hypothesis (excluded ZPs included, unscored), judged
    sentence by sentence (``judge_segment``), a published output's released verdict beside ours."""
    table = load_zh_en()
    released = hyps.published.released_verdicts if hyps.published else {}
    verdicts = []
    for seg_index, (src, hyp), lk in zip(segments, pairs, links):
        zps = [(zp, sources.zp_word[(zp.segment, zp.ordinal)]) for zp in suite.segments[seg_index].zps]
        for verdict in judge_segment(src, hyp, lk, zps, table, window, reach):
            verdicts.append(_beside_released(verdict, released.get((verdict.segment, verdict.ordinal))))
    return verdicts


def _beside_released(verdict: ZPVerdict, released: ReleasedVerdict | None) -> ZPVerdict:
    if released is None:
        return verdict
    return replace(
        verdict,
        released_correct=released.correct,
        released_target=released.target,
        released_target_position=released.target_position,
        released_reference_word=released.reference_word,
    )


def _bleu_texts(result: AZPTResult, suite: MZPRTSuite, segments: Sequence[int]) -> tuple[list[str], list[str]]:
    hyps = [result.hypotheses[i] for i in segments]
    if result.kind == "published":  # Moses-tokenised: rejoin clitics so 13a sees "don't" as the reference does
        hyps = [_MOSES_CLITIC.sub(r"\1", h) for h in hyps]
    return hyps, [suite.segments[i].reference for i in segments]


def _bleu_metric(lowercase: bool):
    try:
        from sacrebleu.metrics import BLEU
    except ImportError:
        raise InputError("BLEU needs sacrebleu: pip install 'discotest[zh]'") from None

    return BLEU(lowercase=lowercase, force=True)


def _add_bleu(result: AZPTResult, suite: MZPRTSuite) -> None:
    segments = sorted(result.hypotheses)
    hyps, refs = _bleu_texts(result, suite, segments)
    metric = _bleu_metric(lowercase=result.kind == "published")  # published outputs are lower-cased
    result.bleu = metric.corpus_score(hyps, [refs]).score
    result.bleu_signature = f"{metric.get_signature().format()}|sents:{len(segments)}"


# ---------------------------------------------------------------- public API


def _domain_list(domains: Sequence[str] | str) -> list[str]:
    if domains == "all":
        return list(DOMAINS)
    if isinstance(domains, str):
        domains = [domains]
    return [check_domain(d) for d in domains]


def run_mzprt(
    domains: Sequence[str] | str,
    systems: Sequence[str] | str | None = None,
    inputs: Sequence[str | Path] | None = None,
    data_dir: str | Path | None = None,
    window: int = 1,
    bleu: bool = False,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
    extra: str = "wmt",
    aligner: str | WordAligner = "default",
    reach: int = DEFAULT_REACH,
    input_format: str = "auto",
) -> list[AZPTResult]:
    """AZPT of published systems and/or input files on mZPRT domains, one result per (domain, system).

    ``domains``: codes QA GR MS PP WF (or MS-valid, WF-valid for inputs), a list, or "all".
    ``systems``: published outputs by name (``base_tgt`` …), "all", or None. A named system is
    evaluated in every requested domain that has it. ``inputs``: hypothesis files for exactly one
    domain (see ``read_input`` for the line layout: one line per sentence without the ``[doc]`` lines,
    or the raw file's lines with them, or ``source ||| hypothesis`` lines; ``input_format`` forces one).
    ``window``: candidate words on each side of the aligned word.
    ``reach``: how far beyond the window an unclaimed rendering may be (0: the paper's rule only).
    ``bleu``: also sacrebleu BLEU (on the sentences each system covers: the ZP sentences for
    published outputs). ``progress`` is called with 1 per finished result.
    """
    root = str(data_dir) if data_dir else None
    check_int(window, "window")
    check_int(reach, "reach")
    domain_list = _domain_list(domains)
    inputs = list(inputs or [])
    if not inputs and not systems:
        raise InputError("give published systems (--system) or hypothesis files (--input)")
    if inputs and len(domain_list) != 1:
        raise InputError("--input needs exactly one --domain (the test set the file translates)")
    wanted = _published_requests(domain_list, systems)
    aligner_obj = aligner if isinstance(aligner, WordAligner) else azpt_aligner(aligner)
    with registry.tracking() as common:  # every domain and present output trains the aligner: shared by all
        suites = {d: load_mzprt(d, root) for d in domain_list}
    read: dict[tuple[str, str], dict] = {}  # a published system's own files (with its released score)
    published = []
    for d, s in wanted:
        if s != REFERENCE:
            with registry.tracking() as read[(d, s)]:
                published.append(published_hypotheses(d, s, suites[d], root))
    typed = [read_input(path, suites[domain_list[0]], input_format) for path in inputs]
    with registry.tracking() as corpus_files:
        corpus = build_corpus(aligner_obj, root, extra, domain_list, published, typed, use_cache)
    common.update(corpus_files)
    by_name = {(h.domain, h.system): h for h in published}
    evaluated = [
        (by_name.get((d, s)) or reference_hypotheses(corpus.suites[d]), (d, s)) for d, s in wanted
    ] + [(h, ("input", str(k))) for k, h in enumerate(typed)]

    results = []
    for hyps, key in evaluated:
        suite, src = corpus.suites[hyps.domain], corpus.sources[hyps.domain]
        segments, pairs = hyps.pairs(src)
        by_segment = corpus.links_of(key)
        links = [by_segment[i] for i in segments]
        verdicts = evaluate(suite, src, hyps, segments, pairs, links, window, reach)
        result = AZPTResult(
            domain=hyps.domain,
            system=hyps.system,
            scores=score_azpt(verdicts),
            signature=_signature(hyps, aligner_obj, corpus.description(key), window, reach,
                                 registry.data_field({**common, **read.get((hyps.domain, hyps.system), {})})),
            kind=hyps.kind,
            path=hyps.path,
            layout=hyps.layout,
            n_segments=len(segments),
            released=hyps.published.released if hyps.published else None,
            released_counts=hyps.published.released_counts if hyps.published else None,
            released_details_counts=hyps.published.released_details_counts if hyps.published else None,
            verdicts=verdicts,
            hypotheses=hyps.by_segment,
        )
        if bleu:
            _add_bleu(result, suite)
        results.append(result)
        if progress:
            progress(1)
    return results


def _published_requests(domains: list[str], systems: Sequence[str] | str | None) -> list[tuple[str, str]]:
    """(domain, system) pairs to evaluate: "all" is every published output; a named system is taken in
    every requested domain that has it; ``reference`` exists in every domain."""
    if not systems:
        return []
    known = {d: published_systems(d) if d in DOMAINS else [] for d in domains}
    if systems == "all":
        return [(d, s) for d, names in known.items() for s in names]
    systems = [systems] if isinstance(systems, str) else list(systems)
    everywhere = {s for names in known.values() for s in names} | {REFERENCE}
    for system in systems:
        if system not in everywhere:
            have = ", ".join(dict.fromkeys(s for names in known.values() for s in names)) or "none"
            raise InputError(
                f"unknown mZPRT system {system!r} for {', '.join(domains)}; published: {have} (and {REFERENCE})"
            )
    return [(d, s) for d, names in known.items() for s in systems if s in names or s == REFERENCE]


def _signature(hyps: Hypotheses, aligner: WordAligner, align_text: str, window: int, reach: int,
               data: tuple[str, str] = ("files", "none")) -> Signature:
    table = content_cache.content_key(
        f"{k[0]}\t{k[1]}\t{'|'.join(sorted(v))}" for k, v in sorted(load_zh_en().entries.items())
    )[:8]
    return Signature(
        (
            ("discotest", package_version("discotest")),
            ("suite", "mzprt"),
            ("version", "current"),
            ("domain", hyps.domain),
            ("system", hyps.system),
            ("aligner", aligner.signature()),
            ("align_text", align_text),
            ("window", str(window)),
            ("reach", str(reach)),
            ("tok", f"{segment_zh.signature()}+en-clitics"),
            ("table", f"zh_en-{table}"),
            data,
        )
    )


# ---------------------------------------------------------------- comparison


def compare_results(
    a: AZPTResult, b: AZPTResult, suite: MZPRTSuite, n_bootstrap: int = 1000, seed: int | None = DEFAULT_SEED
) -> ComparisonResult:
    """AZPT and BLEU of two results on the same domain with a sign test and a paired bootstrap each.

    AZPT pairs the two systems' verdicts ZP by ZP; BLEU pairs sentences (those both systems cover).
    The BLEU sign test counts, per sentence, whether putting B's translation into A's output raises
    or lowers A's corpus BLEU (sentence-level BLEU is too noisy to vote with).
    """
    if a.domain != b.domain:
        raise InputError(f"cannot compare systems on different domains ({a.domain} vs {b.domain})")
    verdicts_b = {(v.segment, v.ordinal): v for v in b.verdicts if v.correct is not None}
    paired = [(v, verdicts_b[(v.segment, v.ordinal)]) for v in a.verdicts
              if v.correct is not None and (v.segment, v.ordinal) in verdicts_b]
    if not paired:
        raise InputError("the two systems share no scored zero pronoun")
    zp_a = np.array([[float(va.correct), 1.0] for va, _ in paired])
    zp_b = np.array([[float(vb.correct), 1.0] for _, vb in paired])
    azpt = MetricComparison(
        "AZPT",
        accuracy_from_sums(zp_a.sum(0)),
        accuracy_from_sums(zp_b.sum(0)),
        len(paired),
        sign_test(zp_a[:, 0], zp_b[:, 0]),
        paired_bootstrap(zp_a, zp_b, accuracy_from_sums, n_bootstrap, seed),
    )
    segments = sorted(set(a.hypotheses) & set(b.hypotheses))
    lowercase = "published" in (a.kind, b.kind)
    metric = _bleu_metric(lowercase)
    hyps_a, refs = _bleu_texts(a, suite, segments)
    hyps_b, _ = _bleu_texts(b, suite, segments)
    stats_a = np.array(metric._extract_corpus_statistics(hyps_a, [refs]), dtype=float)
    stats_b = np.array(metric._extract_corpus_statistics(hyps_b, [refs]), dtype=float)

    def bleu_of(row: np.ndarray) -> float:
        return metric._compute_score_from_stats([int(x) for x in row]).score

    total_a = stats_a.sum(0)
    base = bleu_of(total_a)
    swapped = [bleu_of(total_a - stats_a[i] + stats_b[i]) - base for i in range(len(segments))]
    bleu_cmp = MetricComparison(
        "BLEU",
        base,
        bleu_of(stats_b.sum(0)),
        len(segments),
        sign_test([0.0] * len(swapped), swapped),
        paired_bootstrap(stats_a, stats_b, bleu_of, n_bootstrap, seed),
    )
    a.bleu, b.bleu = bleu_cmp.score_a, bleu_cmp.score_b
    a.bleu_signature = b.bleu_signature = f"{metric.get_signature().format()}|sents:{len(segments)}"
    return ComparisonResult(a.domain, a, b, [azpt, bleu_cmp])


def compare_mzprt(
    domain: str,
    input_a: str | Path,
    input_b: str | Path,
    data_dir: str | Path | None = None,
    window: int = 1,
    n_bootstrap: int = 1000,
    seed: int | None = DEFAULT_SEED,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
    extra: str = "wmt",
    aligner: str | WordAligner = "default",
    reach: int = DEFAULT_REACH,
) -> ComparisonResult:
    """Compare two hypothesis files on one domain: AZPT and BLEU of each, sign-test and paired-bootstrap
    p-values for both metrics (``n_bootstrap`` resamples, seeded)."""
    if isinstance(domain, str) and domain == "all":
        raise InputError("compare needs one --domain")
    check_domain(domain)
    check_int(n_bootstrap, "bootstrap")
    if seed is not None:
        check_int(seed, "seed")
    a, b = run_mzprt([domain], inputs=[input_a, input_b], data_dir=data_dir, window=window,
                     use_cache=use_cache, progress=progress, extra=extra, aligner=aligner, reach=reach)
    return compare_results(a, b, load_mzprt(domain, data_dir), n_bootstrap, seed)
