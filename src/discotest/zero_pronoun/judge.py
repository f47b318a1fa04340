"""AZPT (Xu, Wang et al. 2022): accuracy of translating annotated zero pronouns.

For each ZP the ZP-labelled source (the dropped pronoun restored) is aligned with the hypothesis;
the target words aligned to the ZP, widened by ``window`` words on each side, are the candidates, and
the ZP counts as translated when a candidate is an English rendering of that pronoun in that form
(``zero_pronoun/pronouns/zh_en.tsv``).

Where the original implementation went wrong, this one does not:

- an unaligned ZP takes its span from its nearest aligned source neighbours: the words between the
  left neighbour's and the right neighbour's target words, plus ``window - 1`` beyond each (so
  ``window=1`` includes the neighbours' own words). With an aligned neighbour on one side only (a ZP
  at the start or end of what was aligned), the span is that neighbour's word ± ``window`` — never the
  rest of the sentence, which let the original count any later pronoun as the ZP's translation;
- several aligned words each get their own window (no span from the first to the last of them);
- ``_UN`` ZPs (no English counterpart expected) and tags without a form are left out and counted.

One optional addition, off by default (``reach`` > 0 turns it on): a right rendering a few words outside the
window that no other pronoun of the source is aligned to is credited to the ZP
(``unclaimed_rendering``). Statistical aligners follow word order and so misalign the commonest
pattern of the personal profiles, "<他>_S 2007 年 …" -> "in 2007, he …"; measured on the references
against the authors' marks (bench/validity/mzprt_gold_spans.py) the rescue adds ~1 point of recall for
~0.4 points of false positives. Verdicts say which rule matched (``matched_by``).

Figures are percentages of the scored ZPs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Protocol

from discotest.zero_pronoun.defaults import DEFAULT_REACH, DEFAULT_WINDOW
from discotest.zero_pronoun.pronouns import PronounTable

FOUND_BY = ("aligned", "neighbours", "left-neighbour", "right-neighbour", "none")


@dataclass(frozen=True)
class Span:
    """Target positions that may hold a ZP's translation, and how they were found."""

    positions: tuple[int, ...]
    found_by: str
    aligned: tuple[int, ...] = ()  # target words aligned to the ZP itself
    neighbours: tuple[int | None, int | None] = (None, None)  # source positions of the bounding neighbours


def _window(centre: int, window: int, n_target: int) -> range:
    return range(max(0, centre - window), min(n_target, centre + window + 1))


def candidate_span(zp: int, links: Iterable[tuple[int, int]], n_source: int, n_target: int,
                   window: int = DEFAULT_WINDOW) -> Span:
    """Candidate target positions for the source word at ``zp`` given alignment ``links``."""
    if window < 0:  # a programming error: users' values are checked by the --window option
        raise ValueError("window must be >= 0")
    by_source: dict[int, list[int]] = {}
    for s, t in links:
        if 0 <= t < n_target:
            by_source.setdefault(s, []).append(t)
    aligned = sorted(set(by_source.get(zp, ())))
    if aligned:
        positions = sorted({p for t in aligned for p in _window(t, window, n_target)})
        return Span(tuple(positions), "aligned", tuple(aligned))
    left = next((s for s in range(zp - 1, -1, -1) if s in by_source), None)
    right = next((s for s in range(zp + 1, n_source) if s in by_source), None)
    if left is not None and right is not None:
        a, b = max(by_source[left]), min(by_source[right])
        lo, hi = min(a, b), max(a, b)
        positions = range(max(0, lo - window + 1), min(n_target, hi + window))
        return Span(tuple(positions), "neighbours", (), (left, right))
    # one aligned neighbour only: its word and the ``window`` words either side of it (English may put
    # the pronoun after the verb the neighbour aligned to: "它 是 丝" -> "is it silk"); window 0: nothing
    if left is not None or right is not None:
        side, anchor = ("left-neighbour", max(by_source[left])) if left is not None else (
            "right-neighbour", min(by_source[right]))
        positions = _window(anchor, window, n_target) if window else range(0)
        return Span(tuple(positions), side, (), (left, right))
    return Span((), "none")


@dataclass(frozen=True)
class ZPVerdict:
    """One ZP's evidence and verdict: what ``--details`` writes, one JSON line each."""

    segment: int  # 0-based segment of the domain
    line: int  # 1-based line of the raw .zh file
    ordinal: int  # the ZP's place among the segment's ZPs
    pronoun: str
    form: str | None
    stem: str | None
    labelled_source: list[str]  # segmented ZP-labelled source
    zp_word: int  # the ZP's position in labelled_source
    hypothesis: list[str]  # the tokenised hypothesis
    expected: list[str]
    candidates: list[str]
    span: list[int]
    found_by: str
    aligned: list[int]
    correct: bool | None  # None: not scored (_UN, no form)
    matched: str | None = None
    matched_at: int | None = None  # position of the matched word in hypothesis
    matched_by: str | None = None  # "window" (the paper's rule) / "unclaimed" (see unclaimed_rendering)
    excluded: str | None = None  # "UN" / "no-form"
    released_correct: bool | None = None  # the released .details verdict, when there is one
    released_target: str | None = None
    released_target_position: str | None = None
    released_reference_word: str | None = None

    @property
    def tag(self) -> str:
        return f"<{self.pronoun}>" + (f"_{self.form}" if self.form else "")

    def to_json(self) -> dict:
        return asdict(self)


def match_position(span: Span, hypothesis: Sequence[str], expected: Iterable[str]) -> int | None:
    """Target position of the first right rendering among the candidates."""
    wanted = {w.lower() for w in expected}
    return next((p for p in span.positions if hypothesis[p].lower() in wanted), None)


def unclaimed_rendering(
    span: Span,
    hypothesis: Sequence[str],
    expected: Iterable[str],
    zp: int,
    links: Iterable[tuple[int, int]],
    source_pronouns: Iterable[int],
    reach: int,
    taken: Iterable[int] = (),
) -> int | None:
    """A right rendering just outside the span that no other source pronoun accounts for, or None.

    Statistical aligners follow word order: "<他>_S 2007 年 入选" -> "in 2007 , he was selected" gets
    他-in and 年-he, so the window around "in" misses "he". An English pronoun that is not aligned to
    any other pronoun of the (labelled) source, within ``reach`` words of the span, can only render
    this ZP (or a ZP the annotators missed); ``taken`` holds positions other ZPs matched already.
    The nearest such word wins; ``reach=0`` turns the rescue off (the paper's definition).
    """
    if reach <= 0 or not span.positions:
        return None
    wanted = {w.lower() for w in expected}
    pronouns = set(source_pronouns) - {zp}
    claimed = {t for s, t in links if s in pronouns} | set(taken)
    lo, hi = span.positions[0], span.positions[-1]
    inside = set(span.positions)
    options = [
        p for p in range(max(0, lo - reach), min(len(hypothesis), hi + reach + 1))
        if p not in inside and p not in claimed and hypothesis[p].lower() in wanted
    ]
    return min(options, key=lambda p: (min(abs(p - lo), abs(p - hi)), p)) if options else None


class AnnotatedZP(Protocol):
    """What judging reads of an annotated ZP (``zero_pronoun.mzprt.ZeroPronoun`` has it): a protocol, so the
    phenomenon needs no suite loader."""

    @property
    def segment(self) -> int: ...

    @property
    def line(self) -> int: ...

    @property
    def ordinal(self) -> int: ...

    @property
    def pronoun(self) -> str: ...

    @property
    def form(self) -> str | None: ...

    @property
    def scored(self) -> bool: ...


def judge_segment(
    source: Sequence[str],
    hypothesis: Sequence[str],
    links: Collection[tuple[int, int]],
    zps: Sequence[tuple[AnnotatedZP, int]],
    table: PronounTable,
    window: int = DEFAULT_WINDOW,
    reach: int = DEFAULT_REACH,
) -> list[ZPVerdict]:
    """One verdict per ZP of one sentence, unscored ZPs (``_UN``, no form) included, in ``zps`` order.

    ``source`` is the ZP-labelled source and ``zps`` pairs each ZP with its word position there. The ZPs
    matched inside their window come first; only then may the others take an unclaimed rendering within
    ``reach`` words (``unclaimed_rendering``), so a word another ZP matched in its window is never reused.
    """
    pronouns = [k for k, word in enumerate(source) if table.stem(word) is not None]
    found = []
    for zp, at in zps:
        span = candidate_span(at, links, len(source), len(hypothesis), window)
        expected = sorted(table.expected(zp.pronoun, zp.form)) if zp.scored else []
        position = match_position(span, hypothesis, expected) if zp.scored else None
        found.append((span, expected, position, "window" if position is not None else None))
    taken = {position for _, _, position, _ in found if position is not None}
    for k, (zp, at) in enumerate(zps):
        span, expected, position, _ = found[k]
        if zp.scored and position is None:
            position = unclaimed_rendering(span, hypothesis, expected, at, links, pronouns, reach, taken)
            if position is not None:
                taken.add(position)
                found[k] = (span, expected, position, "unclaimed")
    verdicts = []
    for (zp, at), (span, expected, position, how) in zip(zps, found):
        verdicts.append(
            ZPVerdict(
                segment=zp.segment,
                line=zp.line,
                ordinal=zp.ordinal,
                pronoun=zp.pronoun,
                form=zp.form,
                stem=table.stem(zp.pronoun),
                labelled_source=list(source),
                zp_word=at,
                hypothesis=list(hypothesis),
                expected=expected,
                candidates=[hypothesis[p].lower() for p in span.positions],
                span=list(span.positions),
                found_by=span.found_by,
                aligned=list(span.aligned),
                correct=(position is not None) if zp.scored else None,
                matched=hypothesis[position].lower() if position is not None else None,
                matched_at=position,
                matched_by=how,
                excluded=None if zp.scored else ("UN" if zp.form == "UN" else "no-form"),
            )
        )
    return verdicts


@dataclass(frozen=True)
class Tally:
    n: int
    correct: int

    @property
    def accuracy(self) -> float:
        return 100.0 * self.correct / self.n if self.n else 0.0

    def to_json(self) -> dict:
        return {"n": self.n, "correct": self.correct, "accuracy": round(self.accuracy, 2)}


def _tally(verdicts: Sequence[ZPVerdict], key) -> dict[str, Tally]:
    groups: dict[str, list[bool]] = {}
    for v in verdicts:
        groups.setdefault(key(v), []).append(bool(v.correct))
    return {k: Tally(len(g), sum(g)) for k, g in groups.items()}


@dataclass(frozen=True)
class AZPTScores:
    n: int  # scored ZPs
    correct: int
    accuracy: float
    by_form: dict[str, Tally] = field(default_factory=dict)
    by_pronoun: dict[str, Tally] = field(default_factory=dict)  # by stem: 我 covers 我, 我的, 我自己
    by_tag: dict[str, Tally] = field(default_factory=dict)  # as the released .score files: <我的>_Pa
    excluded_un: int = 0
    excluded_no_form: int = 0
    found_by: dict[str, int] = field(default_factory=dict)
    matched_by: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "n": self.n,
            "correct": self.correct,
            "accuracy": round(self.accuracy, 2),
            "excluded_un": self.excluded_un,
            "excluded_no_form": self.excluded_no_form,
            "found_by": self.found_by,
            "matched_by": self.matched_by,
            "by_form": {k: t.to_json() for k, t in self.by_form.items()},
            "by_pronoun": {k: t.to_json() for k, t in self.by_pronoun.items()},
            "by_tag": {k: t.to_json() for k, t in self.by_tag.items()},
        }


_FORM_ORDER = {f: i for i, f in enumerate(("S", "O", "Pa", "P", "R"))}


def score_azpt(verdicts: Sequence[ZPVerdict]) -> AZPTScores:
    scored = [v for v in verdicts if v.correct is not None]
    by_form = _tally(scored, lambda v: v.form)
    by_pronoun = _tally(scored, lambda v: v.stem or v.pronoun)
    by_tag = _tally(scored, lambda v: v.tag)
    correct = sum(bool(v.correct) for v in scored)
    return AZPTScores(
        n=len(scored),
        correct=correct,
        accuracy=100.0 * correct / len(scored) if scored else 0.0,
        by_form=dict(sorted(by_form.items(), key=lambda kv: _FORM_ORDER.get(kv[0], 9))),
        by_pronoun=dict(sorted(by_pronoun.items(), key=lambda kv: -kv[1].n)),
        by_tag=dict(sorted(by_tag.items(), key=lambda kv: -kv[1].n)),
        excluded_un=sum(v.excluded == "UN" for v in verdicts),
        excluded_no_form=sum(v.excluded == "no-form" for v in verdicts),
        found_by=dict(Counter(v.found_by for v in scored)),
        matched_by=dict(Counter(v.matched_by for v in scored if v.matched_by)),
    )
