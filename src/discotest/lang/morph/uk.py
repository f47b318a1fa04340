"""Ukrainian gender analyser: pymorphy3 with the Ukrainian dictionary, plus agreement by position.

There is no offline Ukrainian tagger or parser, so each token keeps all of pymorphy's readings
(pronoun readings preferred: the top parse of «вона» and «яка» is a noun) and agreement is read
from the words around the noun: prenominal adjectives in the noun's case, «, яка/який», and the
past-tense predicate after a nominative noun (лікар сказала → female). See ``_slavic``.
Pronouns (target-side consistency): він/вона, його/її, past-tense verbs; see ``_slavic.read_pronoun``.
"""

from __future__ import annotations

from collections.abc import Sequence

from discotest.lang.morph._slavic import (
    Head,
    Pymorphy,
    PymorphyAnalyser,
    TokenReadings,
    decide,
    find_head,
    window_votes,
)
from discotest.lang.morph.base import GenderReading, TargetEntity, package_version


class UkrainianAnalyser(PymorphyAnalyser):
    """Reads the gender a Ukrainian translation gives the entity (see the module docstring)."""

    lang = "uk"
    name = "pymorphy3-uk"

    def __init__(self) -> None:
        self.morph = Pymorphy("uk")  # loads the dictionary once; parses are memoised

    @classmethod
    def static_version(cls) -> str:
        return f"pymorphy3-{package_version('pymorphy3')}+pymorphy3-dicts-uk-{package_version('pymorphy3-dicts-uk')}"

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        out = []
        for item in items:
            readings = TokenReadings(item.tokens, self.morph.readings)  # each word analysed when first looked at
            head = find_head(item, readings, self.lang, self.morph.noun_gender, self.tool, self.morph.animate)
            if not isinstance(head, Head):
                out.append(head)
                continue
            votes = window_votes(item, readings, head.index) if head.needs_agreement else []
            out.append(decide(item, head, votes, self.tool))
        return out
