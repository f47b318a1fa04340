"""Hebrew gender analyser (hspell + entity lexicon): what only Hebrew does (hspell missing or parsed, a silent noun
completed by its pronoun); the harness (``tests/lang/test_morph_readings.py``, cases in
``tests/lang/morph_cases/he.py``) reads its tricky cases, empty span, version and reason. Needs the hspell binary
(Debian package), not ../shared/data.
"""

from __future__ import annotations

import shutil

import pytest

from discotest.errors import InputError
from discotest.lang.morph.base import Gender, TargetEntity
from tests.support.morph_cases import completed, marked  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("hspell") is None, reason="hspell is not installed")

M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN


@pytest.fixture(scope="module")
def analyser():
    from discotest.lang.morph.he import HebrewAnalyser

    return HebrewAnalyser()


def _item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "he")


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


# issue 25: homographs (מורה, ממונה) with nothing agreeing; the words that render the English pronoun decide
# (google #15, #151)
@pytest.mark.parametrize("english, at, entity, sentence, words, pronoun, expected, word", [
    ("The cook prepared a dish for the teacher because he is hungry.", 7, "teacher",
     "הטבח הכין מנה למורה כי הוא רעב.", "למורה", "הוא", M, "הוא"),
    ("The clerk misled the supervisor so she got confused.", 4, "supervisor",
     "הפקידה הטעתה את הממונה כך שהתבלבלה.", "הממונה", "שהתבלבלה", F, "שהתבלבלה"),
])
def test_silent_noun_completed_by_its_pronoun(analyser, english, at, entity, sentence, words, pronoun, expected, word):
    got = completed(analyser, english, at, entity, sentence, words, pronoun, "he")
    assert got.gender is expected, got.reason
    assert "the entity's pronoun decides" in got.reason and word in got.reason and word in got.evidence
