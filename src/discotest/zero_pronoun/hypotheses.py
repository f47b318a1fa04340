"""One system's English hypotheses on an mZPRT domain, keyed by segment: an input file, a published output
(read by ``zero_pronoun/outputs.py``) or the reference, all tokenised the same way for alignment and matching."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from discotest.data.readers import read_lines, system_name
from discotest.data.translations import Translations, detect_format, read_translations
from discotest.errors import InputError
from discotest.lang.align.base import Pair
from discotest.lang.tokenize import normalise_moses
from discotest.models.interface import Translator
from discotest.models.requests import TranslateRequest
from discotest.zero_pronoun.mzprt import MZPRTSuite
from discotest.zero_pronoun.outputs import PublishedOutput, read_published

REFERENCE = "reference"  # the test set's own English reference, scored like a system (a sanity figure)
# a clitic stays one word, attached ("I'm") or Moses-spaced ("i 'm"); a quote before a word does not
_EN_WORD = re.compile(r"(?<=\w)'(?:s|m|d|t|re|ve|ll)(?!\w)|(?<!\S)'(?:s|m|d|t|re|ve|ll)(?!\w)|\w+(?:-\w+)*|[^\w\s]",
                      re.IGNORECASE)


def english_words(text: str) -> list[str]:
    """English words for alignment and matching: clitics split off (``I'm`` -> ``I`` ``'m``) so a
    pronoun is always a word of its own, in plain and in Moses-tokenised text alike."""
    return _EN_WORD.findall(normalise_moses(text).replace("’", "'"))


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

    def pairs(self, source_words: Sequence[Sequence[str]]) -> tuple[list[int], list[Pair]]:
        """(segment indices, (labelled source words, hypothesis words) per segment), computed once;
        ``source_words`` are the domain's segmented ZP-labelled source, one list per segment."""
        if self._pairs is None:
            segments = sorted(self.by_segment)
            self._pairs = segments, [
                (tuple(source_words[i]), tuple(english_words(self.by_segment[i]))) for i in segments
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
    the segments by ``data.translations.read_translations``; a sentence the test set repeats (in other documents,
    with other zero pronouns) must then be given once per occurrence, in test-set order.
    """
    found = input_translations(path, suite, input_format)
    return Hypotheses(suite.domain, system_name(path), "input", str(path),
                      "by-source" if found.by_source else found.format, found.by_row)


def input_translations(path: str | Path, suite: MZPRTSuite, input_format: str = "auto") -> Translations:
    """``read_input``'s reading as ``Translations`` (segment -> hypothesis, and the file's line of each: what the
    misaligned-line check reads); a plain file's ``format`` is its layout (all-segments, raw-lines)."""
    path = Path(path)
    lines = read_lines(path)
    sources = {seg.index: seg.source for seg in suite.segments}
    if input_format != "plain":
        known = {" ".join(s.split()) for s in sources.values()}
        fmt = input_format if input_format != "auto" else detect_format(path, lines, known)
        if fmt != "plain":
            return read_translations(path, sources, fmt, context_dependent=True)
    n_seg, n_raw = len(suite.segments), suite.n_lines
    if len(lines) == n_seg:
        return Translations(str(path), dict(enumerate(lines)), format="all-segments",
                            lines={k: k + 1 for k in range(n_seg)})
    if len(lines) == n_raw:
        raw_numbers = {seg.line: seg.index for seg in suite.segments}
        return Translations(str(path), {raw_numbers[k]: line for k, line in enumerate(lines, start=1)
                                        if k in raw_numbers}, format="raw-lines", lines={i: k for k, i in
                                                                                         raw_numbers.items()})
    raise InputError(
        f"expected {n_seg} lines (one per {suite.domain} test sentence, no [doc] lines) or {n_raw} "
        f"(with the [doc] lines), found {len(lines)}",
        path,
        min(len(lines), n_seg) + 1,
    )


def _chosen(suite: MZPRTSuite, context: int, segments: set[int] | None) -> tuple[list, list[list[str]]]:
    """The segments a model translates (``segments``, else all) and each one's ``context`` sentences before it in its
    document."""
    chosen = [seg for seg in suite.segments if segments is None or seg.index in segments]
    contexts = [[s.source for s in suite.segments[max(0, seg.index - context):seg.index] if s.doc == seg.doc]
                if context else [] for seg in chosen]
    return chosen, contexts


def model_requests(suite: MZPRTSuite, context: int = 0, segments: set[int] | None = None) -> list[TranslateRequest]:
    """What a model is asked for the domain (``model_hypotheses``): each chosen sentence with its context, in
    order."""
    chosen, contexts = _chosen(suite, context, segments)
    return [TranslateRequest(seg.source, tuple(c), "en") for seg, c in zip(chosen, contexts, strict=True)]


def model_hypotheses(suite: MZPRTSuite, translator: Translator, context: int = 0,
                     segments: set[int] | None = None, lines: Sequence[str] | None = None) -> Hypotheses:
    """A model's translations of the domain's Chinese sentences (ZPs left out, as a system is given them), each with
    the ``context`` sentences before it in its document in the prompt (``translate_in_context``: the source side, so
    a sentence's translation does not depend on which others are translated); ``segments``: only these (``--limit``),
    else every segment, as a file holds them. ``lines``: the answers to ``model_requests`` (else asked here)."""
    chosen, contexts = _chosen(suite, context, segments)
    if lines is None:
        lines = translator.translate_in_context([seg.source for seg in chosen], contexts)
    name = Path(translator.name).name or translator.name
    return Hypotheses(suite.domain, name, "model", f"model:{translator.name}", "model",
                      {seg.index: line for seg, line in zip(chosen, lines, strict=True)})


def published_hypotheses(domain: str, system: str, suite: MZPRTSuite, root: str | None) -> Hypotheses:
    """A published output as hypotheses, its released scores and verdicts kept beside them."""
    output = read_published(domain, system, suite, root)
    return Hypotheses(domain, system, "published", output.path, output.layout, output.hypotheses, output)


def reference_hypotheses(suite: MZPRTSuite, zp_only: bool = True) -> Hypotheses:
    """The reference as a system: every segment for the alignment corpus, the ZP sentences to score."""
    by_segment = {seg.index: seg.reference for seg in suite.segments if seg.zps or not zp_only}
    return Hypotheses(suite.domain, REFERENCE, "reference", suite.en_path, "zp-segments", by_segment)
