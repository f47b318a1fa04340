"""German pronouns (target-side consistency): the gender a translation gives the English pronoun.

German keeps its subject pronouns, so the aligned word is read by its form — er/ihn/ihm and sein-
masculine, ihr feminine, sie feminine with a singular finite verb and plural (no gender) with a plural
one, es and polite Sie neutral forms, demonstratives (dieser, "weil die …") and relative pronouns by
their own gender. When the aligner missed the pronoun, the pronoun of the aligned words' clause (or the
only one fitting the role) is read.

Why a module of its own: reading a pronoun is another job than reading the entity noun (its own word
classes, clause and verb-number rules), kept apart as in every other language. The reader borrows the
analyser's memoised lookups (HanTa's word tags, german-nouns through ``noun_info``, the entity's head
noun), so the tagger and the lexicon still load once per process, in ``GermanAnalyser``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from discotest.lang.morph.base import Gender, PronounReading, PronounTarget, Token
from discotest.lang.morph.de_words import (
    CLAUSE_OPENERS,
    DETERMINERS,
    GENUS_NAME,
    PREP_CASES,
    SKIPPABLE,
    NounInfo,
)


class GermanPronounReader:
    """Reads :class:`PronounTarget` items with the German analyser's lookups."""

    def __init__(
        self,
        analyse: Callable[[str], tuple[str, list[tuple[str, str]]]],
        noun_info: Callable[[str], NounInfo],
        head: Callable[[tuple[Token, ...], tuple[int, ...]], int | None],
    ) -> None:
        self._analyse = analyse  # HanTa's tag and morphemes of a word out of context (memoised)
        self._noun_info = noun_info  # genders and case cells of a noun form (memoised)
        self._head = head  # the entity's noun among its aligned tokens

    def read(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """The gender each translation gives the English pronoun, read from German word forms.

        German keeps its subject pronouns, so the reading is almost always a personal or possessive
        pronoun: er/ihn/ihm and sein- are masculine, ihr (dative) feminine, sie feminine in the
        singular and genderless in the plural (the finite verb tells: "sie war" / "sie waren"), es,
        plural ihnen and polite Sie neutral forms. Only where the form itself is ambiguous between a
        feminine singular and a plural (accusative sie, possessive ihr-) does the English pronoun's
        number decide — never its gender. HanTa's memoised word tags find the finite verb; no
        sentence tagging is run, so a batch costs little more than its new words.
        """
        return [self._read_pronoun(item) for item in items]

    def _read_pronoun(self, item: PronounTarget) -> PronounReading:
        tokens = item.tokens
        span = sorted(i for i in set(item.pronoun) if 0 <= i < len(tokens))
        if span:
            found = self._best_form(item, span, "aligned")
            if found:
                return found
            found = self._near_span(item, span)
            if found:
                return found
            words = tuple(tokens[i].text for i in span)
            return PronounReading(Gender.UNKNOWN, f"aligned words '{' '.join(words)}' render no pronoun", words,
                                  "no-target-words")
        return self._unaligned_pronoun(item)

    def _best_form(self, item: PronounTarget, candidates: Sequence[int], how: str) -> PronounReading | None:
        """The reading of the candidate pronoun forms: those fitting the English role first, then any."""
        forms = [(i, form) for i in candidates if (form := self._pronoun_form(item, i))]
        if not forms:
            return None
        fitting = [(i, form) for i, form in forms if self._fits_role(item, i)] or forms
        i, (cls, why) = fitting[0]
        return _pronoun_reading(cls, f"{how} {why}", (item.tokens[i].text,))

    def _near_span(self, item: PronounTarget, span: list[int]) -> PronounReading | None:
        """The aligner took a neighbour (the conjunction, the verb): the nearest pronoun in its clause."""
        tokens = item.tokens
        entity = set(item.entity)
        start, end = _clause_bounds(tokens, span[0]), _clause_end(tokens, span[-1])
        clause = [i for i in range(start, end) if i not in span and i not in entity]
        clause.sort(key=lambda i: min(abs(i - j) for j in span))
        candidates = [i for i in clause if self._fits_role(item, i) and _searchable(item.tokens, i)]
        return self._best_form(item, candidates, "near the aligned words:")

    def _unaligned_pronoun(self, item: PronounTarget) -> PronounReading:
        """Nothing aligned: the pronoun forms fitting the English role, if they all read the same.

        es/das/dies are left out (unaligned, they are far more often "it" or an expletive: "kam es zu");
        for a subject, nominative forms are tried before dative experiencers (ihm, ihr).
        """
        entity = set(item.entity)
        forms = {
            i: form for i in range(len(item.tokens))
            if i not in entity and self._fits_role(item, i) and _searchable(item.tokens, i)
            and item.tokens[i].text.lower() not in ("es", "das", "dies") and (form := self._pronoun_form(item, i))
        }
        nominative = {i: form for i, form in forms.items() if item.tokens[i].text.lower() not in ("ihm", "ihr")}
        if item.role == "subject" and nominative:
            forms = nominative
        if not forms:
            return PronounReading(Gender.UNKNOWN, "nothing aligned and no pronoun fitting the role", (),
                                  "no-target-words")
        if len({cls for cls, _ in forms.values()}) == 1:
            i = min(forms)
            cls, why = forms[i]
            return _pronoun_reading(cls, f"unaligned; the only fitting form: {why}", (item.tokens[i].text,))
        words = tuple(item.tokens[i].text for i in sorted(forms))
        return PronounReading(Gender.UNKNOWN, f"nothing aligned; candidate pronouns disagree: {' '.join(words)}",
                              words)

    def _fits_role(self, item: PronounTarget, i: int) -> bool:
        """Can the German word render an English pronoun of this role? (he: er, der; his: sein-, ihr-)"""
        low = item.tokens[i].text.lower()
        role = item.role
        if item.source_pronoun == "her":  # object or possessive: the English tagger may have guessed wrong
            return low in _OBJECT_FORMS or low in _POSSESSIVE_FORMS
        if role == "subject":
            if low in ("sie", "die", "diese"):
                return _subject_position(item.tokens, i)
            return low in _SUBJECT_FORMS
        if role == "possessive":
            return low in _POSSESSIVE_FORMS
        if role == "reflexive":
            return low in _OBJECT_FORMS or low in ("sich", "selbst", "selber")
        return low in _OBJECT_FORMS  # not sich: that is the German subject's own reflexive

    def _pronoun_form(self, item: PronounTarget, i: int) -> tuple[str, str] | None:
        """(class, why) of a German word that can render a third-person pronoun, or None.

        Classes: m, f, n (neuter: es, or sein-/ihm of a neuter antecedent), p (plural), polite (Sie),
        none (sich, selbst: no gender form).
        """
        tokens = item.tokens
        text = tokens[i].text
        low = text.lower()
        plural_source = item.source_pronoun in _PLURAL_SOURCE
        polite = text[:1].isupper() and not _sentence_start(tokens, i)
        if low in ("sie", "ihnen", "ihr", "ihre", "ihrem", "ihren", "ihrer", "ihres") and polite:
            return "polite", f"capitalised '{text}' mid-sentence (polite address)"
        if low == "er":
            return "m", "pronoun 'er'"
        if low == "ihn":
            return "m", "pronoun 'ihn'"
        if low in ("ihm", *_SEIN, "dessen") or (low == "diesem" and self._pronominal(tokens, i)):
            if low == "sein" and not self._determiner_use(tokens, i):
                return None  # the verb "sein" (to be)
            if self._neuter_entity(item):
                return "n", f"'{text}' (masculine/neuter) with a neuter antecedent"
            if low in _SEIN or low == "dessen":
                return "m", f"possessive '{text}' (masculine/neuter possessor)"
            return "m", f"pronoun '{text}' (masculine/neuter dative)"
        if low in ("es", "dies") or (low == "dieses" and self._pronominal(tokens, i)):
            return "n", f"neuter '{text}'"
        if low in ("ihnen", "denen"):
            return "p", f"plural '{text}'"
        if low in ("sich", "selbst", "selber"):
            if item.role != "reflexive":
                return None  # the subject's own reflexive ("bedankte sich"), not the English object
            return "none", f"'{text}' has no gender form"
        if low in ("man", "jemand", "jemanden", "jemandem", "niemand"):
            return "none", f"indefinite '{text}'"
        if low in ("der", "die", "den", "dem") and (relative := self._relative(tokens, i)):
            return relative
        if low == "sie" or (low in ("die", "diese", "diejenige", "welche") and self._pronominal(tokens, i)):
            number, why = self._subject_number(item, i)
            if number == "pl":
                return "p", f"'{text}' {why}: plural"
            return "f", f"'{text}' {why}: feminine singular"
        if low == "ihr":
            if plural_source and not self._dative_ihr(tokens, i):
                return "p", "possessive 'ihr' for a plural English pronoun"
            return "f", "'ihr' (feminine dative or possessor)"
        if low in _IHR:
            if plural_source:
                return "p", f"possessive '{text}' for a plural English pronoun"
            return "f", f"possessive '{text}' (feminine possessor)"
        if low in ("deren", "derer"):
            return ("p", f"'{text}' for a plural English pronoun") if plural_source else \
                ("f", f"'{text}' (feminine possessor)")
        if low in ("derjenige", "welcher") or (
            low in ("der", "dem", "den", "dieser", "diesen", "jener") and self._pronominal(tokens, i)
        ):
            if low in ("den", "diesen") and plural_source:
                return "p", f"'{text}' for a plural English pronoun"
            return "m", f"demonstrative '{text}' (masculine)"
        return None

    def _determiner_use(self, tokens: tuple[Token, ...], i: int) -> bool:
        """'sein' as a possessive (sein Vorschlag, sein erster Tag), not the verb (zufrieden sein wird)."""
        nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
        if not nxt[:1].isalpha() or (i > 0 and tokens[i - 1].text.lower() == "zu"):
            return False
        return nxt[:1].isupper() or self._analyse(nxt)[0] in ("ADJ(A)", "CARD")

    def _pronominal(self, tokens: tuple[Token, ...], i: int) -> bool:
        """der/die/den used as a pronoun ("weil die keinen Computer hatte"), not as an article."""
        nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
        if not nxt[:1].isalpha():
            return True
        if nxt[:1].isupper():
            return False  # its noun
        tag = self._analyse(nxt)[0]
        # an adjective or number before its noun ("die neue Ärztin") makes it an article
        return not (tag.startswith("ADJ(A)") or tag == "CARD" or nxt.lower() in SKIPPABLE | _QUANTIFIERS)

    def _relative(self, tokens: tuple[Token, ...], i: int) -> tuple[str, str] | None:
        """A relative pronoun after a comma ("Unterlagen , die er …") agrees with the noun before the
        comma in gender and number: (class, why), or None when that noun does not decide."""
        if i < 2 or tokens[i - 1].text != "," or not tokens[i - 2].text[:1].isupper():
            return None
        if not self._pronominal(tokens, i):
            return None  # an article after the comma (", der Arzt")
        noun = tokens[i - 2].text
        readings = DETERMINERS[tokens[i].text.lower()][0]
        cells = self._noun_info(noun).cells
        singular = {g for g, case, number, _ in cells for rg, rc, rn in readings
                    if number == rn == "sg" and rg == g and rc == case}
        plural = any(number == rn == "pl" and rc == case for _, case, number, _ in cells for _, rc, rn in readings)
        if plural and not singular:
            return "p", f"relative '{tokens[i].text}' of the plural '{noun}'"
        if len(singular) == 1 and not plural:
            genus = next(iter(singular))
            return genus, f"relative '{tokens[i].text}' of '{noun}' ({GENUS_NAME[genus]})"
        return None

    @staticmethod
    def _dative_ihr(tokens: tuple[Token, ...], i: int) -> bool:
        """'ihr' as a dative pronoun ("gab ihr einen Apfel"), not a possessive ("ihr Leben")."""
        nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
        return not nxt[:1].isalpha() or nxt.lower() in DETERMINERS or nxt.lower() in PREP_CASES or \
            nxt.lower() in CLAUSE_OPENERS

    def _neuter_entity(self, item: PronounTarget) -> bool:
        """Is the antecedent a neuter person noun (das Kind, das Opfer)? Then sein-/ihm are neuter too.

        Only nouns the entity lexicon knows as persons count: a mislocated entity (sota's "Tribunal")
        must not turn every "sein" into a neuter.
        """
        if not item.entity:
            return False
        head = self._head(item.tokens, item.entity)
        if head is None or not item.tokens[head].text[:1].isupper():
            return False
        info = self._noun_info(item.tokens[head].text)
        return bool(info.person) and info.genders == frozenset({"n"})

    def _subject_number(self, item: PronounTarget, i: int) -> tuple[str, str]:
        """("sg" | "pl", why) for sie/die: the number of its finite verb, else of the English pronoun."""
        tokens = item.tokens
        prev = tokens[i - 1].text.lower() if i > 0 else ""
        verb: int | None = None
        opens_clause = i == 0 or not tokens[i - 1].text[:1].isalnum() or prev in CLAUSE_OPENERS
        # after an oblique relative ("dem sie half") sie is the subject; after der/die/das either may be
        if opens_clause or (prev in _OBLIQUE_RELATIVES and i > 1 and tokens[i - 2].text == ","):
            if prev in _SUBORDINATORS or prev in _OBLIQUE_RELATIVES:
                verb = self._final_verb(tokens, i)  # verb-final clause: weil sie ... war
            else:
                verb = self._next_verb(tokens, i)  # main clause: (und) sie war ...
        elif prev in ("der", "das") and i > 1 and tokens[i - 2].text == ",":
            # "das Haus , das sie gekauft hatten": a plural verb cannot agree with the relative
            final = self._final_verb(tokens, i)
            if final is not None and _plural_verb(tokens[final].text):
                verb = final
        elif item.role == "subject" and self._is_finite(tokens[i - 1].text):
            verb = i - 1  # inverted: dann war sie
        if verb is not None:
            number = "pl" if _plural_verb(tokens[verb].text) else "sg"
            return number, f"with the {'plural' if number == 'pl' else 'singular'} verb '{tokens[verb].text}'"
        number = "pl" if item.source_pronoun in _PLURAL_SOURCE else "sg"
        return number, f"(number of English '{item.source_pronoun}')"

    def _is_finite(self, word: str) -> bool:
        return word[:1].islower() and self._analyse(word)[0] in _FINITE_TAGS

    def _final_verb(self, tokens: tuple[Token, ...], i: int) -> int | None:
        """The finite verb of a verb-final clause: its last word HanTa tags finite, else a clause-final
        -en form it tags infinitive or adjective (verlassen, benötigten: plural finite forms too).
        A participle alone (sota's "weil sie das Buch gerne gesehen") or "zu haben" is no finite verb."""
        end = _clause_end(tokens, i + 1)
        words = [k for k in range(i + 1, end) if tokens[k].text[:1].islower() and tokens[k - 1].text.lower() != "zu"]
        for k in reversed(words):
            if self._analyse(tokens[k].text)[0] in _FINITE_TAGS:
                return k
        if words and words[-1] == end - 1 and self._analyse(tokens[end - 1].text)[0] in ("VV(INF)", "ADJ(A)"):
            return end - 1
        return None

    def _next_verb(self, tokens: tuple[Token, ...], i: int) -> int | None:
        """The finite verb of a main clause: the first finite word after the subject."""
        end = _clause_end(tokens, i + 1)
        for k in range(i + 1, min(end, i + 4)):
            if self._is_finite(tokens[k].text) and tokens[k - 1].text.lower() != "zu":  # not "sie zu klagen"
                return k
        return None


_SEIN = ("sein", "seine", "seinem", "seinen", "seiner", "seines")
_IHR = ("ihre", "ihrem", "ihren", "ihrer", "ihres")
_PLURAL_SOURCE = frozenset({"they", "them", "their", "theirs", "themselves", "themself"})
_SUBJECT_FORMS = frozenset({
    "er", "sie", "es", "der", "die", "dieser", "diese", "jener", "derjenige", "diejenige", "welcher", "welche",
    "man", "jemand", "ihm", "ihr",  # dative experiencers: "weil ihm das Design nicht gefiel"
})
_OBJECT_FORMS = frozenset({
    "ihn", "ihm", "sie", "ihr", "es", "ihnen", "den", "dem", "diesen", "diesem", "denen", "die", "diese",
    "jemanden", "jemandem",
})
_POSSESSIVE_FORMS = frozenset({*_SEIN, "ihr", *_IHR, "dessen", "deren", "derer", "ihn", "ihm"})
_SUBORDINATORS = frozenset({
    "weil", "da", "dass", "daß", "ob", "als", "wenn", "nachdem", "obwohl", "bevor", "damit", "sobald", "wie",
    "wo", "sodass", "bis", "seit", "falls", "obgleich", "während", "ehe", "indem", "sofern", "solange",
})
_OBLIQUE_RELATIVES = frozenset({"den", "dem", "denen", "dessen", "deren", "welchen", "welchem"})
# words between an article and its noun that HanTa tags as pronouns: "die beiden Länder"
_QUANTIFIERS = frozenset({"beiden", "vielen", "meisten", "wenigen", "einzelnen", "übrigen", "anderen", "ganzen"})
_DEMONSTRATIVES = frozenset({
    "der", "die", "den", "dem", "dieser", "diese", "diesen", "diesem", "jener", "derjenige", "diejenige", "welcher",
    "welche",
})
_FINITE_TAGS = frozenset({"VV(FIN)", "VA(FIN)", "VM(FIN)"})
_CLAUSE_MARKS = frozenset({",", ".", ";", ":", "!", "?", "(", ")", '"', "„", "“", "–", "—"})


def _clause_bounds(tokens: tuple[Token, ...], i: int) -> int:
    """Index of the first token of the clause holding token ``i`` (after the last punctuation)."""
    k = i
    while k > 0 and tokens[k - 1].text not in _CLAUSE_MARKS:
        k -= 1
    return k


def _clause_end(tokens: tuple[Token, ...], i: int) -> int:
    """Index just past the clause that starts at or holds token ``i`` (the next punctuation)."""
    k = i
    while k < len(tokens) and tokens[k].text not in _CLAUSE_MARKS:
        k += 1
    return k


def _subject_position(tokens: tuple[Token, ...], i: int) -> bool:
    """Can sie/die here be a subject? Yes at the start of a clause or after the finite verb of an
    inverted clause ("dann war sie"); no right after a clause-initial verb, whose subject is shared with
    the previous clause ("und reichte sie dann ein": sie is the object)."""
    if i == 0 or not tokens[i - 1].text[:1].isalnum() or tokens[i - 1].text.lower() in CLAUSE_OPENERS:
        return True
    before = tokens[i - 2].text if i > 1 else ","
    return before[:1].isalnum() and before.lower() not in CLAUSE_OPENERS


def _searchable(tokens: tuple[Token, ...], i: int) -> bool:
    """May a search (nothing usable aligned) take this word? der/die/dieser only right after a
    conjunction ("weil die …"): after a comma they are mostly relative pronouns of another noun."""
    if tokens[i].text.lower() not in _DEMONSTRATIVES:
        return True
    return i > 0 and tokens[i - 1].text.lower() in CLAUSE_OPENERS


def _sentence_start(tokens: tuple[Token, ...], i: int) -> bool:
    """Where a capital says nothing (MT capitalises after a semicolon too: "; Ihr Tumor")."""
    return i == 0 or tokens[i - 1].text in (".", "!", "?", ":", ";", '"', "„", "“", "«", "»")


def _plural_verb(word: str) -> bool:
    """Third-person plural finite forms end in -en/-ern/-eln (waren, müssten, ändern); sind, tun."""
    low = word.lower()
    if low.endswith("schien"):  # (er)schien: a singular past that ends in -en
        return False
    return low in ("sind", "tun") or low.endswith(("en", "ern", "eln"))


def _pronoun_reading(cls: str, why: str, words: tuple[str, ...]) -> PronounReading:
    if cls == "m":
        return PronounReading(Gender.MALE, why, words)
    if cls == "f":
        return PronounReading(Gender.FEMALE, why, words)
    return PronounReading(Gender.UNKNOWN, why, words, "neutral-form")

