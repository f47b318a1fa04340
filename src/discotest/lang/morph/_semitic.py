"""What the Arabic and Hebrew analysers share: the same reading algorithm over a different tool.

Both languages glue proclitics to the noun, spell many profession nouns alike in both genders and need
a dictionary (farahidi, hspell) rather than the last letter. So both read an entity the same way — the
head noun from the entity lexicon or the tool, then the words that agree with it, then the noun's
ending — and a pronoun the same way — a closed-class form, a verb for a dropped subject, a pronoun
suffix, then the sentence around it. This module holds that order once; each language supplies its
script, its tool's readings and its agreement rules through the hooks of ``SemiticAnalyser`` and
``SemiticPronounReader``.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from discotest.lang.lexicon import entity_lexicon
from discotest.lang.morph.base import (
    Gender,
    GenderAnalyser,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
)

GENDER_NAME = {Gender.MALE: "masculine", Gender.FEMALE: "feminine"}
# how a reason names a word the analyser does not know (its gender then comes from an agreeing word or its ending)
UNKNOWN_WORD = "is unknown to"


def single_gender(genders: Iterable[Gender | None]) -> Gender | None:
    """The one gender among ``genders`` (``None`` ignored), or None when there are none or several."""
    found = {g for g in genders if g is not None}
    return found.pop() if len(found) == 1 else None


def form_name(gender: Gender | None, plural: bool) -> str:
    """"feminine", "masculine plural" …; a pronoun form without gender (the Arabic dual) is "dual"."""
    return "dual" if gender is None else f"{GENDER_NAME[gender]}{' plural' if plural else ''}"


def proclitic_splits(word: str, proclitics: re.Pattern[str], longest: int) -> list[tuple[str, str]]:
    """(prefix, rest) for the bare word and every split whose prefix (at most ``longest`` letters) is a
    valid proclitic sequence and leaves at least two letters."""
    out = [("", word)]
    for k in range(1, min(longest + 1, len(word) - 1)):
        head = word[:k]
        if proclitics.fullmatch(head):
            out.append((head, word[k:]))
    return out


@dataclass
class Word:
    """An orthographic word rebuilt from the tokens the shared tokeniser cut it into, and the tokens it
    covers (the tokeniser splits at Arabic diacritics and Hebrew quote marks)."""

    text: str
    first: int
    last: int


class EntityLexicon(ABC):
    """The entity lexicon as spelling → genders (``None`` marks a common, epicene form), single words
    and multi-word forms apart; ``key`` turns a written form into the spelling looked up."""

    def __init__(self, lang: str, key: Callable[[str], str] = str) -> None:
        self.single: dict[str, set[Gender | None]] = {}
        self.multi: dict[tuple[str, ...], set[Gender | None]] = {}
        for forms in entity_lexicon(lang).values():
            for gender, cell in ((Gender.MALE, forms.masculine), (Gender.FEMALE, forms.feminine), (None, forms.common)):
                for form in cell:
                    parts = tuple(key(p) for p in form.split())
                    if len(parts) > 1:
                        self.multi.setdefault(parts, set()).add(gender)
                    else:
                        self.single.setdefault(parts[0], set()).add(gender)
        self.max_len = max((len(k) for k in self.multi), default=1)

    @abstractmethod
    def lookup(self, word: str) -> tuple[set[Gender | None], str] | None:
        """Genders of the single-word form ``word`` renders (proclitics stripped), and a detail of the match."""

    @abstractmethod
    def lookup_multi(self, texts: Sequence[str], start: int) -> tuple[set[Gender | None], int] | None:
        """Genders and length of the multi-word form starting at word ``start``."""


def word_index(words: Sequence[Word]) -> dict[int, int]:
    """Token index → index of the word that covers it."""
    return {t: k for k, w in enumerate(words) for t in range(w.first, w.last + 1)}


class SemiticAnalyser(GenderAnalyser):
    """The entity reading shared by Arabic and Hebrew; subclasses give the script and the tool's view.

    ``name`` (the tool) appears in the reasons; ``language`` in the reasons for items without a word in
    ``script``.
    """

    language: str = ""
    script: re.Pattern[str]
    # how the reasons call a noun with one form for both genders, from the lexicon and from the tool
    lexicon_epicene: str = "is spelled the same in both genders"
    tool_epicene: str = "is spelled the same in both genders"
    lexicon: EntityLexicon
    free_pronouns: dict[str, Gender]  # the 3rd-person pronouns: never the entity's head noun
    # whether a noun the entity lexicon decides is also looked up in the tool, for its reason to say the tool agrees
    # (the verdict never reads it): False where a lookup is dear (Arabic: farahidi, ``ar.py``)
    lexicon_confirmed: bool = True
    pronoun_proclitics: tuple[str, ...]  # the proclitics a free pronoun may carry

    # -- hooks ------------------------------------------------------------------------------

    @abstractmethod
    def words(self, item: TargetEntity | PronounTarget) -> list[Word]:
        """The item's tokens glued back into written words."""

    @abstractmethod
    def _pronoun_reader(self, item: PronounTarget) -> SemiticPronounReader:
        """The language's reader for one pronoun item."""

    @abstractmethod
    def pronoun_form(self, text: str) -> tuple[Gender | None, bool] | None:
        """(gender, plural) of a closed-class 3rd-person pronoun form, or None."""

    @abstractmethod
    def subject_form(self, text: str) -> bool:
        """Whether a closed pronoun form renders a subject (not an object or possessor)."""

    @abstractmethod
    def _function_word(self, text: str) -> bool:
        """A particle, preposition or the like: never the entity's head noun."""

    def _closed_spelling(self, text: str) -> str:
        """The spelling ``free_pronouns`` is keyed by (Arabic unifies hamza seats, Hebrew takes the word as is)."""
        return text

    def _pronoun(self, text: str) -> Gender | None:
        """The gender of a free 3rd-person pronoun (הוא/היא, هو/هي), conjunctions allowed (והיא, وهو), else None."""
        key = self._closed_spelling(text)
        for prefix in self.pronoun_proclitics:
            if key.startswith(prefix) and key[len(prefix) :] in self.free_pronouns:
                return self.free_pronouns[key[len(prefix) :]]
        return None

    @abstractmethod
    def _lexicon_head(self, text: str) -> bool:
        """Whether a word found in the entity lexicon may be the head (not a pronoun or particle)."""

    def _multi_word_starts(self, span: list[int]) -> list[int]:
        """Where a multi-word lexicon form may start: the aligned words by default."""
        return span

    @abstractmethod
    def _head_noun(self, words: list[Word], texts: list[str], k: int) -> bool:
        """Whether word k, not in the lexicon, may be the head noun (a noun, or a word the tool does not know)."""

    @abstractmethod
    def _construct_head(self, texts: list[str], k: int) -> int:
        """The head of the construct phrase word k ends, or k."""

    @abstractmethod
    def _continues_construct(self, texts: list[str], k: int) -> bool:
        """Whether aligned word k still belongs to the entity's construct phrase (its first word carries
        the gender)."""

    @abstractmethod
    def _noun_genders(self, words: list[Word], texts: list[str], k: int) -> tuple[set[Gender], bool]:
        """The genders the tool reads for noun k, and whether the tool knows the word at all."""

    def _closed_list(self, noun: str, text: str) -> GenderReading | None:
        """A reading from a closed list of exceptions, for a head not in the entity lexicon."""
        return None

    @abstractmethod
    def _agreement(self, words: list[Word], texts: list[str], head: int, last: int) -> tuple[Gender, str, str] | None:
        """(gender, what, word) of the first word next to the noun phrase that shows its gender."""

    @abstractmethod
    def _from_ending(self, why: str, noun: str, text: str, known: bool) -> GenderReading | None:
        """A reading from the ending of a head the lexicon and the tool leave without gender."""

    # -- the algorithm ----------------------------------------------------------------------

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        return [self._read_one(item) for item in items]

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        return [self._pronoun_reader(item).read() for item in items]

    def _read_one(self, item: TargetEntity) -> GenderReading:
        span = sorted(i for i in set(item.entity) if 0 <= i < len(item.tokens))
        if not span:
            return GenderReading(Gender.UNKNOWN, "no target words aligned to the entity")
        words = self.words(item)
        texts = [w.text for w in words]
        index = word_index(words)
        span_words = sorted({index[i] for i in span if self.script.search(texts[index[i]])})
        aligned = tuple(item.tokens[i].text for i in span)
        if not span_words:
            return GenderReading(
                Gender.UNKNOWN, f"no {self.language} word among the aligned words '{' '.join(aligned)}'", aligned
            )

        # 1. the head noun: a lexicon rendering of an entity (multi-word first), else the first noun
        head, length, lex_genders = self._find_head(texts, words, span_words)
        if head is None:
            for k in span_words:
                pronoun = self._pronoun(texts[k])
                if pronoun:
                    return GenderReading(
                        pronoun, f"only a pronoun aligned: '{texts[k]}' ({GENDER_NAME[pronoun]})", (texts[k],)
                    )
            return GenderReading(Gender.UNKNOWN, f"no noun among the aligned words '{' '.join(aligned)}'", aligned)
        last = head + length - 1
        tokens = item.tokens
        noun = item.sentence[tokens[words[head].first].start : tokens[words[last].last].end]
        # construct state: the first word carries the gender; the phrase runs on
        while last + 1 in span_words and self._continues_construct(texts, last + 1):
            last += 1

        # 2. the noun's own gender: lexicon, a closed list of exceptions, then the tool
        if lex_genders is not None and None not in lex_genders and len(lex_genders) == 1:
            gender = next(iter(lex_genders))
            assert gender is not None
            agree = ""
            if self.lexicon_confirmed and self._noun_genders(words, texts, head)[0] == {gender}:
                agree = f"; {self.name} agrees"
            return GenderReading(gender, f"noun '{noun}' {GENDER_NAME[gender]} (entity lexicon{agree})", (noun,))
        tool_genders, known = self._noun_genders(words, texts, head)
        if lex_genders is None:
            listed = self._closed_list(noun, texts[head])
            if listed:
                return listed
            if len(tool_genders) == 1:
                gender = next(iter(tool_genders))
                return GenderReading(gender, f"noun '{noun}' {GENDER_NAME[gender]} ({self.name})", (noun,))
        if lex_genders is not None:
            why = f"noun '{noun}' {self.lexicon_epicene} (entity lexicon)"
        elif tool_genders:
            why = f"noun '{noun}' {self.tool_epicene} ({self.name})"
        elif known:
            why = f"'{noun}' has no noun reading in {self.name}"
        else:
            why = f"'{noun}' {UNKNOWN_WORD} {self.name}"

        # 3. the words that agree with it
        agreement = self._agreement(words, texts, head, last)
        if agreement:
            gender, what, word = agreement
            return GenderReading(gender, f"{why}; {what} '{word}' agrees {GENDER_NAME[gender]}", (noun, word))

        # 4. the ending of a word neither the lexicon nor the tool gives a gender
        if lex_genders is None and not tool_genders:
            ending = self._from_ending(why, noun, texts[head], known)
            if ending:
                return ending
        return GenderReading(Gender.UNKNOWN, f"{why}; no agreeing word", (noun,), silent=True)

    def _find_head(
        self, texts: list[str], words: list[Word], span_words: list[int]
    ) -> tuple[int | None, int, set[Gender | None] | None]:
        """(head word, length of its lexicon form, lexicon genders or None): a multi-word lexicon form
        overlapping the aligned words, else a single-word one, else the first noun and its construct head."""
        first = span_words[0]
        for k in self._multi_word_starts(span_words):
            multi = self.lexicon.lookup_multi(texts, k)
            if multi and k + multi[1] > first:
                return k, multi[1], multi[0]
        for k in span_words:
            single = self.lexicon.lookup(texts[k])
            if single and self._lexicon_head(texts[k]):
                return k, 1, single[0]
        nouns = (
            k for k in span_words
            if not self._pronoun(texts[k]) and not self._function_word(texts[k]) and self._head_noun(words, texts, k)
        )
        noun = next(nouns, None)
        if noun is None:
            return None, 1, None
        head = self._construct_head(texts, noun)
        multi = self.lexicon.lookup_multi(texts, head)
        single = self.lexicon.lookup(texts[head])
        if multi:
            return head, multi[1], multi[0]
        return head, 1, single[0] if single else None


class SemiticPronounReader(ABC):
    """Reads one PronounTarget: the order of evidence shared by Arabic and Hebrew; the language's own
    rules (verbs, suffixes, clause openers) come through the hooks."""

    # how the reasons call what a sentence with a dropped pronoun lacks
    nothing_found = "no 3rd-person pronoun form or agreeing verb"
    # whether a subject left unaligned may also be read from a word that carries a pronoun suffix
    subject_from_suffixes = False

    def __init__(self, analyser: SemiticAnalyser, item: PronounTarget) -> None:
        self.an = analyser
        self.item = item
        self.words = analyser.words(item)
        self.texts = [self.key(w.text) for w in self.words]
        index = word_index(self.words)
        span = sorted(i for i in set(item.pronoun) if 0 <= i < len(item.tokens))
        self.span = sorted({index[i] for i in span if analyser.script.search(self.texts[index[i]])})
        self.aligned = tuple(item.tokens[i].text for i in span)
        self.entity = {index[i] for i in item.entity if 0 <= i < len(item.tokens)}

    # -- hooks ------------------------------------------------------------------------------

    def key(self, text: str) -> str:
        """The spelling the closed lists and the tool are given."""
        return text

    @abstractmethod
    def _aligned_predicate(self) -> PronounReading | None:
        """For a subject: the aligned verb (or predicate) that shows the dropped pronoun's gender."""

    @abstractmethod
    def _suffix_reading(self, k: int, subject: bool, strict: bool = False) -> PronounReading | None:
        """Word k's 3rd-person pronoun suffix; ``strict`` for words found without alignment."""

    @abstractmethod
    def _right_of_span(self) -> PronounReading | None:
        """For a subject whose aligned words show nothing: the words just right of them."""

    @abstractmethod
    def _clause_verb(self, allowed: set[int]) -> PronounReading | None:
        """For a dropped subject: the verb opening the last subordinate clause (words in ``allowed``)."""

    # -- the order of evidence --------------------------------------------------------------

    def read(self) -> PronounReading:
        item = self.item
        if not self.span:
            if item.pronoun:
                return PronounReading(Gender.UNKNOWN, f"no {self.an.language} word among '{' '.join(self.aligned)}'",
                                      self.aligned, "no-target-words")
            return self._unaligned("nothing aligned")
        # 1. a closed-class pronoun form, proclitics allowed
        for k in self.span:
            found = self.an.pronoun_form(self.texts[k])
            if found:
                return self._reading(found, f"pronoun '{self.words[k].text}'", k)
        subject = item.role == "subject"
        # 2. a dropped subject: the aligned verb carries its gender
        if subject:
            predicate = self._aligned_predicate()
            if predicate:
                return predicate
        # 3. a pronoun suffix on a noun, verb or preposition
        for k in self.span:
            suffix = self._suffix_reading(k, subject)
            if suffix:
                return suffix
        # 4. a subject aligned to words that show nothing: the words to their right
        if subject:
            right = self._right_of_span()
            if right:
                return right
        return self._unaligned(f"aligned words '{' '.join(self.aligned)}' show no gender")

    def _unaligned(self, why: str) -> PronounReading:
        """When the aligned words show nothing (the aligner often misses clitic pronouns): the sentence's
        pronoun forms in the pronoun's role if they agree in gender; for a subject, the verb opening the
        last subordinate clause; words whose every reading carries a pronoun suffix if they agree; else
        the pronoun was dropped (nothing aligned) or is unreadable."""
        outside = [k for k in range(len(self.words)) if k not in self.entity and k not in self.span]
        all_forms = [(k, f) for k in outside if (f := self.an.pronoun_form(self.texts[k]))]
        subject = self.item.role == "subject"
        forms = [(k, f) for k, f in all_forms if self.an.subject_form(self.texts[k]) == subject]
        if forms:
            if len({f[0] for _, f in forms}) == 1:
                k, found = forms[0]
                return self._reading(found, f"{why}; the sentence's pronoun '{self.words[k].text}'", k)
            return PronounReading(Gender.UNKNOWN, f"{why}; pronoun forms of both genders", self.aligned,
                                  "no-target-words")
        if subject:
            verb = self._clause_verb(set(outside))
            if verb:
                return verb
        if not subject or self.subject_from_suffixes:
            suffixed = [r for k in outside if (r := self._suffix_reading(k, False, strict=True))]
            if len({r.gender for r in suffixed}) == 1:
                return replace(suffixed[0], reason=f"{why}; {suffixed[0].reason}")
            if suffixed:
                return PronounReading(Gender.UNKNOWN, f"{why}; pronoun suffixes of both genders", self.aligned,
                                      "no-target-words")
        if not self.span and not all_forms:
            return PronounReading(Gender.UNKNOWN, f"{why}; {self.nothing_found}", (), "pronoun-dropped")
        return PronounReading(Gender.UNKNOWN, why, self.aligned, "no-target-words")

    def _reading(self, found: tuple[Gender | None, bool], what: str, k: int) -> PronounReading:
        """The reading of pronoun form ``found`` (gender, plural) shown by word k; no gender is the dual."""
        gender, plural = found
        word = self.words[k].text
        if gender is None:
            return PronounReading(Gender.UNKNOWN, f"{what}: dual, no gender", (word,), "neutral-form")
        return PronounReading(gender, f"{what} ({form_name(gender, plural)})", (word,))
