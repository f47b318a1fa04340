"""Hebrew gender analyser: hspell's morphological dictionary (``hspell -l``) + the entity lexicon.

Unvocalised Hebrew spells many profession nouns the same in both genders (מורה more/mora, מנקה,
ממונה, אופה), glues proclitics to the noun (ה+, ו+, ב+, ל+, מ+, ש+, כש+) and marks the feminine with
endings that also end masculine words (־ה, ־ת). So the noun's gender is read from a dictionary, not
from its last letter: first the entity lexicon (curated renderings of the WinoMT entities, clitics
stripped), then hspell's readings (nouns, adjectives and participles; finite verbs are ignored, and
construct-state readings count only when a noun follows). Only when the noun leaves it open do the
words that agree with it decide: an attributive adjective or אחד/אחת, a copula pronoun, the verb
the entity is the subject of (past 3sg fem ־ה, future ת־, participles) after or before it. Pronouns
elsewhere in the sentence are coreference, not agreement, and are never used: they would only copy
the English pronoun.

hspell runs once per batch, over every word the batch needs, in one subprocess (ISO-8859-8 in and
out); its readings are memoised for the analyser's lifetime. The order of evidence is shared with
Arabic (``_semitic``); this module gives the Hebrew lists and hspell's view.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from discotest.errors import InputError
from discotest.lang.installed import program
from discotest.lang.morph._semitic import (
    EntityLexicon,
    SemiticAnalyser,
    SemiticPronounReader,
    Word,
    form_name,
    proclitic_splits,
    single_gender,
)
from discotest.lang.morph.base import Gender, GenderReading, PronounReading, PronounTarget, TargetEntity

_M, _F = Gender.MALE, Gender.FEMALE
_HEBREW = re.compile(r"[\u05d0-\u05ea]")
_NIQQUD = re.compile(r"[\u0591-\u05bd\u05bf-\u05c7]")
_QUOTES = {'"', "'", "\u05f3", "\u05f4", "\u2019"}  # geresh/gershayim inside abbreviations (מנכ"ל, צ'יף)
# proclitic sequences: (ו)(ש|כש)(ב|כ|ל|מ)(ה), each part optional
_PREFIX = re.compile(r"ו?(?:כש|ש)?[בכלמ]?ה?")
_PREPOSITION_PREFIX = set("בכלמ")
# closed class: 3rd-person pronouns (hspell tags them only as "שונות")
_PRONOUNS = {"הוא": _M, "היא": _F, "הם": _M, "הן": _F}
_PRONOUN_PREFIXES = ("", "ו", "ש", "וש", "כש", "וכש")
# words that put a noun in an oblique role (it cannot be the verb's subject)
_PREPOSITIONS = {
    "את", "של", "עם", "על", "אל", "מן", "אצל", "עבור", "בשביל", "לפני", "אחרי", "נגד", "כנגד", "מול",
    "ליד", "בפני", "לגבי", "אודות", "בין", "כמו", "על-ידי", "ע\"י", "לעבר", "מאת", "לידי", "אותו", "אותה",
}
# adverbs and particles that may stand between a subject and its verb
_SKIPPABLE = {"לא", "גם", "כבר", "תמיד", "מעולם", "עדיין", "אז", "רק", "מאוד", "באמת", "אכן", "אף", "פעם", "כן"}
# words that open a new clause: agreement does not cross them
_CLAUSE_OPENERS = {
    "כי", "אבל", "אך", "אולם", "או", "אם", "כאשר", "בגלל", "משום", "מפני", "מכיוון", "כיוון", "למרות",
    "ואז", "כדי", "אשר", "היות", "לכן", "ולכן",
}
_DEMONSTRATIVES = {"הזה": _M, "הזאת": _F, "הזו": _F, "ההוא": _M, "ההיא": _F, "אחד": _M, "אחת": _F}


@dataclass(frozen=True)
class HReading:
    """One hspell analysis of a word: part of speech and the features that matter here."""

    pos: str  # ע noun, ת adjective, פ verb, x function word
    gender: Gender | None
    person: str | None  # 1 / 2 / 3 for finite verbs
    tense: str | None  # עבר / הווה / עתיד / ציווי / מקור
    plural: bool
    construct: bool  # סמיכות
    prefix: str  # proclitics hspell split off ("" for the bare word)
    proper: bool  # פרטי (proper noun)
    suffix: bool  # a possessive suffix (כינוי): מזכירה read as מזכיר+ה "her secretary"
    suffix_gender: Gender | None = None  # the suffix's own gender when it is 3rd person (עבודתו: masculine)
    suffix_plural: bool = False

    @property
    def nominal(self) -> bool:
        """Noun, adjective or participle: something whose gender is the noun's own."""
        return self.pos in ("ע", "ת") or (self.pos == "פ" and self.tense == "הווה")

    @property
    def finite_3rd(self) -> bool:
        """A verb form that agrees with a 3rd-person subject (past/future 3rd person, participle)."""
        return self.pos == "פ" and (self.tense == "הווה" or (self.person == "3" and self.tense in ("עבר", "עתיד")))


def _parse_reading(line: str, prefix: str) -> HReading | None:
    match = re.match(r"^\t(.*)\((.*)\)\s*$", line)
    if not match:
        return None
    feats = match.group(2).split(",")
    cut = next((k for k, f in enumerate(feats) if f.startswith("כינוי")), len(feats))
    suffix_feats = feats[cut:]
    suffix_gender = None
    if suffix_feats and "3" in suffix_feats:
        suffix_gender = _M if suffix_feats[0].endswith("ז") else _F if suffix_feats[0].endswith("נ") else None
    gender = _M if "ז" in feats else _F if "נ" in feats else None
    person = next((f for f in feats if f in ("1", "2", "3")), None)
    tense = next((f for f in feats if f in ("עבר", "הווה", "עתיד", "ציווי", "מקור")), None)
    return HReading(
        pos=feats[0],
        gender=gender,
        person=person,
        tense=tense,
        plural="רבים" in feats,
        construct="סמיכות" in feats,
        prefix=prefix,
        proper="פרטי" in feats,
        suffix=any(f.startswith("כינוי") for f in feats),
        suffix_gender=suffix_gender,
        suffix_plural="רבים" in suffix_feats,
    )


def parse_hspell(output: str) -> dict[str, list[HReading]]:
    """Readings per word from ``hspell -l`` output (blocks "מילה חוקית: W" / "צירוף חוקי: P+W")."""
    readings: dict[str, list[HReading]] = {}
    current: list[HReading] | None = None
    prefix = ""
    for line in output.splitlines():
        header = re.match(r"^(?:מילה חוקית|צירוף חוקי): (.+)$", line)
        if header:
            segmented = header.group(1).strip()
            prefix, _, _ = segmented.rpartition("+")
            current = readings.setdefault(segmented.replace("+", ""), [])
        elif line.startswith("\t") and current is not None:
            reading = _parse_reading(line, prefix)
            if reading is not None:
                current.append(reading)
        elif line.strip():
            current = None  # the list of misspelled words: no readings
    return readings


def hspell_word(text: str) -> str:
    """The spelling hspell is given: niqqud removed, Hebrew geresh/gershayim as ASCII quotes."""
    return _NIQQUD.sub("", text).replace("\u05f3", "'").replace("\u05f4", '"').replace("\u2019", "'")


def strip_prefixes(word: str) -> list[tuple[str, str]]:
    """(prefix, rest) for the bare word and every valid proclitic split leaving at least two letters."""
    return proclitic_splits(word, _PREFIX, 4)



def _abbreviation(left: str, quote: str, right: str) -> bool:
    """Gershayim before the last letter (רו"ח, מנכ"ל, מנכ"לית) or geresh after צ/ג/ז/ת (צ'יף)."""
    if quote in ('"', "\u05f4"):
        return len(right) == 1 or (len(right) == 3 and right.endswith(("ית", "ים")))
    return left[-1] in "צגזתץ" and len(right) <= 4


def _words(item: TargetEntity | PronounTarget) -> list[Word]:
    """Tokens joined back into written words where a quote mark sits inside an abbreviation.

    ``מנכ"ל`` is tokenised ``מנכ " ל``; outputs also write ``המנכ" ל`` and ``הצ 'יף``, so a space on one
    side of the quote is tolerated when the pieces look like an abbreviation or a geresh loanword.
    """
    words: list[Word] = []
    tokens = item.tokens
    i = 0
    while i < len(tokens):
        j = i
        text = tokens[i].text
        while j + 2 < len(tokens) and tokens[j + 1].text in _QUOTES:
            left, quote, right = tokens[j], tokens[j + 1], tokens[j + 2]
            glued_left, glued_right = left.end == quote.start, quote.end == right.start
            hebrew = _HEBREW.search(left.text) and _HEBREW.fullmatch(right.text[:1] or "x")
            if not hebrew or not (glued_left or glued_right):
                break
            if not (glued_left and glued_right) and not _abbreviation(left.text, quote.text, right.text):
                break
            text += quote.text + right.text
            j += 2
        words.append(Word(text, i, j))
        i = j + 1
    return words


class _Lexicon(EntityLexicon):
    """The entity lexicon as form → genders; ``None`` marks a common (epicene) form."""

    def __init__(self) -> None:
        super().__init__("he")

    def lookup(self, word: str) -> tuple[set[Gender | None], str] | None:
        """Genders of the first lexicon form found by stripping proclitics, and the form."""
        for _, rest in strip_prefixes(hspell_word(word)):
            if rest in self.single:
                return self.single[rest], rest
        return None

    def lookup_multi(self, texts: Sequence[str], start: int) -> tuple[set[Gender | None], int] | None:
        """A multi-word form starting at ``start`` (first word may carry clitics): genders and length."""
        for length in range(min(self.max_len, len(texts) - start), 1, -1):
            rest = tuple(texts[start + 1 : start + length])
            for _, first in strip_prefixes(hspell_word(texts[start])):
                genders = self.multi.get((first, *rest))
                if genders:
                    return genders, length
        return None



# -- closed-class pronoun forms (target-side consistency) ------------------------------------------

def _pronoun_forms() -> dict[str, tuple[Gender, bool]]:
    """Closed class: 3rd-person pronouns and prepositions with a pronoun suffix → (gender, plural).

    hspell tags most of these only as "שונות" (לו, שלה) or misreads them (אותה as "her letter"), so the
    pronoun's own forms come from this list; הם/הן and ־הם/־הן are gendered plurals (m./f.).
    """
    table = {
        "ל": "לו לה להם להן", "את": "אותו אותה אותם אותן", "של": "שלו שלה שלהם שלהן",
        "מן": "ממנו ממנה מהם מהן", "ב": "בו בה בהם בהן", "על": "עליו עליה עליהם עליהן",
        "אל": "אליו אליה אליהם אליהן", "עם": "איתו איתה איתם איתן", "עם2": "עמו עמה עמם עמן",
        "בשביל": "בשבילו בשבילה בשבילם בשבילן", "אצל": "אצלו אצלה אצלם אצלן", "עבור": "עבורו עבורה עבורם עבורן",
        "לפני": "לפניו לפניה לפניהם לפניהן", "אחרי": "אחריו אחריה אחריהם אחריהן", "נגד": "נגדו נגדה נגדם נגדן",
        "מול": "מולו מולה מולם מולן", "כלפי": "כלפיו כלפיה כלפיהם כלפיהן", "בפני": "בפניו בפניה בפניהם בפניהן",
        "לגבי": "לגביו לגביה לגביהם לגביהן", "כמו": "כמוהו כמוה כמוהם כמוהן", "בגלל": "בגללו בגללה בגללם בגללן",
        "אודות": "אודותיו אודותיה אודותיהם אודותיהן", "עצם": "עצמו עצמה עצמם עצמן", "אתו": "אתו",
        "pron": "הוא היא הם הן",
    }
    forms: dict[str, tuple[Gender, bool]] = {}
    for row in table.values():
        for k, form in enumerate(row.split()):
            forms[form] = (_M if k % 2 == 0 else _F, k >= 2)
    return forms


_PRONOUN_FORMS = _pronoun_forms()
_PRONOUN_PROCLITICS = ("", "ו", "ש", "וש", "כש", "וכש")  # not ה: ההוא/ההיא are demonstratives "that"
_REFLEXIVE_PROCLITICS = ("ב", "ל", "מ", "וב", "ול", "את")  # בעצמו, לעצמו
# verb spellings hspell rejects but MT writes (the defective היתה for הייתה)
_VERB_SPELLINGS = {"היתה": _F, "הייתה": _F}
_PLURAL_SOURCE = {"they", "them", "their", "theirs", "themselves"}


def pronoun_form(text: str) -> tuple[Gender, bool] | None:
    """(gender, plural) of a closed-class 3rd-person pronoun form, proclitics allowed (שהוא, ולה)."""
    word = hspell_word(text)
    for prefix in (*_PRONOUN_PROCLITICS, *_REFLEXIVE_PROCLITICS):
        if word.startswith(prefix) and len(word) > len(prefix):
            rest = word[len(prefix):]
            if rest in _PRONOUN_FORMS and (prefix not in _REFLEXIVE_PROCLITICS or rest.startswith("עצמ")):
                return _PRONOUN_FORMS[rest]
    return None


def _subject_form(text: str) -> bool:
    """Whether a closed form is a subject pronoun (הוא, שהיא, והם), not an object or possessive."""
    word = hspell_word(text)
    return any(word.startswith(p) and word[len(p):] in ("הוא", "היא", "הם", "הן") for p in _PRONOUN_PROCLITICS)


def _skippable(text: str) -> bool:
    """An adverb or negation, bare or with a conjunction (שלא, שתמיד, וכבר): it may precede the verb."""
    return any(text.startswith(p) and text[len(p):] in _SKIPPABLE for p in ("", "ו", "ש", "וש", "כש"))


class HebrewAnalyser(SemiticAnalyser):
    """Reads the gender a Hebrew translation gives the entity (see the module docstring)."""

    lang = "he"
    name = "hspell"
    language = "Hebrew"
    script = _HEBREW
    free_pronouns = _PRONOUNS
    pronoun_proclitics = _PRONOUN_PREFIXES

    def __init__(self) -> None:
        self.binary = program("hspell")
        if self.binary is None:
            raise InputError("hspell is not installed: apt-get install hspell")
        self._version = self._ask_version()
        self.lexicon = _Lexicon()
        self._memo: dict[str, list[HReading]] = {}

    def _ask_version(self) -> str:
        try:
            out = self._hspell(["-V"], timeout=30)
        except (OSError, subprocess.SubprocessError):
            return "unknown"
        match = re.search(rb"Hspell\s+([\d.]+)", out.stdout + out.stderr)
        return match.group(1).decode() if match else "unknown"

    def version(self) -> str:
        return f"hspell-{self._version}"

    def _hspell(self, args: list[str], data: bytes | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
        """Run hspell in an empty private folder that is also its HOME.

        hspell adds the words of ``./hspell_words`` and ``~/.hspell_words`` to its dictionary: files in the
        working directory or the home folder would change what it reports."""
        with tempfile.TemporaryDirectory(prefix="discotest-hspell-") as empty:
            return subprocess.run([self.binary, *args], input=data, capture_output=True, check=False, timeout=timeout,
                                  cwd=empty, env={**os.environ, "HOME": empty})

    # -- hspell ------------------------------------------------------------------------------

    def analyse_words(self, words: Iterable[str]) -> None:
        """Run hspell once over every word not seen before and memoise the readings."""
        todo = sorted({w for w in (hspell_word(w) for w in words) if w not in self._memo and _HEBREW.search(w)})
        if not todo:
            return
        sendable = [w for w in todo if re.fullmatch(r"[\u05d0-\u05ea\"']+", w)]
        parsed: dict[str, list[HReading]] = {}
        if sendable:
            data = "\n".join(sendable).encode("iso-8859-8") + b"\n"
            try:
                out = self._hspell(["-l"], data)
            except (OSError, subprocess.SubprocessError) as exc:
                raise InputError(f"hspell failed: {exc}") from None
            parsed = parse_hspell(out.stdout.decode("iso-8859-8", errors="replace"))
        for word in todo:
            self._memo[word] = parsed.get(word, [])

    def readings(self, word: str) -> list[HReading]:
        return self._memo.get(hspell_word(word), [])

    # -- reading items: one hspell call per batch ------------------------------------------

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        needed: list[str] = []
        for item in items:
            if item.entity:
                words = _words(item)
                lo, hi = min(item.entity), max(item.entity)
                for w in words:
                    if w.last >= lo - 3 and w.first <= hi + 6:
                        needed.extend([w.text, *w.text.split("-")])
        self.analyse_words(needed)
        return super().read(items)

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """The gender each translation gives the English pronoun: its pronoun form (הוא, אותה, שלו), a
        pronoun suffix (עבודתה), or for a dropped subject the verb (אמרה); see ``_PronounReader``. All
        words of the batch go to hspell (the fallbacks for unaligned pronouns look beyond the aligned words)."""
        self.analyse_words(w.text for item in items for w in _words(item))
        return super().read_pronouns(items)

    # -- hooks of the shared algorithm (_semitic.SemiticAnalyser) ------------------------------

    words = staticmethod(_words)
    pronoun_form = staticmethod(pronoun_form)
    subject_form = staticmethod(_subject_form)

    def _pronoun_reader(self, item: PronounTarget) -> _PronounReader:
        return _PronounReader(self, item)

    def _function_word(self, text: str) -> bool:
        """Prepositions, particles and the like (hspell's "שונות"): never the entity's head noun."""
        word = hspell_word(text)
        return word in _PREPOSITIONS or word in _CLAUSE_OPENERS or word in _SKIPPABLE or any(
            r.pos == "x" for r in self.readings(word)
        )

    def _lexicon_head(self, text: str) -> bool:
        return not self._pronoun(text)

    def _head_noun(self, words: list[Word], texts: list[str], k: int) -> bool:
        """A noun, or a word hspell does not know (a loanword?)."""
        genders, known = self._nominal_gender(words, k)
        return bool(genders) or not known

    def _continues_construct(self, texts: list[str], k: int) -> bool:
        """עובד [הבניין]: a noun."""
        return any(r.pos == "ע" for r in self.readings(texts[k]))

    def _noun_genders(self, words: list[Word], texts: list[str], k: int) -> tuple[set[Gender], bool]:
        return self._nominal_gender(words, k)

    def _from_ending(self, why: str, noun: str, text: str, known: bool) -> GenderReading | None:
        """־ית is feminine; an unknown word with no feminine ending at all is masculine."""
        bare = hspell_word(text)
        if bare.endswith("ית") and len(bare) > 3:
            return GenderReading(_F, f"{why}; feminine ending ־ית", (noun,))
        if not known and not bare.endswith(("ה", "ת")):
            return GenderReading(_M, f"{why}; no feminine ending (־ה, ־ת, ־ית)", (noun,))
        return None

    def _nominal_gender(self, words: list[Word], k: int) -> tuple[set[Gender], bool]:
        """Genders of word k's noun/adjective/participle readings, and whether hspell knows it at all.

        Construct-state readings count only when a noun follows; readings with a possessive suffix
        only when there is nothing else (למזכירה is "to the secretary", not "to her secretary").
        """
        found = self.readings(words[k].text.split("-")[0])
        followed_by_noun = k + 1 < len(words) and any(
            r.pos in ("ע", "ת") for r in self.readings(words[k + 1].text.split("-")[0])
        )
        nominal = [r for r in found if r.nominal and not r.proper and (followed_by_noun or not r.construct)]
        plain = [r for r in nominal if not r.suffix]
        return {r.gender for r in (plain or nominal) if r.gender is not None}, bool(found)

    def _construct_head(self, texts: list[str], k: int) -> int:
        """The word before k when k is only the complement of a construct phrase (פקידת [הקבלה])."""
        if k == 0 or self._function_word(texts[k - 1]):
            return k
        multi = self.lexicon.lookup_multi(texts, k - 1)
        if multi and multi[1] >= 2:
            return k - 1
        if self.lexicon.lookup(texts[k]) or self._pronoun(texts[k]):
            return k  # a person noun itself (חדר [הספרנית]): keep it
        prev = self.readings(texts[k - 1])
        definite = any(r.prefix.endswith("ה") for r in self.readings(texts[k]))
        if definite and any(r.pos == "ע" and r.construct and not r.prefix for r in prev):
            return k - 1
        return k

    def _oblique(self, words: list[Word], head: int) -> bool:
        """Whether the noun carries a preposition (ל+, ב+, מ+, כ+ or a preceding את/של/עם …)."""
        text = hspell_word(words[head].text)
        if head > 0 and words[head - 1].text in _PREPOSITIONS:
            return True
        readings = self.readings(text)
        if text in self.lexicon.single or any(r.prefix == "" and r.nominal for r in readings):
            return False
        prefixes = {r.prefix for r in readings if r.nominal}
        if not prefixes:
            prefixes = {p for p, rest in strip_prefixes(text)[1:] if rest in self.lexicon.single}
        return bool(prefixes) and all(_PREPOSITION_PREFIX & set(p) for p in prefixes)

    def _definite(self, text: str) -> bool | None:
        """Whether the word carries the article ה (None when ל/ב/כ may hide it: לרופא = la-rofe)."""
        prefixes = {r.prefix for r in self.readings(text) if r.nominal}
        if not prefixes:
            prefixes = {p for p, rest in strip_prefixes(text)[1:] if rest in self.lexicon.single}
            if not prefixes:
                return text.startswith("ה") or None
        if any(p.endswith("ה") for p in prefixes):
            return True
        if any(p and p[-1] in "בלכ" for p in prefixes):
            return None
        return False

    def _clause_initial(self, texts: list[str], head: int) -> bool:
        """Nothing but adverbs between the noun and the start of its clause (so it may be the subject)."""
        prefixes = {r.prefix for r in self.readings(texts[head]) if r.nominal}
        if not prefixes:
            prefixes = {p for p, rest in strip_prefixes(texts[head]) if rest in self.lexicon.single}
        if prefixes and all("ש" in p for p in prefixes):
            return True  # שהמורה, כשהמורה: the noun opens a subordinate clause
        k = head - 1
        while k >= 0:
            word = texts[k]
            if not _HEBREW.search(word) or word in _CLAUSE_OPENERS:
                return True
            if word in _SKIPPABLE:
                k -= 1
                continue
            return False
        return True

    def _agreement(self, words: list[Word], texts: list[str], head: int, last: int) -> tuple[Gender, str, str] | None:
        """The first word next to the noun phrase that shows the noun's gender, if any."""
        texts = [hspell_word(w.text) for w in words]  # the closed lists are in hspell's spelling (no niqqud)
        subject = not self._oblique(words, head)
        nxt = last + 1
        if nxt < len(words):
            word = texts[nxt]
            if word in _DEMONSTRATIVES:
                return _DEMONSTRATIVES[word], "demonstrative/numeral", word
            definite = self._definite(texts[head])
            readings = self.readings(word)
            # an attributive adjective: bare or with the article only, matching the noun's definiteness
            adjectives = [
                r for r in readings
                if r.pos == "ת" and not r.construct and r.prefix in ("", "ה")
                and (definite is None or (r.prefix == "ה") == definite)
            ]
            gender = single_gender(r.gender for r in adjectives)
            nominal = single_gender(
                r.gender for r in readings if r.nominal and not r.construct and r.prefix in ("", "ה")
            )
            if gender and nominal == gender and not self._function_word(word):
                return gender, "adjective", word
            if subject and word in _PRONOUNS:
                return _PRONOUNS[word], "copula pronoun", word
            plain_verb = any(r.finite_3rd and not r.prefix for r in readings)
            if word.startswith("ש") and not self._pronoun(word) and not plain_verb:
                gender = single_gender(r.gender for r in readings if r.finite_3rd and r.prefix == "ש")
                if gender:
                    return gender, "verb of the relative clause", word
        if not subject:
            return None
        if self._clause_initial(texts, head):
            # subject-verb order: the verb follows, maybe after adverbs or adjectives
            k = nxt
            while k < len(words) and k <= last + 4:
                word = texts[k]
                if not _HEBREW.search(word) or word in _CLAUSE_OPENERS or self._pronoun(word):
                    break
                if word in _SKIPPABLE:
                    k += 1
                    continue
                readings = self.readings(word)
                verbs = [r for r in readings if r.finite_3rd and r.prefix == ""]
                verbs = [r for r in verbs if not r.suffix] or verbs  # נתנה "she gave", not "he gave her"
                if verbs:
                    gender = single_gender(r.gender for r in verbs)
                    return (gender, "verb", word) if gender else None
                if not any(r.pos == "ת" for r in readings):
                    break  # only adjectives may stand between the subject and its verb
                k += 1
        # verb-subject order: "הופתעה המטפלת", "כשהגיע המוביל"
        before = head - 1
        while before >= 0 and texts[before] in _SKIPPABLE:
            before -= 1
        if before >= 0:
            verbs = [r for r in self.readings(texts[before]) if r.finite_3rd and r.tense != "הווה"]
            verbs = [r for r in verbs if not r.suffix] or verbs
            opener = before == 0 or not _HEBREW.search(texts[before - 1]) or texts[before - 1] in _CLAUSE_OPENERS
            if verbs and (opener or all(r.prefix in ("כש", "וכש") for r in verbs)):
                gender = single_gender(r.gender for r in verbs)
                if gender:
                    return gender, "verb before the subject", texts[before]
        return None


# -- reading pronouns ------------------------------------------------------------------------------

class _PronounReader(SemiticPronounReader):
    """Reads one PronounTarget with the analyser's memoised hspell readings (see read_pronouns)."""

    an: HebrewAnalyser

    def key(self, text: str) -> str:
        return hspell_word(text)

    def verb_gender(self, k: int) -> tuple[Gender | None, bool, bool]:
        """(gender, plural, is_verb) of word k as the predicate of a 3rd-person subject.

        Past/future 3rd person and participles agree in gender; past 3pl (עבדו) is common gender, so a
        verb whose readings are plural and of both genders is a neutral form. Future ת־ is 3sg fem or
        2sg masc: only the 3rd-person reading is kept, the subject being a 3rd-person pronoun.
        """
        text = self.texts[k]
        for prefix in ("", "ו", "ש", "וש", "כש"):
            if text.startswith(prefix) and text[len(prefix):] in _VERB_SPELLINGS:
                return _VERB_SPELLINGS[text[len(prefix):]], False, True
        readings = self.an.readings(text)
        verbs = [r for r in readings if r.finite_3rd]
        verbs = [r for r in verbs if not r.suffix] or verbs
        # Hebrew drops a 3rd-person subject in the past and future, hardly with a participle
        verbs = [r for r in verbs if r.tense != "הווה"] or verbs
        if not verbs:
            adjectives = [r for r in readings if r.pos == "ת" and not r.construct and not r.suffix]
            return single_gender(r.gender for r in adjectives), any(r.plural for r in adjectives), False
        plural = all(r.plural for r in verbs)
        return single_gender(r.gender for r in verbs), plural, True

    def _aligned_predicate(self) -> PronounReading | None:
        """The aligned verb (or predicate adjective) carries the dropped subject's gender."""
        return self._predicate(self.span)

    def _suffix_reading(self, k: int, subject: bool, strict: bool = False) -> PronounReading | None:
        """A pronoun suffix on a noun or preposition (עבודתה, פניו, בשבילה): its own gender."""
        return self._suffix(k, subject, strict)

    def _right_of_span(self) -> PronounReading | None:
        """A pronoun form or the predicate just right of the aligned words ("כי [היה לו]", "כי [עבדה]")."""
        k = self.span[-1] + 1
        right = []
        while k < len(self.words) and len(right) < 4:
            text = self.texts[k]
            if not _HEBREW.search(text) or text in _CLAUSE_OPENERS or k in self.entity:
                break
            right.append(k)
            if not _skippable(text) and text not in ("היה", "הייתה", "היתה", "היו"):
                break
            k += 1
        for k in right:
            found = pronoun_form(self.texts[k])
            if found:
                word = self.words[k].text
                return PronounReading(found[0], f"dropped subject, pronoun '{word}' "
                                      f"({form_name(*found)})", (word,))
        return self._predicate(right, "dropped subject, ")

    def _suffix(self, k: int, subject: bool, strict: bool = False) -> PronounReading | None:
        """Word k's 3rd-person pronoun suffix (not for a subject when k is also a finite verb);
        ``strict``: every reading must carry it (for words found without alignment)."""
        readings = self.an.readings(self.texts[k])
        suffixed = [r for r in readings if r.suffix_gender is not None]
        gender = single_gender(r.suffix_gender for r in suffixed)
        if not gender or (subject and any(r.finite_3rd for r in readings)):
            return None
        if strict and len(suffixed) < len(readings):
            return None
        word = self.words[k].text
        plural = all(r.suffix_plural for r in suffixed)
        return PronounReading(gender, f"pronoun suffix on '{word}' ({form_name(gender, plural)})", (word,))

    def _clause_verb(self, allowed: set[int]) -> PronounReading | None:
        """The verb right after the last clause opener (כי, משום, ש+verb), for a dropped subject."""
        for k in range(len(self.words) - 1, -1, -1):
            text = self.texts[k]
            glued = k in allowed and any(r.finite_3rd and r.prefix.endswith("ש") for r in self.an.readings(text))
            if not glued and text not in _CLAUSE_OPENERS:
                continue
            start = k if glued else k + 1
            while start < len(self.words) and start != k and (
                    self.texts[start] in _CLAUSE_OPENERS or _skippable(self.texts[start])):
                start += 1
            if start < len(self.words) and start in allowed and not pronoun_form(self.texts[start]):
                found = self._predicate([start], "dropped subject, clause verb ")
                if found and found.gender in (_M, _F):
                    return found
            return None
        return None

    def _predicate(self, ks: Sequence[int], what: str = "") -> PronounReading | None:
        """The first verb/adjective among ``ks`` agreeing with a 3rd-person subject, as a reading."""
        for k in ks:
            gender, plural, is_verb = self.verb_gender(k)
            word = self.words[k].text
            kind = "verb" if is_verb else "predicate adjective"
            if gender:
                return PronounReading(gender, f"{what}{kind} '{word}' ({form_name(gender, plural)})", (word,))
            if is_verb and plural and self.item.source_pronoun in _PLURAL_SOURCE:
                return PronounReading(Gender.UNKNOWN, f"{what}plural verb '{word}' is common gender", (word,),
                                      "neutral-form")
            if is_verb and not plural:
                return PronounReading(Gender.UNKNOWN, f"{what}verb '{word}' reads as either gender "
                                      "(unvocalised spelling)", (word,))
        return None

