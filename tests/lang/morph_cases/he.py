"""Hebrew gender analyser (hspell + entity lexicon) on hand-written tricky cases.

Each case: a sentence, the words the aligner gave for the entity, the expected grammatical gender
and why. Needs the hspell binary (Debian package), not ../shared/data.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason) is
``tests/lang/test_morph_readings.py``; what only this language does stays in ``tests/lang/test_morph_he.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender
from tests.support.morph_cases import DECIDES

REQUIRES = ()  # modules the analyser needs (without them the language is skipped)
BINARY = 'hspell'  # a program it needs on the PATH
VERSION = ('hspell-1.',)  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph.he import HebrewAnalyser

    return HebrewAnalyser()


M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

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

EMPTY = "הרופאה בדקה את החולה."  # a sentence read with nothing aligned to the entity
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = ("המורה אמרה לתלמיד שהוא צודק.", "המורה", F, "אמרה", ("המורה", "אמרה"))

# issue 25: a silent noun (nothing in the translation shows its gender) completed by the words that render the English
# sentence's pronoun (``complete_silent``): (English sentence, the entity's word index in it, the entity, the
# translation, the entity's words, the pronoun's words ("" = dropped), the gender, what the reason names, what the
# evidence holds, how the reason ends or None); read by the harness's ``test_silent_noun_completed_by_its_pronoun``
SILENT = [
    # homographs (מורה, ממונה) with nothing agreeing; the words that render the English pronoun decide (google #15,
    # #151)
    ("The cook prepared a dish for the teacher because he is hungry.", 7, "teacher",
     "הטבח הכין מנה למורה כי הוא רעב.", "למורה", "הוא", M, (DECIDES, "הוא"), ("הוא",), None),
    ("The clerk misled the supervisor so she got confused.", 4, "supervisor",
     "הפקידה הטעתה את הממונה כך שהתבלבלה.", "הממונה", "שהתבלבלה", F, (DECIDES, "שהתבלבלה"), ("שהתבלבלה",), None),
]
