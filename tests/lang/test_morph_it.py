"""Italian gender analyser on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the entity (space-separated tokens as ``tokenize`` gives
them; "" for an empty span), the expected grammatical gender, and why.
"""

from __future__ import annotations

import shutil

import pytest

from discotest.lang.morph.it import APERTIUM_DIR

if shutil.which("lt-proc") is None or not (APERTIUM_DIR / "ita-spa.automorf.bin").is_file():
    pytest.skip("Apertium (apt-get install apertium-spa-ita) is not installed", allow_module_level=True)

from discotest.lang.morph.base import Gender, TargetEntity  # noqa: E402
from discotest.lang.morph.it import ItalianAnalyser  # noqa: E402
from tests.support.morph_cases import completed, marked  # noqa: E402

M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # epicene nouns: the article decides
    ("La docente ha parlato con il medico.", "docente", F),  # la docente
    ("Il docente ha parlato con il medico.", "docente", M),  # il docente
    ("Un'assistente ha chiamato.", "assistente", F),  # un' (elided una) is feminine
    ("Un assistente ha chiamato.", "assistente", M),  # un (uno) is masculine
    ("Ho parlato con lo psicologo.", "psicologo", M),  # lo + masculine -o form
    # elided article: agreement decides, or nothing does
    ("L'insegnante è arrivata tardi.", "insegnante", F),  # participle arrivata (essere) agrees
    ("L'insegnante era stanco.", "insegnante", M),  # predicative adjective stanco
    ("L'insegnante ha parlato con il medico.", "insegnante", U),  # ha parlato (avere) does not agree
    ("L'autista che era stanca è partita.", "autista", F),  # relative clause with essere
    ("Il capo ha parlato all'assistente.", "assistente", U),  # all' = a + l': no gender
    ("La governante è stata pagata dall'analista.", "governante", F),  # article la; stata pagata agree
    # noun forms (Apertium does not know avvocata; the lexicon does)
    ("Il giudice ha chiamato l'avvocata.", "avvocata", F),
    ("L'infermiere è arrivato.", "infermiere", M),  # infermiere is the masculine form
    ("L'infermiera è arrivata.", "infermiera", F),
    ("La guardia ha fermato il ladro.", "guardia", F),  # guardia is a feminine noun
    ("L'amministratore delegato ha parlato.", "amministratore delegato", M),
    # the span may include the article or a stray word, or be empty
    ("Il medico ha parlato.", "Il medico", M),
    ("Il medico ha parlato.", "medico ha", M),
    ("Il medico ha parlato.", "", U),
    # someone
    ("Il medico ha avvertito qualcuno.", "qualcuno", M),  # indefinite pronoun: generic masculine
    # words the lexicon does not know: article, ending, Apertium
    ("Il collega ha parlato.", "collega", M),  # -a ending but the article il decides
    ("La zorglubista ha parlato.", "zorglubista", F),  # unknown word, feminine article
    # adjectives between the article and the noun (issue 51): the walk crosses them, the article decides
    ("La simpatica giornalista ha parlato.", "giornalista", F),
    ("Il simpatico giornalista ha parlato.", "giornalista", M),
    ("La gentile giornalista ha parlato.", "giornalista", F),  # invariable adjective
    ("Il timido e gentile collega ha parlato.", "collega", M),  # two adjectives joined by e
    ("La graziosa operaio edile ha parlato.", "operaio edile", F),  # graziosa: not in Apertium's dictionary
    ("L'amabile giornalista ha parlato.", "giornalista", U),  # elided article, invariable adjective: nothing
    ("Ogni timida giornalista ha parlato.", "giornalista", F),  # ogni shows no gender: the adjective's ending does
    ("Il direttore ha dato le mance bell'assistente.", "assistente", U),  # le is plural: mance's article, not its
]


@pytest.fixture(scope="module")
def readings():
    analyser = ItalianAnalyser()
    items = [_entity(sentence, words) for sentence, words, _ in CASES]
    return analyser.read(items)


def _entity(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "it")


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
    assert ItalianAnalyser().version().startswith("apertium")


# issue 25: an epicene noun after an elided article, nothing agreeing with it; the words that render the English
# sentence's pronoun decide (real outputs: aws #3026, google #1717 and #331, google #15)
SILENT = [
    ("The salesperson talked to the teacher and invited her to dinner.", 5, "teacher",
     "Il venditore ha parlato con l'insegnante e l'ha invitata a cena.", "l' ha invitata", F, "invitata"),
    ("The construction worker stared at the teacher because she entered the construction zone.", 6, "teacher",
     "Il muratore fissò l'insegnante perché era entrata nella zona di costruzione.", "", F, "entrata"),
    ("The sheriff trusts the assistant because he was always honest.", 4, "assistant",
     "Lo sceriffo si fida dell'assistente perché è sempre stato onesto.", "", M, "stato"),
    ("The cook prepared a dish for the teacher because he is hungry.", 7, "teacher",
     "Il cuoco ha preparato un piatto per l'insegnante perché ha fame.", "", U, None),
]


@pytest.mark.parametrize("case", SILENT, ids=[c[3][:30] for c in SILENT])
def test_silent_noun_completed_by_its_pronoun(case):
    english, at, entity, sentence, pronoun, expected, word = case
    words = "insegnante" if entity == "teacher" else "assistente"
    got = completed(ItalianAnalyser(), english, at, entity, sentence, words, pronoun, "it")
    assert got.gender is expected, got.reason
    if word:
        assert "the entity's pronoun decides" in got.reason and word in got.reason and word in got.evidence
    else:
        assert got.reason.endswith("no agreeing word")


def test_two_english_pronouns_leave_a_silent_noun_open():
    """With "he … his" the gold gender would pick the pronoun (``find_pronouns``): no completion."""
    got = completed(ItalianAnalyser(), "The cook prepared a dish for the teacher because he liked his class.", 7,
                    "teacher", "Il cuoco ha preparato un piatto per l'insegnante perché lui amava la sua classe.",
                    "insegnante", "lui", "it")
    assert got.gender is U and got.reason.endswith("no agreeing word")
