"""Ukrainian gender analyser: pymorphy3 with the Ukrainian dictionary, plus agreement by position.

There is no offline Ukrainian tagger or parser, so each token keeps all of pymorphy's readings
(pronoun readings preferred: the top parse of «вона» and «яка» is a noun) and agreement is read
from the words around the noun: prenominal adjectives in the noun's case, «, яка/який», and the
past-tense predicate after a nominative noun (лікар сказала → female). See ``_slavic``.
Pronouns (target-side consistency): він/вона, його/її, past-tense verbs; see ``_slavic.read_pronoun``.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from discotest.lang.morph._slavic import Head, Pymorphy, decide, find_head, read_pronouns, window_votes
from discotest.lang.morph.base import GenderAnalyser, GenderReading, PronounReading, PronounTarget, TargetEntity

_TOOL = "pymorphy3"


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "unknown"


class UkrainianAnalyser(GenderAnalyser):
    """Reads the gender a Ukrainian translation gives the entity (see the module docstring)."""

    lang = "uk"
    name = "pymorphy3-uk"

    def __init__(self) -> None:
        self.morph = Pymorphy("uk")  # loads the dictionary once; parses are memoised

    def version(self) -> str:
        return f"pymorphy3-{_version('pymorphy3')}+pymorphy3-dicts-uk-{_version('pymorphy3-dicts-uk')}"

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        out = []
        for item in items:
            readings = [self.morph.readings(t.text) for t in item.tokens]
            head = find_head(item, readings, self.lang, self.morph.noun_gender, _TOOL)
            if not isinstance(head, Head):
                out.append(head)
                continue
            votes = window_votes(item, readings, head.index) if head.needs_agreement else []
            out.append(decide(item, head, votes, _TOOL))
        return out

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """Pronoun gender from word forms (він/вона, його/її, сказала); see ``_slavic.read_pronoun``."""
        return read_pronouns(items, self.morph)
