"""Gender reading shared by the Russian and Ukrainian analysers.

Both languages mark gender the same way: the noun has a lexical gender, and the words that agree
with it show the gender of the *referent* — past-tense verbs and short adjectives where the noun
is the subject, adjectives, participles, demonstratives and the relative pronoun (который/яка).
MT systems usually keep the masculine profession noun (врач, бухгалтер) and show a woman only
through agreement (врач сказала), so the decision is: feminine or neuter noun → that gender;
masculine-form noun → female if something agrees in the feminine, else male; common-gender nouns
(судья, untranslated English words, indeclinable surnames) → whatever agrees, else unknown.

Each token is a tuple of ``Reading`` (one per analysis the tool keeps). The Russian analyser gives
one contextual reading per token (natasha); the Ukrainian one gives pymorphy's readings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import pymorphy3

from discotest.lang.lexicon import entity_lexicon
from discotest.lang.morph.base import Gender, GenderReading, TargetEntity, Token

MASC, FEM, NEUT, COMMON, PLURAL = "masc", "fem", "neut", "common", "plural"
GENDER_OF = {MASC: Gender.MALE, FEM: Gender.FEMALE, NEUT: Gender.NEUTRAL}
GENDER_WORD = {MASC: "masculine", FEM: "feminine", NEUT: "neuter", COMMON: "common-gender"}

# indefinite pronouns rendering "someone": no gender of their own, masculine agreement is only the default
_INDEFINITE = re.compile(
    r"^(?:(?:кое-|будь-)(?:кто|кого|кому|кем|ком|хто|ким|кім)"
    r"|(?:кто|кого|кому|кем|ком|хто|ким|кім)(?:-то|-либо|-нибудь|-небудь|сь|ось)"
    r"|де(?:хто|кого|кому|ким|кім))$"
)
# possessives that do not agree with the noun they precede (её врач = "her doctor")
_NON_AGREEING = {"его", "ее", "её", "их", "його", "її", "їх", "їхній", "свой", "свій"}
# verbs that do not carry the gender themselves but may be followed by a word that does
_COPULAS = {"быть", "стать", "являться", "бути", "стати", "являтися"}
_RELATIVES = {"который", "котрий", "який"}
_LATIN = re.compile(r"^[A-Za-z][A-Za-z'-]*$")


@dataclass(frozen=True)
class Reading:
    """What agreement needs from one analysis of a token (UD-like coarse tags)."""

    pos: str  # NOUN PROPN PRON DET ADJ VERB AUX ADP CCONJ SCONJ PART ADV NUM PUNCT X
    lemma: str = ""
    gender: str | None = None  # masc / fem / neut, None when unmarked
    plural: bool = False
    case: str | None = None  # nom gen dat acc ins loc voc
    marks_subject: bool = False  # past-tense verb or short adjective/participle: agrees with its subject
    finite: bool = False  # finite verb (present/future/past)
    participle: bool = False  # adjective-like verb form (запропонованою дизайнером: it has its own agent)


@dataclass(frozen=True)
class Vote:
    """A word that agrees with the entity, and the gender it shows."""

    index: int
    gender: str  # masc / fem / neut, or plural (a plural predicate)
    role: str  # "verb", "adjective", "relative pronoun", ...


@cache
def lexicon_classes(lang: str) -> dict[str, str]:
    """Single-word entity forms -> masc / fem / common (a form listed under two genders is common)."""
    out: dict[str, str] = {}
    for forms in entity_lexicon(lang).values():
        for cls, words in ((MASC, forms.masculine), (FEM, forms.feminine), (COMMON, forms.common)):
            for word in words:
                if " " in word:
                    continue
                out[word] = cls if out.get(word, cls) == cls else COMMON
    return out


def is_indefinite_pronoun(word: str) -> bool:
    return bool(_INDEFINITE.match(word.lower()))


class Pymorphy:
    """pymorphy3 with memoised parses; also the lexical gender of nouns (dictionary, not context)."""

    _CASES = {"nomn": "nom", "gent": "gen", "gen2": "gen", "datv": "dat", "accs": "acc", "acc2": "acc",
              "ablt": "ins", "loct": "loc", "loc2": "loc", "voct": "voc"}
    _GENDERS = {"masc": MASC, "femn": FEM, "neut": NEUT}

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.morph = pymorphy3.MorphAnalyzer(lang=lang)
        self._parse = lru_cache(maxsize=None)(self.morph.parse)
        self._readings: dict[str, tuple[Reading, ...]] = {}

    def parses(self, word: str) -> list[pymorphy3.analyzer.Parse]:
        return self._parse(word.lower())

    def known(self, word: str) -> bool:
        return self.morph.word_is_known(word.lower())

    def readings(self, word: str) -> tuple[Reading, ...]:
        """All readings of a word; pronoun readings win over noun ones (uk «вона», «яка» parse as nouns first)."""
        key = word.lower()
        if key not in self._readings:
            parses = self.parses(key)
            if any(p.tag.POS == "NPRO" for p in parses):
                parses = [p for p in parses if p.tag.POS != "NOUN"]
            names = {"Surn", "Name", "Patr"}
            if any(not (names & set(p.tag.grammemes)) for p in parses):
                parses = [p for p in parses if not (names & set(p.tag.grammemes))]
            self._readings[key] = tuple(dict.fromkeys(self._reading(p) for p in parses))
        return self._readings[key]

    def _reading(self, parse: pymorphy3.analyzer.Parse) -> Reading:
        tag = parse.tag
        grams = set(tag.grammemes)
        pos = tag.POS
        gender = next((self._GENDERS[g] for g in ("masc", "femn", "neut") if g in grams), None)
        plural = "plur" in grams
        case = next((self._CASES[g] for g in self._CASES if g in grams), None)
        declinable = pos in ("NOUN", "ADJF", "PRTF", "NPRO", "NUMR")
        if case is None and declinable and self.lang == "uk" and "Fixd" not in grams:
            case = "nom"  # the uk dictionary leaves the nominative untagged
        if pos == "NOUN":
            return Reading("NOUN", parse.normal_form, gender, plural, case)
        if pos in ("ADJF", "PRTF"):
            participle = pos == "PRTF" or bool({"actv", "pssv"} & grams)
            return Reading("ADJ", parse.normal_form, gender, plural, case, participle=participle)
        if pos in ("ADJS", "PRTS"):
            return Reading("ADJ", parse.normal_form, gender, plural, None, marks_subject=True)
        if pos == "VERB":
            past = "past" in grams
            return Reading("VERB", parse.normal_form, gender if past else None, plural, None, past, True)
        if pos in ("INFN", "GRND"):
            return Reading("VERB", parse.normal_form)
        if pos == "NPRO":
            return Reading("PRON", parse.normal_form, gender, plural, case)
        if pos == "PREP":
            return Reading("ADP", parse.normal_form)
        if pos == "CONJ":
            return Reading("SCONJ" if "subord" in grams else "CCONJ", parse.normal_form)
        if pos == "PRCL":
            return Reading("PART", parse.normal_form)
        if pos in ("ADVB", "PRED", "COMP"):
            return Reading("ADV", parse.normal_form)
        if pos == "NUMR" or "NUMB" in grams:
            return Reading("NUM", parse.normal_form, gender, plural, case)
        if "PNCT" in grams:
            return Reading("PUNCT", parse.normal_form)
        return Reading("X", parse.normal_form)

    def noun_gender(self, word: str) -> tuple[str | None, bool]:
        """Lexical gender of a noun form (masc/fem/neut/common) and whether the dictionary knows it.

        The dictionary's first noun analysis wins (pymorphy orders them by frequency for Russian);
        names and surnames only when nothing else is there.
        """
        nouns = [p for p in self.parses(word) if p.tag.POS == "NOUN"]
        names = {"Surn", "Name", "Patr"}
        nouns = [p for p in nouns if not (names & set(p.tag.grammemes))] or nouns
        known = self.known(word)
        if not nouns:
            return None, known
        grams = set(nouns[0].tag.grammemes)
        same = {g for p in nouns if p.normal_form == nouns[0].normal_form for g in ("masc", "femn") if g in p.tag}
        if "ms-f" in grams or same == {"masc", "femn"}:
            return COMMON, known  # судья (ru ms-f), суддя (uk: one masc and one femn analysis)
        return next((self._GENDERS[g] for g in ("masc", "femn", "neut") if g in grams), None), known


# ---------------------------------------------------------------------------------------------
# choosing the head noun of the aligned span


def _is_nounish(readings: Sequence[Reading]) -> bool:
    return any(r.pos in ("NOUN", "PROPN") for r in readings)


def _is_adjectival(readings: Sequence[Reading]) -> bool:
    return any(r.pos in ("ADJ", "DET") for r in readings)


def pick_head(item: TargetEntity, readings: Sequence[Sequence[Reading]], lang: str) -> int | None:
    """The token of the span that names the entity: a lexicon noun, else a noun, else an adjective.

    A stray word (article-like pronoun, verb, preposition) the aligner added is skipped; in
    "генеральный директор" the adjective hands over to the noun it modifies.
    """
    lex = lexicon_classes(lang)

    def score(i: int) -> int:
        word = item.tokens[i].text.lower()
        rs = readings[i]
        if is_indefinite_pronoun(word):
            return 4
        if word in lex:
            return 4 if _is_nounish(rs) or not _is_adjectival(rs) else 3
        if _is_nounish(rs):
            return 2
        if _LATIN.match(word):
            return 2
        if _is_adjectival(rs) and not any(r.pos == "VERB" and r.finite or r.pos == "ADV" for r in rs):
            return 1  # an adjective can stand for the noun (дежурная); an adverb (чистіше 'more cleanly') cannot
        return 0

    span = sorted(item.entity)
    scores = {i: score(i) for i in span}
    best = max(scores.values(), default=0)
    if best == 0:
        return None
    head = next(i for i in span if scores[i] == best)
    # an adjective-like head followed in the span by a noun it can modify: move to the noun
    while head + 1 in scores and scores[head + 1] >= 2 and _is_adjectival(readings[head]):
        head += 1
    return head


# ---------------------------------------------------------------------------------------------
# agreement found by position (used for Ukrainian, and for Russian when the parse finds nothing)


def _cases(readings: Sequence[Reading]) -> set[str]:
    return {r.case for r in readings if r.case}


def could_be_subject(readings: Sequence[Reading], word: str) -> bool:
    """Nominative (or unknown case: foreign word, indeclinable) — the noun may be a verb's subject."""
    cases = _cases([r for r in readings if r.pos in ("NOUN", "PROPN", "PRON", "ADJ", "DET")])
    return not cases or "nom" in cases or bool(_LATIN.match(word))


def _modifier_gender(readings: Sequence[Reading], head_cases: set[str]) -> str | None:
    """Gender shown by a prenominal adjective/determiner whose case fits the noun's, if unambiguous."""
    if any(r.participle for r in readings):
        return None  # a participle before the noun usually governs it (моделлю, запропонованою дизайнером)
    fitting = [r for r in readings if r.pos in ("ADJ", "DET", "PRON", "NUM") and not r.plural
               and r.lemma not in _NON_AGREEING and r.case in head_cases and not r.marks_subject]
    genders = {r.gender for r in fitting}
    # several genders (нового: masculine or neuter) or none: the form shows nothing definite
    return genders.pop() if len(genders) == 1 and None not in genders else None


def _is(readings: Sequence[Reading], *pos: str) -> bool:
    return bool(readings) and all(r.pos in pos for r in readings)


def window_votes(item: TargetEntity, readings: Sequence[Sequence[Reading]], head: int) -> list[Vote]:
    """Agreement read by position: prenominal modifiers, «, который/яка», and the predicate to the right."""
    tokens = item.tokens
    n = len(tokens)
    votes: list[Vote] = []
    head_cases = _cases([r for r in readings[head] if r.pos in ("NOUN", "PROPN", "ADJ", "PRON")])
    # prenominal modifiers (главная бухгалтер, наша врач)
    j = head - 1
    while j >= 0 and any(r.pos in ("ADJ", "DET") or r.pos == "PRON" and r.case for r in readings[j]) \
            and not any(r.pos in ("NOUN", "VERB", "ADP", "CCONJ", "SCONJ", "PUNCT") for r in readings[j]):
        gender = _modifier_gender(readings[j], head_cases)
        if gender:
            votes.append(Vote(j, gender, "adjective"))
        j -= 1
    # relative pronoun right after the noun: «врач, которая …»
    k = head + 1
    if k < n and tokens[k].text == ",":
        k += 1
    if k < n:
        # the relative agrees with its antecedent in gender whatever its case (врач, которую я знаю)
        rel = [r for r in readings[k] if r.lemma in _RELATIVES and not r.plural and r.gender]
        if rel and len({r.gender for r in rel}) == 1 and not _owned_by_previous_noun(readings, head, rel[0].gender):
            votes.append(Vote(k, rel[0].gender, "relative pronoun"))
    # the predicate, when the noun can be the subject
    if could_be_subject(readings[head], tokens[head].text):
        votes += _predicate_votes(tokens, readings, head)
    return votes


def _owned_by_previous_noun(readings: Sequence[Sequence[Reading]], head: int, gender: str) -> bool:
    """«петицию фермера, которая …»: a genitive noun's relative clause may belong to the noun before it."""
    if "gen" not in _cases([r for r in readings[head] if r.pos in ("NOUN", "PROPN")]):
        return False
    j = head - 1
    while j >= 0 and _is(readings[j], "ADJ", "DET"):
        j -= 1
    return j >= 0 and any(r.pos == "NOUN" and r.gender == gender for r in readings[j])


def _predicate_votes(tokens: Sequence[Token], readings: Sequence[Sequence[Reading]], head: int) -> list[Vote]:
    """The past-tense verb or short form after a subject noun, skipping adverbs and oblique phrases."""
    votes: list[Vote] = []
    after_copula = False
    for k in range(head + 1, min(len(tokens), head + 8)):
        rs = readings[k]
        if not rs or _is(rs, "PUNCT", "CCONJ", "SCONJ", "X") or tokens[k].text in ",.;:!?()«»\"":
            break
        past = [r for r in rs if r.marks_subject]
        if past:
            if all(r.plural for r in past):
                votes.append(Vote(k, PLURAL, "verb"))  # plural predicate: no gender, but a plural subject
                break
            genders = {r.gender for r in past if not r.plural and r.gender}
            if len(genders) == 1:
                role = "verb" if any(r.pos in ("VERB", "AUX") for r in past) else "predicate"
                votes.append(Vote(k, genders.pop(), role))
                if not any(r.lemma in _COPULAS for r in past):
                    break
                after_copula = True
                continue
            break
        if any(r.pos in ("VERB", "AUX") and r.finite for r in rs):
            if any(r.lemma in _COPULAS for r in rs):
                after_copula = True
                continue
            break
        if any(r.pos in ("NOUN", "PROPN", "PRON") and r.case == "nom" for r in rs) and not after_copula:
            break  # another nominative: a new subject
        if _is(rs, "ADV", "PART", "ADP", "NOUN", "PROPN", "PRON", "ADJ", "DET", "NUM", "VERB"):
            continue  # adverbs, particles, oblique phrases (врач из больницы сказала), infinitives
        break
    return votes


# ---------------------------------------------------------------------------------------------
# the decision


@dataclass(frozen=True)
class Head:
    """The entity's head word and its lexical gender class."""

    index: int
    word: str
    cls: str | None  # masc / fem / neut / common / "pronoun" / None (unknown)
    source: str  # where the class came from: lexicon, the tool, a guess …
    known: bool  # the class is lexical fact, not a guess
    plural: bool
    maybe_plural: bool = False  # some analysis is plural (uk лікарі: plural or locative singular)

    @property
    def needs_agreement(self) -> bool:
        """Feminine and neuter nouns decide alone; everything else looks at agreeing words."""
        return self.plural is False and not (self.cls in (FEM, NEUT) and self.known)


def find_head(
    item: TargetEntity,
    readings: Sequence[Sequence[Reading]],
    lang: str,
    noun_gender: Callable[[str], tuple[str | None, bool]],
    tool: str,
) -> Head | GenderReading:
    """The head word and its lexical gender, or a final reading when there is no head."""
    if not item.entity:
        return GenderReading(Gender.UNKNOWN, "no target words aligned to the entity")
    index = pick_head(item, readings, lang)
    if index is None:
        words = " ".join(item.entity_words)
        return GenderReading(Gender.UNKNOWN, f"no noun among the aligned words '{words}'", item.entity_words)
    word = item.tokens[index].text
    low = word.lower()
    # lexical gender: the entity lexicon first (it knows аналитика here is the analyst), then the dictionary
    lex_cls = lexicon_classes(lang).get(low)
    known = True
    cls: str | None
    if is_indefinite_pronoun(low):
        cls, source = "pronoun", "indefinite pronoun"
    elif lex_cls:
        cls, source = lex_cls, "lexicon"
    elif _LATIN.match(word):
        cls, source = COMMON, "untranslated word"
    else:
        cls, known = noun_gender(word)
        source = tool if known else f"{tool} guess"
        if cls is None:
            adj = {r.gender for r in readings[index] if r.gender and not r.plural}
            cls = adj.pop() if len(adj) == 1 else None
    rs = [r for r in readings[index] if r.pos not in ("PUNCT", "X")]
    plural = bool(rs) and all(r.plural for r in rs) and cls != "pronoun"
    maybe_plural = any(r.plural for r in rs) or bool(_LATIN.match(word))
    return Head(index, word, cls, source, known, plural, maybe_plural)


def decide(item: TargetEntity, head: Head, votes: Sequence[Vote], tool: str) -> GenderReading:
    """Gender of the entity from its head word's class and the words agreeing with it."""
    word, cls = head.word, head.cls
    if head.plural:
        return GenderReading(Gender.UNKNOWN, f"'{word}' is plural: no gender in the plural", (word,))
    fem = [v for v in votes if v.gender == FEM]
    masc = [v for v in votes if v.gender == MASC]
    neut = [v for v in votes if v.gender == NEUT]
    plural = [v for v in votes if v.gender == PLURAL]
    if plural and head.maybe_plural and not (fem or masc or neut):
        verb = item.tokens[plural[0].index].text
        return GenderReading(Gender.UNKNOWN, f"'{word}' with plural verb '{verb}': plural, no gender", (word, verb))

    def shown(vs: list[Vote]) -> str:
        return ", ".join(f"{v.role} '{item.tokens[v.index].text}'" for v in vs)

    def evidence(vs: list[Vote]) -> tuple[str, ...]:
        return (word, *(item.tokens[v.index].text for v in vs))

    if cls == "pronoun":
        if fem:
            return GenderReading(Gender.FEMALE, f"indefinite pronoun '{word}' + feminine {shown(fem)}", evidence(fem))
        return GenderReading(Gender.NEUTRAL, f"indefinite pronoun '{word}' has no gender of its own", (word,))
    if cls in (FEM, NEUT) and head.known:
        return GenderReading(GENDER_OF[cls], f"{GENDER_WORD[cls]} noun '{word}' ({head.source})", (word,))
    if cls == MASC and head.known:
        if fem:
            why = f"masculine-form noun '{word}' ({head.source}) with feminine {shown(fem)}"
            return GenderReading(Gender.FEMALE, why, evidence(fem))
        why = f" + masculine {shown(masc)}" if masc else ", no feminine agreement"
        return GenderReading(Gender.MALE, f"masculine noun '{word}' ({head.source}){why}", evidence(masc))
    # common gender, foreign word, unknown word: agreement decides
    if cls == COMMON:
        what = f"common-gender '{word}' ({head.source})"
    elif cls:
        what = f"unknown word '{word}' ({head.source}: {GENDER_WORD[cls]})"
    else:
        what = f"'{word}'"
    if fem and not masc:
        return GenderReading(Gender.FEMALE, f"{what} + feminine {shown(fem)}", evidence(fem))
    if masc and not fem:
        return GenderReading(Gender.MALE, f"{what} + masculine {shown(masc)}", evidence(masc))
    if fem and masc:
        return GenderReading(Gender.UNKNOWN, f"{what}: agreement conflicts ({shown(fem + masc)})", evidence(fem + masc))
    if neut and cls != COMMON:
        return GenderReading(Gender.NEUTRAL, f"{what} + neuter {shown(neut)}", evidence(neut))
    if cls in (MASC, FEM, NEUT):
        return GenderReading(GENDER_OF[cls], f"{what}, no agreeing word", (word,))
    return GenderReading(Gender.UNKNOWN, f"{what}: no agreeing word shows the gender", (word,))
