"""The English mentions of a suite item: the pronoun (and its role) and the distracting entity."""

from __future__ import annotations

import pytest

from discotest.gender import mentions
from discotest.gender.mentions import english_pronoun, find_distractor, find_pronouns
from discotest.gender.winomt import GenderItem


def item(sentence: str, entity: str, gold: str) -> GenderItem:
    words = sentence.split(" ")
    return GenderItem(0, gold, words.index(entity.split()[0]), sentence, entity)


@pytest.mark.parametrize(
    ("sentence", "entity", "gold", "expected"),
    [
        # the pronoun whose gender matches the gold, not the first pronoun of the sentence
        ("The developer told the designer that he liked her idea.", "designer", "female", ("her", "possessive")),
        ("The developer argued with the designer because she did not like the design.", "developer", "female",
         ("she", "subject")),
        # "her" + a verb or a function word: an object
        ("The mover helped the nurse because he wanted to thank her for the help.", "nurse", "female",
         ("her", "object")),
        ("The guard asked the counselor a few questions and let her enter the office.", "counselor", "female",
         ("her", "object")),
        # "her" + a noun: a possessive
        ("The clerk visited the physician because her back ached.", "physician", "female", ("her", "possessive")),
        ("The chief hired the cleaner because they needed help.", "chief", "neutral", ("they", "subject")),
        ("The tailor thanked the driver for his help.", "driver", "male", ("his", "possessive")),
    ],
)
def test_pronoun_and_role(sentence, entity, gold, expected):
    assert english_pronoun(item(sentence, entity, gold)) == expected


def test_her_without_spacy_uses_the_following_word(monkeypatch):
    monkeypatch.setattr(mentions, "_english_tagger", lambda: None)
    monkeypatch.setattr(mentions, "_ROLES", {})  # nothing tagged earlier in this process
    got = find_pronouns([
        item("The clerk visited the physician because her idea failed.", "physician", "female"),
        item("The auditor admonished the CEO and told her that.", "CEO", "female"),
        item("The auditor admonished the CEO harshly and greeted her warmly.", "CEO", "female"),
    ])
    assert [m.role for m in got] == ["possessive", "object", "object"]


def test_no_pronoun():
    assert english_pronoun(item("The nurse came home.", "nurse", "female")) == ("", "")


def test_distractor_is_the_other_entity_multiword_first():
    got = find_distractor(item("The secretary called the construction worker about the plan.", "secretary", "female"))
    assert got is not None and got[0] == "construction worker" and len(got[1]) == 2
    assert find_distractor(item("The technician told someone that they could pay.", "technician", "neutral")) == (
        "someone", (3,))
    assert find_distractor(item("The nurse came home.", "nurse", "female")) is None


def test_every_winomt_row_has_a_pronoun_and_a_distractor(shared_data):
    from discotest.gender.winomt import load_winomt

    items = load_winomt("2019", shared_data)
    found = find_pronouns(items)
    assert all(found)
    assert sum(find_distractor(i) is not None for i in items) == len(items)


def test_a_suites_her_roles_are_tagged_once_and_read_back_without_spacy(shared_data, tmp_path, monkeypatch):
    """``learn_her_roles`` tags every "her" of the suite once and keeps the roles in the cache; a process that has
    tagged nothing (an empty memo) reads them back and never loads spaCy, and every role equals the one tagged on its
    sentence alone (spaCy reads each sentence on its own: where it was tagged cannot matter)."""
    from discotest.gender.winomt import load_winomt

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    items = load_winomt("2019", shared_data)
    hers = [i for i in items if english_pronoun(i)[0] == "her"][:60:3]
    monkeypatch.setattr(mentions, "_ROLES", {})
    mentions.learn_her_roles(items)
    learned = dict(mentions._ROLES)
    assert len(learned) > 100 and set(learned.values()) == {"object", "possessive"}

    monkeypatch.setattr(mentions, "_ROLES", {})
    monkeypatch.setattr(mentions, "_english_tagger", lambda: pytest.fail("spaCy loaded although the roles are cached"))
    mentions.learn_her_roles(items)
    assert learned == mentions._ROLES
    read_back = find_pronouns(hers)

    monkeypatch.undo()
    monkeypatch.setattr(mentions, "_ROLES", {})
    alone = [find_pronouns([i])[0] for i in hers]
    assert read_back == alone


def test_the_roles_are_tagged_again_after_an_edit_to_their_code_only(shared_data, tmp_path, monkeypatch):
    """The roles' key holds the code that tags them (``ROLES_CODE``), not the whole package's: an edit to a verdict
    rule or the card reads them back, an edit to this module tags them again."""
    from discotest import cache
    from discotest.gender.winomt import load_winomt

    monkeypatch.setenv("DISCOTEST_MODELS", str(tmp_path / "models"))
    items = [i for i in load_winomt("2019", shared_data) if english_pronoun(i)[0] == "her"][:20]
    monkeypatch.setattr(mentions, "_ROLES", {})
    mentions.learn_her_roles(items)
    tagged = []
    monkeypatch.setattr(mentions, "_tag_her_roles", lambda sentences: tagged.append(1) or ["object"] * len(sentences))
    real = cache.code_key
    for edited, again in [("gender/judge.py", False), ("cards/build.py", False), ("gender/mentions.py", True),
                          ("lang/english.py", True)]:
        monkeypatch.setattr(cache, "code_key", lambda *parts, e=edited: f"edited {e}" if not parts or e in parts
                            else real(*parts))
        monkeypatch.setattr(mentions, "_ROLES", {})
        tagged.clear()
        mentions.learn_her_roles(items)
        assert bool(tagged) == again, edited
