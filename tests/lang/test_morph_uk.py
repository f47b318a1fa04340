"""The Ukrainian analyser (pymorphy3 + agreement by position): what only Ukrainian does; the harness
(``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/uk.py``) reads its traps, empty span and
version. No shared data needed.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import TargetEntity  # noqa: E402
from tests.support.morph_cases import marked  # noqa: E402


def item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "uk")


@pytest.fixture(scope="module")
def analyser():
    return load_analyser("uk")


def test_pronoun_reading_preferred(analyser):
    """pymorphy's first parse of «вона» is a noun (genitive of «вон»); the analyser keeps only the pronoun."""
    readings = analyser.morph.readings("вона")
    assert readings and all(r.pos == "PRON" for r in readings)
