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

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, overload

from discotest.errors import InputError
from discotest.lang.lexicon import entity_lexicon
from discotest.lang.morph.base import (
    Gender,
    GenderAnalyser,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
    Token,
)

if TYPE_CHECKING:
    import pymorphy3

MASC, FEM, NEUT, COMMON, PLURAL = "masc", "fem", "neut", "common", "plural"
GENDER_OF = {MASC: Gender.MALE, FEM: Gender.FEMALE, NEUT: Gender.NEUTRAL}
GENDER_WORD = {MASC: "masculine", FEM: "feminine", NEUT: "neuter", COMMON: "common-gender"}

# indefinite pronouns rendering "someone": grammatically masculine unless a word agreeing with them is feminine
# (кто-то сказала); the masculine is the generic one, so the reading is marked ``generic``
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


def dictionary_path(lang: str) -> str:
    """The data folder of the installed ``pymorphy3-dicts-<lang>`` package.

    Given only ``lang``, pymorphy3 takes ``$PYMORPHY2_DICT_PATH`` first (one folder for every language) and
    otherwise whichever installed package claims the language; the signature names pymorphy3-dicts-<lang>, so
    that is the dictionary read."""
    try:
        package = importlib.import_module(f"pymorphy3_dicts_{lang}")
    except ImportError:
        raise InputError(f"pymorphy3-dicts-{lang} is not installed: pip install 'discotest[{lang}]'") from None
    return package.get_path()


class Pymorphy:
    """pymorphy3 with memoised parses; also the lexical gender of nouns (dictionary, not context)."""

    _CASES = {"nomn": "nom", "gent": "gen", "gen2": "gen", "datv": "dat", "accs": "acc", "acc2": "acc",
              "ablt": "ins", "loct": "loc", "loc2": "loc", "voct": "voc"}
    _GENDERS = {"masc": MASC, "femn": FEM, "neut": NEUT}

    def __init__(self, lang: str) -> None:
        import pymorphy3  # with the analyser, not with the module (a warm run imports the module only)

        self.lang = lang
        self.morph = pymorphy3.MorphAnalyzer(path=dictionary_path(lang), lang=lang)
        self._parsed: dict[str, list[pymorphy3.analyzer.Parse]] = {}
        self._tags: dict[str, list[pymorphy3.tagset.OpencorporaTag]] = {}
        self._readings: dict[str, tuple[Reading, ...]] = {}

    def parses(self, word: str) -> list[pymorphy3.analyzer.Parse]:
        """pymorphy's parses of the word in lower case, most probable first (memoised)."""
        key = word.lower()
        if key not in self._parsed:
            self._parsed[key] = self.morph.parse(key)
        return self._parsed[key]

    def tags(self, word: str) -> list[pymorphy3.tagset.OpencorporaTag]:
        """The tags of ``parses(word)`` in no set order, for questions about which tags a word has (part of speech,
        case, gender, number), never about the first. ``MorphAnalyzer.parse`` without the last step, its probability
        estimator, which only orders the parses (and rescales their scores) and looks each (word, tag) up in its
        DAWG: a third of a parse, and most words of a cold Russian run are asked only such questions
        (``RussianAnalyser._feminine_ways``). The parses themselves when they are at hand."""
        key = word.lower()
        if key in self._parsed:
            return [p.tag for p in self._parsed[key]]
        if key not in self._tags:
            found: list = []
            seen: set = set()
            for unit, is_terminal in self.morph._units:  # MorphAnalyzer.parse's loop (pymorphy3 2.0)
                found.extend(unit.parse(key, key, seen))
                if is_terminal and found:
                    break
            self._tags[key] = [tag for _, tag, *_ in found]
        return self._tags[key]

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

    def animate(self, word: str) -> bool:
        """Whether the dictionary's first noun analysis names a living being (спортсменки, not лицензии)."""
        nouns = [p for p in self.parses(word) if p.tag.POS == "NOUN"]
        return bool(nouns) and "anim" in nouns[0].tag


class TokenReadings(Sequence[tuple[Reading, ...]]):
    """A sentence's readings per token (``readings``: ``Pymorphy.readings``), each analysed when a rule first looks at
    it. The rules look at the entity's words and their neighbours (``find_head``, ``window_votes``) or at the pronoun's
    (``read_pronoun``), not at every word: a cold Ukrainian run analysed every word form of the output, and google's
    noun verdicts look at 1,028 of its 3,533. A reading depends on its word alone, so when it is made does not change
    it."""

    __slots__ = ("_tokens", "_readings", "_done")

    def __init__(self, tokens: Sequence[Token], readings: Callable[[str], tuple[Reading, ...]]) -> None:
        self._tokens, self._readings = tokens, readings
        self._done: list[tuple[Reading, ...] | None] = [None] * len(tokens)

    def __len__(self) -> int:
        return len(self._tokens)

    @overload
    def __getitem__(self, index: int) -> tuple[Reading, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[Reading, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[Reading, ...] | list[tuple[Reading, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        done = self._done[index]
        if done is None:
            done = self._done[index] = self._readings(self._tokens[index].text)
        return done


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
    animate: bool = False  # the dictionary says it names a living being

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
    animate: Callable[[str], bool] | None = None,
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
    return Head(index, word, cls, source, known, plural, maybe_plural, bool(animate and plural and animate(word)))


def decide(item: TargetEntity, head: Head, votes: Sequence[Vote], tool: str) -> GenderReading:
    """Gender of the entity from its head word's class and the words agreeing with it."""
    word, cls = head.word, head.cls
    if head.plural and cls == FEM and head.known and head.animate:
        # a feminine person noun keeps its gender in the plural (спортсменки, учительницы): only women; the
        # masculine plural (учителя, спортсмены) is also the mixed and generic form, so it shows nothing
        return GenderReading(Gender.FEMALE, f"feminine person noun '{word}' in the plural ({head.source})", (word,))
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
        why = f" + {shown(masc)}" if masc else ""
        return GenderReading(Gender.MALE, f"indefinite pronoun '{word}': grammatically masculine (generic){why}",
                             evidence(masc), generic=True)
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
    return GenderReading(Gender.UNKNOWN, f"{what}: no agreeing word shows the gender", (word,), silent=True)


# ---------------------------------------------------------------------------------------------
# the gender the translation gives the English pronoun (target-side consistency)

# Third-person personal pronoun forms by the gender they show; with them «оба/обе» (uk обидва/обидві), 'both' in
# the nominative, which show a pair's gender as a pronoun does (оба: men or a mixed pair, обе: women). The
# masculine and neuter forms are the same word in every oblique case (его, ему, нём / його, йому, ньому), so they
# read as male. «им/ним» (ru) and «їм» (uk) are also the dative/instrumental plural: see _AMBIGUOUS_PLURAL.
PERSONAL = {
    "ru": {
        MASC: {"он", "его", "него", "ему", "нему", "им", "ним", "нём", "нем", "оба"},
        FEM: {"она", "её", "ее", "неё", "нее", "ей", "ней", "ею", "нею", "обе"},
        NEUT: {"оно"},
        PLURAL: {"они", "их", "них", "ими", "ними", "ихний", "ихняя", "ихнее", "ихние"},
    },
    "uk": {
        MASC: {"він", "його", "нього", "йому", "ньому", "ним", "їм", "нім", "обидва"},
        FEM: {"вона", "її", "неї", "їй", "ній", "нею", "ею", "обидві"},
        NEUT: {"воно"},
        PLURAL: {"вони", "їх", "них", "ними", "їхній", "їхня", "їхнє", "їхні", "їхнього", "їхньої", "їхньому",
                 "їхнім", "їхньою", "їхніх", "їхніми"},
    },
}
# singular masculine forms that are also plural (ru «к ним» 'to them', «им» 'to them'; uk «їм» 'to them')
_AMBIGUOUS_PLURAL = {"им", "ним", "їм"}
_PLURAL_SOURCE = {"they", "them", "their", "theirs", "themselves", "themself"}
# prepositions after which «ним»/«им» can only be the dative plural (к ним, по ним)
_DATIVE_PREPOSITIONS = {"к", "ко", "по", "благодаря", "навстречу", "согласно", "вопреки"}
# reflexive pronouns: no gender form (себя 'oneself'); the reflexive possessive agrees with the possessed noun
_REFLEXIVE = {"себя", "себе", "собой", "собою", "собі"}
_REFLEXIVE_POSSESSIVE = ("сво", "сві")
# neuter demonstratives standing for the pronoun (это 'this', це); этот/цей are masculine, so not here
_NEUTRAL_WORDS = {"это", "то", "це", "те"}
# intensifier «сам/сама» (herself → сама) shows gender like an adjective
_INTENSIFIER_LEMMAS = {"сам", "самий"}
_CLAUSE_END = {",", ".", ";", ":", "!", "?", "(", ")", "«", "»", "\"", "—", "-"}


def _personal_class(word: str, lang: str, tokens: Sequence[Token], index: int, source_pronoun: str) -> str | None:
    """masc / fem / neut / plural for a personal pronoun form, None for any other word."""
    low = word.lower()
    if low.startswith(("ихн", "їхн")):
        return PLURAL  # colloquial/Ukrainian declinable 'their' (їхню, їхнього)
    found = next((cls for cls, forms in PERSONAL[lang].items() if low in forms), None)
    if found == MASC and low in _AMBIGUOUS_PLURAL:
        before = tokens[index - 1].text.lower() if index > 0 else ""
        if before in _DATIVE_PREPOSITIONS or source_pronoun in _PLURAL_SOURCE:
            return PLURAL  # «к ним» 'to them'; for English they/them the plural reading is meant
    return found


def _is_reflexive_possessive(tokens: Sequence[Token], readings: Sequence[Sequence[Reading]], i: int) -> bool:
    """Token i is свой/своя/своё (uk свій/своя/своє) in any form (its readings looked at only for a word that
    begins so: ``TokenReadings`` analyses a word when first asked)."""
    return tokens[i].text.lower().startswith(_REFLEXIVE_POSSESSIVE) and any(r.lemma in ("свой", "свій")
                                                                            for r in readings[i])


def _carrier(readings: Sequence[Reading]) -> str | None:
    """The gender a past-tense verb or short adjective/participle shows (должна, сказал), PLURAL, or None."""
    marks = [r for r in readings if r.marks_subject]
    if not marks:
        return None
    if all(r.plural for r in marks):
        return PLURAL
    genders = {r.gender for r in marks if not r.plural and r.gender}
    return genders.pop() if len(genders) == 1 else None


def _intensifier(readings: Sequence[Reading]) -> str | None:
    """The gender of «сам/сама» (herself → сама), PLURAL for «сами», None otherwise."""
    own = [r for r in readings if r.lemma in _INTENSIFIER_LEMMAS]
    if not own:
        return None
    if all(r.plural for r in own):
        return PLURAL
    genders = {r.gender for r in own if r.gender and not r.plural}
    return genders.pop() if len(genders) == 1 else None


def _present_verb(readings: Sequence[Reading]) -> bool:
    return any(r.pos in ("VERB", "AUX") and r.finite and not r.marks_subject for r in readings)


def _clause_carrier(
    tokens: Sequence[Token], readings: Sequence[Sequence[Reading]], start: int
) -> tuple[int, str] | None:
    """For a dropped subject: the first finite verb or short form to the right, within the clause, and the
    gender it shows ("present" for a present/future verb, which shows none)."""
    for k in range(start, min(len(tokens), start + 6)):
        rs = readings[k]
        if tokens[k].text in _CLAUSE_END or _is(rs, "CCONJ", "SCONJ", "PUNCT"):
            return None
        if any(r.pos in ("NOUN", "PROPN", "PRON") and r.case == "nom" and not r.plural for r in rs) \
                and not any(r.marks_subject for r in rs):
            return None  # an overt subject of its own: the verb agrees with it, not with our pronoun
        cls = _carrier(rs)
        if cls:
            return k, cls
        if _present_verb(rs):
            return k, "present"  # «что не может»: a present/future verb, no gender
    return None


# parts of speech that cannot carry the pronoun's gender (что parses as a conjunction or a pronoun)
_FUNCTION_POS = ("SCONJ", "CCONJ", "ADP", "PART", "PUNCT", "ADV", "PRON")
_NOMINATIVE = {"он", "она", "оно", "они", "він", "вона", "воно", "вони"}
_POSSESSIVE = {"его", "ее", "её", "их", "його", "її", "їх"}


def _fits_role(tokens: Sequence[Token], readings: Sequence[Sequence[Reading]], i: int, role: str, lang: str) -> bool:
    """Can target word i render an English pronoun of this role (he: он; him: его/ему; his: его/свой)?"""
    low = tokens[i].text.lower()
    is_personal = any(low in forms for forms in PERSONAL[lang].values())
    if role == "possessive":
        return low in _POSSESSIVE or low.startswith(("ихн", "їхн")) or _is_reflexive_possessive(tokens, readings, i)
    if role == "subject":
        return low in _NOMINATIVE
    return is_personal and low not in _NOMINATIVE  # object, reflexive: an oblique form


def _unaligned(word: str, cls: str, role: str) -> PronounReading:
    """The reading of the only pronoun form in the sentence that fits the role (the aligner missed it)."""
    if cls == "reflexive":
        return PronounReading(Gender.UNKNOWN, f"unaligned reflexive possessive '{word}' agrees with the possessed",
                              (word,), "possessive-agrees-with-possessed")
    return _reading_of(cls, f"unaligned; '{word}' is the only {role} pronoun form", (word,))


def _reading_of(cls: str, what: str, words: tuple[str, ...], pronoun: bool = True) -> PronounReading:
    """The reading for a gender class; ``pronoun`` False when it was read from a verb or short form."""
    if cls == PLURAL:
        return PronounReading(Gender.UNKNOWN, f"{what}: plural, no gender", words, "neutral-form")
    if cls == NEUT and not pronoun:
        # an impersonal verb (не вдалося 'did not manage', было): the subject is gone, not rendered neutrally
        return PronounReading(Gender.UNKNOWN, f"{what}: impersonal neuter form", words, "pronoun-dropped")
    if cls == NEUT:
        return PronounReading(Gender.UNKNOWN, f"{what}: neuter pronoun", words, "neutral-form")
    return PronounReading(GENDER_OF[cls], f"{what}: {GENDER_WORD[cls]}", words)


def read_pronoun(
    item: PronounTarget, readings: Sequence[Sequence[Reading]], lang: str
) -> PronounReading:
    """The gender the translation gives the English pronoun, from the aligned words.

    In order: a personal pronoun form (он/она, його/її — possessives его/её show the possessor's gender),
    the reflexive possessive свой/свій (agrees with the possessed noun), «сам/сама», a past-tense verb or
    short form (сказала, должна — the pronoun was dropped), a word with no gender form (это, себя), a
    pronoun next to aligned function words (eflomal often aligns "she" to «что» in «потому что она»),
    and for a subject, the predicate of its clause. With nothing aligned: pronoun-dropped when the
    sentence has no third-person pronoun, else the only pronoun form that fits the English role.
    Nothing here looks at the English pronoun's gender; its number only decides «им/ним» (masculine
    singular or plural) — the masculine reading is never taken from the English.
    """
    span = sorted(i for i in item.pronoun if 0 <= i < len(item.tokens))
    tokens = item.tokens
    entity = set(item.entity)

    def personal(i: int) -> str | None:
        return _personal_class(tokens[i].text, lang, tokens, i, item.source_pronoun)

    if not span:
        others = [i for i in range(len(tokens)) if i not in entity]
        # nothing aligned: if the translation has no third-person pronoun at all, the pronoun was dropped
        # (subject pro-drop, or an object left out: «а потім заплатив» 'and then paid')
        if not any(personal(i) or _is_reflexive_possessive(tokens, readings, i) for i in others):
            return PronounReading(Gender.UNKNOWN, "nothing aligned and no third-person pronoun in the translation",
                                  (), "pronoun-dropped")
        # else the aligner missed it: take the pronoun forms that can fill the English role, if they agree
        fitting = [i for i in others if _fits_role(tokens, readings, i, item.role, lang)]
        classes = {personal(i) or "reflexive" for i in fitting}
        if len(classes) == 1:
            return _unaligned(tokens[fitting[0]].text, classes.pop(), item.role)
        return PronounReading(Gender.UNKNOWN, "no target words aligned to the pronoun", (), "no-target-words")
    words = tuple(tokens[i].text for i in span)
    # 1. personal pronoun forms; several that disagree: the first whose case fits the role
    forms = [(i, c) for i in span if (c := personal(i))]
    if forms:
        classes = {c for _, c in forms}
        i, cls = forms[0]
        if len(classes) == 2 and PLURAL in classes and item.source_pronoun in _PLURAL_SOURCE:
            forms = [(j, c) for j, c in forms if c != PLURAL]  # «оба они»: the pair's 'both' shows the gender
            classes = {c for _, c in forms}
            i, cls = forms[0]
        if len(classes) > 1:
            want = "nom" if item.role == "subject" else None
            fit = [(j, c) for j, c in forms if want and any(r.case == want for r in readings[j])]
            if len(fit) != 1:
                return PronounReading(Gender.UNKNOWN, f"pronoun forms disagree: {' '.join(words)}", words)
            i, cls = fit[0]
        kind = "possessive" if item.role == "possessive" else "pronoun"
        return _reading_of(cls, f"{kind} '{tokens[i].text}'", (tokens[i].text,))
    # 2. reflexive possessive свой/своя (and свій): agrees with the possessed noun, not with the possessor
    for i in span:
        if _is_reflexive_possessive(tokens, readings, i):
            return PronounReading(Gender.UNKNOWN, f"reflexive possessive '{tokens[i].text}' agrees with the possessed",
                                  (tokens[i].text,), "possessive-agrees-with-possessed")
    # 3. «сам/сама» (herself), then past-tense verbs and short forms in the span (dropped subject)
    for finder, what in ((_intensifier, "intensifier"), (_carrier, "predicate")):
        for i in span:
            cls = finder(readings[i])
            if cls:
                return _reading_of(cls, f"{what} '{tokens[i].text}'", (tokens[i].text,), what == "intensifier")
    # 4. words without gender
    for i in span:
        low = tokens[i].text.lower()
        if low in _REFLEXIVE or low in _NEUTRAL_WORDS:
            return PronounReading(Gender.UNKNOWN, f"'{tokens[i].text}' has no gender form", (tokens[i].text,),
                                  "neutral-form")
    # 5. the aligner often takes the conjunction or preposition before the pronoun («потому что она»,
    # «у него»): a pronoun right after function words, or just before an aligned verb («она хочет»)
    def function_word(i: int) -> bool:  # «у» is also an interjection (X)
        rs = [r for r in readings[i] if r.pos != "X"]
        return _is(rs, *_FUNCTION_POS) or tokens[i].text in _CLAUSE_END

    near = [span[0] - 1]
    if all(function_word(i) for i in span):
        right = span[-1] + 1
        while right < min(len(tokens), span[-1] + 4) and function_word(right) and not personal(right):
            right += 1  # «, что у него»: past the comma, the conjunction and the preposition
        near.insert(0, right)
    for i in near:
        if 0 <= i < len(tokens) and i not in entity:
            if cls := personal(i):
                return _reading_of(cls, f"pronoun '{tokens[i].text}' next to the aligned '{' '.join(words)}'",
                                   (tokens[i].text,))
            if _is_reflexive_possessive(tokens, readings, i) and item.role == "possessive":
                return PronounReading(Gender.UNKNOWN, f"reflexive possessive '{tokens[i].text}' agrees with the "
                                      "possessed", (tokens[i].text,), "possessive-agrees-with-possessed")
    # 6. a subject with no pronoun: the predicate of its clause (aligned word, then the words to its right)
    if item.role == "subject":
        if any(_present_verb(readings[i]) for i in span):
            return PronounReading(Gender.UNKNOWN, f"dropped subject, verb '{' '.join(words)}' shows no gender",
                                  words, "pronoun-dropped")
        found = _clause_carrier(tokens, readings, span[-1] + 1)
        if found and found[1] == "present":
            verb = tokens[found[0]].text
            return PronounReading(Gender.UNKNOWN, f"dropped subject, verb '{verb}' shows no gender", (verb,),
                                  "pronoun-dropped")
        if found:
            k, cls = found
            return _reading_of(cls, f"dropped subject, predicate '{tokens[k].text}'", (tokens[k].text,), False)
    if all(function_word(i) for i in span) and not any(
            personal(i) or _is_reflexive_possessive(tokens, readings, i)
            for i in range(len(tokens)) if i not in entity):
        # «і запитав, як …» 'and asked how …': a comma aligned, no pronoun anywhere — the pronoun was dropped
        return PronounReading(Gender.UNKNOWN, f"only '{' '.join(words)}' aligned and no third-person pronoun in the "
                              "translation", words, "pronoun-dropped")
    return PronounReading(Gender.UNKNOWN, f"aligned words '{' '.join(words)}' show no gender", words,
                          "no-target-words")


def read_pronouns(items: Sequence[PronounTarget], morph: Pymorphy) -> list[PronounReading]:
    """read_pronoun over a batch with pymorphy's memoised readings (no tagger: the forms decide)."""
    return [read_pronoun(item, TokenReadings(item.tokens, morph.readings), morph.lang) for item in items]


class PymorphyAnalyser(GenderAnalyser):
    """What the Russian and Ukrainian analysers share: pymorphy3 (``morph``) reads pronoun forms alone."""

    tool = "pymorphy3"  # named in the reasons for a noun's dictionary gender
    morph: Pymorphy

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """Pronoun gender from word forms (он/она, його/її, сказала): pymorphy suffices, no tagger is run."""
        return read_pronouns(items, self.morph)
