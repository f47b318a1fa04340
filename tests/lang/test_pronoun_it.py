"""Italian pronoun reading on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the English pronoun (as ``tests.support.morph_cases.marked``
takes them), the English pronoun and role, then the expected gender and omission reason.
"""

from __future__ import annotations

import pytest

from discotest.errors import InputError
from discotest.lang.morph.base import Gender, PronounTarget
from discotest.lang.morph.it import ItalianAnalyser
from tests.support.morph_cases import (
    pronoun_marked,  # noqa: E402
)

M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN


def target(sentence: str, words: str, pronoun: str, role: str, entity: str = "") -> PronounTarget:
    return pronoun_marked(sentence, words, "it", pronoun, role, entity)


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


@pytest.fixture(scope="module")
def analyser() -> ItalianAnalyser:
    try:
        return ItalianAnalyser()
    except InputError as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize(("sentence", "words", "pronoun", "role", "gender", "omitted"), CASES)
def test_pronoun_case(analyser, sentence, words, pronoun, role, gender, omitted):
    (reading,) = analyser.read_pronouns([target(sentence, words, pronoun, role)])
    assert (reading.gender, reading.omitted) == (gender, omitted), reading.reason


def test_batch_keeps_order(analyser):
    items = [target(s, w, p, r) for s, w, p, r, _, _ in CASES]
    readings = analyser.read_pronouns(items)
    assert [(r.gender, r.omitted) for r in readings] == [(g, o) for *_, g, o in CASES]


@pytest.mark.parametrize(("sentence", "entity", "pronoun", "role", "gender", "omitted"), UNALIGNED)
def test_unaligned_pronoun(analyser, sentence, entity, pronoun, role, gender, omitted):
    (reading,) = analyser.read_pronouns([target(sentence, "", pronoun, role, entity)])
    assert (reading.gender, reading.omitted) == (gender, omitted), reading.reason
