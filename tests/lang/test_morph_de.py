"""German gender analyser: hand-written tricky cases (no ../shared/data needed).

Labels are the grammatical gender the German gives the entity, not what the English meant.
"""

from __future__ import annotations

import pytest

pytest.importorskip("german_nouns")
pytest.importorskip("HanTa")

from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import Gender, TargetEntity  # noqa: E402
from discotest.lang.morph.de import GermanAnalyser  # noqa: E402
from discotest.lang.tokenize import normalise_moses, tokenize  # noqa: E402
from tests.support.morph_cases import marked  # noqa: E402


@pytest.fixture(scope="module")
def analyser() -> GermanAnalyser:
    return GermanAnalyser()


def entity(sentence: str, *words: str) -> TargetEntity:
    return marked(sentence, " ".join(words), "de")


CASES = [
    # the -in suffix on a compound: head Arbeiterin is feminine
    ("Der Prüfer lächelte die Bauarbeiterin an.", ("Bauarbeiterin",), Gender.FEMALE),
    # the same compound without -in is masculine
    ("Der Bauarbeiter braucht den Assistenten.", ("Bauarbeiter",), Gender.MALE),
    # "der" after "mit" is dative feminine; the noun says so too
    ("Der Arzt sprach mit der Ärztin.", ("Ärztin",), Gender.FEMALE),
    # nominalised participle: "die Angestellte" (acc. sg.) can only be feminine
    ("Der Verkäufer begrüßte die Angestellte und zwinkerte ihr zu.", ("Angestellte",), Gender.FEMALE),
    # ... "den Angestellten" is masculine accusative (the plural reading is dative, not possible here)
    ("Der Verkäufer begrüßte den Angestellten.", ("Angestellten",), Gender.MALE),
    # ... "der Angestellte" at the start of the clause is masculine nominative
    ("Der Angestellte half dem Arzt.", ("Angestellte",), Gender.MALE),
    # ... "mit der Angestellten": "der" is dative after "mit", so feminine (masculine would be "dem")
    ("Der Arzt sprach mit der Angestellten.", ("Angestellten",), Gender.FEMALE),
    # german-nouns lists only "der Sachverständige"; the feminine dative is still read from "der ...-en"
    ("Der Richter gab der Sachverständigen das Gutachten.", ("Sachverständigen",), Gender.FEMALE),
    # "ein Reisender": strong -er after "ein" is masculine nominative
    ("Ein Reisender fragte nach dem Weg.", ("Reisender",), Gender.MALE),
    # "der" as a genitive attribute after a noun: feminine genitive
    ("Die Akte der Vorgesetzten lag auf dem Tisch.", ("Vorgesetzten",), Gender.FEMALE),
    # CEO has both genders in german-nouns: the case context decides ("mit" -> dative -> feminine)
    ("Der Fahrer sprach mit der CEO.", ("CEO",), Gender.FEMALE),
    # ... and at the start of the sentence "der" is nominative masculine
    ("Der CEO sprach mit dem Fahrer.", ("CEO",), Gender.MALE),
    # plural "die" is not feminine: Bäcker is a masculine noun
    ("Die Bäcker backten Brot.", ("Bäcker",), Gender.MALE),
    # neuter nouns are neutral: Kind, Mitglied
    ("Der Arzt untersuchte das Kind.", ("Kind",), Gender.NEUTRAL),
    ("Das Mitglied stimmte dagegen.", ("Mitglied",), Gender.NEUTRAL),
    # epicene nouns keep their grammatical gender: die Person, die Wache (feminine)
    ("Der Kassierer achtete nie auf die Wache.", ("Wache",), Gender.FEMALE),
    ("Die Person lachte.", ("Person",), Gender.FEMALE),
    # "jemand" (someone) is grammatically masculine (generic: neutral to a reader, issue 40)
    ("Der Techniker sagte jemandem, er könne bar bezahlen.", ("jemandem",), Gender.MALE),
    # gender-inclusive spellings are neutral
    ("Die Lehrer*in kam zu spät.", ("Lehrer",), Gender.NEUTRAL),
    ("Die LehrerIn kam zu spät.", ("LehrerIn",), Gender.NEUTRAL),
    # Leiter is masculine as a person (die Leiter is a ladder): the entity lexicon picks the person
    ("Die Leiterin sprach mit dem Leiter.", ("Leiter",), Gender.MALE),
    # a span with the article and a stray word: the noun is found among them
    ("Die Entwicklerin konnte nicht kommunizieren.", ("Die", "Entwicklerin", "konnte"), Gender.FEMALE),
    # only the article was aligned: the noun right after it is read
    ("Der Hausmeister fegte den Boden.", ("Der",), Gender.MALE),
    # an English loanword unknown to german-nouns, decided by the masculine article
    ("Der Buchhalter sprach mit dem Mover.", ("Mover",), Gender.MALE),
    # ... and with -in it is feminine whatever the article
    ("Die Moverin trug den Schreibtisch.", ("Moverin",), Gender.FEMALE),
    # sota-style garbage: a lowercase adjective as the noun, decided by "den" (masculine accusative)
    ("Der Chefredakteur bat den sauberer , zu gehen .", ("sauberer",), Gender.MALE),
    # the entity only as first part of a compound whose head is a thing: masculine Schriftsteller-
    ("Die Frau ging an das Schriftstellerhaus .", ("Schriftstellerhaus",), Gender.MALE),
    # a nominalised participle german-nouns lacks (HanTa recognises it), feminine article
    ("Die Praktizierende rief den Patienten an.", ("Praktizierende",), Gender.FEMALE),
    # an aligned verb and nothing else: no noun, unknown
    ("Der Bauarbeiter bat verbunden mit, nicht zu gehen.", ("verbunden",), Gender.UNKNOWN),
    # the plural of a nominalised adjective has no gender
    ("Der Arzt sprach mit den Angestellten.", ("Angestellten",), Gender.UNKNOWN),
]


@pytest.mark.parametrize("sentence, words, expected", CASES)
def test_tricky_cases(analyser: GermanAnalyser, sentence: str, words: tuple[str, ...], expected: Gender) -> None:
    reading = analyser.read([entity(sentence, *words)])[0]
    assert reading.gender == expected, reading.reason
    assert reading.reason


def test_moses_tokenised_output(analyser: GermanAnalyser) -> None:
    # sota outputs are Moses-tokenised; callers undo it before tokenising (Olympia-Rat is one token)
    sentence = normalise_moses("Die Irritationen argumentierten mit dem Olympia @-@ Rat , weil ihr das Design gefiel .")
    reading = analyser.read([entity(sentence, "Olympia-Rat")])[0]
    assert reading.gender == Gender.MALE  # der Rat: masculine head of the hyphenated compound


def test_empty_span_is_unknown(analyser: GermanAnalyser) -> None:
    sentence = "Die Irritationen trafen sich zu Hause."
    reading = analyser.read([TargetEntity(sentence, tokenize(sentence, "de"), ())])[0]
    assert reading.gender == Gender.UNKNOWN
    assert reading.reason == "no target words aligned to the entity"


def test_reason_and_evidence_name_the_words(analyser: GermanAnalyser) -> None:
    reading = analyser.read([entity("Die Entwicklerin stritt mit dem Designer.", "Entwicklerin")])[0]
    assert reading.reason == "article 'Die' + noun 'Entwicklerin' (Fem, german-nouns)"
    assert reading.evidence == ("Die", "Entwicklerin")


def test_batch_keeps_order_and_registry_loads_it(analyser: GermanAnalyser) -> None:
    items = [entity(s, *w) for s, w, _ in CASES]
    assert [r.gender for r in analyser.read(items)] == [g for _, _, g in CASES]
    loaded = load_analyser("de")
    assert isinstance(loaded, GermanAnalyser)
    assert loaded.version().startswith("german-nouns-") and "+hanta-" in loaded.version()
