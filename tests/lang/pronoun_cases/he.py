"""Hebrew pronoun reading (target-side consistency) on hand-written tricky cases.

Each case: a translation, the words the aligner gave for the English pronoun, the English pronoun's
role, and the expected (gender, omitted). The gender is the one the *Hebrew* shows, never the English
pronoun's. Needs the hspell binary, not ../shared/data.

The harness (each case read alone, and all in one batch in order) is ``tests/lang/test_pronoun_readings.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ()  # modules the analyser needs (without them the language is skipped)
BINARY = "hspell"  # a program it needs on the PATH


def analyser():
    from discotest.lang.morph.he import HebrewAnalyser

    return HebrewAnalyser()


M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # she-hu: the pronoun hu with the complementiser ש glued on; masculine whatever English said
    ("המזכירה אמרה לנהג שהוא צודק.", "שהוא", "she", "subject", M, None),
    # ve-hen: feminine plural pronoun (a gendered plural, not a neutral form)
    ("הנהג ראה את המורות והן שמחו.", "והן", "they", "subject", F, None),
    # hem for "they": masculine plural, labelled masculine
    ("הלקוחות צעקו כי הם רצו הנחה.", "הם", "they", "subject", M, None),
    # ota "her" (accusative); hspell also reads it as ot+a "her letter": the closed list decides
    ("המנהל פגש את המנקה ושאל אותה שאלה.", "אותה", "her", "object", F, None),
    # ki haya lo "because he had" (there was to him): the dative lo renders the subject "he"
    ("הטבח ביקש עזרה כי היה לו קשה.", "לו", "he", "subject", M, None),
    # shelahem "their": masculine plural possessive
    ("בעל הבית תיקן את הצינורות שלהם.", "שלהם", "their", "possessive", M, None),
    # avodata "her work": the 3sg feminine suffix on the noun carries the possessor's gender
    ("הנהג שיבח את הספרנית על עבודתה.", "עבודתה", "her", "possessive", F, None),
    # panav "his face" rendering "him" (slapped him → slapped his face): masculine suffix
    ("היזם התווכח עם המעצב וטפח על פניו.", "פניו", "him", "object", M, None),
    # bishvila "for her": a preposition with the feminine suffix
    ("הסופר חתם חתימה בשבילה.", "בשבילה", "her", "object", F, None),
    # dropped subject, past 3sg fem she-sham'a "that (she) heard"
    ("העוזר צחק על השרת משום ששמעה את הבדיחה.", "ששמעה", "she", "subject", F, None),
    # the defective spelling hayta (hspell rejects it) of the copula "was", feminine
    ("הפועלת רצתה את עבודתה משום שלא היתה מוכשרת.", "היתה", "she", "subject", F, None),
    # future ת־ is 3sg fem or 2sg masc; the subject is 3rd person, so feminine
    ("הלקוח כעס על המוכרת כי תעבוד מחר.", "תעבוד", "she", "subject", F, None),
    # the aligner gave only the conjunction ki; the predicate to its right (participle mevina) decides
    ("המנהל שיבח את המזכירה כי מבינה את העבודה.", "כי", "she", "subject", F, None),
    # past 3pl avdu is common gender: "they worked" shows none
    ("המנהל פגש את המורה כי עבדו יחד.", "עבדו", "they", "subject", U, "neutral-form"),
    # an object aligned to a verb with no object suffix: the verb's own subject is not the pronoun
    ("הנהג ראה את המורה וחייך.", "וחייך", "her", "object", U, "no-target-words"),
    # be-atsma "by herself": the reflexive with ב+
    ("המורה עשתה את זה בעצמה.", "בעצמה", "herself", "reflexive", F, None),
    # nothing aligned and no pronoun anywhere: "her" was left out (the ru/uk convention: dropped)
    ("הטבח הכין מנה למעצבת ולמשוב.", "", "her", "object", U, "pronoun-dropped"),
    # nothing aligned but the sentence's only pronoun form is la "(to) her": the aligner missed it
    ("הטבח הכין מנה למעצבת ונתן לה.", "", "her", "object", F, None),
    # nothing aligned: the subject pronoun hu does not count for an object, the dative la does
    ("הוא אמר למעצבת שהכין לה מנה.", "", "her", "object", F, None),
    # object forms of both genders (lo, ota) and nothing aligned: cannot tell which renders the pronoun
    ("הטבח נתן לו מנה ושאל אותה.", "", "her", "object", U, "no-target-words"),
    # nothing aligned, no pronoun form: lesipuro "to his story" carries the suffix in every reading
    ("השומר היה סבלני עם השרת והקשיב לסיפורו.", "", "his", "possessive", M, None),
    # nothing aligned for a dropped subject: the verb opening the last clause, mishum she-azar "because
    # (he) helped"
    ("המכונאי קיבל מתנה מהאופה משום שעזר בתיקון התנור.", "", "he", "subject", M, None),
    # the aligner gave ki; hayu la "she had" (lit. there were to her): the dative la, not the plural
    # verb hayu that agrees with the thing possessed
    ("האיכר הציע תפוחים לסוכנת, כי היו לה יותר מדי.", "כי", "she", "subject", F, None),
]
