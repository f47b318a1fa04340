"""Lexical consistency: blocks where the reference repeats a noun or adjective lemma and a system uses it
but fewer times (Jwalapuram et al. 2020, §3.1). Counting is per block of 3-5 consecutive sentences.

A system is *consistent* on an item when it produces the lemma at least as often as the reference in the
block. Misses are classified where automatic: "omission" (the aligned place has no noun or adjective)
or "other_word" (it has a different noun/adjective, e.g. "car" repeated in the reference, "vehicle" once).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from discotest.dip.align import replaced_span
from discotest.dip.parse import Sentence

FOCUS_POS = {"NOUN", "ADJ"}
COUNTED_POS = {"NOUN", "ADJ", "PROPN"}  # the tagger calls some capitalised nouns PROPN in system outputs
# Determiner-like adjectives and very generic nouns whose repetition says nothing about consistency.
STOP = frozenset({
    "other", "such", "many", "much", "more", "most", "few", "last", "first", "next", "same", "own", "new", "old",
    "good", "great", "big", "little", "several", "different", "certain", "whole", "only", "main", "thing", "way",
    "lot",
})


def _lemma(token) -> str:
    return token.lemma.lower()


def focus_lemmas(ref_block: Sequence[Sentence]) -> Counter:
    """Reference noun/adjective lemmas occurring at least twice in the block."""
    counts = Counter(
        _lemma(t) for sent in ref_block for t in sent
        if t.pos in FOCUS_POS and t.text.isalpha() and len(t.text) > 1 and _lemma(t) not in STOP
    )
    return Counter({lemma: n for lemma, n in counts.items() if n >= 2})


def counted_lemma(token) -> str | None:
    """The token's lemma when it counts as an occurrence (a noun or adjective), else None."""
    return _lemma(token) if token.pos in COUNTED_POS else None


def count_lemma(block: Sequence[Sentence], lemma: str) -> int:
    return sum(1 for sent in block for t in sent if counted_lemma(t) == lemma)


def classify_miss(ref_block: Sequence[Sentence], sys_block: Sequence[Sentence], lemma: str) -> tuple[str, str | None]:
    """Why the system has fewer occurrences: ("omission", None), ("other_word", lemma) or ("unclassified", None).

    Looks at the first sentence where the reference has more occurrences than the system and at the system
    words aligned to the reference occurrence.
    """
    for ref, sys in zip(ref_block, sys_block):
        if count_lemma([ref], lemma) <= count_lemma([sys], lemma):
            continue
        ref_words, sys_words = [t.text for t in ref], [t.text for t in sys]
        for i, t in enumerate(ref):
            if t.pos not in COUNTED_POS or _lemma(t) != lemma:
                continue
            op, span = replaced_span(ref_words, sys_words, i)
            if op == "delete":
                return "omission", None
            if op == "replace":
                others = [_lemma(sys[j]) for j in span if sys[j].pos in COUNTED_POS and _lemma(sys[j]) != lemma]
                return ("other_word", others[0]) if others else ("omission", None)
    return "unclassified", None
