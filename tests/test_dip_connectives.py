"""Discourse-connective detection: each parse rule with a sentence where it fires and one where it must not."""

from __future__ import annotations

import pytest

from discotest.dip.connectives import RULES, find_connectives, lexicon, match, match_sentences
from discotest.dip.parse import parse

pytest.importorskip("spacy")

CASES = [
    # coordinate: "and" joins two clauses (verb conjunct) -> discourse
    ("She left and he stayed.", ["and"]),
    # coordinate: "and" joins two nouns -> not a discourse connective
    ("I ate bread and butter.", []),
    # coordinate: sentence-initial "But" links to the previous sentence
    ("But the plan failed.", ["but"]),
    # subordinate: "since" marks an adverbial clause
    ("Since he left, nothing works.", ["since"]),
    # subordinate: "since 2010" is a preposition with a noun phrase
    ("He has lived here since 2010.", []),
    # subordinate: "while" marks a clause
    ("She read while he cooked.", ["while"]),
    # subordinate: "a while" is a noun
    ("He waited for a while.", []),
    # subordinate: "after" with a clause, not "after the war"
    ("After he moved, she cried.", ["after"]),
    ("After the war, he moved.", []),
    # subordinate: conditional "if" vs. "if" introducing a complement clause of "asked"
    ("If he comes, we eat.", ["if"]),
    ("I asked if he came.", []),
    # subordinate: "as" marking a clause vs. the preposition "as a teacher"
    ("As he left, she cried.", ["as"]),
    ("He worked as a teacher.", []),
    # when: adverbial clause vs. a question and a relative clause
    ("When he came, we ate.", ["when"]),
    ("When did he come?", []),
    ("The day when he came was cold.", []),
    # so: result connective vs. degree adverb and "think so"
    ("It rained, so we stayed home.", ["so"]),
    ("It was so good.", []),
    ("I think so.", []),
    # adverbial: "then" modifying the verb vs. "since then" (object of a preposition)
    ("Then he left.", ["then"]),
    ("He has been here since then.", []),
    # adverbial: "back then" names a time, it does not relate two events
    ("I noticed back then that teachers did not believe.", []),
    # adverbial: "however" on the clause vs. "however much" (degree on an adverb)
    ("However, he stayed.", ["however"]),
    ("However much he tries, he fails.", []),
    # not_of: "because" with a clause vs. "because of" + noun phrase
    ("He left because it rained.", ["because"]),
    ("He left because of the rain.", []),
    # initial: "finally" clause-initially vs. mid-clause
    ("Finally, he arrived.", ["finally"]),
    ("He finally arrived.", []),
    # longest match: "as a result" is one connective, not "as"
    ("As a result, prices rose.", ["as a result"]),
]


@pytest.mark.parametrize(("sentence", "expected"), CASES)
def test_rules(sentence: str, expected: list[str]) -> None:
    assert [f.connective for f in find_connectives(parse([sentence])[0])] == expected


def test_lexicon_is_data_with_senses_and_known_rules() -> None:
    lex = lexicon()
    assert len(lex) >= 80
    assert set(e.rule for e in lex.values()) <= set(RULES)
    assert lex[("because",)].sense == "Contingency.Cause.Reason"
    assert lex[("while",)].ambiguous and "Temporal.Synchronous" in lex[("while",)].senses
    assert lex[("on", "the", "other", "hand")].sense == "Comparison.Contrast"


def test_match_pairs_by_aligned_place() -> None:
    # reference "If ..., then ... because ...", system "If ..., ... as ...": "because" has no same connective
    # but the system's "as" sits at its aligned place, so ANY holds for it and not for "then"
    ref, sys = parse(["If so, then I need to cancel the order because I know nobody.",
                      "If so, I need to cancel the order as I know nobody."])
    found, matches = match_sentences(ref, sys)
    by_conn = {f.connective: m for f, m in zip(found, matches)}
    assert by_conn["because"].any and not by_conn["because"].same and by_conn["because"].connective == "as"
    assert not by_conn["then"].any


def test_match_same_connective_first_and_each_used_once() -> None:
    from discotest.dip.connectives import Found

    ref = [Found("but", "Comparison.Contrast", 0), Found("and", "Expansion.Conjunction", 5)]
    sys = [Found("and", "Expansion.Conjunction", 6)]
    m = match(ref, sys)
    # "and" takes the system's "and" (same); nothing is left for "but"
    assert m[1].same and not m[0].any
