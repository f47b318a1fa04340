"""Noun-phrase rules shared by the French and Spanish (spaCy) and the Italian (Apertium) analysers.

In all three the article decides an epicene noun (le/la juge, il/la docente) and the noun's own form
decides the rest (infirmière, infermiera); a tool is needed only where both are silent (an elided
article, no article). What needs no tool lives here: the entity lexicon as noun classes, the walk
from the head noun left to its article over prenominal adjectives, and the order in which the cues
decide (``decide``). Each language supplies its tables as class attributes of ``RomanceNounRules``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from discotest.lang.lexicon import english_kept, entity_lexicon
from discotest.lang.morph.base import Gender, GenderReading, TargetEntity

M, F, N = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL
COMMON = "common"  # lexical class of an epicene noun form
NO_SPAN = "no target words aligned to the entity"
NAMES = {M: "masculine", F: "feminine"}
MAX_PRENOMINAL = 3  # adjectives the walk from the noun to its article crosses ("la amable y tímida dietista")
# a word's reading as a prenominal adjective: (is it one, the gender its form shows: None for agradable, jeune)
AdjectiveTest = Callable[[int], tuple[bool, "Gender | None"]]
_APOSTROPHES = str.maketrans({"’": "'", "`": "'", "´": "'"})


def norm(word: str) -> str:
    """Lower case, one apostrophe, NFC: the key every table below is looked up with."""
    return unicodedata.normalize("NFC", word.translate(_APOSTROPHES).lower())


@cache
def lexicon_classes(lang: str) -> dict[str, object]:
    """Noun form -> MALE, FEMALE or COMMON, from the entity lexicon of ``lang``.

    A multi-word form's first word is its head (Romance noun phrases are head-initial): "femme" of
    "femme de ménage" is feminine. Single-word entries win over such heads; a form listed with two
    genders, or as common anywhere, is common.
    """
    single: dict[str, set[object]] = {}
    heads: dict[str, set[object]] = {}
    for forms in entity_lexicon(lang).values():
        for cls, group in ((M, forms.masculine), (F, forms.feminine), (COMMON, forms.common)):
            for form in group:
                words = norm(form).split()
                (single if len(words) == 1 else heads).setdefault(words[0], set()).add(cls)
    out: dict[str, object] = {}
    for table in (heads, single):  # single-word entries overwrite heads
        for word, classes in table.items():
            out[word] = COMMON if COMMON in classes or len(classes) > 1 else next(iter(classes))
    return out


@dataclass(frozen=True)
class Cue:
    """One word that shows a gender, and what kind of word it is."""

    gender: Gender
    kind: str  # "article", "adjective", "participle", "tagger"
    word: str


@dataclass
class Finding:
    """What the rules and the tool found for one item."""

    head: int | None = None  # token index of the head noun
    noun: str = ""
    noun_class: object = None  # MALE / FEMALE / COMMON / None (unknown word)
    noun_source: str = ""  # "lexicon" or "suffix"
    article: Cue | None = None
    article_word: str = ""  # also an article that shows no gender (l', les)
    stopped_at: int | None = None  # the word the walk to the article stopped at, when no table knows it
    walk_end: int | None = None  # the word (any but an article) the walk to the article ended at
    article_at: int | None = None  # token index of the article (its first token when elided and split)
    agreement: list[Cue] = field(default_factory=list)
    tagger: Cue | None = None
    reading: GenderReading | None = None  # set when decided


def indefinite_agreement(reading: GenderReading, cues: list[Cue]) -> GenderReading:
    """A generic indefinite (es *alguien*, fr *quelqu'un*, it *qualcuno*: the default masculine) whose agreeing words
    are all feminine (*alguien … cansada*, *quelqu'un de fatiguée*, *qualcuno era stanca*) marks the person, as
    *qualcuna* and ru *кто-то сказала* do: read female, not generic. A masculine agreeing word is the default's own
    agreement and a mixture is not unambiguous: the reading stays generic."""
    if not reading.generic or not cues or any(c.gender is not F for c in cues):
        return reading
    words = tuple(dict.fromkeys(c.word for c in cues))
    return GenderReading(F, f"indefinite pronoun '{reading.evidence[0]}' with feminine agreement "
                            f"'{' '.join(words)}'", (*reading.evidence, *words))


def decide(f: Finding, tagger_name: str) -> GenderReading:
    """Combine the cues: feminine noun form > article > masculine noun form > agreement > tagger."""
    noun = f.noun
    evidence = tuple(w for w in (f.article_word, noun) if w)
    src = f" ({f.noun_source})" if f.noun_source else ""
    # a feminine form the lexicon knows decides even after "el" (el ama de llaves); one read off the
    # ending only (collega, pediatra) yields to the article
    if f.noun_class is F and (f.noun_source == "lexicon" or f.article is None or f.article.gender is F):
        tail = f"; article '{f.article.word}' agrees" if f.article and f.article.gender is F else ""
        return GenderReading(F, f"feminine noun form '{noun}'{src}{tail}", evidence)
    if f.article is not None:
        kind = {M: "masculine", F: "feminine", COMMON: "epicene", None: "noun"}.get(f.noun_class, "noun")
        what = f"{kind} noun '{noun}'" if kind != "noun" else f"noun '{noun}'"
        return GenderReading(
            f.article.gender, f"{NAMES[f.article.gender]} article '{f.article.word}' + {what}", evidence
        )
    if f.noun_class is M:
        return GenderReading(M, f"masculine noun form '{noun}'{src}", evidence)
    hidden = (
        f"elided article '{f.article_word}'"
        if f.article_word.endswith("'")
        else (f"article '{f.article_word}' without gender" if f.article_word else "no article")
    )
    genders = {c.gender for c in f.agreement}
    if len(genders) == 1:
        g = genders.pop()
        words = ", ".join(f"{c.kind} '{c.word}'" for c in f.agreement)
        return GenderReading(
            g, f"{hidden} on '{noun}'; {NAMES[g]} {words} agrees", evidence + tuple(c.word for c in f.agreement)
        )
    if len(genders) > 1:
        words = ", ".join(f"'{c.word}' ({c.gender})" for c in f.agreement)
        return GenderReading(
            Gender.UNKNOWN,
            f"{hidden} on '{noun}'; agreeing words disagree: {words}",
            evidence + tuple(c.word for c in f.agreement),
        )
    if f.noun_class == COMMON:
        return GenderReading(Gender.UNKNOWN, f"epicene noun '{noun}' with {hidden} and no agreeing word", evidence,
                             silent=True)
    if f.tagger is not None:
        return GenderReading(
            f.tagger.gender,
            f"{tagger_name} tags '{noun}' {NAMES[f.tagger.gender]} ({hidden}, no agreeing word)",
            evidence,
        )
    return GenderReading(Gender.UNKNOWN, f"no gender shown for '{noun}' ({hidden}, no agreeing word)", evidence,
                         silent=True)


def no_noun(item: TargetEntity, span: list[int]) -> GenderReading:
    """The reading when neither the rules nor the tool find a noun among the aligned tokens."""
    words = " ".join(item.tokens[i].text for i in span)
    return GenderReading(
        Gender.UNKNOWN, f"no noun among the aligned words '{words}'", tuple(item.tokens[i].text for i in span)
    )


class RomanceNounRules:
    """The rules that need no tool (lexicon, noun ending, article, prenominal adjectives), with each
    language's tables as class attributes. ``_rules`` decides what it can; the rest goes to the tool."""

    tagger_name = ""  # named in the reasons when the tool's noun tag decides
    # determiner (lower case) -> MALE / FEMALE / None (an article that shows no gender)
    articles: dict[str, Gender | None] = {}
    # possessives that stay masculine before a vowel-initial feminine noun (fr "son amie")
    before_vowel_ambiguous: frozenset[str] = frozenset()
    # adjectives that come before the noun -> gender shown (None = invariable)
    prenominal: dict[str, Gender | None] = {}
    # whether a prenominal adjective is cited as written (else in its normalised spelling)
    prenominal_as_written = False
    # degree adverbs and "and" between prenominal adjectives ("la muy tímida", "la amable y tímida")
    prenominal_links: frozenset[str] = frozenset()
    elision_stems: frozenset[str] = frozenset()  # "l" of a Moses-split "l ' agent"
    bare_prepositions: frozenset[str] = frozenset()  # before a noun complement: "rédacteur en chef"
    _classes: dict[str, object]  # the entity lexicon: lexicon_classes(lang)
    lang: str = ""

    def suffix_class(self, word: str) -> object:
        """Gender class a noun's ending shows when the lexicon does not know it (None: no idea)."""
        return None

    def _indefinite(self, item: TargetEntity, span: list[int]) -> GenderReading | None:
        """The reading of an indefinite pronoun rendering "someone" among the aligned tokens, if any."""
        return None

    def _noun_class(self, word: str, noun: bool = True) -> tuple[object, str]:
        """Lexical class of a head word; the ending is read only for words tagged as nouns."""
        key = norm(word)
        if key in self._classes:
            if self._classes[key] is M and english_kept(key, self.lang) and self.suffix_class(key) is None:
                # an English noun left untranslated whose ending is not native (it "l'auditor"; es "auditor" is
                # native): no gender of its own, so the article, the words agreeing with it or, where these are
                # silent, the entity's pronoun decide (issue 40)
                return None, ""
            return self._classes[key], "lexicon"
        cls = self.suffix_class(key) if noun else None
        return (cls, "suffix") if cls is not None else (None, "")

    def _table_adjective(self, item: TargetEntity, i: int) -> tuple[bool, Gender | None]:
        """A prenominal adjective by the language's table alone (the rules' walk, before any tool runs)."""
        word = norm(item.tokens[i].text)
        return (True, self.prenominal[word]) if word in self.prenominal else (False, None)

    def _article(self, item: TargetEntity, head: int, finding: Finding, adjective: AdjectiveTest | None = None) -> None:
        """Walk left from the head over prenominal adjectives to the determiner.

        An adjective is a word of the ``prenominal`` table or, once the tool has run, one ``adjective`` says is an
        adjective ("La tímida dietista", "El fuerte nutricionista"): invariable ones (agradable, fuerte) are crossed
        and show nothing, the article still decides. Adjectives joined by a link word (y, et, molto) count only when
        the walk reaches the article: "el médico cansado y tímida dietista" is two noun phrases.
        """
        toks = item.tokens
        test = adjective or (lambda k: self._table_adjective(item, k))
        i = head - 1
        adjectives = 0
        pending: list[Cue] = []  # adjectives beyond a link word: kept when an article closes the phrase
        linked = False
        while i >= 0:
            word = norm(toks[i].text)
            if word == "'" and i > 0 and norm(toks[i - 1].text) in self.elision_stems:
                word = norm(toks[i - 1].text) + "'"  # Moses-split elision "l ' agent"
                i -= 1
            if word in self.articles:
                finding.article_word, finding.article_at = word, i
                finding.agreement.extend(pending)
                g = self.articles[word]
                if g is not None and word in self.before_vowel_ambiguous:
                    nxt = norm(toks[i + 1].text) if i + 1 < len(toks) else ""
                    if nxt[:1] in "aeiouhâàéèêëîïôûùœy":
                        g = None
                if g is not None:
                    finding.article = Cue(g, "article", word)
                return
            is_adjective, g = test(i) if adjectives < MAX_PRENOMINAL else (False, None)
            if is_adjective:
                if g is not None:
                    cue = Cue(g, "adjective", toks[i].text if self.prenominal_as_written else word)
                    (pending if linked else finding.agreement).append(cue)
                adjectives += 1
                i -= 1
                continue
            if word in self.prenominal_links and adjectives and i > 0:
                linked = True
                i -= 1
                continue
            if any(ch.isalpha() for ch in word) and (word not in self._classes or word in self.prenominal):
                finding.stopped_at = i  # perhaps an adjective no table knows: the tool may walk on
            if any(ch.isalpha() for ch in word):
                finding.walk_end = i
            return

    def _head(self, item: TargetEntity, span: list[int]) -> int | None:
        """The first span token the lexicon knows as a noun (Romance heads come first).

        When the span has gaps, a known noun right after a bare preposition is a complement of some
        other noun ("rédacteur en chef"), so another candidate is preferred.
        """
        known = [i for i in span if norm(item.tokens[i].text) in self._classes]
        firsts = [i for i in known if i - 1 not in known]  # one candidate per contiguous run
        heads = [i for i in firsts if i == 0 or norm(item.tokens[i - 1].text) not in self.bare_prepositions]
        if heads or firsts:
            return (heads or firsts)[0]
        # only an article was aligned: the noun right after it
        if all(norm(item.tokens[i].text) in self.articles for i in span):
            nxt = span[-1] + 1
            while nxt < len(item.tokens) and norm(item.tokens[nxt].text) in self.prenominal:
                nxt += 1
            if nxt < len(item.tokens) and norm(item.tokens[nxt].text) in self._classes:
                return nxt
        return None

    def _rules(self, item: TargetEntity) -> Finding:
        """What the rules read without the tool; ``reading`` is set when that decides."""
        finding = Finding()
        span = sorted(i for i in item.entity if any(ch.isalnum() for ch in item.tokens[i].text))
        if not span:
            finding.reading = GenderReading(Gender.UNKNOWN, NO_SPAN)
            return finding
        indefinite = self._indefinite(item, span)
        if indefinite is not None:
            finding.reading = indefinite
            if indefinite.generic:  # the tool's pass looks for a feminine word agreeing with it (indefinite_agreement)
                word = norm(indefinite.evidence[0])
                finding.head = max((i for i in span if word.endswith(norm(item.tokens[i].text))), default=span[-1])
            return finding
        finding.head = self._head(item, span)
        if finding.head is not None:
            self._fill(item, finding)
        return finding

    def _fill(self, item: TargetEntity, finding: Finding, noun: bool = True) -> None:
        """The head's noun class and article; decided when the noun form or the article shows a gender.

        A noun form read off its ending (or a masculine one) yields to the article, so it decides here only when the
        walk to the article did not stop at a word the tables do not know: that may be an adjective hiding the
        article ("la tímida médico"), which the tool's walk (``_walk_with_tool``) crosses.
        """
        assert finding.head is not None
        finding.noun = item.tokens[finding.head].text
        finding.noun_class, finding.noun_source = self._noun_class(finding.noun, noun)
        self._article(item, finding.head, finding)
        lexicon_feminine = finding.noun_class is F and finding.noun_source == "lexicon"
        gendered_form = finding.noun_class is F or finding.noun_class is M
        if finding.article is not None or lexicon_feminine or (gendered_form and finding.stopped_at is None):
            finding.reading = decide(finding, self.tagger_name)

    def _walk_with_tool(
        self, item: TargetEntity, finding: Finding, adjective: AdjectiveTest, number: Callable[[int], str | None],
        is_noun: Callable[[int], bool] | None = None,
    ) -> None:
        """Walk to the article again, crossing the adjectives the tool knows (once the rules' walk stopped).

        ``number`` is the tool's number of a token ("sg", "pl", None): a word, or an article, whose number is not the
        noun's belongs to another phrase ("le mance bell'assistente"), and the walk stops there. ``is_noun`` is the
        tool's word class: a walk that ends at a noun, not at an article, crossed that noun's adjectives ("experto en
        alerta temprana noruego": temprana is alerta's), so they are not read as ours.
        """
        if finding.head is None or finding.stopped_at is None or finding.article is not None:
            return
        head_number = number(finding.head)

        def agrees(i: int) -> bool:
            n = number(i)
            return head_number is None or n is None or n == head_number

        def test(i: int) -> tuple[bool, Gender | None]:
            known = self._table_adjective(item, i)
            if known[0]:
                return known
            found = adjective(i)
            return found if found[0] and agrees(i) else (False, None)

        finding.agreement.clear()  # the table's cues, read again on the way
        finding.article_word, finding.stopped_at, finding.walk_end = "", None, None
        self._article(item, finding.head, finding, test)
        if finding.article_word == "" and finding.walk_end is not None and is_noun is not None \
                and is_noun(finding.walk_end):
            finding.agreement.clear()  # the adjectives crossed follow the noun the walk ended at
        if finding.article_at is not None and not agrees(finding.article_at):
            finding.article, finding.article_word, finding.article_at = None, "", None
            finding.agreement.clear()
