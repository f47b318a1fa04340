"""MAJORITY: prefer the candidate whose pronoun is the most frequent in the training text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from discotest.contrastive.baselines.text import differing_words, tokens
from discotest.data.contrastive_item import ContrastiveItem


@dataclass
class Majority:
    counts: Counter

    @classmethod
    def train(cls, lines: Iterable[str]) -> Majority:
        counts: Counter = Counter()
        for line in lines:
            counts.update(tokens(line))
        return cls(counts)

    def score(self, candidates: Sequence[str]) -> list[float]:
        """The count of each candidate's first differing word (its pronoun)."""
        out = []
        for i, cand in enumerate(candidates):
            words = differing_words(cand, [c for j, c in enumerate(candidates) if j != i])
            out.append(float(self.counts[words[0]]))
        return out

    def score_items(self, items: Sequence[ContrastiveItem]) -> list[list[float]]:
        return [self.score(item.candidates) for item in items]
