"""Discourse-connective detection: each parse rule with a sentence where it fires and one where it must not."""

from __future__ import annotations

import csv
from pathlib import Path

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
    # bare: "because" with a clause vs. "because of" + noun phrase
    ("He left because it rained.", ["because"]),
    ("He left because of the rain.", []),
    # initial: "finally" clause-initially vs. mid-clause
    ("Finally, he arrived.", ["finally"]),
    ("He finally arrived.", []),
    # longest match: "as a result" is one connective, not "as"
    ("As a result, prices rose.", ["as a result"]),
]

# PDTB-3 (Webber et al. 2019, annotation manual §2.5, §5.1-5.3): a connective's argument may be a non-finite
# clause (gerund, participle, infinitive), never a bare noun phrase. "WMT22" marks a sentence of the WMT22 de-en
# reference (generaltest2022, ref A); the others are constructed.
NONFINITE = [
    # gerund object of "after": the event of leaving precedes the locking (non-finite clause, not an NP)
    ("After leaving the house, she locked the door.", ["after"]),
    # WMT22: "after" + gerund, the second-place run precedes the fifth place
    ("The Berchtesgadener Johannes Lochner, who was driving for Stuttgart, came in fifth after coming in second "
     "before.", ["after"]),
    # gerund object of "before"
    ("He checked the contract before signing it.", ["before"]),
    # WMT22: "before" + gerund in an instruction
    ("Let the painted parts dry for a whole day before assembling them.", ["before"]),
    # "instead of" + gerund: substitution between two events
    ("Instead of going home, we went to the pub.", ["instead of"]),
    # "so as to" + infinitive: purpose; before PDTB-3 rules this found a wrong "as" (Reason)
    ("She left early so as to catch the train.", ["so as to"]),
    # WMT22: "in order to" + infinitive: purpose
    ("In order to rebut fake news, the Biontech CEO published a vaccination photo", ["in order to"]),
    # "by" + gerund: the manner in which the saving was achieved
    ("They saved money by cutting costs.", ["by"]),
    # "while" + gerund (already a `mark` of a clause)
    ("While waiting for the bus, he read a book.", ["while"]),
    # "since" + gerund: spaCy makes "since" a preposition here; the gerund makes it a clause
    ("Since joining the company, she has been promoted twice.", ["since"]),
    # "in addition to" + gerund: conjunction of two events
    ("In addition to paying the fee, you must register.", ["in addition to"]),
    # "despite" + gerund: concession (Arg2 as denier)
    ("Despite losing the game, they celebrated.", ["despite"]),
]

BARE_NP = [
    # "in addition to" + NP: a noun phrase is not an abstract-object argument; before: "in addition" was found
    ("In addition to the fee, you pay tax.", []),
    # WMT22: same, with a longer NP
    ("In addition to this sophisticated circuitry, the VTX amplifier offers a closed casing and bass reflex "
     "system, from which natural resonances just burst out.", []),
    # "for example" introducing an NP inside a clause; before: found
    ("Many cities, for example Paris, are expensive.", []),
    # WMT22: "for example" listing NPs
    ("A diverse mix of, for example, private landlords, cooperatives and housing associations is the best "
     "protection against the formation of a monopoly anyway.", []),
    # but "for example" in front of a clause is a connective (Instantiation)
    ("For example, prices rose sharply.", ["for example"]),
    ("After the meeting, we went home.", []),  # "after" + NP: a preposition
    ("He stayed because of the rain.", []),  # "because of" + NP
    ("I drink coffee instead of tea.", []),  # "instead of" + NP (and "instead" alone is refused before "of")
    ("He has lived here since 2019.", []),  # "since" + a time expression: a preposition
    ("The prices went up after rising costs.", []),  # VBG modifying a noun ("rising costs") is an NP
    # WMT22: "since" as an adverb inside a finite clause ("has since then belonged", "had since been")
    ("[5] It has since then belonged to the Transportation Museum Dresden as a non-operational museum "
     "locomotive.", []),
    ("The priority groups have long since been removed - and the Biontech head had since been vaccinated three "
     "times according to his statements.", ["and"]),
    # WMT22: "as" without a subject of its own (comparative/parenthetical) or attribution: not connectives
    ("Kimi Räikkönens departure from Formula 1 went by quieter as was expected.", []),
    ("As mentioned above, the POWER LEVEL knob can even be used for power reserve when it gets outrageously loud.",
     ["when"]),
    ("As the park announced, members of the Fan Association are allowed to visit the park.", []),
]


@pytest.mark.parametrize(("sentence", "expected"), NONFINITE + BARE_NP)
def test_pdtb3_arguments(sentence: str, expected: list[str]) -> None:
    assert [f.connective for f in find_connectives(parse([sentence])[0])] == expected


SENSES = [
    # while + gerund: the two events happen at the same time
    ("While waiting for the bus, he read a book.", "while", "Temporal.Synchronous"),
    # while + progressive clause: same-time event
    ("While I was cooking, the phone rang.", "while", "Temporal.Synchronous"),
    # while + verbless clause ("while [he was] in Paris")
    ("While in Paris, he met her.", "while", "Temporal.Synchronous"),
    # WMT22: while + gerund
    ("No further vitamin compound should be taken while using NEKTON Bio.", "while", "Temporal.Synchronous"),
    # WMT22: two parallel situations compared (Spain vs Italy): contrast
    ("In Spain it is the three wise men that bring presents, while in Italy it is the witch Befana, who "
     "supposedly lead the way to Baby Jesus.", "while", "Comparison.Contrast"),
    # contrast of two simple-tense states
    ("While some people like it, others hate it.", "while", "Comparison.Contrast"),
    # since + past clause, main clause perfect: the time since which
    ("Since he moved to Berlin in 2019, he has worked at the bank.", "since", "Temporal.Asynchronous.Succession"),
    # since + gerund: temporal
    ("Since joining the company, she has been promoted twice.", "since", "Temporal.Asynchronous.Succession"),
    # since + present-tense clause: reason
    ("Since you are here, you can help me.", "since", "Contingency.Cause.Reason"),
    # WMT22: since + past clause but main clause not perfect: reason (before: Succession, the first listed)
    ("Since the delivery took place only at the beginning of March, it might be possible up till that point.",
     "since", "Contingency.Cause.Reason"),
    # then after an if-clause: consequent of a condition (before: Precedence)
    ("If it rains, then we stay at home.", "then", "Contingency.Condition"),
    # WMT22: same
    ("If the pumps are strong enough, then you can operate entire systems with them.", "then",
     "Contingency.Condition"),
    # then without a condition: temporal sequence
    ("He ate and then he left.", "then", "Temporal.Asynchronous.Precedence"),
    # as + progressive: same time
    ("As I was leaving, the phone rang.", "as", "Temporal.Synchronous"),
    # WMT22: as + an event in the past: same time
    ("“Welcome back,” Bezos said, who was wearing a blue space suit as he opened the hatch of the capsule.", "as",
     "Temporal.Synchronous"),
    # as + stative clause: reason
    ("As he is ill, he cannot come.", "as", "Contingency.Cause.Reason"),
    # WMT22: when + perfect clause: the other event follows
    ("When all actions have been concluded, the pioneers can return.", "when", "Temporal.Asynchronous.Succession"),
    ("When he came, we ate.", "when", "Temporal.Synchronous"),
    # still: only the clause-initial concessive "Still," is a connective; "is still working" is not
    ("It was cold. Still, we went out.", "still", "Comparison.Concession"),
]


@pytest.mark.parametrize(("sentence", "connective", "sense"), SENSES)
def test_sense_in_context(sentence: str, connective: str, sense: str) -> None:
    found = {f.connective: f.sense for f in find_connectives(parse([sentence])[0])}
    assert found[connective] == sense


def test_temporal_still_is_not_a_connective() -> None:
    assert find_connectives(parse(["He is still working."])[0]) == []


def test_sense_rules_return_the_entries_senses() -> None:
    from discotest.dip.connectives import SENSE_RULES

    lex = lexicon()
    for connective, (_, senses) in SENSE_RULES.items():
        assert set(senses) <= set(lex[tuple(connective.split())].senses), connective


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


GOLD = Path(__file__).resolve().parents[1] / "gold"


def _gold_rows(name: str) -> list[dict[str, str]]:
    lines = [line for line in (GOLD / name).read_text("utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def test_gold_sample_is_what_the_detector_finds(shared_data: Path) -> None:
    # the hand-checked WMT22 de-en sample (tests/gold/dip_connectives_wmt22.tsv) describes this detector: every
    # "after" row is found again with the same connective and sense, so the docs' and VALIDITY.md's precision (56/60
    # labelled ok) is a statement about the code as it is; a rule change that moves a labelled row fails here
    from discotest.dip.documents import load_pair

    sample = _gold_rows("dip_connectives_wmt22.tsv")
    changed = _gold_rows("dip_connectives_wmt22_changed.tsv")
    after = [r for r in sample if r["set"] == "after"]
    assert len(after) == 60 and sum(r["label"] == "ok" for r in after) == 56
    assert sum(r["label"] == "ok" for r in sample if r["set"] == "before") == 45
    pair = load_pair("wmt22", "de-en", "A", shared_data)
    wanted = sorted({int(r["line"]) for r in after + changed})
    parsed = dict(zip(wanted, parse([pair.reference[i] for i in wanted])))
    for r in after:
        line = int(r["line"])
        assert pair.reference[line] == r["sentence"]
        now = {f.index: (f.connective, f.sense) for f in find_connectives(parsed[line])}
        assert now.get(int(r["token"])) == (r["connective"], r["sense"]), r["sentence"]
    for r in changed:  # each changed decision ("connective/sense" or "-") is still the detector's
        now = {f.index: f"{f.connective}/{f.sense}" for f in find_connectives(parsed[int(r["line"])])}
        assert now.get(int(r["token"]), "-") == r["after"], r["sentence"]


def test_held_out_zh_en_sample_is_what_the_detector_finds(shared_data: Path) -> None:
    # the held-out sample (tests/gold/dip_connectives_wmt22_zh-en_heldout.tsv): 40 detections in the WMT22 zh-en
    # reference, a pair no rule was written on, drawn after the rules were fixed; 33 labelled ok (82.5%), the
    # out-of-sample precision in dip/README and VALIDITY.md. Every row must still be what the detector finds.
    from discotest.dip.documents import load_pair

    rows = _gold_rows("dip_connectives_wmt22_zh-en_heldout.tsv")
    assert len(rows) == 40 and [sum(r["label"] == k for r in rows) for k in ("ok", "sense", "no")] == [33, 2, 5]
    pair = load_pair("wmt22", "zh-en", "A", shared_data)
    wanted = sorted({int(r["line"]) for r in rows})
    parsed = dict(zip(wanted, parse([pair.reference[i] for i in wanted])))
    for r in rows:
        assert pair.reference[int(r["line"])] == r["sentence"]
        now = {f.index: (f.connective, f.sense) for f in find_connectives(parsed[int(r["line"])])}
        assert now.get(int(r["token"])) == (r["connective"], r["sense"]), r["sentence"]
