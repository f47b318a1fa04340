"""Hebrew gender analyser (hspell + entity lexicon) on hand-written tricky cases.

Each case: a sentence, the words the aligner gave for the entity, the expected grammatical gender
and why. Needs the hspell binary (Debian package), not ../shared/data.
"""

from __future__ import annotations

import shutil

import pytest

from discotest.errors import InputError
from discotest.lang.morph.base import Gender, TargetEntity
from discotest.lang.tokenize import tokenize
from tests.support.morph_cases import completed, marked  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("hspell") is None, reason="hspell is not installed")

M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # feminine ending ־ה on the noun itself: ha-rofa "the (female) doctor"
    ("הרופאה בדקה את החולה.", "הרופאה", F),
    # the same noun without the ending: ha-rofe, masculine
    ("הרופא בדק את החולה.", "הרופא", M),
    # מורה is more (m.) or mora (f.) unvocalised; the subject's verb אמרה (past 3sg fem ־ה) decides,
    # and the later pronoun הוא (coreference, not agreement) is ignored
    ("המורה אמרה לתלמיד שהוא צודק.", "המורה", F),
    # same spelling, masculine verb אמר
    ("המורה אמר לתלמידה שהיא צודקת.", "המורה", M),
    # ambiguous spelling with a glued preposition ל+ (not the subject) and only a coreferent pronoun
    # later: nothing agrees with it, so the analyser must not guess
    ("המנהל נתן למורה מתנה כי היא עבדה קשה.", "למורה", U),
    # an ambiguous object decided by its attributive adjective (definite like the noun): ha-mora ha-hadasha
    ("הנהג פגש את המורה החדשה.", "המורה", F),
    # נתנה is "she gave" (past 3sg fem) or "he gave her" (with an object suffix): the plain reading wins
    ("המנקה נתנה לשומר מפתח.", "המנקה", F),
    # verb-subject order after כש+: kshe-higia ha-menaka "when the cleaner (f.) arrived"
    ("כשהגיעה המנקה, השומר פתח את הדלת.", "המנקה", F),
    # construct state: the first word carries the gender (ovedet ha-binyan / oved ha-binyan)
    ("עובדת הבניין ביקשה עזרה.", "עובדת הבניין", F),
    ("עובד הבניין ביקש עזרה.", "עובד הבניין", M),
    # the aligner marked only the construct complement ha-kabala "the reception": the head is pkidat (f.)
    ("השריף עזר לפקידת הקבלה.", "הקבלה", F),
    # a stray verb in the span: the noun ha-shoteret decides, not the verb
    ("אחר כך אמרה השוטרת לנהג לעצור.", "אמרה השוטרת", F),
    # ־ה-final but masculine: ro'e ha-heshbon (fem. is the construct ro'at)
    ("רואה החשבון בדק את הדוחות.", "רואה החשבון", M),
    # ־ת-final but masculine: ha-sharat "the janitor" (hspell also offers a feminine construct reading)
    ("השרת ניקה את החדר.", "השרת", M),
    # the abbreviation מנכ"ל written with a space after the gershayim and cut by the tokeniser; the
    # aligner gave only the tail "ל"
    ('המנכ" ל פגש את הנהג.', "ל", M),
    # a loanword hspell does not know: no feminine ending -> masculine; ־ית -> feminine
    ("הפודקאסטר הקליט פרק.", "הפודקאסטר", M),
    ("הפודקאסטרית הקליטה פרק.", "הפודקאסטרית", F),
    # plural entities: ha-rofot (fem. plural), ha-po'alim (masc. plural)
    ("הרופאות הגיעו.", "הרופאות", F),
    ("הפועלים הגיעו.", "הפועלים", M),
    # only a pronoun aligned (closed list; hspell just says "function word")
    ("המנהל דיבר איתה כי היא איחרה.", "היא", F),
    # an ambiguous noun with no agreeing word at all
    ("השומר ראה את המנקה אתמול.", "המנקה", U),
]


@pytest.fixture(scope="module")
def analyser():
    from discotest.lang.morph.he import HebrewAnalyser

    return HebrewAnalyser()


def _item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "he")


def test_tricky_cases(analyser):
    items = [_item(sentence, words) for sentence, words, _ in CASES]
    readings = analyser.read(items)  # one batch: one hspell subprocess
    wrong = [(s, w, g.value, r.gender.value, r.reason) for (s, w, g), r in zip(CASES, readings) if r.gender != g]
    assert not wrong, wrong
    assert all(r.reason for r in readings)


def test_empty_span(analyser):
    sentence = "הרופאה בדקה את החולה."
    reading = analyser.read([TargetEntity(sentence, tokenize(sentence, "he"), ())])[0]
    assert reading.gender == U
    assert reading.reason == "no target words aligned to the entity"


def test_reason_and_evidence(analyser):
    reading = analyser.read([_item("המורה אמרה לתלמיד שהוא צודק.", "המורה")])[0]
    assert "אמרה" in reading.reason and reading.evidence == ("המורה", "אמרה")


def test_version(analyser):
    assert analyser.version().startswith("hspell-1.")


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
