"""Italian gender analyser: what only Italian does (a silent noun left open by two English pronouns; no
../shared/data needed); the harness (``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/it.py``)
reads its tricky cases, empty span, version and silent nouns completed by their pronoun.
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

U = Gender.UNKNOWN


def test_two_english_pronouns_leave_a_silent_noun_open():
    """With "he … his" the gold gender would pick the pronoun (``find_pronouns``): no completion."""
    got = completed(ItalianAnalyser(), "The cook prepared a dish for the teacher because he liked his class.", 7,
                    "teacher", "Il cuoco ha preparato un piatto per l'insegnante perché lui amava la sua classe.",
                    "insegnante", "lui", "it")
    assert got.gender is U and got.reason.endswith("no agreeing word")
