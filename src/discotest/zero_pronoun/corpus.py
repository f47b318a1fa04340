"""The alignment corpus of AZPT: segmented ZP-labelled sources and the text the aligner trains on.

The aligner trains on a fixed background corpus — every domain's ZP-labelled source with its reference,
the two validation sets, every published output present in the data directory, and (``extra="wmt"``) the
WMT21/22 zh–en test sources with their references. With ``align_train="suite"`` (the default) the model trained on
the background is kept (``lang.align.model``) and every block — the background's own and each input file — is decoded
with it: the background's links are exactly those of training on it, and an input's links depend on its own sentences
alone (a new file is decoded in seconds, not trained with the background for a minute). With ``"input"`` each input
file is aligned by training on the background plus itself, as before. Either way an input's score never depends on
which other files share the command (``run`` and ``compare`` give the same AZPT for the same file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from discotest import cache
from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.errors import InputError
from discotest.lang.align import DEFAULT_ALIGNER, align_cached, make_aligner
from discotest.lang.align.base import Links, Pair, WordAligner
from discotest.lang.align.model import AlignmentModel
from discotest.lang.align.thot_aligner import ThotAligner
from discotest.zero_pronoun import segment_zh
from discotest.zero_pronoun.hypotheses import (
    REFERENCE,
    Hypotheses,
    english_words,
    published_hypotheses,
    reference_hypotheses,
)
from discotest.zero_pronoun.mzprt import DOMAINS, VALID_FILES, MZPRTSuite, load_mzprt
from discotest.zero_pronoun.outputs import published_systems

MODEL_CODE = "zero_pronoun/corpus.py"  # what shapes the background's alignment model beside its text (the identity)
EXTRA_TEXT = {
    "none": (),
    "wmt": (("wmt21-zh-en-src", "wmt21-zh-en-ref-A"), ("wmt22-zh-en-src", "wmt22-zh-en-ref-A"),
            ("wmt22-zh-en-src", "wmt22-zh-en-ref-B")),
}


def azpt_aligner(name: str = "default") -> WordAligner:
    """The aligner AZPT uses: ``default`` is the package default (seeded Thot eflomal, two samplers, which found more
    of the marked ZP translations in the references than one: bench/validity/mzprt_gold_spans.py); any other name as
    ``make_aligner`` gives it."""
    return make_aligner(DEFAULT_ALIGNER if name == "default" else name)


@dataclass
class SegmentedSource:
    """Segmented ZP-labelled source of a domain: words per segment and each ZP's word position."""

    words: list[list[str]]
    zp_word: dict[tuple[int, int], int]  # (segment, ordinal) -> word position


def _segment_suite(suite: MZPRTSuite, use_cache: bool) -> SegmentedSource:
    rows = segment_zh.segment_cached(
        [s.labelled for s in suite.segments], [[(zp.start, zp.end) for zp in s.zps] for s in suite.segments], use_cache
    )
    zp_word = {
        (zp.segment, zp.ordinal): at
        for seg, (_, positions) in zip(suite.segments, rows)
        for zp, at in zip(seg.zps, positions)
    }
    return SegmentedSource([words for words, _ in rows], zp_word)


def _extra_pairs(extra: str, root: str | None, use_cache: bool) -> tuple[list[Pair], list[str]]:
    if extra not in EXTRA_TEXT:
        raise InputError(f"unknown extra alignment text {extra!r}; choose from {', '.join(EXTRA_TEXT)}")
    pairs: list[Pair] = []
    used = []
    for src_name, ref_name in EXTRA_TEXT[extra]:
        src_path, ref_path = catalogue.locate(src_name, root), catalogue.locate(ref_name, root)
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
                catalogue.locate(f"mzprt-{domain}-{system}-tagged", root)
            except catalogue.MissingDataError:  # absent; a modified file is an error, not skipped
                continue
            present.append((domain, system))
    return present


def _has_source(domain: str, root: str | None) -> bool:
    try:
        catalogue.locate(f"mzprt-{domain}-zh", root)
        catalogue.locate(f"mzprt-{domain}-en", root)
    except catalogue.MissingDataError:
        return False
    return True


@dataclass
class Corpus:
    """The background corpus of one run (suites, segmented sources, blocks) and the links of each evaluated block.

    Links are computed on first use: the background in one alignment run, each input in a run of its own over the
    background plus that input (``links_of``), unless an engine put the run's links in ``aligned`` first."""

    suites: dict[str, MZPRTSuite]
    sources: dict[str, SegmentedSource]
    blocks: dict[tuple[str, str], int]  # (domain, system) -> background block number
    pairs: list[list[Pair]]
    segments: list[list[int]]  # the segment of each pair of each block (empty for the extra text)
    inputs: list[tuple[list[int], list[Pair]]]  # (segments, pairs) of input k
    aligner: WordAligner
    text: str  # what the background is, for the signature
    use_cache: bool = True
    align_train: str = "suite"  # "suite": decode every block with the background's model; "input": see run_pairs
    aligned: dict[str, list[Links]] = field(default_factory=dict, repr=False)  # run -> links of its pairs, in order
    model: AlignmentModel | None = field(default=None, repr=False)
    align_decode: str | None = None  # how the background's model decodes (``lang.align.model.DECODERS``)

    def __post_init__(self) -> None:
        if self.align_train == "suite" and isinstance(self.aligner, ThotAligner):
            background = self.background_pairs()
            identity = cache.content_key(" ".join(s) + " ||| " + " ".join(t) for s, t in background)
            # the identity is the tokenised background itself, so only this module's recipe is the code that shapes it
            self.model = AlignmentModel(self.aligner, f"mzprt-{self.text}:{len(background)}", identity,
                                        lambda: background, self.use_cache, code=cache.code_key(MODEL_CODE),
                                        decoder=self.align_decode)

    @property
    def runner(self) -> WordAligner:
        """What aligns a run: the background's model (decoding), else the aligner (training on the run's pairs)."""
        return self.model or self.aligner

    def background_pairs(self) -> list[Pair]:
        return [pair for block in self.pairs for pair in block]

    def run_of(self, key: tuple[str, str]) -> str:
        """The alignment run that gives ``key`` its links: ``input:K``; with a model ``block:N`` (its own block,
        decoded: a pair's links depend on the pair and the model alone, so the blocks no evaluated key needs — the
        extra text, the validation sets, other systems — are never decoded); without one ``background`` (every
        published output and the references share the aligner trained on it)."""
        if key[0] == "input":
            return f"input:{key[1]}"
        return f"block:{self.blocks[key]}" if self.model else "background"

    def run_pairs(self, run: str) -> list[Pair]:
        """What alignment run ``run`` aligns: a block or an input decoded with the model, or (without one) the
        background, with an input trained on together with it."""
        if run.startswith("block:"):
            return self.pairs[int(run[6:])]
        if not run.startswith("input:"):
            return self.background_pairs()
        own = self.inputs[int(run[6:])][1]
        return own if self.model else self.background_pairs() + own

    def decode_blocks(self, keys: Sequence[tuple[str, str]]) -> int:
        """With a model: the blocks of ``keys`` not aligned yet decoded in one run (one pair of aligner processes,
        one cache entry), each block's links put in ``aligned``; how many block runs that filled."""
        runs = [r for r in dict.fromkeys(self.run_of(k) for k in keys if k[0] != "input") if r not in self.aligned]
        if not self.model or not runs:
            return 0
        flat = align_cached(self.model, [pair for run in runs for pair in self.run_pairs(run)], self.use_cache)
        at = 0
        for run in runs:
            size = len(self.run_pairs(run))
            self.aligned[run] = flat[at : at + size]
            at += size
        return len(runs)

    def links_of(self, key: tuple[str, str]) -> dict[int, Links]:
        """Segment -> links for one background block or one input (``("input", k)``); a run not in ``aligned`` yet
        is aligned here (through the cache)."""
        run = self.run_of(key)
        if run not in self.aligned:
            self.aligned[run] = align_cached(self.runner, self.run_pairs(run), self.use_cache)
        flat = self.aligned[run]
        if key[0] == "input":
            return dict(zip(self.inputs[int(key[1])][0], flat[len(flat) - len(self.inputs[int(key[1])][1]) :]))
        block = self.blocks[key]
        at = 0 if run.startswith("block:") else sum(len(b) for b in self.pairs[:block])
        return dict(zip(self.segments[block], flat[at : at + len(self.pairs[block])]))

    def description(self, key: tuple[str, str]) -> str:
        """What the aligner trained on for ``key``: the background (the model's key too), plus the input itself for
        an input aligned without a model."""
        size = sum(len(block) for block in self.pairs)
        if self.model:
            return f"{self.text}:{size}@{self.model.data[:10]}"
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
    align_train: str = "suite",
    align_decode: str | None = None,
) -> Corpus:
    """The fixed background (every domain's labelled source with its reference — these blocks are also the
    ``reference`` system — the validation sets, the published outputs present, the extra text) and the
    ``inputs``. ``domains`` adds suites that must be loaded (a validation set asked for); ``published`` passes
    outputs already read, so they are not read twice. Nothing is aligned until ``Corpus.links_of``. ``align_decode``:
    how the background's model decodes."""
    names = [d for d in (*DOMAINS, *VALID_FILES) if d in DOMAINS or d in domains or _has_source(d, root)]
    suites = {d: load_mzprt(d, root) for d in names}
    sources = {d: _segment_suite(s, use_cache) for d, s in suites.items()}
    block_pairs: list[list[Pair]] = []
    block_segments: list[list[int]] = []
    blocks: dict[tuple[str, str], int] = {}

    def add(key: tuple[str, str], hyps: Hypotheses) -> None:
        segments, pairs = hyps.pairs(sources[hyps.domain].words)
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
    typed_inputs = [hyps.pairs(sources[hyps.domain].words) for hyps in inputs]
    text = "+".join(["mzprt-refs", *(["published"] if present else []), *extra_used])
    return Corpus(suites, sources, blocks, block_pairs, block_segments, typed_inputs, aligner, text, use_cache,
                  align_train, align_decode=align_decode)
