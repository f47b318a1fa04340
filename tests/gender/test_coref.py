"""Source-side resolvers and MT-implied resolutions, scored the same way."""

from __future__ import annotations

import json

import pytest

from discotest.gender.bug import load_bug
from discotest.gender.coref.compare import mt_resolution, score_resolutions
from discotest.gender.coref.resolvers import (
    NO_DISTRACTOR_RULE,
    FastcorefResolver,
    RulesResolver,
    _decide_from_clusters,
    candidate_spans,
    resolve_by_clusters,
    rule_settings,
)
from discotest.gender.judge import GenderVerdict
from discotest.gender.winomt import GenderItem
from tests.support.cli_helpers import results_of


def item(sentence: str, entity: str, gold: str) -> GenderItem:
    return GenderItem(0, gold, sentence.split(" ").index(entity.split()[0]), sentence, entity)


def test_rules_resolver_prefers_the_main_subject_for_subject_pronouns():
    items = [
        # subject pronoun -> main-clause subject (right here)
        item("The developer argued with the designer because she did not like the design.", "developer", "female"),
        # object pronoun -> the other candidate (right here)
        item("The manager hired the cleaner and paid her well.", "cleaner", "female"),
        # subject pronoun referring to the object: the rule is wrong, as Winograd items intend
        item("The mechanic greeted the receptionist because she was friendly.", "receptionist", "female"),
    ]
    assert RulesResolver().resolve(items) == ["entity", "entity", "distractor"]


# Real BUG items without a distractor the suite's finder accepts, read by hand (row: what the pronoun refers to)
BUG_ALONE = {
    36: "The author declares that she has no conflict of interest",  # she = the author
    243: "Spike , nervously waiting , asks the nurse if he could see Sarah .",  # he = Spike (BUG says the nurse)
    10: "the patient was transferred back to her room .",  # her = the patient
    182: "Joturner is an editor who has shown that he knows our policies",  # he = Joturner = the editor
    1449: "Keibler became McMahon 's personal assistant , as well as his on - screen mistress .",  # his = McMahon
}


@pytest.fixture(scope="module")
def bug_alone(shared_data) -> dict[int, GenderItem]:
    items = {item.index: item for item in load_bug(shared_data) if item.index in BUG_ALONE}
    assert all(text in items[row].sentence for row, text in BUG_ALONE.items())
    assert all("distractor" not in candidate_spans(item) for item in items.values())
    return items


def test_rules_resolver_without_a_distractor_takes_the_main_subject(bug_alone):
    rows = list(BUG_ALONE)
    decided = dict(zip(rows, RulesResolver().resolve([bug_alone[row] for row in rows]), strict=True))
    assert decided[36] == "entity"  # a subject pronoun, the entity the main clause's subject
    assert decided[243] == "other"  # a subject pronoun, another name the main subject: right (BUG's gold is wrong)
    assert decided[10] == "none"  # a possessive of the subject entity: no other candidate is left
    assert decided[182] == "entity"  # the subject is the entity by the copula ("Joturner is an editor")
    assert decided[1449] == "none"  # a possessive; the subject is the entity by the copula ("Keibler became …")


def test_clusters_without_a_distractor(bug_alone):
    item = bug_alone[1449]
    text = item.sentence
    his = (text.index(" his ") + 1, text.index(" his ") + 4)
    assistant = (text.index("personal assistant"), text.index("personal assistant") + 18)
    mcmahon = (text.index("McMahon"), text.index("McMahon") + 7)
    keibler = (0, 7)
    decided = resolve_by_clusters([item] * 5, [
        [[keibler, his]],  # the copula's subject ("Keibler became … assistant"): the entity's person
        [[assistant, his]],  # the entity's own mention
        [[mcmahon, his]],  # a named person: other
        [[his, (text.index(" as ") + 1, text.index(" as ") + 3)]],  # bogus but not a pronoun: other
        [[keibler, mcmahon]],  # the pronoun in no cluster
    ])
    assert decided == ["entity", "entity", "other", "other", "none"]
    she = GenderItem(0, "female", 1, "The author said that she knew that she was right .", "author")
    first, second = (21, 24), (35, 38)
    assert resolve_by_clusters([she], [[[first, second]]]) == ["none"]  # pronouns alone name no one
    assert resolve_by_clusters([she], [[[(4, 10), first]]]) == ["entity"]


def test_the_signature_names_the_rule_only_where_it_can_decide(bug_alone):
    winomt = item("The developer argued with the designer because she did not like the design.", "developer", "female")
    assert rule_settings([winomt]) == ()
    (key, value), = rule_settings([winomt, bug_alone[36]])
    assert key == "no-distractor" and value.startswith(f"{NO_DISTRACTOR_RULE}+spacy-")


class StandInPrediction:
    def __init__(self, clusters):
        self.clusters = clusters

    def get_clusters(self, as_strings=True):
        return self.clusters


class StandInModel:
    """Answers like fastcoref's FCoref.predict: one result per text with character-span clusters."""

    def __init__(self, clusters_per_text):
        self.clusters_per_text = clusters_per_text

    def predict(self, texts):
        return [StandInPrediction(c) for c in self.clusters_per_text]


def test_fastcoref_clusters_become_decisions():
    sentence = "The developer argued with the designer because she did not like the design."
    it = item(sentence, "developer", "female")
    she = (sentence.index("she"), sentence.index("she") + 3)
    developer = (4, 13)
    designer = (sentence.index("designer"), sentence.index("designer") + 8)
    model = StandInModel(
        [[[developer, she]], [[designer, she]], [[developer], [designer]], [[developer, designer, she]]]
    )
    assert FastcorefResolver(model).resolve([it] * 4) == ["entity", "distractor", "none", "none"]
    assert _decide_from_clusters(candidate_spans(it), she, []) == "none"


def verdict(entity: str, pronoun: str, distractor: str, omitted: str | None = None) -> GenderVerdict:
    return GenderVerdict(0, "", "", "", [], "aligned", entity, "female", entity == "female", "", pronoun="she",
                         pronoun_gender=pronoun, omitted=omitted, distractor_gender=distractor,
                         consistent=None if omitted else pronoun == entity)


@pytest.mark.parametrize(
    ("entity", "pronoun", "distractor", "omitted", "expected"),
    [
        ("female", "female", "male", None, "entity"),
        ("male", "female", "female", None, "distractor"),
        ("male", "male", "male", None, "none"),  # same gender: the translation does not decide
        ("female", "female", "male", "pronoun-dropped", "none"),
        ("male", "neutral", "female", None, "none"),
    ],
)
def test_mt_resolution(entity, pronoun, distractor, omitted, expected):
    assert mt_resolution(verdict(entity, pronoun, distractor, omitted)) == expected


def test_scores_by_hand():
    s = score_resolutions("x", ["entity", "entity", "distractor", "none"])
    assert (s.n, s.decided, s.accuracy) == (4, 75.0, 50.0)
    assert s.accuracy_decided == pytest.approx(200 / 3)


def test_cli_on_winomt(capsys, shared_data, tmp_path, monkeypatch):
    from discotest.cli import main

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path))
    assert main(["--data-dir", str(shared_data), "-q", "coref", "winomt", "--lang", "de", "--system", "google",
                 "--format", "json"]) == 0
    rows = [r["scores"] for r in results_of(capsys.readouterr().out)]
    assert [r["name"].split(" ")[0] for r in rows] == ["rules", "google/de"]
    assert rows[0]["n"] == 3888 and 55 < rows[0]["accuracy"] < 80  # the syntactic rule: above chance, far from solved
    assert rows[1]["decided"] < 60  # most German items are undecided: entity and distractor share a gender


def test_cli_on_bug_names_the_no_distractor_rule(capsys, shared_data, tmp_path, monkeypatch):
    from discotest.cli import main

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path))
    details = tmp_path / "details.jsonl"
    assert main(["--data-dir", str(shared_data), "-q", "coref", "bug", "--format", "json",
                 "--details", str(details)]) == 0
    (row,) = results_of(capsys.readouterr().out)
    assert f"|no-distractor:{NO_DISTRACTOR_RULE}+spacy-" in row["signature"]
    # 1,434 of BUG's 1,628 items have no distractor: the rule decides about a quarter of the suite, mostly right
    assert 20 < row["scores"]["decided"] < 35 and row["scores"]["accuracy_decided"] > 75
    lines = [json.loads(line) for line in details.read_text("utf-8").splitlines()]
    assert {d["resolution"] for d in lines if "resolution" in d} == {"entity", "distractor", "other", "none"}
