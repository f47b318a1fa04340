"""Arabic gender analyser (farahidi + entity lexicon): what only Arabic does (a span without a noun); the harness
(``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/ar.py``) reads its tricky cases, empty
span, version and reason. Needs the farahidi wheel, not ../shared/data.
"""

from __future__ import annotations

import pytest

from discotest.lang.morph.base import Gender, TargetEntity
from tests.support.morph_cases import marked  # noqa: E402

pytest.importorskip("farahidi")

U = Gender.UNKNOWN


@pytest.fixture(scope="module")
def analyser():
    from discotest.lang.morph.ar import ArabicAnalyser

    return ArabicAnalyser()


def _item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "ar")


def test_no_noun_in_span(analyser):
    sentence = "قالت الممرضة إن المريض بخير."
    reading = analyser.read([_item(sentence, "إن")])[0]
    assert reading.gender == U and "no noun" in reading.reason
