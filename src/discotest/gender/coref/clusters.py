"""Coreference clusters over arbitrary English text: ``clusters(texts)`` -> per text, its non-singleton clusters as
character spans ``(start, end)``, clusters ordered by first mention, mentions by position.

``RulesClusterer`` (offline default) is a small pronoun-antecedent resolver on spaCy's parse. Heuristics:

* Mentions are nouns/proper nouns (or a known person noun the tagger took for an adjective) and third-person
  pronouns; a noun phrase is represented by its head plus the compound words directly in front of it
  ("construction worker", not "the tall construction worker"). Only pronouns get
  antecedents, so every cluster holds at least one pronoun; nominal-nominal coreference is out of scope.
* Pleonastic "it" (``expl``, weather and raising verbs, "it is clear that …") is not a mention.
* Agreement: he/him/his/himself need a singular noun that can be a person and is not female-only ("mother"),
  she/her/hers/herself the converse; it/its/itself a singular non-person noun; they/them/their/theirs/themselves
  a plural noun. A proper noun follows spaCy's entity type (PERSON: he/she; organisations: it/they; places and
  other names: it; untyped: any singular). A cluster keeps one class: a noun "he" refers to is not then "she".
  Person nouns are the suites' professions plus a list of kin and role words. An earlier pronoun of the same class
  is a candidate too ("she … her").
* Binding: a reflexive takes the subject of its own clause; an object pronoun never takes the subject of its own
  verb ("the manager paid her" — her is not the manager), a conjoined verb sharing its first conjunct's subject.
* Preference (the syntactic rule of ``RulesResolver``): a subject pronoun takes the nearest preceding compatible
  subject, other pronouns the nearest preceding compatible non-subject, each falling back to the nearest compatible
  candidate. Candidates are searched in the pronoun's sentence and the two before it; cataphora is not resolved.

``NeuralcorefClusterer`` (``gender.coref.neuralcoref``) is neuralcoref 4.0 in its own Python 3.7 environment;
``FastcorefClusterer`` wraps fastcoref/LingMess (``fastcoref_model``, which ``FastcorefResolver`` loads too);
``gold_clusters`` gives a WinoMT/BUG item's annotated cluster (entity and pronoun).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

Span = tuple[int, int]
Cluster = list[Span]

# pronoun -> (class, role) ; class decides agreement, role the binding rules
THIRD_PERSON = {
    "he": ("male", "subject"), "him": ("male", "object"), "his": ("male", "possessive"),
    "himself": ("male", "reflexive"),
    "she": ("female", "subject"), "her": ("female", "object"), "hers": ("female", "possessive"),
    "herself": ("female", "reflexive"),
    "it": ("thing", "subject"), "its": ("thing", "possessive"), "itself": ("thing", "reflexive"),
    "they": ("plural", "subject"), "them": ("plural", "object"), "their": ("plural", "possessive"),
    "theirs": ("plural", "possessive"), "themselves": ("plural", "reflexive"),
}
GENDER_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers"})  # the paper's Gender data
# every personal pronoun: a mention that names no one by itself (a resolver's "other" needs a name or a noun phrase)
PERSONAL_PRONOUNS = frozenset(THIRD_PERSON) | frozenset({
    "i", "me", "my", "mine", "myself", "you", "your", "yours", "yourself", "yourselves", "we", "us", "our", "ours",
    "ourselves", "themself"})

_MALE = """
man men boy boys father fathers dad son sons brother brothers husband husbands king kings uncle uncles nephew
grandfather grandson gentleman gentlemen sir lord prince monk waiter actor businessman policeman chairman
boyfriend groom fiance widower
"""
_FEMALE = """
woman women girl girls mother mothers mom mum daughter daughters sister sisters wife wives queen queens aunt aunts
niece grandmother granddaughter lady ladies madam princess nun waitress actress businesswoman policewoman
chairwoman girlfriend bride fiancee widow
"""
MALE_NOUNS = frozenset(_MALE.split())
FEMALE_NOUNS = frozenset(_FEMALE.split())
_PERSON_WORDS = """
person people child children kid kids baby parent parents friend friends neighbour neighbor colleague boss student
teacher doctor nurse patient customer client guest host owner player user author writer leader member officer
president minister worker employee employer visitor passenger driver artist scientist citizen resident victim
suspect witness soldier coach partner spouse sibling cousin grandparent individual someone somebody anyone
everyone nobody man woman
"""
_PLEONASTIC_VERBS = frozenset({"rain", "snow", "seem", "appear", "happen", "matter", "rains", "snows", "seems",
                               "appears", "happens", "matters", "rained", "seemed", "appeared", "happened"})
_THING_ENTITIES = frozenset({"ORG", "GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "NORP",
                             "LANGUAGE", "DATE", "TIME", "MONEY", "QUANTITY"})
_SUBJECT_DEPS = ("nsubj", "nsubjpass")
_OBJECT_DEPS = ("dobj", "iobj", "dative", "obj")
SENTENCE_WINDOW = 2  # candidate antecedents in the pronoun's sentence and this many before it


@cache
def person_nouns() -> frozenset[str]:
    from discotest.lang.lexicon import entity_lexicon

    words = set(_PERSON_WORDS.split()) | MALE_NOUNS | FEMALE_NOUNS
    for entity in entity_lexicon("de"):
        words.add(entity.split()[-1])
        words.add(entity.split()[-1] + "s")
    return frozenset(words)


class _Mention:
    __slots__ = ("token", "start", "end", "kind", "sent", "cls_ok", "is_subject")

    def __init__(self, token, start: int, end: int, kind: str, sent: int, cls_ok: frozenset[str]):
        self.token, self.start, self.end, self.kind, self.sent, self.cls_ok = token, start, end, kind, sent, cls_ok
        self.is_subject = token.dep_ in _SUBJECT_DEPS


def _noun_classes(token) -> frozenset[str]:
    """Which pronoun classes a noun can be referred to by."""
    lower = token.lower_
    if token.tag_ in ("NNS", "NNPS"):
        return frozenset({"plural"})
    if token.pos_ == "PROPN":
        if token.ent_type_ == "PERSON":
            return frozenset({"male", "female"})
        if token.ent_type_ in _THING_ENTITIES:
            return frozenset({"thing", "plural"} if token.ent_type_ in ("ORG", "NORP") else {"thing"})
        return frozenset({"male", "female", "thing"})
    if lower in MALE_NOUNS:
        return frozenset({"male"})
    if lower in FEMALE_NOUNS:
        return frozenset({"female"})
    if lower in person_nouns():
        return frozenset({"male", "female"})
    return frozenset({"thing"})


def _pleonastic(token) -> bool:
    if token.lower_ != "it":
        return False
    if token.dep_ == "expl":
        return True
    head = token.head
    if head.lower_ in _PLEONASTIC_VERBS or head.lemma_ in _PLEONASTIC_VERBS:
        return True
    return token.dep_ in _SUBJECT_DEPS and any(c.dep_ in ("ccomp", "csubj") for c in head.children) and \
        any(c.dep_ == "acomp" for c in head.children)


_ARGUMENT_DEPS = ("nsubj", "nsubjpass", "dobj", "iobj", "dative", "pobj", "attr", "appos", "conj")


def _is_noun(t) -> bool:
    """A noun-phrase head; a known person noun the tagger took for an adjective ("the cleaner") counts too."""
    if t.dep_ in ("compound", "flat"):
        return False
    return t.pos_ in ("NOUN", "PROPN") or (t.lower_ in person_nouns() and t.dep_ in _ARGUMENT_DEPS)


def agrees(token, pronoun_class: str) -> bool:
    """Whether ``token`` heads a noun phrase a pronoun of ``pronoun_class`` (male, female, thing, plural) can refer
    to (the resolvers' one-candidate rule: ``gender.coref.resolvers``)."""
    return _is_noun(token) and pronoun_class in _noun_classes(token)


def _mentions(doc) -> list[_Mention]:
    sent_of = {}
    for k, sent in enumerate(doc.sents):
        for t in sent:
            sent_of[t.i] = k
    out = []
    for t in doc:
        if t.lower_ in THIRD_PERSON and t.tag_ in ("PRP", "PRP$"):
            if _pleonastic(t):
                continue
            out.append(_Mention(t, t.idx, t.idx + len(t), "pronoun", sent_of[t.i],
                                frozenset({THIRD_PERSON[t.lower_][0]})))
        elif _is_noun(t):
            out.append(_Mention(t, *noun_span(t), "noun", sent_of[t.i], _noun_classes(t)))
    return out


def noun_span(token) -> Span:
    """A noun phrase's mention: its head and the compound words directly in front ("construction worker",
    "surgeon Elizabeth Corday"), as character offsets."""
    doc, first = token.doc, token
    while first.i > 0 and doc[first.i - 1].dep_ in ("compound", "flat") and doc[first.i - 1].head == token:
        first = doc[first.i - 1]
    return first.idx, token.idx + len(token)


def _clause_subject(token):
    """The subject of the verb governing ``token`` (climbing through prepositions)."""
    head = token.head
    for _ in range(3):
        subject = next((c for c in head.children if c.dep_ in _SUBJECT_DEPS), None)
        if subject is not None:
            return subject
        if head.head is head:
            return None
        head = head.head
    return None


def _subjects(verb) -> set:
    """The subjects of a verb; a conjoined verb without its own shares its first conjunct's ("hired … and paid")."""
    for _ in range(4):
        found = {c for c in verb.children if c.dep_ in _SUBJECT_DEPS}
        if found or verb.dep_ != "conj" or verb.head is verb:
            return found
        verb = verb.head
    return set()


def _antecedent(pronoun: _Mention, earlier: Sequence[_Mention], taken=lambda m: frozenset()) -> _Mention | None:
    """``taken(m)``: the pronoun classes already in m's cluster (a noun "he" refers to cannot also be "she")."""
    cls, role = THIRD_PERSON[pronoun.token.lower_]
    tok = pronoun.token
    candidates = [m for m in earlier if cls in m.cls_ok and pronoun.sent - m.sent <= SENTENCE_WINDOW
                  and taken(m) <= {cls}]
    if role == "reflexive":
        subject = _clause_subject(tok)
        bound = [m for m in candidates if subject is not None and m.token == subject]
        return bound[0] if bound else (candidates[-1] if candidates else None)
    if tok.dep_ in _OBJECT_DEPS or (tok.dep_ == "pobj" and tok.head.head.pos_ in ("VERB", "AUX")):
        verb = tok.head if tok.dep_ != "pobj" else tok.head.head
        own_subjects = _subjects(verb)
        candidates = [m for m in candidates if m.token not in own_subjects]
    if not candidates:
        return None
    preferred = [m for m in candidates if m.is_subject == pronoun.is_subject]
    return (preferred or candidates)[-1]


def resolve_doc(doc) -> list[Cluster]:
    """Non-singleton clusters of one parsed text."""
    mentions = _mentions(doc)
    parent = list(range(len(mentions)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    classes: dict[int, set[str]] = {}  # cluster root -> pronoun classes in it
    index = {id(m): i for i, m in enumerate(mentions)}
    for i, m in enumerate(mentions):
        if m.kind != "pronoun":
            continue
        found = _antecedent(m, mentions[:i], lambda c: frozenset(classes.get(find(index[id(c)]), ())))
        own = {THIRD_PERSON[m.token.lower_][0]}
        if found is not None:
            root = find(index[id(found)])
            parent[find(i)] = root
            classes[root] = classes.get(root, set()) | own
        else:
            classes[find(i)] = classes.get(find(i), set()) | own
    groups: dict[int, list[Span]] = {}
    for i, m in enumerate(mentions):
        groups.setdefault(find(i), []).append((m.start, m.end))
    clusters = [sorted(g) for g in groups.values() if len(g) > 1]
    return sorted(clusters)


def ner_parser():
    """spaCy's English pipeline with its entity recogniser (people vs. organisations and places for proper nouns)."""
    from discotest.lang.english import english_pipeline

    return english_pipeline(("lemmatizer",))


class RulesClusterer:
    name = "rules"
    pronominal_only = True  # a text without a third-person pronoun has no cluster: callers may skip its parse

    def __init__(self, batch_size: int = 256):
        self.batch_size = batch_size

    def version(self) -> str:
        import spacy

        return f"rules-spacy-{spacy.__version__}"

    def clusters(self, texts: Iterable[str]) -> list[list[Cluster]]:
        return [resolve_doc(doc) for doc in ner_parser().pipe(texts, batch_size=self.batch_size)]


def fastcoref_model(model=None, device: str = "cpu"):
    """``model``, or fastcoref's FCoref on ``device``; one line saying what to install when fastcoref is missing."""
    if model is not None:
        return model
    from discotest.errors import InputError

    try:
        from fastcoref import FCoref
    except ImportError:
        raise InputError("the fastcoref resolver needs: pip install fastcoref (and its weights)") from None
    return FCoref(device=device)


class FastcorefClusterer:
    """fastcoref's FCoref/LCoref (LingMess) clusters; ``model`` may be any object with fastcoref's ``predict``."""

    name = "fastcoref"
    pronominal_only = False

    def __init__(self, model=None, device: str = "cpu"):
        self.model = fastcoref_model(model, device)

    def version(self) -> str:
        return type(self.model).__name__

    def clusters(self, texts: Iterable[str]) -> list[list[Cluster]]:
        texts = list(texts)
        if not texts:
            return []
        out = []
        for prediction in self.model.predict(texts=texts):
            clusters = [sorted((int(s), int(e)) for s, e in c) for c in prediction.get_clusters(as_strings=False)]
            out.append(sorted(c for c in clusters if len(c) > 1))
        return out


def make_clusterer(name: str = "rules", **options):
    from discotest.errors import InputError

    if name == "rules":
        return RulesClusterer(**options)
    if name == "fastcoref":
        return FastcorefClusterer(**options)
    if name == "neuralcoref":
        from discotest.gender.coref.neuralcoref import NeuralcorefClusterer

        return NeuralcorefClusterer()
    raise InputError(f"unknown resolver {name!r}; choose rules, neuralcoref or fastcoref")


def winox_gold_cluster(sentence: str, referent: str) -> list[Cluster]:
    """A Wino-X item's gold cluster: its right option (first whole-word occurrence) and the first "it" after it."""
    import re

    found = re.search(rf"\b{re.escape(referent.strip())}\b", sentence, re.IGNORECASE) if referent.strip() else None
    if found is None:
        return []
    pronoun = re.compile(r"\bit\b", re.IGNORECASE).search(sentence, found.end())
    return [[found.span(), pronoun.span()]] if pronoun else []


def gold_clusters(items) -> list[list[Cluster]]:
    """WinoMT/BUG items: the annotated entity and its pronoun as one cluster (none without a pronoun); Wino-X items
    (``data.winox.WinoxItem``): the right option and its "it"."""
    from discotest.gender.mentions import find_pronouns
    from discotest.lang.tokenize import tokenize

    items = list(items)
    if items and hasattr(items[0], "gold_referent"):
        return [winox_gold_cluster(item.sentence, item.gold_referent) for item in items]
    out = []
    for item, mention in zip(items, find_pronouns(list(items))):
        if mention is None:
            out.append([])
            continue
        words = item.sentence.split(" ")
        start = sum(len(w) + 1 for w in words[: item.entity_index])
        entity = (start, start + len(item.entity))
        token = tokenize(item.sentence, "en")[mention.word]
        out.append([sorted([entity, (token.start, token.end)])])
    return out
