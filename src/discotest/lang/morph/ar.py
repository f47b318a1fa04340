"""Arabic gender analyser: farahidi (a port of AlKhalil Morpho Sys 2, its lexicon inside the wheel) + the
entity lexicon.

Arabic marks the feminine of most profession nouns with ta marbuta (الممرضة / الممرض) and glues
proclitics to the noun (ال، و، ف، ب، ل، ك، لل). Neither is read off the last letter alone: the
entity lexicon (curated renderings of the WinoMT entities, clitics stripped) comes first, then
farahidi's noun readings (their ``gender``), then a closed list of ة-final nouns that are masculine
(عمدة "mayor", collective plurals such as المارة "passers-by"). Only when the noun leaves it open
(an epicene lexicon form, a word farahidi does not know) do the words that agree with it decide: a
relative pronoun (الذي / التي), a demonstrative, an attributive adjective, a copula pronoun, the verb
the entity is the subject of (قالت الممرضة / الممرضة قالت: ت suffix or prefix). Pronouns elsewhere
are coreference, not agreement, and are never used: they would copy the English pronoun. farahidi
reads هي/هو as verbs (وَهَى …), so pronouns and particles come from closed lists.

The shared tokeniser splits words at diacritics (الميكانيكيّة → الميكانيكي ّ ة); words are rebuilt
from the character offsets before analysis, and a particle with a pronoun suffix that a system wrote with a space inside
it (aws's ول كنها 'but she', systran's لأنّ ه) is read as the one word it is. farahidi runs with its pattern scan
indexed (``ar_farahidi``: the same analyses, half the CPU); its readings are memoised per word; a word's readings
depend on the word alone, so a table of them per word form of the suite's published outputs is prepared once
(``lang/morph/word_table.py``) and farahidi loads only for a word the table lacks. The order of evidence is shared
with Hebrew (``_semitic``); this module gives the Arabic lists and farahidi's view.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from discotest.lang.morph._semitic import (
    GENDER_NAME,
    EntityLexicon,
    SemiticAnalyser,
    SemiticPronounReader,
    Word,
    proclitic_splits,
    single_gender,
)
from discotest.lang.morph.base import (
    Gender,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
    Token,
    package_version,
)

if TYPE_CHECKING:
    import farahidi

_M, _F = Gender.MALE, Gender.FEMALE
_ARABIC = re.compile(r"[\u0621-\u064a]")
_DIACRITICS = re.compile(r"[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]")  # harakat, shadda, tatweel
# proclitics: conjunction و/ف, then a preposition ب/ك/ل and/or the article ال (لل = ل + ال)
_PREFIX = re.compile(r"(?:و|ف)?(?:(?:ب|ك|ل)?ال|لل|ل|ب|ك)?")
_FARAHIDI_GENDER = {"مذكر": _M, "مؤنث": _F}
_PRONOUNS = {"هو": _M, "هي": _F, "هم": _M, "هن": _F}
_VERB_PRONOUNS = {"هو": _M, "هم": _M, "هي": _F, "هن": _F}  # 3rd person subjects of a verb reading
_RELATIVES = {
    "الذي": _M, "الذى": _M, "الذين": _M, "اللذان": _M, "اللذين": _M,
    "التي": _F, "التى": _F, "اللاتي": _F, "اللواتي": _F, "اللائي": _F, "اللتان": _F, "اللتين": _F,
}
_DEMONSTRATIVES = {"هذا": _M, "ذلك": _M, "هذان": _M, "هذه": _F, "تلك": _F, "هاتان": _F}
# ة-final nouns that are masculine: men's titles and broken plurals of masculine nouns (fu'ala/fu'ah)
_MASCULINE_TA = {
    "عمدة", "خليفة", "داعية", "رحالة", "علامة", "نابغة", "راوية", "مارة", "باعة", "قضاة", "طهاة", "رعاة",
    "سعاة", "دعاة", "بناة", "هواة", "غزاة", "ولاة", "قادة", "سادة", "ساسة", "كتبة", "طلبة", "أساتذة", "اساتذة",
    "صيادلة", "تلامذة", "جبابرة", "عمالقة", "فلاسفة", "حملة", "خونة", "سحرة", "كفرة", "فجرة", "بررة",
}
# particles and prepositions farahidi over-analyses (من as the verb مَنَّ …): never heads, never verbs
_PARTICLES = {
    "من", "إلى", "الى", "على", "علي", "عن", "في", "مع", "عند", "حول", "لدى", "لدي", "بعد", "قبل", "أمام", "امام",
    "بين", "نحو", "ضد", "دون", "حتى", "أن", "إن", "ان", "لأن", "لان", "لأنه", "لأنها", "لكن", "ولكن", "لكنه",
    "لكنها", "ثم", "أو", "او", "أم", "بل", "قد", "لقد", "وقد", "لم", "لن", "لا", "ما", "ولم", "ولا", "سوف", "كي",
    "لكي", "إذا", "اذا", "إذ", "عندما", "بينما", "حيث", "كما", "لما", "مثل", "كل", "بعض", "أي", "اي", "غير",
    "أيضا", "ايضا", "فقط", "جدا", "هناك", "هنا", "الآن", "بسبب", "خلال", "عبر", "تجاه", "لأجل", "منذ", "أنه",
    "أنها", "انه", "انها", "إنه", "إنها", "و", "ف", "ب", "ل", "ك", "ال", "بـ", "لـ", "يا",
}
_PREPOSITIONS = {
    "من", "إلى", "الى", "على", "علي", "عن", "في", "مع", "عند", "حول", "لدى", "لدي", "بعد", "قبل", "أمام", "امام",
    "بين", "نحو", "ضد", "دون", "مثل", "بسبب", "خلال", "عبر", "تجاه", "لأجل", "منذ", "بـ", "لـ", "ب", "ل",
}
_SKIPPABLE = {"قد", "لقد", "وقد", "لم", "لن", "لا", "ولم", "ولا", "سوف", "ما", "أيضا", "ايضا", "فقط", "دائما"}
_CLAUSE_OPENERS = {
    "أن", "إن", "ان", "لأن", "لان", "لكن", "ولكن", "ثم", "عندما", "حين", "بينما", "إذا", "اذا", "لما", "كما",
    "حيث", "بل", "و", "ف", "حتى", "كي", "لكي",
}
# noun types that can be attributive adjectives
_ADJECTIVE_TYPES = {"صفة مشبهة", "نسبة", "اسم مفعول", "اسم تفضيل", "مبالغة اسم الفاعل", "اسم فاعل"}


def strip_diacritics(text: str) -> str:
    return _DIACRITICS.sub("", text)


@lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """Spelling key: no diacritics or tatweel, alef/hamza seats and final ى unified (MT outputs vary). Kept per word
    form: a reading asks it for the same few thousand forms 70,000 times (a cold run of one output)."""
    text = strip_diacritics(text)
    text = re.sub("[أإآٱ]", "ا", text)
    return re.sub("ى$", "ي", text)


# the closed lists as normalised spellings (MT outputs drop hamza: الى، ان)
_PARTICLE_KEYS = frozenset(normalise(w) for w in _PARTICLES)
_PREPOSITION_KEYS = frozenset(normalise(w) for w in _PREPOSITIONS)
_SKIPPABLE_KEYS = frozenset(normalise(w) for w in _SKIPPABLE)
_OPENER_KEYS = frozenset(normalise(w) for w in _CLAUSE_OPENERS)
_RELATIVE_KEYS = {normalise(w): g for w, g in _RELATIVES.items()}
_DEMONSTRATIVE_KEYS = {normalise(w): g for w, g in _DEMONSTRATIVES.items()}


@lru_cache(maxsize=1 << 16)
def strip_prefixes(word: str) -> tuple[tuple[str, str], ...]:
    """(prefix, rest) for the bare word and every valid proclitic split leaving at least two letters (kept per form)."""
    return tuple(proclitic_splits(word, _PREFIX, 5))


def _definite_prefix(prefix: str) -> bool:
    return prefix.endswith("ال") or prefix.endswith("لل")


@dataclass(frozen=True)
class AReading:
    """One farahidi analysis reduced to what gender reading needs."""

    pos: str  # اسم / فعل / حرف
    type: str | None
    gender: Gender | None  # nouns
    number: str | None
    subject: Gender | None  # verbs: gender of a 3rd-person subject pronoun (None for 1st/2nd person)
    third_person: bool
    preposition: bool  # carries ب / ل / ك
    score: float
    enclitic: Gender | None = None  # a 3rd-person pronoun suffix: ـه masculine, ـها feminine (ـهم, ـهن)
    enclitic_plural: bool = False
    plural_subject: bool = False  # verbs: a 3rd-person plural subject (هم، هن)

    @property
    def noun(self) -> bool:
        return self.pos == "اسم" and self.type not in ("اسم علم", "ضمير", "موصول", "إشارة", "استفهام", "شرط")


# farahidi's description of the last enclitic → (gender, plural); the dual ـهما is also "الغائبين"
_ENCLITIC_GENDER = {
    "ضمير الغائب": (_M, False), "ضمير الغائبة": (_F, False), "ضمير الغائبين": (_M, True), "ضمير الغائبات": (_F, True),
}


def _reduce(analysis: farahidi.Analysis) -> AReading:
    procl = "".join(strip_diacritics(a.form) for a in analysis.proclitics)
    enclitics = getattr(analysis, "enclitics", None) or ()
    enclitic = enclitics[-1].description.split("+")[-1] if enclitics else ""
    return AReading(
        pos=analysis.pos,
        type=analysis.type,
        gender=_FARAHIDI_GENDER.get(analysis.gender or ""),
        number=analysis.number,
        subject=_VERB_PRONOUNS.get(analysis.pronoun or "") if analysis.pos == "فعل" else None,
        third_person=(analysis.pronoun or "") in _VERB_PRONOUNS or analysis.pronoun == "هما",
        preposition=any(c in procl.replace("ال", "") for c in "بلك"),
        score=analysis.score,
        enclitic=_ENCLITIC_GENDER.get(enclitic, (None, False))[0],
        enclitic_plural=_ENCLITIC_GENDER.get(enclitic, (None, False))[1],
        plural_subject=analysis.pos == "فعل" and analysis.pronoun in ("هم", "هن"),
    )


def _value(gender: Gender | None) -> str | None:
    return None if gender is None else gender.value


def _gender(value: str | None) -> Gender | None:
    return None if value is None else Gender(value)


@cache  # one entry per character
def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M") or char == "\u0640"


def _split_particle(prev: Word, text: str) -> bool:
    """Whether ``prev`` and the next token ``text`` (a space between) are one particle with a pronoun suffix written
    with a space inside it: aws writes ولكنها 'but she' as ول كنها (و+ل taken for proclitics; كنها alone reads as the
    verb كان), systran أنّه as أنّ ه. Only where the space falls inside the particle or right after it, never inside the
    suffix, and ``text`` alone is no closed pronoun form (و لكنها, أنّ هو are two words)."""
    if not _may_end_particle(text):
        return False
    head = _particle_head(normalise(prev.text + text))
    return head is not None and 0 < len(normalise(prev.text)) <= head and pronoun_form(text) is None


@lru_cache(maxsize=1 << 16)
def _may_end_particle(text: str) -> bool:
    """Whether a word that ends in ``text`` may be a particle with a pronoun suffix (``_split_particle``): the spelling
    key of the whole word ends in the last letter of ``text``'s, which must end a suffix (ه، ها، هم، هن، هما). Kept
    per form: a cold run asks it for 33,000 pairs of words, two in a thousand of them a particle."""
    key = normalise(text)
    return not key or key[-1] in _SUFFIX_ENDS


def _words(item: TargetEntity | PronounTarget) -> list[Word]:
    """Tokens glued back where the tokeniser cut a word at a diacritic (no space in between), then words joined where a
    particle with a pronoun suffix was written with a space inside it (``_split_particle``)."""
    tokens = item.tokens
    glued: list[Word] = []
    prev = None
    for i, tok in enumerate(tokens):
        if (
            prev is not None
            and glued
            and prev.end == tok.start
            and (_is_mark(tok.text[0]) or _is_mark(prev.text[-1]))
        ):
            glued[-1].text += tok.text
            glued[-1].last = i
        else:
            glued.append(Word(tok.text, i, i))
        prev = tok
    words: list[Word] = []
    for word in glued:
        # a gap between consecutive tokens is white space (the tokeniser makes every other character a token); the
        # cheap test of the second word's ending first (a cold run: 33,000 pairs, 4,000 past it)
        if words and _may_end_particle(word.text) and tokens[words[-1].last].end < tokens[word.first].start and (
            _split_particle(words[-1], word.text)
        ):
            words[-1].text += word.text
            words[-1].last = word.last
        else:
            words.append(word)
    return words


class _Lexicon(EntityLexicon):
    """The entity lexicon keyed by normalised spelling: form → genders (``None`` = common form)."""

    def __init__(self) -> None:
        super().__init__("ar", normalise)
        self.by_first: dict[str, list[tuple[tuple[str, ...], set[Gender | None]]]] = {}
        for key, genders in sorted(self.multi.items(), key=lambda kv: -len(kv[0])):
            self.by_first.setdefault(key[0], []).append((key, genders))
        # per word form: a reading looks the same forms up again and again
        self._candidates: dict[str, tuple[tuple[str, str], ...]] = {}
        self._found: dict[str, tuple[set[Gender | None], str] | None] = {}

    def candidates(self, word: str) -> tuple[tuple[str, str], ...]:
        """(prefix, rest) splits of the normalised word, plus ة for a final ه on a definite noun (bing)."""
        found = self._candidates.get(word)
        if found is None:
            out = []
            for prefix, rest in strip_prefixes(normalise(word)):
                out.append((prefix, rest))
                if _definite_prefix(prefix) and rest.endswith("ه"):
                    out.append((prefix, rest[:-1] + "ة"))
            found = self._candidates[word] = tuple(out)
        return found

    def lookup(self, word: str) -> tuple[set[Gender | None], str] | None:
        if word not in self._found:
            self._found[word] = next(((self.single[rest], prefix) for prefix, rest in self.candidates(word)
                                      if rest in self.single), None)
        return self._found[word]

    def lookup_multi(self, texts: Sequence[str], start: int) -> tuple[set[Gender | None], int] | None:
        """A multi-word form starting at ``start``: clitics on its first word, and the article on the
        following words where the lexicon form has none (طبيب شرعي = الطبيب الشرعي)."""
        following: list[str] = []
        best: tuple[set[Gender | None], int] | None = None
        for _, first in self.candidates(texts[start]):
            forms = self.by_first.get(first, ())
            if forms and not following:  # the next words' keys only where a form starts with this one
                following = [normalise(t) for t in texts[start + 1 : start + self.max_len]]
            for key, genders in forms:
                if len(key) - 1 <= len(following) and all(
                    part in (word, "ال" + word) or word == "ال" + part for part, word in zip(key[1:], following)
                ):
                    if best is None or len(key) > best[1]:
                        best = genders, len(key)
                    break
        return best



# -- closed-class pronoun forms (target-side consistency) ------------------------------------------

# 3rd-person suffixes, longest first → (gender, plural); the dual ـهما has no gender (neutral form)
_SUFFIXES = (("هما", None, True), ("هم", _M, True), ("هن", _F, True), ("ها", _F, False), ("ه", _M, False))
# particles and prepositions that take a pronoun suffix (normalised): أنه، لأنها، منه، عليها، إليه، نفسه …
_SUFFIX_HOSTS = frozenset(normalise(w) for w in (
    "ل", "ب", "من", "عن", "علي", "إلي", "الي", "في", "مع", "عند", "لدي", "أن", "إن", "لأن", "بأن", "لكن", "كأن",
    "ليت", "لعل", "إيا", "نفس", "بنفس", "لنفس", "حول", "ضد", "بين", "أمام", "وراء", "خلف", "مثل", "عبر", "تجاه",
    "بعد", "قبل", "دون", "بدون", "لأجل", "أجل", "بسبب", "حيال", "لصالح", "عبره",
))
_SUFFIX_ENDS = frozenset(suffix[-1] for suffix, _, _ in _SUFFIXES)
_FREE_PRONOUNS = {"هو": (_M, False), "هي": (_F, False), "هم": (_M, True), "هن": (_F, True), "هما": (None, True)}
# hosts whose suffix is a clause's subject (لأنه "because he"): the particles that take a pronoun suffix as their
# subject, "inna and her sisters" (إنّ، أنّ، لكنّ، لعلّ، كأنّ، ليت; أنّ also after ب/ل); the others' suffix is an
# object/possessor
_SUBJECT_HOSTS = frozenset(normalise(w) for w in ("أن", "إن", "لأن", "بأن", "لكن", "كأن", "ليت", "لعل"))


@lru_cache(maxsize=1 << 16)
def _particle_head(key: str) -> int | None:
    """The length of the conjunction and particle of a normalised ``particle_form`` (ولكنها → 4, ولكن), else None."""
    for prefix in ("", "و", "ف"):
        rest = key[len(prefix):] if key.startswith(prefix) else ""
        for suffix, _, _ in _SUFFIXES:
            if rest.endswith(suffix) and rest[: -len(suffix)] in _SUBJECT_HOSTS:
                return len(key) - len(suffix)
    return None


def particle_form(text: str) -> tuple[Gender | None, bool] | None:
    """(gender, plural) of a particle of ``_SUBJECT_HOSTS`` with a pronoun suffix, و/ف allowed (ولكنها 'but she',
    فإنه، لعلها): the suffix is the clause's subject and its gender the word's. Such a word is never a verb
    (``verb_gender``): farahidi also has verb readings of ولكنها، ولكنه، لعلها (rules-2 read them as verbs)."""
    key = normalise(text)
    head = _particle_head(key)
    if head is None:
        return None
    return next((gender, plural) for suffix, gender, plural in _SUFFIXES if key[head:] == suffix)


def subject_form(text: str) -> bool:
    """Whether a closed form renders a subject: a free pronoun or a suffix on أن/إن/لأن/لكن … (``particle_form``)."""
    key = normalise(text)
    if any(key.startswith(prefix) and key[len(prefix):] in _FREE_PRONOUNS for prefix in ("", "و", "ف")):
        return True
    return particle_form(text) is not None


def pronoun_form(text: str) -> tuple[Gender | None, bool] | None:
    """(gender, plural) of a closed-class 3rd-person form: هو/هي/هم/هن/هما (with و/ف), or a particle or
    preposition with a pronoun suffix (له، منها، لأنه، بأنها، عليهم، نفسه). Gender None: the dual."""
    key = normalise(text)
    for prefix in ("", "و", "ف"):
        rest = key[len(prefix):] if key.startswith(prefix) else None
        if not rest:
            continue
        if rest in _FREE_PRONOUNS:
            return _FREE_PRONOUNS[rest]
        for suffix, gender, plural in _SUFFIXES:
            if rest.endswith(suffix) and rest[: -len(suffix)] in _SUFFIX_HOSTS:
                return gender, plural
    return None


def _surface_suffix(text: str) -> tuple[str, Gender | None, bool] | None:
    """The 3rd-person suffix the word ends in, if any (not after the article: الناره is a misspelt ة)."""
    key = normalise(text)
    if any(_definite_prefix(p) for p, _ in strip_prefixes(key)[1:]):
        return None
    for suffix, gender, plural in _SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix) + 1:
            return suffix, gender, plural
    return None


class ArabicAnalyser(SemiticAnalyser):
    """Reads the gender an Arabic translation gives the entity (see the module docstring)."""

    lang = "ar"
    name = "farahidi"
    # ar-rules-2 (c55d85f, after 6e462d2): verb_gender takes agreeing singular readings over a plural's (لم يكن
    # 'he was not' masculine, not the feminine plural يكنّ): 25 WinoMT pronoun readings of google/bing/aws moved
    # (consistency, coref: 5 decisions; reader: 20 verdicts) under farahidi's unchanged version. ar-rules-3: a particle
    # of "inna and her sisters" with a pronoun suffix (ولكنها، لعلها) is never a verb, and one written with a space
    # inside (aws's ول كنها, systran's لأنّ ه) is the one word (``_split_particle``): 11 WinoMT pronoun readings moved
    # (aws/ar #324 and #3451 masculine -> feminine, the English "she"; systran/ar #1760, #2171 none -> masculine),
    # no noun verdict
    rules = "ar-rules-3"
    language = "Arabic"
    script = _ARABIC
    lexicon_epicene = "has one form for both genders"
    tool_epicene = "may be either gender"
    free_pronouns = _PRONOUNS
    pronoun_proclitics = ("", "و", "ف")
    # a noun the entity lexicon decides is not looked up in farahidi: that lookup only added "; farahidi agrees" to the
    # reason, and was 281 of the 349 word forms a cold run of google's output asked farahidi for (about 3.3 ms each)
    lexicon_confirmed = False

    # a word's readings depend on farahidi's version and this module; the table's word forms on the tokeniser and the
    # proclitic splits (``word_forms``)
    word_table_code = ("lang/morph/ar.py", "lang/morph/ar_farahidi.py", "lang/morph/_semitic.py", "lang/tokenize.py")

    def __init__(self) -> None:
        self._analyzer: farahidi.Analyzer | None = None
        self.lexicon = _Lexicon()
        self._memo: dict[str, list[AReading]] = {}
        self._analysed: list[str] = []  # the words farahidi was asked for (``word_table.keep_seen``)

    @property
    def analyzer(self) -> farahidi.Analyzer:
        """farahidi, loaded on the first word neither the memo nor the table holds."""
        if self._analyzer is None:
            # imported with the first word to analyse: a warm run and a run off the table never import farahidi
            from discotest.lang.morph import ar_farahidi

            self._analyzer = ar_farahidi.analyzer(package_version("farahidi"))
            # load the lexicon tables now (made lighter, ``ar_farahidi``), not inside the first word's
            # reading: a verb and noun loads most of them, a word with a proper-noun reading (ميكانيكي) the proper-noun
            # list every published output needs
            for word in ("كتب", "ميكانيكي"):
                self._analyzer.analyze(word)
        return self._analyzer

    def prepare(self, sentences: Sequence[Sequence[Token]]) -> None:
        """While the aligner runs: load farahidi where a word of ``sentences`` is in neither the memo nor the table
        (a reading will ask it for some), so that its tables (made lighter: 0.18 CPU-s, ``ar_farahidi``) do
        not load inside the readings."""
        if self._analyzer is None and any(
            word.text not in self._memo for tokens in sentences for word in _words(TargetEntity("", tuple(tokens), ()))
        ):
            self.analyzer  # noqa: B018 (the property loads it)

    @classmethod
    def static_version(cls) -> str:
        return f"farahidi-{package_version('farahidi')}"

    # -- the table of readings per word form (lang/morph/word_table.py) -----------------------

    def word_forms(self, sentences: Sequence[Sequence[Token]]) -> set[str]:
        """Every word of ``sentences`` (rebuilt as ``read`` rebuilds them) and its clitic-stripped forms (a system
        that writes the bare form where the table's texts wrote it with a clitic)."""
        forms: set[str] = set()
        for tokens in sentences:
            for word in _words(TargetEntity("", tuple(tokens), ())):
                forms.add(word.text)
                forms.update(rest for _, rest in strip_prefixes(word.text)[1:])
        return forms

    def export_readings(self, words: Sequence[str]) -> str:
        """``{"readings": [distinct readings, as field lists], "words": {word: [their indices, in order]}}``."""
        index: dict[AReading, int] = {}
        table = {word: [index.setdefault(r, len(index)) for r in self.readings(word)] for word in words}
        rows = [[r.pos, r.type, _value(r.gender), r.number, _value(r.subject), r.third_person, r.preposition, r.score,
                 _value(r.enclitic), r.enclitic_plural, r.plural_subject] for r in index]
        return json.dumps({"readings": rows, "words": table}, ensure_ascii=False, separators=(",", ":"))

    def adopt_readings(self, table: str) -> None:
        data = json.loads(table)
        readings = [AReading(pos, kind, _gender(g), number, _gender(subject), bool(third), bool(prep), score,
                             _gender(enclitic), bool(plural), bool(plural_subject))
                    for pos, kind, g, number, subject, third, prep, score, enclitic, plural, plural_subject
                    in data["readings"]]
        words = {word: [readings[i] for i in found] for word, found in data["words"].items()}
        for word, found in words.items():
            self._memo.setdefault(word, found)

    def table_words(self, table: str) -> list[str]:
        return list(json.loads(table)["words"])

    def analysed_words(self) -> list[str]:
        return self._analysed

    # -- farahidi ----------------------------------------------------------------------------

    def readings(self, word: str) -> list[AReading]:
        """farahidi's readings of ``word`` (memoised); hamza-less spellings are retried with hamza."""
        if word not in self._memo:
            found = self.analyzer.analyze(word)
            bare = strip_diacritics(word)
            if not found and bare != word:
                found = self.analyzer.analyze(bare)
            if not found:
                variants = []
                if bare.startswith("ا"):
                    variants += ["أ" + bare[1:], "إ" + bare[1:]]
                clitic = re.match("^(?:و|ف|ب|ل|ال|وال|بال|فال|لل)ا", bare)
                if clitic:
                    k = clitic.end() - 1
                    variants += [bare[:k] + "أ" + bare[k + 1 :], bare[:k] + "إ" + bare[k + 1 :]]
                if bare.endswith("ى"):
                    variants.append(bare[:-1] + "ي")
                elif bare.endswith("ي"):
                    variants.append(bare[:-1] + "ى")
                if bare.endswith("ه"):
                    variants.append(bare[:-1] + "ة")
                if "إ" in bare:
                    variants.append(bare.replace("إ", "ا"))
                for variant in variants:
                    found = self.analyzer.analyze(variant)
                    if found:
                        break
            self._memo[word] = [_reduce(a) for a in found]
            self._analysed.append(word)
        return self._memo[word]

    def noun_genders(self, word: str) -> set[Gender]:
        """Genders of the noun readings (singular/plural preferred over farahidi's rarer dual parses)."""
        nouns = [r for r in self.readings(word) if r.noun and r.gender is not None]
        main = [r for r in nouns if r.number != "مثنى"]
        return {r.gender for r in (main or nouns) if r.gender is not None}

    def verb_gender(self, word: str) -> Gender | None:
        """The subject gender of a finite verb (قالت → feminine), from its 3rd-person readings: where they
        disagree, the singular readings if they agree (لم يكن 'he was not', not the feminine plural يكنّ, which is
        spelt with its ن), else the best-scored (a ت- spelling is both a form V perfect 'he …' and an imperfect
        'she …': تعمل, تقول but also توفي, تزوج; farahidi's scores keep the imperfect). A particle, with a pronoun
        suffix too (``particle_form``: ولكنه 'but he', which farahidi also reads as a verb), is never a verb."""
        if normalise(word) in _PARTICLE_KEYS or particle_form(word):
            return None
        verbs = [r for r in self.readings(word) if r.pos == "فعل" and r.third_person]
        gender = single_gender(r.subject for r in verbs)
        singular = {r.subject for r in verbs if not r.plural_subject and r.subject is not None}
        if gender is None and len(singular) == 1:
            return singular.pop()
        if gender is None and verbs:
            best = max(r.score for r in verbs)
            gender = single_gender(r.subject for r in verbs if r.score == best)
        return gender

    # -- hooks of the shared algorithm (_semitic.SemiticAnalyser) ------------------------------

    words = staticmethod(_words)
    pronoun_form = staticmethod(pronoun_form)
    subject_form = staticmethod(subject_form)

    def _pronoun_reader(self, item: PronounTarget) -> _PronounReader:
        """Pronouns: a pronoun (هو/هي), a pronoun suffix (لأنها، عمله، منها), or for a dropped subject the
        verb (قالت، يعمل); see ``_PronounReader``."""
        return _PronounReader(self, item)

    def _function_word(self, text: str) -> bool:
        key = normalise(text)
        return key in _PARTICLE_KEYS or key in _PRONOUNS or key in _RELATIVE_KEYS or key in _DEMONSTRATIVE_KEYS

    def _closed_spelling(self, text: str) -> str:
        return normalise(text)

    def _lexicon_head(self, text: str) -> bool:
        return not self._pronoun(text) and not self._function_word(text)

    def _multi_word_starts(self, span: list[int]) -> list[int]:
        """Also a form starting just before the aligned words: [شخص] ما, [الطبيب] الشرعي."""
        return [*span, *(k for k in (span[0] - 1, span[0] - 2) if k >= 0)]

    def _head_noun(self, words: list[Word], texts: list[str], k: int) -> bool:
        return self._noun_like(texts[k])

    def _noun_like(self, text: str) -> bool:
        """A plausible head noun: a noun reading, and not a word whose best reading is a verb (باع، حصل)
        unless the article or ta marbuta shows it is nominal; or a word farahidi does not know."""
        readings = self.readings(text)
        if not readings:
            return True  # a loanword or a typo: the ending still tells something
        if not any(r.noun for r in readings):
            return False
        if self._definite(text) or normalise(text).endswith("ة"):
            return True
        best = max(readings, key=lambda r: r.score)
        return best.pos != "فعل" or best.score == 0

    def _is_noun(self, text: str) -> bool:
        return bool(self.noun_genders(text)) or any(r.noun for r in self.readings(text))

    def _continues_construct(self, texts: list[str], k: int) -> bool:
        """عامل [البناء]: a noun that is not a particle."""
        return not self._function_word(texts[k]) and self._is_noun(texts[k])

    def _construct_head(self, texts: list[str], k: int) -> int:
        """The word before k when k is only the complement of a construct phrase (مدبرة [المنزل])."""
        if k == 0 or self._function_word(texts[k - 1]) or self._pronoun(texts[k - 1]):
            return k
        multi = self.lexicon.lookup_multi(texts, k - 1)
        if multi:
            return k - 1
        if self.lexicon.lookup(texts[k]):
            return k  # a person noun itself (باب [الميكانيكي]): keep it
        prev = normalise(texts[k - 1])
        definite = any(_definite_prefix(p) for p, _ in strip_prefixes(normalise(texts[k]))[1:])
        prev_definite = any(_definite_prefix(p) for p, _ in strip_prefixes(prev)[1:])
        if definite and not prev_definite and self._is_noun(texts[k - 1]) and (
            self.lexicon.lookup(texts[k - 1]) or prev.endswith("ة")
            or not any(r.pos == "فعل" for r in self.readings(texts[k - 1]))
        ):
            return k - 1
        return k

    def _noun_genders(self, words: list[Word], texts: list[str], k: int) -> tuple[set[Gender], bool]:
        return self.noun_genders(texts[k]), bool(self.readings(texts[k]))

    def _closed_list(self, noun: str, text: str) -> GenderReading | None:
        """ة-final nouns that are masculine (عمدة، المارة)."""
        if any(rest in _MASCULINE_TA for _, rest in self.lexicon.candidates(text)):
            return GenderReading(_M, f"noun '{noun}' masculine although ة-final (closed list)", (noun,))
        return None

    def _from_ending(self, why: str, noun: str, text: str, known: bool) -> GenderReading | None:
        """An unknown word: ta marbuta (or ـات) is feminine, no feminine ending is masculine."""
        if known:
            return None
        stem = normalise(text)
        if stem.endswith("ة") or stem.endswith("ات"):
            return GenderReading(_F, f"{why}; feminine ending ة", (noun,))
        return GenderReading(_M, f"{why}; no feminine ending (ة)", (noun,))

    def _oblique(self, texts: list[str], head: int) -> bool:
        """Whether the noun carries a preposition (ب+، ل+، ك+ or a preceding من، إلى، مع …)."""
        if head > 0 and normalise(texts[head - 1]) in _PREPOSITION_KEYS:
            return True
        found = self.lexicon.lookup(texts[head])
        if found is not None:
            return any(c in found[1].replace("ال", "") for c in "بلك")
        nouns = [r for r in self.readings(texts[head]) if r.noun]
        return bool(nouns) and all(r.preposition for r in nouns)

    def _definite(self, text: str) -> bool:
        return any(_definite_prefix(p) for p, _ in strip_prefixes(normalise(text))[1:])

    def _clause_initial(self, texts: list[str], head: int) -> bool:
        k = head - 1
        while k >= 0 and normalise(texts[k]) in _SKIPPABLE_KEYS:
            k -= 1
        return k < 0 or not _ARABIC.search(texts[k]) or normalise(texts[k]) in _OPENER_KEYS

    def _agreement(self, words: list[Word], texts: list[str], head: int, last: int) -> tuple[Gender, str, str] | None:
        """The first word next to the noun phrase that shows the noun's gender, if any."""
        subject = not self._oblique(texts, head)
        if head > 0 and normalise(texts[head - 1]) in _DEMONSTRATIVE_KEYS:
            return _DEMONSTRATIVE_KEYS[normalise(texts[head - 1])], "demonstrative", texts[head - 1]
        nxt = last + 1
        if nxt < len(texts):
            word = texts[nxt]
            key = normalise(word)
            if key in _RELATIVE_KEYS:
                return _RELATIVE_KEYS[key], "relative pronoun", word
            if self._definite(word) == self._definite(texts[head]) and not self.lexicon.lookup(word):
                adjectives = [r for r in self.readings(word) if r.noun and r.type in _ADJECTIVE_TYPES]
                gender = single_gender(r.gender for r in adjectives)
                if gender and single_gender(r.gender for r in self.readings(word) if r.noun) == gender:
                    return gender, "adjective", word
            if subject and self._pronoun(word) and key in _PRONOUNS:
                return _PRONOUNS[key], "copula pronoun", word
        if not subject:
            return None
        if self._clause_initial(texts, head):
            k = nxt
            while k < len(texts) and k <= last + 3:
                word = texts[k]
                key = normalise(word)
                if key in _SKIPPABLE_KEYS:
                    k += 1
                    continue
                if not _ARABIC.search(word) or self._function_word(word) or self._pronoun(word):
                    break
                gender = self.verb_gender(word)
                if gender:
                    return gender, "verb", word
                break
        before = head - 1
        while before >= 0 and normalise(texts[before]) in _SKIPPABLE_KEYS:
            before -= 1
        if before >= 0 and not self._function_word(texts[before]) and not self._is_noun_only(texts[before]):
            gender = self.verb_gender(texts[before])
            if gender:
                return gender, "verb before the subject", texts[before]
        return None

    def _is_noun_only(self, text: str) -> bool:
        return not any(r.pos == "فعل" for r in self.readings(text))


# -- reading pronouns ------------------------------------------------------------------------------

class _PronounReader(SemiticPronounReader):
    """Reads one PronounTarget with the analyser's memoised farahidi readings."""

    an: ArabicAnalyser
    nothing_found = "no 3rd-person pronoun form, suffix or agreeing verb"
    # a clitic subject left unaligned still shows on a suffixed word (سلوكها، وهنأه) when nothing else does
    subject_from_suffixes = True

    def suffix(self, k: int, strict: bool = False) -> tuple[Gender | None, bool] | None:
        """The pronoun suffix of word k: its surface ending, confirmed by a farahidi reading with that
        enclitic (so وجه "face" or فهم "understanding" are not read as suffixed) or by an unknown word.
        ``strict`` (words found without alignment): every reading must carry it, and the word be known."""
        found = _surface_suffix(self.texts[k])
        if found is None:
            return None
        suffix, gender, plural = found
        readings = self.an.readings(self.texts[k])
        matching = [r for r in readings if r.enclitic is not None and r.enclitic_plural == plural]
        if strict:
            return (gender, plural) if readings and len(matching) == len(readings) else None
        if not readings or matching:
            return gender, plural
        return None

    def verb(self, k: int) -> Gender | None:
        """The gender of a 3rd-person subject the verb agrees with (قالت، تعمل → feminine; ت- is also 2nd
        person masculine, but the subject is 3rd person)."""
        text = self.texts[k]
        if self.an._function_word(text) or pronoun_form(text):
            return None
        return self.an.verb_gender(text)

    def _aligned_predicate(self) -> PronounReading | None:
        """يحتاجه: ي- masculine; -ه is its object."""
        for k in self.span:
            gender = self.verb(k)
            if gender:
                return PronounReading(gender, f"verb '{self.texts[k]}' ({GENDER_NAME[gender]})", (self.texts[k],))
        return None

    def _suffix_reading(self, k: int, subject: bool, strict: bool = False) -> PronounReading | None:
        """A pronoun suffix on a noun or verb (عمله، سلوكها، وسأله)."""
        found = self.suffix(k, strict)
        return self._reading(found, f"pronoun suffix on '{self.texts[k]}'", k) if found else None

    def _right_of_span(self) -> PronounReading | None:
        """A subject aligned to words that show nothing (لأن، أن): the verb to their right."""
        k = self.span[-1] + 1
        while k < len(self.words) and k <= self.span[-1] + 3:
            text = self.texts[k]
            if not _ARABIC.search(text) or k in self.entity:
                break
            if normalise(text) in _SKIPPABLE_KEYS:
                k += 1
                continue
            gender = self.verb(k)
            if gender:
                return PronounReading(gender, f"dropped subject, verb '{text}' ({GENDER_NAME[gender]})", (text,))
            break
        return None

    def _clause_verb(self, allowed: set[int]) -> PronounReading | None:
        """For a dropped subject: the verb right after the last clause opener (لأن، أن، حتى، عندما …),
        else the last verb coordinated with و/ف after the entity."""
        for k in range(len(self.words) - 1, -1, -1):
            if normalise(self.texts[k]) not in _OPENER_KEYS:
                continue
            start = k + 1
            while start < len(self.words) and normalise(self.texts[start]) in _SKIPPABLE_KEYS:
                start += 1
            if start in allowed:
                gender = self.verb(start)
                if gender:
                    text = self.texts[start]
                    return PronounReading(gender, f"dropped subject, clause verb '{text}' ({GENDER_NAME[gender]})",
                                          (text,))
            break
        # a coordinated verb with the subject dropped: "… وابتسمت" 'and (she) smiled', after the entity
        after = max(self.entity, default=-1)
        for k in range(len(self.words) - 1, after, -1):
            key = normalise(self.texts[k])
            if k in allowed and key[:1] in ("و", "ف") and key[1:] not in _PARTICLE_KEYS:
                gender = self.verb(k)
                if gender:
                    text = self.texts[k]
                    return PronounReading(
                        gender, f"dropped subject, coordinated verb '{text}' ({GENDER_NAME[gender]})", (text,)
                    )
        return None
