"""MiTTenS out of English: the English words whose translations may show the passage's person's gender (issue 51).

A translation marks a person's gender in more places than the English does: "I am a nurse" → "Ich bin Pfleger",
"I am happy" → "je suis contente", "He was expelled" → "Fue expulsado", "My friend is an engineer" → "Mi amiga es
ingeniera". So the reading anchors on every English word that names the person or says something of them that the
target may make agree with them, found from spaCy's parse of the English source:

- **Mentions** of the person: the person's gendered words (``english.gendered_words``: he/she, "my brother",
  "I am Milo's wife"); "I/me/myself" where the passage is about its speaker (no pronoun or "my" noun of the person:
  "My name is Marc. I am a nurse."), or "we/they" where it is about a group and nobody says "I"; a name that is
  the subject of a clause ("Britney is a singer"); a person noun that is a subject ("My friend is …", "The
  youngster never …"; ``HUMAN``), and "who" opening a relative clause on a mention's noun.
- **Predicates** of a mention that is a clause's subject: a noun complement of its copula and that noun's
  conjuncts ("I am a carpenter and a YouTuber"), a noun after "as" ("I work as a legal consultant", "As a
  businessman, I …"), read as nouns; and the copula, auxiliaries, the verb, an adjective or participle complement
  ("I am annoyed", "was expelled"), read as words agreeing with a (possibly dropped) subject pronoun.

A possessor is not the person: the translation's words aligned to a possessor of an anchor ("Milo" in "Milo's
wife") are taken out of that anchor's words. Nouns that name a person without telling their sex in any target
(``NOT_PERSON``: person, member, help …) are no anchor: their grammatical gender (die Person, человек) is not the
person's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from discotest.gender.mittens.english import NOUNS, gendered_words
from discotest.lang.english import english_pipeline

PERSON_RULE = "person-anchors-v3"  # named in the signature: change it with the rule
# English nouns that name a person (besides the gendered NOUNS and the agentive endings below)
_HUMAN = """friend neighbor neighbour youngster teenager kid child colleague partner boss cousin classmate
roommate student parent spouse sibling relative athlete champion chef chief doctor nurse surgeon physician dentist
teacher professor author poet artist pianist guitarist scientist biologist zoologist economist journalist
mathematician musician politician technician physician pharmacist president minister chancellor director
secretary judge lawyer attorney expert specialist activist enthusiast professional youtuber model pilot cook
architect engineer mechanic carpenter plumber electrician firefighter sitter babysitter housekeeper nanny
guardian chairperson founder leader citizen native resident patient owner winner loser widow widower
biathlete archer academic singer dancer writer worker player trainer coach captain"""
HUMAN = frozenset(_HUMAN.split())
AGENTIVE = ("er", "or", "ist", "ian", "ant", "ent", "eer", "ess", "ee", "ete", "ual", "ary")
# person words whose grammatical gender in the target says nothing of the person's (die Person, человек), or
# nouns with an agentive ending that name no person
_NOT_PERSON = """person people individual human being member one help number order power matter center
centre corner letter water paper chapter career manager-position position event"""
NOT_PERSON = frozenset(_NOT_PERSON.split())
# entity types of a proper-noun subject that is no person ("Italy"; spaCy often calls a name ORG)
_NOT_NAMES = "GPE LOC FAC DATE TIME MONEY QUANTITY PERCENT CARDINAL ORDINAL EVENT LAW LANGUAGE WORK_OF_ART PRODUCT"
NOT_NAMES = frozenset(_NOT_NAMES.split())
# verbs whose "as" names what the subject is ("I work as a nurse", "began her career as a dancer"); an "as" before
# the subject, or after a verb with no object, is the subject's too ("As a businessman, I …", "established himself as
# a dancer"), not one after another verb's object ("licences as trainers")
_AS_VERBS = "be work serve act begin start join retire remain continue hire recruit employ train"
AS_VERBS = frozenset(_AS_VERBS.split())
# the words the subject is named by when a passage is about its speaker or a group
PLURAL_SUBJECTS = {"we": "they", "they": "they", "both": "they"}  # "Both are super caring"
# floating quantifiers of a subject ("We are all athletes", "They both work"): tutte, todos, toutes, оба agree
QUANTIFIERS = frozenset(["all", "both"])
FIRST_PERSON = frozenset(["i", "me", "myself"])
SPEAKERS = frozenset(["my", "our", "your"])  # "my friend" may be the person; "her partner" is another one
_SUBJECT = ("nsubj", "nsubjpass")
_BE = frozenset(["be", "'s", "’", "'", "become", "remain"])  # spaCy's small model lemmatises "She's" oddly


@dataclass(frozen=True)
class Anchor:
    """English words whose aligned translation words are read for the person's gender.

    ``kind``: ``pronoun`` (read as a pronoun of ``pronoun`` and ``role``: a gendered pronoun, "I", "we"),
    ``noun`` (read as a noun with its agreeing words) or ``subject`` (no word of its own is read: ``predicate``
    holds the words agreeing with it). ``predicate``: (start, end) of English words whose translations may agree
    with the anchor as a subject (copula, auxiliaries, verb, adjective/participle complement), read when the
    anchor's own words show no gender. ``possessor``: English words (its possessor) read with it, as one noun
    phrase whose head decides, not the possessor."""

    kind: str
    start: int
    end: int
    text: str
    why: str
    pronoun: str = ""
    role: str = ""
    predicate: tuple[tuple[int, int], ...] = ()
    # those of ``predicate`` that are verbs, or complements of a verb other than "be": not read for a speaker where
    # first-person verbs show no gender (ar)
    verbs: tuple[tuple[int, int], ...] = ()
    possessor: tuple[tuple[int, int], ...] = ()
    # a noun's English lemma in lower case ("nurses" → "nurse"): the entity lexicon is keyed by it
    lemma: str = ""


def _human(token, strict: bool = False) -> bool:
    """Whether a noun names a person: a gendered noun, a listed one, a nationality ("a German"), an agentive
    ending ("welder", "biathlete")."""
    word = token.lemma_.lower() if token.tag_ in ("NNS", "NNPS") else token.text.lower()
    if word in NOT_PERSON or (strict and token.pos_ not in ("NOUN", "PROPN")):
        return False
    if word in HUMAN or word in NOUNS or token.ent_type_ == "NORP":
        return True
    return not strict and word.endswith(AGENTIVE) and len(word) > 4 and token.ent_type_ not in NOT_NAMES


def _span(token) -> tuple[int, int]:
    return token.idx, token.idx + len(token.text)


def _possessors(token) -> tuple[tuple[int, int], ...]:
    """The possessor of a noun ("Milo" and "'s" in "Milo's wife"): the noun phrase is read as a whole, so that the
    head noun decides and not the possessor (aligners often link "wife" to "Milo")."""
    out = []
    for child in token.children:
        if child.dep_ == "poss" and child.pos_ in ("PROPN", "NOUN"):
            out.extend(_span(t) for t in child.subtree)
    return tuple(out)


def _object(verb) -> bool:
    """Whether a verb has an object other than a reflexive ("getting licences as trainers": the licences')."""
    return any(c.dep_ == "dobj" and not c.lower_.endswith(("self", "selves")) for c in verb.children)


def _has_article(token) -> bool:
    return any(c.dep_ == "det" and c.lower_ in ("a", "an", "the") for c in token.children)


def _nouns_with_conjuncts(token) -> list:
    """A noun and the nouns conjoined with it ("a carpenter and a YouTuber")."""
    out = [token]
    for child in token.children:
        if child.dep_ == "conj" and child.pos_ in ("NOUN", "PROPN"):
            out.extend(_nouns_with_conjuncts(child))
    return out


def _clause_heads(head) -> list:
    """The head of the clause and the heads conjoined with it that have no subject of their own ("She was
    imaginative and loved machines")."""
    out = [head]
    for child in head.children:
        if child.dep_ == "conj" and child.pos_ in ("VERB", "AUX") and not any(
                c.dep_ in _SUBJECT for c in child.children):
            out.extend(_clause_heads(child))
    return out


def _predicates(mention) -> tuple[list, list, list]:
    """(noun complements, agreeing words, the agreeing words that are verbs or the complements of verbs other than
    "be") of the clause whose subject is ``mention``."""
    if mention.dep_ not in _SUBJECT:
        return [], [], []
    nouns, agreeing, weak = [], [], []
    agreeing.extend(c for c in mention.children if c.lower_ in QUANTIFIERS and c.dep_ in ("det", "predet", "appos"))
    for head in _clause_heads(mention.head):
        if head.pos_ in ("VERB", "AUX"):
            agreeing.append(head)
            weak.append(head)
        for child in head.children:
            if child.dep_ in ("aux", "auxpass", "cop", "neg") or (
                    child.lower_ in QUANTIFIERS and child.dep_ in ("dep", "advmod", "npadvmod", "appos", "predet")):
                agreeing.append(child)
                weak.append(child)
            elif child.dep_ in ("attr", "dobj") and (child.pos_ in ("NOUN", "PROPN") or _has_article(child)) and (
                    child.dep_ == "attr" or head.lemma_ in _BE):  # "an intellectual"; "She’s a … archer" (dobj)
                nouns.extend(_nouns_with_conjuncts(child))
            elif (child.dep_ in ("acomp", "oprd") or child.dep_ == "attr") and child.pos_ in ("ADJ", "VERB"):
                agreeing.append(child)
                agreeing.extend(c for c in child.children if c.dep_ == "conj" and c.pos_ == "ADJ")
                if head.lemma_.lower() not in _BE:  # "I feel lonely": often rendered by a noun (بالوحدة)
                    weak.append(child)
            elif child.dep_ == "prep" and child.lower_ == "as" and (
                    head.lemma_.lower() in AS_VERBS or child.i < mention.i or not _object(head)):
                nouns.extend(n for p in child.children if p.dep_ == "pobj" for n in _nouns_with_conjuncts(p))
    return [n for n in nouns if _human(n)], agreeing, weak


def _speaker_is_person(words) -> bool:
    """The passage is about its speaker when no pronoun or "my" noun names the person ("I am Milo's wife" is the
    speaker's; "I'm picking up my brother" is not)."""
    return not any(w.person and (w.kind == "pronoun" or w.why == "my-noun") for w in words)


def person_anchors(texts: Sequence[str]) -> list[tuple[Anchor, ...]]:
    """The anchors of each English text (module doc), in text order."""
    nlp = english_pipeline()
    # curly apostrophes parse badly ("She’s" → a verb "’s" with an object): straight ones, same offsets
    plain = [t.replace("’", "'") for t in texts]
    return [_anchors(text, doc) for text, doc in zip(texts, nlp.pipe(plain, batch_size=64))]


def _anchors(text: str, doc) -> tuple[Anchor, ...]:
    words = gendered_words(text)
    by_start = {t.idx: t for t in doc}
    mentions: dict[int, tuple[str, str]] = {}  # token index -> (kind, why)
    for w in words:
        if w.person and w.start in by_start:
            mentions[by_start[w.start].i] = (w.kind, w.why)
    lowered = [t.lower_ for t in doc]
    if _speaker_is_person(words):
        first = [t for t in doc if t.lower_ in FIRST_PERSON and t.pos_ == "PRON"]
        group = [] if first else [t for t in doc if t.lower_ in PLURAL_SUBJECTS and t.pos_ == "PRON"]
        for t in first + group:
            mentions.setdefault(t.i, ("pronoun", "speaker" if t in first else "group"))
    for t in doc:
        if t.i in mentions or t.dep_ not in _SUBJECT:
            continue
        determined = any(c.dep_ == "det" for c in t.children)
        if t.pos_ == "PROPN" and t.ent_type_ not in NOT_NAMES and not (determined and _human(t, strict=True)):
            mentions[t.i] = ("subject", "name-subject")
        elif t.pos_ in ("NOUN", "PROPN") and _human(t, strict=True) and any(  # "The 2004 Asian Junior Champion"
                c.dep_ == "det" or (c.dep_ == "poss" and c.lower_ in SPEAKERS) for c in t.children):
            mentions[t.i] = ("noun", "person-noun-subject")
    # a pronoun left out after another person's noun ("The former … king founded … after his diagnosis") is the
    # person's when each such noun before it in its sentence is itself a mention: the epithet naming the person
    for w in words:
        if w.why != "after-other-person" or w.start not in by_start:
            continue
        sentence = by_start[w.start].sent
        before = [by_start[o.start] for o in words if o.why == "other-person-noun" and o.gender == w.gender
                  and o.start < w.start and o.start in by_start and by_start[o.start].sent == sentence]
        if before and all(mentions.get(b.i, ("", ""))[1] == "person-noun-subject" for b in before):
            mentions.setdefault(by_start[w.start].i, ("pronoun", "pronoun-after-epithet"))
    # "who" opening a relative clause on a mention or a person noun complement
    nouns_seen = set(mentions)
    for t in doc:
        if t.lower_ == "who" and t.dep_ in _SUBJECT and t.head.dep_ == "relcl" and t.head.head.i in nouns_seen:
            mentions.setdefault(t.i, ("subject", "relative-who"))
    anchors: list[Anchor] = []
    seen_nouns: set[int] = set()
    for i in sorted(mentions):
        t = doc[i]
        kind, why = mentions[i]
        nouns, agreeing, weak = _predicates(t)
        predicate = tuple(_span(a) for a in agreeing)
        verbs = tuple(_span(a) for a in weak)
        if kind == "pronoun":
            pronoun = lowered[i]
            pronoun = PLURAL_SUBJECTS.get(pronoun, pronoun)
            role = "subject" if t.dep_ in _SUBJECT else "possessive" if t.dep_ == "poss" else "object"
            anchors.append(Anchor("pronoun", *_span(t), t.text, why, pronoun, role, predicate, verbs))
        elif kind == "noun":
            seen_nouns.add(i)
            anchors.append(Anchor("noun", *_span(t), t.text, why, "he", "subject", predicate, verbs, _possessors(t),
                                  t.lemma_.lower()))
        elif predicate:
            # a name with its other parts ("Gabriela Hernandez"): the words rendering it are not its agreeing words
            first = min([t, *(c for c in t.children if c.dep_ == "compound" and c.pos_ == "PROPN")], key=lambda c: c.i)
            anchors.append(Anchor("subject", first.idx, t.idx + len(t.text), text[first.idx:t.idx + len(t.text)],
                                  why, "he", "subject", predicate, verbs))
        for n in nouns:
            if n.i in seen_nouns or n.i in mentions:
                continue
            seen_nouns.add(n.i)
            anchors.append(Anchor("noun", *_span(n), n.text, "complement-of-person", possessor=_possessors(n),
                                  lemma=n.lemma_.lower()))
    return tuple(sorted(anchors, key=lambda a: a.start))
