"""The mentions of a WinoMT/BUG item in its English source: the pronoun that refers to the entity
(and its role), and the distracting entity.

The pronoun is the first personal pronoun whose gender matches the item's gold gender (WinoMT
sentences hold one, rarely two: "he … his"). Its role decides what the target can show: a French or
Spanish possessive agrees with the possessed noun, a subject pronoun may be dropped. "her" is told
apart (possessive "her idea" / object "told her that") by spaCy's English tagger when the ``en`` extra
is installed, else by the word that follows it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache as memoised
from functools import lru_cache

from discotest import cache
from discotest.gender.winomt import GenderItem
from discotest.lang.english import english_pipeline, english_version
from discotest.lang.lexicon import entity_lexicon
from discotest.lang.tokenize import tokenize, words

PRONOUNS = {
    "male": {"he": "subject", "him": "object", "his": "possessive", "himself": "reflexive"},
    "female": {"she": "subject", "her": "object", "hers": "possessive", "herself": "reflexive"},
    "neutral": {"they": "subject", "them": "object", "their": "possessive", "theirs": "possessive",
                "themselves": "reflexive", "themself": "reflexive"},
}
_ALL = {p: (g, r) for g, table in PRONOUNS.items() for p, r in table.items()}
# words after which "her" is an object, not a possessive determiner (fallback without spaCy)
_OBJECT_HER_NEXT = """
to that a an the and but or because about for with in on at of if how what when where why who whom whose which so
up out back down off over away around through some any this these those it him her them me us you as from into
by since while until after before whether was is were are be been would will could should can might must may
again too very well immediately now later yesterday today tomorrow directly personally once twice
not never also just still even only already soon here there home anything everything something nothing
"""
_AFTER_OBJECT_HER = frozenset(_OBJECT_HER_NEXT.split())
def _english_tagger():
    """spaCy's English tagger if installed (extra ``en``), else None and a word-list fallback is used."""
    return english_pipeline(("ner", "lemmatizer", "parser"), required=False)


# "her" sentence -> its role, as tagged in this process or read back by ``learn_her_roles``: a sentence's role is
# tagged on that sentence alone (spaCy reads every doc on its own), so where it was tagged does not matter
_ROLES: dict[str, str] = {}
ROLES_NAMESPACE = "english-roles"
# the code that finds the "her" sentences and tags them (the key holds it, not the whole package's: an edit elsewhere
# does not tag the suite again)
ROLES_CODE = ("gender/mentions.py", "lang/english.py", "lang/installed.py", "lang/tokenize.py")


def learn_her_roles(items: Sequence[GenderItem], use_cache: bool = True) -> None:
    """The role of every "her" mention of ``items`` (a whole suite), tagged once and kept in the content-hash cache
    (namespace ``english-roles``, keyed by the tagger's version, the code that tags them (``ROLES_CODE``) and the
    sentences), so a run on a
    new translation of a known suite never loads spaCy's English model: the suite's English side is the same."""
    version = english_version()
    items = [item for item in items if "her" in item.sentence.lower()]  # the others have no "her" (a cheap test)
    mentions = _first_pronouns(items)
    sentences = sorted({_first_her_sentence(item.sentence, m) for item, m in zip(items, mentions)
                        if m is not None and m.text == "her"} - _ROLES.keys())
    if version is None or not sentences:
        return
    key = cache.content_key([ROLES_NAMESPACE, version, cache.code_key(*ROLES_CODE), *sentences])
    roles = cache.load(ROLES_NAMESPACE, key, parse=_role_list(len(sentences))) if use_cache else None
    if roles is None:
        roles = _her_roles(sentences)
        cache.store(ROLES_NAMESPACE, key, json.dumps(roles))
    _ROLES.update(zip(sentences, roles))


def _role_list(n: int):
    """A ``cache.load`` parse: a JSON list of ``n`` roles."""
    def parse(text: str) -> list[str]:
        roles = json.loads(text)
        if not isinstance(roles, list) or len(roles) != n or not set(roles) <= {"object", "possessive"}:
            raise ValueError("not a list of roles")
        return roles
    return parse


def _her_roles(sentences: list[str]) -> list[str]:
    """object / possessive for the first "her" of each sentence (known ones from ``_ROLES``, the rest tagged now)."""
    todo = [s for s in dict.fromkeys(sentences) if s not in _ROLES]
    if todo:
        _ROLES.update(zip(todo, _tag_her_roles(todo)))
    return [_ROLES[s] for s in sentences]


def _tag_her_roles(sentences: list[str]) -> list[str]:
    """object / possessive for the first "her" of each sentence: spaCy's tag, else the word that follows it."""
    tagger = _english_tagger()
    if tagger is None:
        roles = []
        for sentence in sentences:
            lowered = _words(sentence)
            i = lowered.index("her")
            nxt = lowered[i + 1] if i + 1 < len(lowered) else "."
            is_object = nxt in _AFTER_OBJECT_HER or not nxt.isalpha() or nxt.endswith("ly")
            roles.append("object" if is_object else "possessive")
        return roles
    roles = []
    for doc in tagger.pipe(sentences):
        her = next(t for t in doc if t.lower_ == "her")
        roles.append("possessive" if her.tag_ == "PRP$" else "object")
    return roles


@dataclass(frozen=True)
class Mention:
    """An English pronoun: its token index (discotest tokenisation), text and role."""

    word: int
    text: str
    role: str


def find_pronouns(items: list[GenderItem]) -> list[Mention | None]:
    """The pronoun of each item (batched: one tagger pass over the sentences with "her")."""
    mentions = _first_pronouns(items)
    ambiguous = [k for k, m in enumerate(mentions) if m and m.text == "her"]
    roles = _her_roles([_first_her_sentence(items[k].sentence, mentions[k]) for k in ambiguous])
    for k, role in zip(ambiguous, roles):
        mentions[k] = Mention(mentions[k].word, "her", role)
    return mentions


def pronoun_positions(items: Sequence[GenderItem]) -> list[int | None]:
    """The English word of each item's pronoun (``find_pronouns``'s ``word``) without tagging any "her": its role
    does not move it. What the alignment is told the verdict reads (``Bitext.watched``)."""
    return [m.word if m is not None else None for m in _first_pronouns(items)]


def _first_pronouns(items: Sequence[GenderItem]) -> list[Mention | None]:
    """The pronoun of each item, "her" with the role of its table ("object") until ``find_pronouns`` tags it."""
    mentions: list[Mention | None] = []
    for item in items:
        lowered = _words(item.sentence)
        candidates = [i for i, w in enumerate(lowered) if w in _ALL]
        if not candidates:
            mentions.append(None)
            continue
        matching = [i for i in candidates if _ALL[lowered[i]][0] == item.gold]
        i = (matching or candidates)[0]
        mentions.append(Mention(i, lowered[i], _ALL[lowered[i]][1]))
    return mentions


def single_pronoun(item: GenderItem) -> bool:
    """Whether the English sentence holds exactly one personal pronoun, so that finding the entity's pronoun
    needs no gold gender (``find_pronouns`` prefers the one matching the gold when there are several)."""
    return sum(w in _ALL for w in _words(item.sentence)) == 1


def _first_her_sentence(sentence: str, mention: Mention) -> str:
    """The sentence cut so that the mention is its first "her" (a "her" may come earlier as a non-mention)."""
    if "her" not in _words(sentence)[: mention.word]:
        return sentence
    return sentence[tokenize(sentence, "en")[mention.word].start :]


@lru_cache(maxsize=2**14)
def _words(sentence: str) -> tuple[str, ...]:
    """The lowercased words of an English sentence (``tokenize.words``: no offsets, which the rules here need only to
    cut a sentence at its second "her"). Kept for a suite's worth of sentences: a run reads each sentence with
    several of these rules (its pronouns when the "her" roles are learnt, again for the verdicts, its distractor),
    and tokenising them took a third of a cold run's "english roles" and "locate" stages."""
    return tuple(w.lower() for w in words(sentence, "en"))


def english_pronoun(item: GenderItem) -> tuple[str, str]:
    """(pronoun, role) of the item's pronoun; ("", "") when the sentence has none."""
    (mention,) = find_pronouns([item])
    return (mention.text, mention.role) if mention else ("", "")


def _entity_span(words: Sequence[str], item: GenderItem) -> range:
    """The token indices of the first occurrence of the item's entity (empty if absent)."""
    entity_words = tuple(item.entity.lower().split())
    for start in range(len(words) - len(entity_words) + 1):
        if tuple(words[start : start + len(entity_words)]) == entity_words:
            return range(start, start + len(entity_words))
    return range(0)


def object_of_distractor(item: GenderItem, mention: Mention | None, distractor: tuple[int, ...] | None) -> bool:
    """Whether the pronoun is an object of a clause whose subject is the other entity, so it cannot refer to it (a
    reflexive would): an object pronoun, the other entity first in the sentence (WinoMT's subject). "The hairdresser
    spoke with the manager and asked her for help": her is the manager, whatever genders a translation gives."""
    if mention is None or mention.role != "object" or not distractor:
        return False
    entity = _entity_span(_words(item.sentence), item)
    return bool(entity) and min(distractor) < entity.start


@memoised
def _entity_vocabulary() -> tuple[tuple[str, ...], ...]:
    """English entity nouns of the suites, longest first (multi-word entities before their heads)."""
    return tuple(sorted((tuple(e.split()) for e in entity_lexicon("de")), key=len, reverse=True))


def find_distractor(item: GenderItem) -> tuple[str, tuple[int, ...]] | None:
    """The other entity of the sentence and its token indices, or None (e.g. "someone" items)."""
    lowered = _words(item.sentence)
    own = set(_entity_span(lowered, item))
    # the first entry of the vocabulary (longest first) found anywhere outside the entity, at its first place: each
    # word looks up only the entries that start with it
    best: tuple[int, int, tuple[str, ...]] | None = None
    for start, word in enumerate(lowered):
        for rank, vocab in _vocabulary_by_first_word().get(word, ()):
            span = range(start, start + len(vocab))
            if (best is None or rank < best[0]) and lowered[start : span.stop] == vocab and not own.intersection(span):
                best = (rank, start, vocab)
    if best is None:
        return None
    _, start, vocab = best
    return " ".join(vocab), tuple(range(start, start + len(vocab)))


@memoised
def _vocabulary_by_first_word() -> dict[str, tuple[tuple[int, tuple[str, ...]], ...]]:
    """``_entity_vocabulary`` entries with their rank, by first word."""
    by_first: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for rank, vocab in enumerate(_entity_vocabulary()):
        by_first.setdefault(vocab[0], []).append((rank, vocab))
    return {word: tuple(entries) for word, entries in by_first.items()}
