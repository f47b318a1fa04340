"""The person's gender read from an English text (issue 38): the gendered words that belong to the passage's person.

MiTTenS passages are about one person. Other people may be named in them (a bio's mother and father, "my son"'s
wife), so not every gendered word is the person's. The rule, word by word, left to right in each sentence:

- **Nouns** (``NOUNS``: mother/father, wife/husband, actress, woman/man …; singular only; a masculine form that
  English also uses for women — actor, waiter, host, hero — is not in it) are the person's when the passage names
  the person by them: after "my" ("I'm picking up my brother", "my late husband"), or as the complement of a copula
  whose subject is no other person ("Sarah is my aunt", "She was the first woman to …", "He is a good man"; at most
  four words between, none a possessive). Every other gendered noun is **another person** ("Yassin's mother was
  Zainab", "her father", "and mother Barbara", "His mother was a nun": the complement of another person's copula).
- **Pronouns** (he/him/his/himself, she/her/hers/herself) are the person's, except one that follows, in the same
  sentence, a noun of another person of its own gender: it may be theirs ("His father, Ernie, and his mother"),
  so it is left out, whichever gender it shows.

Every one of the 1,744 into-English references holds pronouns of one gender only, its person's (VALIDITY.md), so
the pronoun rule is exact on them; the exception guards translations that add a pronoun for a relative.

The reading: the genders the person's words show — ``female``, ``male``, ``both`` or ``none`` — and against the
item's gender the verdict ``correct``, ``wrong``, ``both`` or ``none``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

PRONOUNS = {"he": "male", "him": "male", "his": "male", "himself": "male",
            "she": "female", "her": "female", "hers": "female", "herself": "female"}
_FEMALE_NOUNS = """mother mom mum mommy mummy daughter sister wife girlfriend aunt auntie niece grandmother grandma
granddaughter actress waitress hostess stewardess queen princess duchess countess baroness empress lady woman girl
widow bride nun heroine businesswoman chairwoman spokeswoman policewoman stepmother stepdaughter stepsister fiancee
fiancée goddess priestess headmistress landlady housewife female"""
_MALE_NOUNS = """father dad daddy son brother husband boyfriend uncle nephew grandfather grandpa grandson king prince
duke baron emperor gentleman man boy widower bridegroom monk businessman chairman spokesman policeman stepfather
stepson stepbrother fiance headmaster landlord male"""
NOUNS = {**{w: "female" for w in _FEMALE_NOUNS.split()}, **{w: "male" for w in _MALE_NOUNS.split()}}
COPULAS = frozenset(["is", "are", "am", "was", "be", "been", "became", "become", "becomes", "being", "remains",
                     "remained"])
# words that end a copula's frame before its complement ("He was survived by his mother": not a complement)
_FRAME_BREAK = frozenset(["and", "or", "but", "by", "with", "to", "of", "for", "from", "in", "on", "at", "about",
                          "after", "before", "than", "who", "which", "that", "when", "where"])
POSSESSIVES = frozenset(["his", "her", "their", "its", "your", "our", "whose"])
_S_IS = frozenset(["he", "she", "it", "that", "who", "this", "there", "what"])  # "she's a nurse": 's is "is"
_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
_SENTENCE_END = re.compile(r"[.!?。]+(?=[\s\"'”’)]|$)|\n")


@dataclass(frozen=True)
class Word:
    """A gendered word of the text: where it is, the gender it shows, whose it is and why."""

    text: str
    start: int
    end: int
    gender: str  # female / male
    kind: str  # pronoun / noun
    person: bool  # the passage's person's word (else another person's, or left out)
    why: str  # my-noun, copula-noun, pronoun; other-person-noun, after-other-person

    def to_json(self) -> dict:
        return {"word": self.text, "start": self.start, "end": self.end, "gender": self.gender, "kind": self.kind,
                "person": self.person, "why": self.why}


@dataclass(frozen=True)
class Reading:
    """The person's gender as an English text shows it, and the verdict against the item's gender."""

    gender: str  # female / male / both / none
    verdict: str  # correct / wrong / both / none
    words: tuple[Word, ...]  # every gendered word, the person's and the others'

    @property
    def deciding(self) -> tuple[Word, ...]:
        return tuple(w for w in self.words if w.person)

    def to_json(self) -> dict:
        return {"gender": self.gender, "verdict": self.verdict,
                "deciding": [w.text for w in self.deciding],
                "words": [w.to_json() for w in self.words]}


def _tokens(text: str) -> list[tuple[str, int, int, int, bool]]:
    """(lowercased word, start, end, sentence number, followed by 's) for every word of ``text``."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    out, sentence = [], 0
    for m in _WORD.finditer(text):
        while sentence < len(ends) and ends[sentence] <= m.start():
            sentence += 1
        after = text[m.end():m.end() + 2]
        out.append((m.group().lower(), m.start(), m.end(), sentence, after in ("'s", "’s")))
    return out


def gendered_words(text: str) -> tuple[Word, ...]:
    """Every gendered pronoun and noun of ``text``, each marked the person's or not (module doc)."""
    tokens = _tokens(text)
    words: list[Word] = []
    others: list[tuple[int, str]] = []  # (sentence, gender) of the other people's nouns seen so far
    for i, (w, start, end, sentence, _) in enumerate(tokens):
        original = text[start:end]
        if w in NOUNS:  # possessed or not: "my mother's house" still names its person
            why = _noun_rule(tokens, i)
            if why is None:
                others.append((sentence, NOUNS[w]))
            words.append(Word(original, start, end, NOUNS[w], "noun", why is not None, why or "other-person-noun"))
        elif w in PRONOUNS:
            gender = PRONOUNS[w]
            why = ("after-other-person" if (sentence, gender) in others
                   else "possessor-of-person-noun" if _possessor_of_person(tokens, i) else "pronoun")
            words.append(Word(original, start, end, gender, "pronoun", why == "pronoun", why))
    return tuple(words)


def _is_copula(before: Sequence[tuple[str, int, int, int, bool]], at: int) -> bool:
    """Whether ``before[at]`` is a copula: is/was/… , "am", or the 's of "she's" and the 'm of "I'm"."""
    word = before[at][0]
    previous = before[at - 1][0] if at > 0 else ""
    return word in COPULAS or (word == "s" and previous in _S_IS) or (word == "m" and previous == "i")


def _noun_rule(tokens: Sequence[tuple[str, int, int, int, bool]], i: int) -> str | None:
    """Why the noun at ``i`` names the passage's person ("my-noun", "copula-noun", "as-noun"), or None: another
    person. A copula's complement may have a possessor right before it ("I'm Alex's husband", "He is her
    brother"); a preposition, a conjunction (``_FRAME_BREAK``), another noun or a possessive further back end the
    frame."""
    sentence = tokens[i][3]
    before = [t for t in tokens[max(0, i - 6):i] if t[3] == sentence]
    if before and (before[-1][0] == "my" or (len(before) > 1 and before[-2][0] == "my"
                                             and before[-1][0] not in NOUNS and before[-1][0] not in POSSESSIVES)):
        return "my-noun"
    for back in range(1, min(5, len(before)) + 1):
        at = len(before) - back
        word = before[at][0]
        if _is_copula(before, at):
            subject = [t for t in tokens[:i - back] if t[3] == sentence]
            if any(t[0] in NOUNS and _noun_rule(tokens, tokens.index(t)) is None for t in subject):
                return None  # "His mother was a nun": the complement of another person
            return "copula-noun"
        if word in ("as",) and back <= 3:
            return "as-noun"
        possessor = back == 1 and (word in POSSESSIVES or before[at][4])
        possessor = possessor or (back == 2 and before[-1][0] == "s" and before[-2][4])  # Alex 's husband
        if not possessor and (word in POSSESSIVES or word in NOUNS or before[at][4] or word in _FRAME_BREAK):
            return None
    return None


def _possessor_of_person(tokens: Sequence[tuple[str, int, int, int, bool]], i: int) -> bool:
    """Whether the possessive pronoun at ``i`` stands right before a noun that names the person ("I'm his uncle":
    "his" is the nephew's)."""
    return (tokens[i][0] in POSSESSIVES and i + 1 < len(tokens) and tokens[i + 1][0] in NOUNS
            and tokens[i + 1][3] == tokens[i][3] and _noun_rule(tokens, i + 1) is not None)


def read_english(text: str, gender: str) -> Reading:
    """The reading of ``text`` for a person of ``gender`` (female / male)."""
    words = gendered_words(text)
    shown = {w.gender for w in words if w.person}
    read = "both" if len(shown) > 1 else shown.pop() if shown else "none"
    verdict = read if read in ("both", "none") else "correct" if read == gender else "wrong"
    return Reading(read, verdict, words)


_SWAP = {"he": "she", "she": "he", "him": "her", "his": "her", "her": "his", "hers": "his", "himself": "herself",
         "herself": "himself"}
_PAIRS = [("mother", "father"), ("mom", "dad"), ("mum", "dad"), ("mommy", "daddy"), ("daughter", "son"),
          ("sister", "brother"), ("wife", "husband"), ("girlfriend", "boyfriend"), ("aunt", "uncle"),
          ("niece", "nephew"), ("grandmother", "grandfather"), ("grandma", "grandpa"), ("granddaughter", "grandson"),
          ("queen", "king"), ("princess", "prince"), ("duchess", "duke"), ("baroness", "baron"),
          ("empress", "emperor"), ("lady", "gentleman"), ("woman", "man"), ("girl", "boy"), ("widow", "widower"),
          ("nun", "monk"), ("businesswoman", "businessman"), ("chairwoman", "chairman"),
          ("spokeswoman", "spokesman"), ("policewoman", "policeman"), ("stepmother", "stepfather"),
          ("stepdaughter", "stepson"), ("stepsister", "stepbrother"), ("fiancee", "fiance"),
          ("headmistress", "headmaster"), ("landlady", "landlord"), ("female", "male"), ("actress", "actor"),
          ("waitress", "waiter"), ("hostess", "host"), ("stewardess", "steward"), ("heroine", "hero")]
for _f, _m in _PAIRS:
    _SWAP.setdefault(_f, _m)
    _SWAP.setdefault(_m, _f)


def swap_gender(text: str) -> str:
    """``text`` with every gendered pronoun and paired noun of the other gender (the anti-oracle: the references
    swapped); "her" becomes "his" before a word that is not an object's neighbour, else "him" — the reading does
    not depend on which."""
    def one(m: re.Match[str]) -> str:
        word = m.group()
        low = word.lower()
        if low not in _SWAP:
            return word
        new = _SWAP[low]
        if low == "her":
            rest = text[m.end():].lstrip()
            new = "his" if rest[:1].isalpha() else "him"
        return new.capitalize() if word[0].isupper() else new
    return _WORD.sub(one, text)
