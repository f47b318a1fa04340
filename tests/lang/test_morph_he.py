"""Hebrew gender analyser (hspell + entity lexicon): what only Hebrew does (hspell missing or parsed); the harness
(``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/he.py``) reads its tricky cases, empty span,
version, reason and silent nouns completed by their pronoun. Needs the hspell binary (Debian package), not
../shared/data.
"""

from __future__ import annotations

import shutil

import pytest

from discotest.errors import InputError
from discotest.lang.morph.base import Gender

pytestmark = pytest.mark.skipif(shutil.which("hspell") is None, reason="hspell is not installed")

M, F = Gender.MALE, Gender.FEMALE


def test_missing_binary(monkeypatch):
    from discotest.lang.morph import he

    monkeypatch.setattr(he, "program", lambda name: None)
    with pytest.raises(InputError, match="apt-get install hspell"):
        he.HebrewAnalyser()


def test_parse_hspell_output():
    from discotest.lang.morph.he import parse_hspell

    out = (
        "צירוף חוקי: ה+רופאה\n\tרופאה(ע,נ,יחיד)\n"
        "מילה חוקית: אמר\n\tאמר(פ,ז,3,יחיד,עבר)\n"
        "שגיאות כתיב שנמצאו:\n\nגרפינקל\n"
    )
    parsed = parse_hspell(out)
    assert parsed["הרופאה"][0].gender == F and parsed["הרופאה"][0].prefix == "ה"
    assert parsed["אמר"][0].finite_3rd and parsed["אמר"][0].gender == M
    assert "גרפינקל" not in parsed
