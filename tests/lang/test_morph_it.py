"""Italian gender analyser: what only Italian does (a silent noun completed by its pronoun; no ../shared/data
needed); the harness (``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/it.py``) reads its
tricky cases, empty span and version.
"""

from __future__ import annotations

import shutil

import pytest

from discotest.lang.morph.it import APERTIUM_DIR

if shutil.which("lt-proc") is None or not (APERTIUM_DIR / "ita-spa.automorf.bin").is_file():
    pytest.skip("Apertium (apt-get install apertium-spa-ita) is not installed", allow_module_level=True)

from discotest.lang.morph.base import Gender  # noqa: E402
from discotest.lang.morph.it import ItalianAnalyser  # noqa: E402
from tests.support.morph_cases import completed  # noqa: E402

M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN


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
