"""Explicit English discourse connectives: a PDTB-style lexicon (``connectives_en.tsv``) plus parse rules.

Ambiguous words ("and", "since", "while", "so" …) are connectives only in some uses; each lexicon row names
the rule that tells the discourse use apart on the spaCy parse (see the TSV header). Longest match first,
so "as a result" is one connective, not "as".
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from discotest.dip.align import align
from discotest.dip.parse import Sentence, Token

CLAUSE_HEAD = {"VERB", "AUX"}
COMPLEMENT = {"ccomp", "csubj", "xcomp"}
TIME_ANCHORS = {"back", "since", "until", "till", "from", "by"}


@dataclass(frozen=True)
class Entry:
    connective: str
    senses: tuple[str, ...]
    ambiguous: bool
    rule: str

    @property
    def sense(self) -> str:
        return self.senses[0]


@dataclass(frozen=True)
class Found:
    connective: str
    sense: str
    index: int  # token index of the connective's first word


@cache
def lexicon() -> dict[tuple[str, ...], Entry]:
    text = resources.files("discotest.dip").joinpath("connectives_en.tsv").read_text("utf-8")
    rows = csv.DictReader((line for line in text.splitlines() if not line.startswith("#")), delimiter="\t")
    out = {}
    for row in rows:
        entry = Entry(row["connective"], tuple(row["senses"].split("|")), row["ambiguous"] == "yes", row["rule"])
        if entry.rule not in RULES:
            raise ValueError(f"connectives_en.tsv: unknown rule {entry.rule!r} for {entry.connective!r}")
        out[tuple(entry.connective.split())] = entry
    return out


def _clause_initial(sent: Sentence, i: int) -> bool:
    """First word of the sentence, or right after punctuation or a coordinating conjunction."""
    return i == 0 or sent[i - 1].pos in {"PUNCT", "CCONJ"} or sent[i - 1].dep == "cc"


def _head(sent: Sentence, i: int) -> Token:
    return sent[sent[i].head]


def _coordinate(sent: Sentence, i: int) -> bool:
    """and/but/or: sentence-initial (links to the previous sentence), or coordinating two clauses or verb
    phrases, i.e. the following conjunct is a verb ("she left and he stayed", "he came and went": PDTB-3
    annotates conjoined VPs too). Coordinated nouns or adjectives ("bread and butter") are not."""
    tok = sent[i]
    if tok.dep != "cc":
        return False
    if all(t.pos == "PUNCT" for t in sent[:i]):  # sentence-initial, maybe after an opening quote
        return True
    head = tok.head
    for j, other in enumerate(sent):
        if other.head == head and other.dep == "conj" and j > i:
            return other.pos in CLAUSE_HEAD and sent[head].pos in CLAUSE_HEAD
    return False


def _subordinate(sent: Sentence, i: int) -> bool:
    """A marker of an adverbial clause ("since he left"), not a preposition ("since 2010") nor the marker of
    a complement clause ("asked if he came")."""
    head = _head(sent, i)
    if sent[i].dep == "mark" and head.pos in CLAUSE_HEAD and head.dep not in COMPLEMENT:
        return True
    return sent[i].text.lower() == "though" and _adverbial(sent, i)  # "He left, though."


def _when(sent: Sentence, i: int) -> bool:
    """"when" heading an adverbial clause; not a question ("When did he come?") nor a relative clause."""
    return sent[i].dep in {"advmod", "mark"} and _head(sent, i).dep == "advcl"


def _adverbial(sent: Sentence, i: int) -> bool:
    """An adverb modifying a verb or clause; not of an adjective/adverb ("however much"), not the object of a
    preposition ("since then") nor a point in time ("back then")."""
    if i and sent[i - 1].text.lower() in TIME_ANCHORS:  # "back then", "by then", "until then": a time, not a relation
        return False
    return sent[i].dep in {"advmod", "cc", "npadvmod"} and _head(sent, i).pos in CLAUSE_HEAD


def _initial(sent: Sentence, i: int) -> bool:
    """Adverbial at the start of a clause ("Finally, he arrived"), not mid-clause ("he finally arrived")."""
    return _adverbial(sent, i) and _clause_initial(sent, i)


def _so(sent: Sentence, i: int) -> bool:
    """Result "so" ("it rained, so we stayed"), not a degree adverb ("so good") nor "I think so"."""
    return sent[i].dep == "cc" or _initial(sent, i)


def _not_of(sent: Sentence, i: int) -> bool:
    """"because of" / "instead of" take a noun phrase: not a discourse connective in PDTB."""
    return not (i + 1 < len(sent) and sent[i + 1].text.lower() == "of")


RULES: dict[str, Callable[[Sentence, int], bool]] = {
    "always": lambda sent, i: True,
    "coordinate": _coordinate,
    "subordinate": _subordinate,
    "when": _when,
    "adverbial": _adverbial,
    "initial": _initial,
    "so": _so,
    "not_of": _not_of,
}


def find_connectives(sent: Sentence) -> list[Found]:
    """Connectives in discourse use, left to right, longest match first, no overlaps."""
    words = [t.text.lower() for t in sent]
    lex = lexicon()
    longest = max(len(k) for k in lex)
    out: list[Found] = []
    i = 0
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            entry = lex.get(tuple(words[i:i + n]))
            if entry is not None and RULES[entry.rule](sent, i):
                out.append(Found(entry.connective, entry.sense, i))
                i += n
                break
        else:
            i += 1
    return out


@dataclass(frozen=True)
class Match:
    same: bool  # the system has the reference's connective (accuracy)
    any: bool  # the system has some connective at that place (ANY)
    connective: str | None  # the system connective matched to it


def expected_positions(ref: Sentence, sys: Sentence, indices: list[int]) -> list[int]:
    """Where each reference token index should fall in the system sentence: its aligned word, else the nearest
    aligned neighbour shifted by the distance to it, else the same relative position."""
    mapping = align([t.text for t in ref], [t.text for t in sys])
    out = []
    for i in indices:
        left = next(((k, mapping[k]) for k in range(i, -1, -1) if mapping[k] is not None), None)
        right = next(((k, mapping[k]) for k in range(i, len(mapping)) if mapping[k] is not None), None)
        if left is not None:
            out.append(left[1] + i - left[0])
        elif right is not None:
            out.append(max(0, right[1] - (right[0] - i)))
        else:
            out.append(i * len(sys) // max(1, len(ref)))
    return out


def match(ref: list[Found], sys: list[Found], expected: list[int] | None = None) -> list[Match]:
    """Match the reference connectives of a segment to the system's at the aligned place.

    WMT segments are line-aligned; inside a segment each reference connective is expected at a system position
    (``expected_positions``; by default its own index). Same connectives pair first, nearest first (accuracy);
    each remaining reference connective then takes the nearest unused system connective (ANY). Each system
    connective is used once, so "If …, then … because …" against "If …, … as …" pairs "because" with "as".
    """
    expected = expected if expected is not None else [f.index for f in ref]
    out: list[Match | None] = [None] * len(ref)
    used: set[int] = set()
    for same_only in (True, False):
        pairs = sorted(
            (abs(expected[k] - f.index), k, n) for k in range(len(ref)) for n, f in enumerate(sys)
            if not same_only or f.connective == ref[k].connective
        )
        for _, k, n in pairs:
            if out[k] is None and n not in used:
                used.add(n)
                out[k] = Match(same_only, True, sys[n].connective)
    return [m if m is not None else Match(False, False, None) for m in out]


def match_sentences(ref: Sentence, sys: Sentence) -> tuple[list[Found], list[Match]]:
    """The reference connectives of a segment and, for each, its match in the system segment."""
    ref_found = find_connectives(ref)
    if not ref_found:
        return ref_found, []
    sys_found = find_connectives(sys)
    return ref_found, match(ref_found, sys_found, expected_positions(ref, sys, [f.index for f in ref_found]))
