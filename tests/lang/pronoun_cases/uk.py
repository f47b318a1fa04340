"""Hand-written traps for the Ukrainian pronoun reading (target-side consistency); no shared data needed.

Each case: the translation, the words aligned to the English pronoun ("" = nothing aligned), the English
pronoun and its role, and the expected (gender, omitted). The gender is the one the *translation* shows,
never the English pronoun's.

The harness (each case read alone, and all in one batch in order) is ``tests/lang/test_pronoun_readings.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ("pymorphy3",)  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH


def analyser():
    from discotest.lang.morph import load_analyser

    return load_analyser("uk")


M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # the target's gender, not the English one: «він» written for "she"
    ("Лікар сказала, що він втомився.", "він", "she", "subject", M, None),
    # «вона» parses first as a noun in pymorphy's dictionary; the pronoun reading wins
    ("Механік попросив, тому що вона запитала.", "вона", "she", "subject", F, None),
    # oblique feminine n-form after a preposition
    ("Генеральний директор купував хліб від неї.", "неї", "her", "object", F, None),
    # «його» possessive shows the possessor (masculine), not «зачіску» (feminine)
    ("Охоронець злий, бо його зачіску зіпсували.", "його", "his", "possessive", M, None),
    # «її» possessive before a masculine noun: the possessor is feminine
    ("Директор довіряв її досвіду.", "її", "her", "possessive", F, None),
    # reflexive possessive «свій» (masculine, agreeing with «стіл»): the possessor's gender is not shown
    ("Двигун переніс свій стіл.", "свій", "her", "possessive", U, "possessive-agrees-with-possessed"),
    # declinable plural possessive «їхню»: no gender
    ("Педагог обговорив їхню політику.", "їхню", "their", "possessive", U, "neutral-form"),
    # dropped subject, past tense: «знайшов» is masculine
    ("Менеджер звільнив бібліотекаря, оскільки знайшов кращого кандидата.", "знайшов", "he", "subject", M, None),
    # conjunction aligned, dropped subject: the past verb of the clause decides
    ("Лікар оглянув бібліотекаря, тому що мала обладнання.", "що", "she", "subject", F, None),
    # dropped subject, present tense: nothing shows gender
    ("Бібліотекарка допомогла, бо не знаю, що читати.", "знаю", "he", "subject", U, "pronoun-dropped"),
    # impersonal neuter «не вдалося» 'did not manage': the subject is gone, not rendered neutrally
    ("Продавець розсердився, тому що не вдалося продати страхування.", "що", "he", "subject", U,
     "pronoun-dropped"),
    # «їм» for "them" is the dative plural (it is also masculine instrumental singular)
    ("Художник продав картини, бо їм довелося закрити галерею.", "їм", "they", "subject", U, "neutral-form"),
    # «ним» is only masculine/neuter singular in Ukrainian (the plural is «ними»)
    ("Бухгалтер ніколи не говорив з ним.", "ним", "him", "object", M, None),
    # plural «вони» for singular "they"
    ("Адвокат допитав когось, поки вони не зламалися.", "вони", "they", "subject", U, "neutral-form"),
    # "herself" as the intensifier «сама»
    ("Водійка сама полагодила машину.", "сама", "herself", "reflexive", F, None),
    # reflexive «себе» has no gender form
    ("Юрист звинувачував себе.", "себе", "himself", "reflexive", U, "neutral-form"),
    # «це» stands for the pronoun
    ("Фермер дав яблука, бо їй це сподобається.", "це", "it", "subject", U, "neutral-form"),
    # nothing aligned, no pronoun in the sentence: the object was dropped
    ("Генеральний директор отримав товар, а потім заплатив.", "", "her", "object", U, "pronoun-dropped"),
    # nothing aligned, but the only oblique pronoun form is there
    ("Лікар оглянув пекаря і прописав їй ліки.", "", "her", "object", F, None),
    # a comma aligned and no pronoun anywhere: dropped
    ("Лікар пішов до письменника і запитав, як писати книги.", ",", "him", "object", U, "pronoun-dropped"),
]
