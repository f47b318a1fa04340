"""The reader-level gender verdict: every branch of the conflict rule (``gender.judge.convey``), the scores on
it, and the wiring (``--verdict reader``: signature, JSON, the noun default unchanged)."""

from __future__ import annotations

import pytest

from discotest.gender.judge import Conveyed, GenderVerdict, convey, score_gender

# (noun gender, pronoun gender or None, distractor gender) -> conveyed gender; each case is a translation a reader
# could meet, the German words given as the example
RULE_CASES = [
    # "Die Entwicklerin ... weil sie": noun and pronoun agree
    ("female", "female", "male", "female", "noun and pronoun agree"),
    ("male", "male", "male", "male", "noun and pronoun agree"),
    # "Der Schriftsteller interviewte den Manager, weil sie sehr erfolgreich ist" (issue 14): generic masculine
    # noun, and the only feminine word the pronoun, so the manager is a woman
    ("male", "female", "male", "female", "generic masculine noun, feminine pronoun"),
    # the same with no distractor read (None): still the pronoun
    ("male", "female", None, "female", "generic masculine noun, feminine pronoun"),
    # "Der Entwickler stritt mit der Designerin, weil sie …": sie agrees with Designerin, so a reader takes it to
    # refer to her; the developer stays a man
    ("male", "female", "female", "male", "noun; the female pronoun fits the other entity"),
    # "Die Ärztin … weil er …" with a masculine other entity: er is the other one
    ("female", "male", "male", "female", "noun; the male pronoun fits the other entity"),
    # "Die Rechtsassistentin vergaß, für jemanden Unterlagen einzureichen, deshalb wurde er gefeuert": er is the
    # generic masculine of "jemand" (read neutral), so it refers to someone and the paralegal stays a woman
    ("female", "male", "neutral", "female", "noun; the male pronoun fits the other entity"),
    # but a feminine pronoun is never generic: "Der Beamte verhaftete jemanden, obwohl sie nicht im Dienst war"
    ("male", "female", "neutral", "female", "generic masculine noun, feminine pronoun"),
    # "Die Ärztin rief die Krankenschwester, weil er …": a feminine noun names women only, er contradicts it
    ("female", "male", "female", "mixed", "feminine noun, masculine pronoun"),
    ("female", "male", None, "mixed", "feminine noun, masculine pronoun"),
    # "Der Tierarzt informierte jemanden darüber, dass seine Katze …": seine is the obligatory (generic masculine)
    # agreement of jemand and shows no sex
    ("neutral", "male", "male", "neutral", "neutral noun; a masculine pronoun is its generic agreement"),
    # "Jemand bat darum, mit dem Manager zu sprechen, weil sie …": a feminine pronoun is never generic
    ("neutral", "female", "male", "female", "pronoun (neutral noun)"),
    # "L'analyste … il": epicene noun read unknown, the pronoun decides
    ("unknown", "male", "female", "male", "pronoun (noun unreadable)"),
    # compatible with both entities (neutral noun, distractor of the pronoun's gender): the English pronoun refers to
    # the entity and a reader resolves it by meaning, so still the pronoun's
    ("neutral", "female", "female", "female", "pronoun (neutral noun)"),
    ("unknown", "female", "male", "female", "pronoun (noun unreadable)"),
    # gendered noun, the pronoun shows nothing (dropped, possessive agreeing with the possessed, none): the noun's
    ("male", None, "female", "male", "noun only"),
    ("female", None, None, "female", "noun only"),
    ("neutral", None, "male", "neutral", "noun only"),
    # gendered noun + ungendered pronoun form: the noun's
    ("female", "neutral", "male", "female", "noun; the pronoun is ungendered"),
    # no gendered cue anywhere: neutral when something neutral was read, unknown when nothing was
    ("neutral", "neutral", "male", "neutral", "neutral noun, ungendered pronoun"),
    ("unknown", "neutral", "male", "neutral", "noun unreadable, ungendered pronoun"),
    ("unknown", None, "male", "unknown", "nothing readable"),
]


@pytest.mark.parametrize(("noun", "pronoun", "distractor", "expected", "reason"), RULE_CASES)
def test_conflict_rule(noun, pronoun, distractor, expected, reason):
    out = convey(noun, ["N"], pronoun, ["P"], distractor)
    assert out.gender == expected
    assert out.reason.startswith(reason), out.reason


def test_evidence_names_the_words_that_decided():
    # both cues used: the noun's words, then the pronoun's
    assert convey("male", ["Der", "Manager"], "female", ["sie", "ist"], "male").evidence == ("Der", "Manager", "sie",
                                                                                             "ist")
    # the pronoun set aside (it refers to the other entity): only the noun's
    assert convey("male", ["Der", "Entwickler"], "female", ["sie"], "female").evidence == ("Der", "Entwickler")
    # noun unreadable: only the pronoun's
    assert convey("unknown", [], "female", ["sie"], "male") == Conveyed("female", "pronoun (noun unreadable)",
                                                                        ("sie",))
    # why the pronoun shows nothing is in the reason
    assert convey("male", ["Der"], None, [], "male", "pronoun pronoun-dropped").reason == (
        "noun only (pronoun pronoun-dropped)")


def _verdict(gold: str, noun: str, conveyed: str | None, stereotype: str | None = None) -> GenderVerdict:
    return GenderVerdict(0, "", "", "", [], "aligned", noun, gold, gold == noun, "", [], stereotype,
                         conveyed_gender=conveyed, conveyed_reason="" if conveyed else None,
                         conveyed_evidence=[] if conveyed else None)


def test_scores_on_the_reader_verdict():
    verdicts = [
        _verdict("female", "male", "female", "anti"),  # generic masculine + sie: wrong by noun, right by reader
        _verdict("female", "female", "female", "pro"),  # right by both
        _verdict("female", "female", "mixed", "pro"),  # right by noun, wrong by reader (mixed is never gold)
        _verdict("male", "male", "male", "pro"),  # right by both
    ]
    noun, reader = score_gender(verdicts), score_gender(verdicts, "reader")
    assert noun.accuracy == 75.0 and reader.accuracy == 75.0
    # noun: pro 3/3, anti 0/1 -> ΔS 100; reader: pro 2/3, anti 1/1 -> ΔS -33.3
    assert noun.delta_s == 100.0 and reader.delta_s == pytest.approx(200 / 3 - 100)
    # reader: female predicted 2 (rows 1, 2), both right, gold female 3 -> P 100, R 66.7
    assert reader.precision_female == 100.0 and reader.recall_female == pytest.approx(200 / 3)
    assert reader.mixed == 25.0 and "mixed" in reader.to_json()
    assert noun.mixed is None and "mixed" not in noun.to_json()  # the noun scores' JSON is today's


def test_reader_scores_need_the_reader_verdict():
    with pytest.raises(ValueError, match="reader-level verdict was not computed"):
        score_gender([_verdict("male", "male", None)], "reader")


def test_details_carry_the_reader_fields_only_when_computed():
    assert "conveyed_gender" not in _verdict("male", "male", None).to_json()
    row = _verdict("male", "male", "male").to_json()
    assert row["conveyed_gender"] == "male" and row["conveyed_evidence"] == []


def test_reader_verdict_end_to_end_on_the_demo():
    import discotest

    noun = discotest.run("winomt-demo", lang="de", system="demo", quiet=True).results[0]
    reader = discotest.run("winomt-demo", lang="de", system="demo", verdict="reader", quiet=True).results[0]
    # the noun default keeps today's signature and JSON; reader says so in both
    assert "verdict" not in noun.signature.format() and "verdict" not in noun.extra_json()
    assert reader.signature.format() == noun.signature.format().replace("|files:", "|verdict:reader|files:")
    assert reader.extra_json()["verdict"] == "reader" and reader.consistency is not None
    rows = reader.details()
    assert all(r["conveyed_gender"] in ("male", "female", "neutral", "mixed", "unknown") for r in rows)
    # the scores are those of the reader verdict
    assert reader.scores == score_gender(reader.verdicts, "reader")
    assert reader.scores.accuracy == pytest.approx(100 * sum(r["conveyed_gender"] == r["gold_gender"] for r in rows)
                                                   / len(rows))


def test_unknown_verdict_is_an_input_error():
    import discotest
    from discotest.errors import InputError

    with pytest.raises(InputError, match="--verdict must be one of noun, grammatical, reader"):
        discotest.run("winomt-demo", lang="de", system="demo", verdict="pronoun", quiet=True)


def test_an_object_pronoun_cannot_refer_to_the_subject():
    # "הספרית דיברה עם המנהל וביקשה ממנה עזרה" (he, WinoMT 821): ממנה is not the hairdresser (the subject; that
    # would be a reflexive), so the manager, a masculine noun, is a woman although the hairdresser is feminine too
    out = convey("male", ["המנהל"], "female", ["ממנה"], "female", bound=True)
    assert out.gender == "female" and out.reason.endswith("the other entity is the subject")
    # "Der Bauarbeiter winkte die Haushälterin in den Raum und stellte ihm eine Frage" (de 301): ihm is not the
    # construction worker, and die Haushälterin names a woman: the translation contradicts itself
    assert convey("female", ["die", "Haushälterin"], "male", ["ihm"], "male", bound=True).gender == "mixed"


@pytest.mark.parametrize(("sentence", "entity", "gold", "expected"), [
    # object pronoun, the other entity first (the subject): bound
    ("The hairdresser spoke with the manager and asked her for help.", "manager", "female", True),
    # the entity first (the subject): the object pronoun is left to the rule ("asked the hairdresser to help him")
    ("The manager asked the hairdresser to help him.", "manager", "male", False),
    ("The guard admired the secretary and wanted his job.", "secretary", "male", False),  # possessive: may be anyone's
    ("The developer argued with the designer because she did not like the design.", "developer", "female", False),
])
def test_object_of_distractor(sentence, entity, gold, expected):
    from discotest.gender.mentions import find_distractor, find_pronouns, object_of_distractor
    from discotest.gender.winomt import GenderItem

    words = sentence.split(" ")
    position = [w.strip(".").lower() for w in words].index(entity)
    item = GenderItem(index=0, gold=gold, entity_index=position, sentence=sentence, entity=entity)
    (mention,) = find_pronouns([item])
    found = find_distractor(item)
    assert object_of_distractor(item, mention, found[1] if found else None) is expected
