"""German: gender of the entity noun from german-nouns, decided by the article where the noun does not.

Why this shape: German marks gender on the noun (-in/-innen, lexical gender: der Arzt, die Wache,
das Kind) and on the words that agree with it (der/die/das, ein/eine, adjective endings). The noun
decides when it is gender-marked. Where it is not — nominalised adjectives and participles (der/die
Angestellte, Vorgesetzte), nouns with two genders in the lexicon (der/die CEO), unknown or
mistranslated words — the determiner decides, read together with the noun's case form and the case
the context requires: "der" is masculine nominative but also feminine dative/genitive ("mit der
CEO", "die Akte der Angestellten"), and plural "die" is not feminine ("die Bäcker" stays masculine).

Labels are grammatical gender: masculine -> male, feminine -> female, neuter (das Kind, das Opfer,
das Mitglied) and gender-neutral forms (Lehrer*in, LehrerIn, "Lehrerinnen und Lehrer") -> neutral; the indefinite
jemand is grammatically masculine, read male and marked ``generic``. Epicene nouns with a fixed gender keep it (die
Person, die Wache, die Reinigungskraft are female; der Gast is male), the reason says the noun is epicene and the
reading is marked ``generic``: nothing marks the person, so the noun-level verdict counts it neutral
(``gender.pipeline.noun_gender``). Epicene nouns of either gender (der/die Angestellte, der/die CEO) are not: their
article marks the person.

Tools: ``german-nouns`` (Wiktionary: genus and every case form of ~100k nouns; read through ``de_lexicon``, which
compiles what this analyser needs once and looks it up in place) and HanTa
(HanoverTagger, ``morphmodel_ger.pgz``) for words german-nouns lacks: its morpheme analysis gives the
head of a compound (Rechts|berater|in -> beraterin, looked up again), nominalised participles
(Praktizierende) and the feminine suffix; a lowercase word is never read as a noun. The discotest
entity lexicon picks the person reading of nouns with two genders (der Leiter, not die Leiter) and
the gender of loanwords german-nouns lacks, except an English entity noun left untranslated (Mover): that has no
German gender of its own, so its article decides ("Die Mover überzog" is not masculine). Resources load once;
lookups are memoised per word.

Pronouns (``read_pronouns``, target-side consistency) are read by ``de_pronouns`` with this
analyser's lookups; the closed classes both use are in ``de_words``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from importlib import resources
from pathlib import Path

from discotest.lang.lexicon import english_kept, entity_lexicon
from discotest.lang.morph.base import (
    Gender,
    GenderAnalyser,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
    Token,
    package_version,
)
from discotest.lang.morph.de_lexicon import ADJECTIVAL_CELLS as _ADJECTIVAL_CELLS
from discotest.lang.morph.de_lexicon import GermanNounLexicon
from discotest.lang.morph.de_pronouns import GermanPronounReader
from discotest.lang.morph.de_words import (
    CLAUSE_OPENERS,
    DER_ENDINGS,
    DETERMINERS,
    EPICENE_HEADS,
    GENUS_NAME,
    PREP_CASES,
    SKIPPABLE,
    NounInfo,
    Reading,
    case_readings,
)

_GENUS = {"m": Gender.MALE, "f": Gender.FEMALE, "n": Gender.NEUTRAL}

# preposition + article contractions
_CONTRACTIONS: dict[str, frozenset[Reading]] = {
    **{w: case_readings("m.dat n.dat") for w in (
        "vom", "zum", "im", "am", "beim", "hinterm", "überm", "unterm", "vorm")},
    **{w: case_readings("n.acc") for w in ("ins", "ans", "aufs", "durchs", "fürs", "ums", "übers", "vors")},
    "zur": case_readings("f.dat"),
}
_SUBJECT_PRONOUNS = frozenset({"er", "sie", "es", "ich", "du", "wir", "ihr", "man", "jemand", "niemand", "wer"})
_PRONOUNS = {
    "er": Gender.MALE, "ihn": Gender.MALE, "ihm": Gender.MALE,
    "sie": Gender.FEMALE,  # also plural; an entity aligned to "sie" is almost always singular
}
_INDEFINITE = re.compile(r"^(jemand|jemandem|jemanden|jemandes|niemand|niemandem|niemanden)$", re.IGNORECASE)
# gender-inclusive spellings: Lehrer*in, Lehrer:innen, Lehrer_in, LehrerIn(nen)
_INCLUSIVE_TOKEN = re.compile(r"\w[*:_]innen$|\w[*:_]in$|[a-zäöüß]In(nen)?$")
_INCLUSIVE_MARKS = frozenset({"*", ":", "_", "/", "-"})
ENGLISH_KEPT = "English word kept, no German gender of its own"
# endings of agent nouns (Fahrer, Autor, Polizist, Assistent, Friseur, Psychologe, Bibliothekar, Sekretär)
_AGENT_SUFFIXES = ("er", "or", "ist", "ent", "ant", "eur", "loge", "at", "ar", "är", "ier")


def hanta_model() -> Path:
    """The German model inside the installed HanTa package, by absolute path.

    HanTa unpickles the file it is given and, for a bare name, tries the working directory first: a
    ``morphmodel_ger.pgz`` left there would run its code."""
    return Path(str(resources.files("HanTa").joinpath("morphmodel_ger.pgz")))


def _fixed_epicene(noun: str) -> bool:
    """Whether ``noun`` is an epicene person noun of fixed gender (``de_words.EPICENE_HEADS``, as the word or its
    compound's head)."""
    return noun.lower().endswith(EPICENE_HEADS)


class GermanAnalyser(GenderAnalyser):
    """Noun gender from german-nouns; article, adjective ending and case context where it is ambiguous."""

    lang = "de"
    name = "german-nouns+hanta"

    def __init__(self) -> None:
        self._nouns = GermanNounLexicon()  # compiled from german-nouns, read on the first lookup
        from HanTa import HanoverTagger  # loads numpy: only an analyser that reads words needs it, not its class

        self._tagger = HanoverTagger.HanoverTagger(str(hanta_model()))
        self._person: dict[str, str] = {}
        for forms in entity_lexicon("de").values():
            for label, group in (("c", forms.common), ("m", forms.masculine), ("f", forms.feminine)):
                for form in group:
                    previous = self._person.get(form)
                    self._person[form] = label if previous in (None, label) else "c"
        self._info_cache: dict[str, NounInfo] = {}
        self._tag_cache: dict[str, tuple[str, list[tuple[str, str]]]] = {}

    @classmethod
    def static_version(cls) -> str:
        return (
            f"german-nouns-{package_version('german-nouns')}"
            f"+hanta-{package_version('HanTa')}+morphmodel_ger"
        )

    def prepare(self, sentences: Sequence[Sequence[Token]]) -> None:
        """Read the noun lexicon while the aligner runs: compiling it is 1.8 s of a first run's CPU."""
        self._nouns.load()

    # ------------------------------------------------------------------ lexicon lookups

    def noun_info(self, word: str) -> NounInfo:
        """Genders and case cells of ``word`` (memoised).

        In order: german-nouns (restricted to the person reading the entity lexicon knows), the entity
        lexicon, HanTa's analysis (a nominalised participle, or a compound whose head is looked up),
        the longest known noun the word ends with, a feminine -in/-innen on an agent noun.
        """
        if word in self._info_cache:
            return self._info_cache[word]
        low = word.lower()
        if not word[:1].isupper():
            # a lowercase word is no German noun (beschäftigte, rumänischen): only its article can tell
            info = NounInfo(frozenset(), frozenset(), "lowercase word")
            self._info_cache[word] = info
            return info
        person = self._person.get(low, "")
        genders, cells, adjectival = self._direct(low, person)
        source = "german-nouns"
        modifier = ""
        if not genders and person in ("m", "f") and english_kept(word, "de"):
            # an English noun left untranslated (Mover): no German gender of its own, its article decides
            source = ENGLISH_KEPT
        elif not genders and person in ("m", "f"):
            genders, source = frozenset({person}), "discotest entity lexicon"
        elif not genders:
            genders, cells, adjectival, source, head_person, modifier = self._unknown(word)
            person = person or head_person
        info = NounInfo(genders, cells, source, adjectival, person, modifier)
        self._info_cache[word] = info
        return info

    def _direct(self, low: str, person: str = "") -> tuple[frozenset[str], frozenset, bool]:
        """german-nouns' genders and cells for an exact form; the person reading if the lexicon knows it."""
        found = self._nouns.lookup(low)
        if found is None:
            return frozenset(), frozenset(), False
        cells, adjectival = found
        if adjectival:
            # german-nouns often lists only one gender of a nominalised adjective (Sachverständiger); a person
            # noun declined like an adjective has both, with predictable endings (de_lexicon reads them)
            return frozenset(c[0] for c in cells) - {"p"}, cells, True
        genders = frozenset(c[0] for c in cells)
        if person in ("m", "f") and person in genders:
            # the lexicon knows which reading is the person noun: der Leiter (not die Leiter, ladder)
            genders = frozenset({person})
            cells = frozenset(c for c in cells if c[0] == person)
        return genders, cells, False

    def _unknown(self, word: str) -> tuple[frozenset[str], frozenset, bool, str, str, str]:
        """(genders, cells, adjectival, source, head's person label, modifier) for a word german-nouns lacks."""
        low = word.lower()
        tag, morphemes = self._analyse(word)
        kinds = [kind for _, kind in morphemes]
        ending = next((e for e in ("em", "en", "er", "e") if low.endswith(e)), "")
        if word[:1].isupper() and ending and (tag == "NNA" or {"PRESPART", "SUF_PP"} & set(kinds)):
            # a nominalised participle german-nouns lacks (der/die Praktizierende, Büroangestellte)
            return frozenset({"m", "f"}), _ADJECTIVAL_CELLS[ending], True, "HanTa: nominalised participle", "c", ""
        heads = self._heads(low, morphemes)
        modifier = ""
        for head in heads:
            head_person = self._person.get(head, "")
            genders, cells, adjectival = self._direct(head, head_person)
            if not genders and head_person in ("m", "f"):
                genders = frozenset({head_person})
            if not genders:
                continue
            if not head_person and not head.endswith(_AGENT_SUFFIXES + ("in", "innen")):
                # the head is a thing (Schriftsteller|haus): the entity may be the first part only
                modifier = self._modifier(low[: len(low) - len(head)])
                if modifier:
                    return frozenset(), frozenset(), False, "", "", modifier
            return genders, cells, adjectival, f"german-nouns, compound head '{head}'", head_person, ""
        suffix = self._feminine_suffix(word, kinds)
        if suffix:
            return frozenset({"f"}), frozenset(), False, suffix, "f", ""
        return frozenset(), frozenset(), False, "", "", modifier

    def _heads(self, low: str, morphemes: list) -> list[str]:
        """Candidate compound heads, best first: HanTa's last noun morpheme, then known word endings."""
        if "-" in low:  # Olympia-Skandal, Kfz-Mechanikerin: the last part is the head
            return [low.rsplit("-", 1)[1]]
        heads: list[str] = []
        pieces = [m for m, _ in morphemes]
        if "".join(pieces) == low:
            # HanTa segmented the word: its last noun morpheme starts the head (none if not a compound)
            position = 0
            for piece, kind in morphemes:
                if kind in ("NN", "NE") and position > 0:
                    heads = [low[position:]]
                position += len(piece)
            if heads:
                return heads
        # known endings of at least 5 letters, longest first, that look like a person (Franzis|richter),
        # not any noun a word happens to end with (Irri|tanten)
        return [
            low[i:] for i in range(2, len(low) - 4)
            if low[i:] in self._person or low[i:].endswith(_AGENT_SUFFIXES + ("in", "innen"))
        ]

    def _modifier(self, prefix: str) -> str:
        """A person noun that the first part of a compound is, with or without a linking -s (Anwalts|kanzlei)."""
        for candidate in (prefix, prefix[:-1] if prefix.endswith("s") else ""):
            label = self._person.get(candidate)
            if candidate and label in ("m", "f"):
                return f"{label}:{candidate}"
        return ""

    def _feminine_suffix(self, word: str, kinds: list[str]) -> str:
        """Why an unknown word is a feminine -in/-innen agent noun (Moverin, Dispatcherin), or ''."""
        low = word.lower()
        for suffix in ("innen", "in"):
            stem = low[: -len(suffix)]
            if low.endswith(suffix) and len(stem) >= 3:
                if self._person.get(stem) == "m":
                    return f"suffix -{suffix} on '{stem}'"
                if stem.endswith(_AGENT_SUFFIXES):
                    return f"agent noun + suffix -{suffix}"
        if "SUF_FEM" in kinds:
            return "feminine suffix (HanTa)"
        return ""

    def _analyse(self, word: str) -> tuple[str, list[tuple[str, str]]]:
        """HanTa's tag and morphemes for a word out of context (memoised: ~7 ms per new word)."""
        if word not in self._tag_cache:
            _, morphemes, tag = self._tagger.analyze(word, taglevel=3)
            self._tag_cache[word] = (tag, list(morphemes))
        return self._tag_cache[word]

    # ------------------------------------------------------------------ the noun and its article

    def _is_function_word(self, text: str) -> bool:
        low = text.lower()
        return low in DETERMINERS or low in _CONTRACTIONS or low in PREP_CASES or not text[:1].isalnum()

    def _head(self, tokens: tuple[Token, ...], span: tuple[int, ...]) -> int | None:
        """The entity's noun among the aligned tokens (or right after an aligned article).

        German nouns are capitalised, so a capitalised entity-lexicon form beats a known noun, which
        beats an unknown capitalised word; pronouns and lowercase words (sota's "den sauberer") are
        taken only when nothing better was aligned. Ties go to the leftmost word.
        """
        best, best_score = None, 0
        for i in span:
            text = tokens[i].text
            if self._is_function_word(text):
                continue
            low = text.lower()
            capital = text[:1].isupper() and (i > 0 or low not in CLAUSE_OPENERS)
            if _INDEFINITE.match(text):
                score = 6
            elif capital and low in self._person:
                score = 5
            elif capital:
                info = self.noun_info(text)
                score = 4 if info.genders or info.modifier else 3
            elif low in _PRONOUNS:
                score = 2
            else:
                score = 1 if self._analyse(text)[0].startswith(("NN", "NE", "ADJ", "FM")) else 0
            if score > best_score:
                best, best_score = i, score
        articles = [i for i in span if tokens[i].text.lower() in {*DETERMINERS, *_CONTRACTIONS}]
        if best is None and articles:
            # only an article was aligned: its noun follows within a few words
            for i in range(max(articles) + 1, min(len(tokens), max(articles) + 5)):
                text = tokens[i].text
                if not text[:1].isalnum():
                    break
                if text[:1].isupper():
                    return i
        return best

    def _determiner(self, tokens: tuple[Token, ...], head: int) -> tuple[int | None, list[int]]:
        """Index of the determiner (or contraction/preposition) before the noun, and the adjectives between."""
        adjectives: list[int] = []
        j = head - 1
        while j >= 0 and head - j <= 4:
            low = tokens[j].text.lower()
            if low in DETERMINERS or low in _CONTRACTIONS or low in PREP_CASES:
                return j, adjectives
            text = tokens[j].text
            if not text.isalpha() or text[:1].isupper() and j > 0:
                break
            if low in CLAUSE_OPENERS or low in _SUBJECT_PRONOUNS:
                break
            if low not in SKIPPABLE and not low.endswith(("e", "en", "er", "em", "es", "ig", "ich", "isch")):
                break
            adjectives.append(j)
            j -= 1
        return None, adjectives

    def _context_case(self, tokens: tuple[Token, ...], det: int) -> tuple[frozenset[str] | None, str]:
        """The cases the context allows for an article at ``det``: from a preposition, else a clause guess."""
        prev = det - 1
        if prev >= 0 and tokens[prev].text.lower() in PREP_CASES:
            word = tokens[prev].text.lower()
            return PREP_CASES[word], f"after preposition '{tokens[prev].text}'"
        if prev < 0 or not tokens[prev].text[:1].isalnum() or tokens[prev].text.lower() in CLAUSE_OPENERS:
            return frozenset({"nom"}), "at the start of a clause"
        if tokens[prev].text[:1].isupper() and self.noun_info(tokens[prev].text).genders:
            return frozenset({"gen"}), f"after the noun '{tokens[prev].text}' (genitive attribute)"
        # after a verb: an object if the clause already has its subject
        k = prev
        while k >= 0 and tokens[k].text[:1].isalnum() and tokens[k].text.lower() not in CLAUSE_OPENERS:
            k -= 1
        clause_start = k + 1
        first = tokens[clause_start].text.lower() if clause_start < prev else ""
        if first in DETERMINERS or first in _SUBJECT_PRONOUNS:
            return frozenset({"acc", "dat", "gen"}), "object position (the clause already has a subject)"
        return None, ""

    # ------------------------------------------------------------------ reading one item

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        return [self._read_one(item) for item in items]

    def _read_one(self, item: TargetEntity) -> GenderReading:
        if not item.entity:
            return GenderReading(Gender.UNKNOWN, "no target words aligned to the entity")
        tokens = item.tokens
        head = self._head(tokens, item.entity)
        if head is None:
            words = " ".join(item.entity_words)
            return GenderReading(Gender.UNKNOWN, f"no noun among the aligned words '{words}'", item.entity_words)
        text = tokens[head].text
        low = text.lower()
        if _INDEFINITE.match(text):
            return GenderReading(Gender.MALE, f"indefinite pronoun '{text}': grammatically masculine (generic)",
                                 (text,), generic=True)
        if low in _PRONOUNS:
            return GenderReading(_PRONOUNS[low], f"personal pronoun '{text}'", (text,))
        inclusive = self._inclusive(tokens, head)
        if inclusive:
            return inclusive
        info = self.noun_info(text)
        det, adjectives = self._determiner(tokens, head)
        return self._decide(tokens, head, info, det, adjectives)

    def _inclusive(self, tokens: tuple[Token, ...], head: int) -> GenderReading | None:
        """Gender-inclusive spellings and pairs: Lehrer*in, LehrerIn, Lehrerinnen und Lehrer."""
        text = tokens[head].text
        if _INCLUSIVE_TOKEN.search(text):
            return GenderReading(Gender.NEUTRAL, f"gender-inclusive spelling '{text}'", (text,))
        after = [t.text for t in tokens[head + 1 : head + 4]]
        marks = 0
        while marks < len(after) and after[marks] in _INCLUSIVE_MARKS:
            marks += 1
        if 0 < marks < len(after) and after[marks].lower() in ("in", "innen"):
            words = (text, *after[: marks + 1])
            return GenderReading(Gender.NEUTRAL, f"gender-inclusive spelling '{''.join(words)}'", words)
        low = text.lower()
        for step in (2, -2):
            other, link = head + step, head + step // 2
            if 0 <= other < len(tokens) and tokens[link].text.lower() in ("und", "oder", "/", "bzw"):
                pair = tokens[other].text.lower()
                if pair in (low + "in", low + "innen", low + "nen") or low in (pair + "in", pair + "innen"):
                    words = tuple(t.text for t in tokens[min(head, other) : max(head, other) + 1])
                    return GenderReading(Gender.NEUTRAL, f"paired form '{' '.join(words)}'", words)
        return None

    def _decide(
        self, tokens: tuple[Token, ...], head: int, info: NounInfo, det: int | None, adjectives: list[int]
    ) -> GenderReading:
        noun = tokens[head].text
        fixed = _fixed_epicene(noun)
        one = len(info.genders) == 1 and not info.adjectival
        epicene = " (epicene noun, grammatical gender)" if fixed or (one and info.person == "c") else ""
        # 1. a noun with one gender decides (Ärztin, Arzt, Kind, Wache)
        if one:
            genus = next(iter(info.genders))
            reason = f"noun '{noun}' ({GENUS_NAME[genus]}, {info.source}){epicene}"
            evidence: tuple[str, ...] = (noun,)
            if det is not None and tokens[det].text.lower() not in PREP_CASES:
                article = tokens[det].text
                reason = f"article '{article}' + {reason}"
                evidence = (article, noun)
            return GenderReading(_GENUS[genus], reason, evidence, generic=bool(epicene) and genus in ("m", "f"))
        if info.modifier:
            label, part = info.modifier.split(":", 1)
            gender = Gender.MALE if label == "m" else Gender.FEMALE
            form = "masculine" if label == "m" else "feminine"
            return GenderReading(
                gender, f"entity only as compound modifier '{part}-' of '{noun}' ({form} form)", (noun,)
            )
        # 2. otherwise the article (with the noun's case forms and the context's case) decides; a fixed epicene noun
        # german-nouns lists with two genders (die Geisel, die Waise) has its gender by the article, only grammatical
        reading = self._by_agreement(tokens, head, info, det, adjectives)
        if fixed and not info.adjectival and reading.gender in (Gender.MALE, Gender.FEMALE):
            return replace(reading, reason=f"{reading.reason} (epicene noun, grammatical gender)", generic=True)
        return reading

    def _by_agreement(
        self, tokens: tuple[Token, ...], head: int, info: NounInfo, det: int | None, adjectives: list[int]
    ) -> GenderReading:
        noun = tokens[head].text
        det_text = tokens[det].text if det is not None else ""
        det_low = det_text.lower()
        readings: frozenset[Reading] = frozenset()
        declension = "stark"
        allowed: frozenset[str] | None = None
        why_case = ""
        if det_low in _CONTRACTIONS:
            readings, declension = _CONTRACTIONS[det_low], "schwach"
        elif det_low in DETERMINERS:
            readings, kind = DETERMINERS[det_low]
            declension = "schwach" if kind == "def" else "gemischt"
            allowed, why_case = self._context_case(tokens, det)
        elif det_low in PREP_CASES:
            allowed, why_case = PREP_CASES[det_low], f"after preposition '{det_text}'"
        if not readings:
            # no article: strong adjective endings, else the nominalised adjective's own ending
            ending_word = tokens[adjectives[0]].text if adjectives else (noun if info.adjectival else "")
            readings = self._strong_ending(ending_word)
            det_text = ending_word if adjectives else ""
            if not readings and not info.genders:
                return GenderReading(
                    Gender.UNKNOWN, f"'{noun}': gender unknown to german-nouns and no article", (noun,), silent=True
                )
        if allowed:
            narrowed = frozenset(r for r in readings if r[1] in allowed)
            if narrowed:
                readings = narrowed
            else:
                why_case = ""
        genders = self._match(info, readings, declension)
        if not genders and info.adjectival:
            # ungrammatical ending after the article ("Der Vorgesetzter"): ignore the declension,
            # then the ending altogether (the article alone, among the noun's genders)
            genders = self._match(info, readings, "") or self._match(
                NounInfo(info.genders, frozenset(), info.source), readings, declension
            )
        if not genders and info.genders:
            # article and noun disagree (poor MT): trust the noun's own readings if it has any
            genders = set(info.genders)
        evidence = tuple(w for w in (det_text, noun) if w)
        if det_text and det_low in DETERMINERS or det_low in _CONTRACTIONS:
            what = f"article '{det_text}' + "
        elif det_text:
            what = f"adjective ending '{det_text}' + "
        else:
            what = ""
        if info.adjectival:
            noun_note = f"nominalised adjective '{noun}' ({info.source})"
        elif info.source == ENGLISH_KEPT:
            noun_note = f"'{noun}' ({ENGLISH_KEPT})"
        elif info.genders:
            noun_note = f"noun '{noun}' ({'/'.join(GENUS_NAME[g] for g in sorted(info.genders))}, {info.source})"
        else:
            noun_note = f"unknown noun '{noun}'"
        case_note = f", {why_case}" if why_case else ""
        if len(genders) == 1:
            genus = genders.pop()
            if genus == "p":
                return GenderReading(Gender.UNKNOWN, f"{what}{noun_note}: plural, no gender{case_note}", evidence)
            note = ", read as a masculine person noun" if not info.genders and genus == "m" else ""
            return GenderReading(_GENUS[genus], f"{what}{noun_note}{case_note}{note}", evidence)
        names = "/".join(GENUS_NAME.get(g, "Plur") for g in sorted(genders))
        return GenderReading(Gender.UNKNOWN, f"{what}{noun_note} fit several genders ({names}){case_note}", evidence,
                             silent="p" not in genders)

    @staticmethod
    def _strong_ending(word: str) -> frozenset[Reading]:
        low = word.lower()
        for end in ("em", "er", "es", "en", "e"):
            if low.endswith(end) and len(low) > len(end) + 2:
                return case_readings(DER_ENDINGS[end])
        return frozenset()

    @staticmethod
    def _match(info: NounInfo, readings: frozenset[Reading], declension: str) -> set[str]:
        """Genders consistent with both the article's readings and the noun's paradigm cells.

        Singular readings win over plural ones (the English entity is singular); a plural match of a
        gendered noun keeps the noun's gender (die Bäcker: masculine), of an unknown noun gives "p".
        """
        if not info.cells:
            # noun without paradigm (unknown word, loanword): the article alone, restricted to the
            # noun's lexical genders if known; masculine and neuter articles read a person as masculine
            sg = {g for g, _, n in readings if n == "sg" and (not info.genders or g in info.genders)}
            if sg:
                return {"m"} if sg == {"m", "n"} else sg
            pl = {g for g, _, n in readings if n == "pl"}
            return set(info.genders) if pl and info.genders else ({"p"} if pl else set())
        matched: dict[str, set[str]] = {"sg": set(), "pl": set()}
        for genus, case, number, decl in info.cells:
            if decl and info.adjectival and declension and decl != declension:
                continue
            for r_gender, r_case, r_number in readings:
                if r_case == case and r_number == number and (number == "pl" or r_gender == genus):
                    matched[number].add(genus)
        return matched["sg"] or matched["pl"]

    # ------------------------------------------------------------------ pronouns (target-side consistency)

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """The gender each translation gives the English pronoun, read from German word forms
        (``de_pronouns``) with this analyser's memoised HanTa tags and noun lookups."""
        return GermanPronounReader(self._analyse, self.noun_info, self._head).read(items)
