"""Italian pronoun reading on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the English pronoun (as ``tests.support.morph_cases.marked``
takes them), the English pronoun and role, then the expected gender and omission reason.

The harness (each case read alone, and all in one batch in order) is ``tests/lang/test_pronoun_readings.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ()  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH


def analyser():
    from discotest.lang.morph.it import ItalianAnalyser

    return ItalianAnalyser()  # an InputError (its model missing) skips the language


M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # explicit subject pronouns; the target's gender counts, not the English pronoun's
    ("Il fornaio urlò al sarto perché lei ruppe la stufa.", "lei", "she", "subject", F, None),
    ("La segretaria chiamò l'avvocato perché lui era malato.", "lui", "she", "subject", M, None),
    # dropped subject, the aligner links the copula: the predicate adjective agrees
    ("Il supervisore criticò la receptionist perché era molto severa.", "era", "she", "subject", F, None),
    # essere + participle agrees with the dropped subject; the reflexive si shows nothing itself
    ("Il lavoratore chiamò il contabile, ma si è dimenticato.", "si", "he", "subject", M, None),
    ("Lo scrittore scrisse un libro perché è stata commossa dalla storia.", "è", "she", "subject", F, None),
    # avere + participle does not agree with the subject: dropped, no gender
    ("Il motore comprò una birra perché ha ottenuto lo stipendio.", "ha", "she", "subject", U, "pronoun-dropped"),
    # epicene predicate adjective
    ("L'esaminatore non riuscì perché era troppo incompetente.", "era", "she", "subject", U, "pronoun-dropped"),
    # dative clitics: gli masculine, le feminine
    ("Il medico chiamò l'assistente e gli chiese aiuto.", "gli", "him", "object", M, None),
    ("Il falegname parlò con il bibliotecario e le chiese un libro.", "le", "her", "object", F, None),
    # the article "le" of "le regole" is not a pronoun
    ("Lo sceriffo ha criticato le regole.", "le", "her", "object", U, "no-target-words"),
    # elided l' hides the gender; the participle after avere agrees with it
    ("Il capo ha assunto la receptionist e l'ha licenziata.", "l'", "her", "object", F, None),
    # glielo: glie- serves both genders
    ("L'avvocato aveva bisogno che il bibliotecario glielo chiedesse.", "glielo", "him", "object", U,
     "neutral-form"),
    # enclitics: -lo masculine, -le feminine
    ("Lo scrittore non voleva incontrarlo.", "incontrarlo", "him", "object", M, None),
    ("Lo scrittore voleva chiederle un favore.", "chiederle", "her", "object", F, None),
    # possessives agree with the possessed noun; loro is a possessive for "their"
    ("Il cuoco chiese aiuto perché la sua mamma era malata.", "sua", "her", "possessive", U,
     "possessive-agrees-with-possessed"),
    ("Lo studente incontrò l'architetto per vedere le loro idee.", "loro", "their", "possessive", U,
     "possessive-agrees-with-possessed"),
    # stressed pronoun after a preposition
    ("L'analista andava spesso da lui.", "lui", "him", "object", M, None),
    # nothing aligned to a subject: dropped
    ("Il revisore fece domande al muratore perché conosceva i dettagli.", "", "she", "subject", U,
     "pronoun-dropped"),
]

# nothing aligned: the clause of a dropped subject opening with a copula; an unaligned clitic after the entity
UNALIGNED = [
    ("La guardia ha chiesto al bibliotecario di andarsene perché era davvero stanca.", "bibliotecario", "she",
     "subject", F, None),
    ("Il contadino ha dato all'insegnante le uova e l'ha ringraziata.", "insegnante", "her", "object", F, None),
    ("Il fornaio litigò con il direttore e gli lanciò un pane.", "direttore", "him", "object", M, None),
]
