"""Hand-written traps for the Ukrainian analyser (pymorphy3 + agreement by position); no shared data needed.

Each case: the translation, the words aligned to the entity, the gender the *translation* gives
the entity, and why.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason) is
``tests/lang/test_morph_readings.py``; what only this language does stays in ``tests/lang/test_morph_uk.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ('pymorphy3',)  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH
VERSION = ('pymorphy3-', 'pymorphy3-dicts-uk-')  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph import load_analyser

    return load_analyser("uk")


M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # masculine-form noun used for a woman: the past-tense verb shows it
    ("Лікар сказала медсестрі, що вона зайнята.", "Лікар", F),
    # the same noun with masculine agreement
    ("Лікар сказав медсестрі, що він зайнятий.", "Лікар", M),
    # «вона» is a pronoun (pymorphy's top parse is a noun): it must not be taken for a new subject's noun
    # and must not disturb the object «лікаря», which stays masculine
    ("Вона побачила лікаря в коридорі.", "лікаря", M),
    # negation and an adverb between subject and verb
    ("Водій сьогодні не прийшла на роботу.", "Водій", F),
    # feminine suffixes: -ка, -иня, and a feminine noun in the instrumental
    ("Лікарка прийшла вчасно.", "Лікарка", F),
    ("Продавчиня посміхнулася покупцеві.", "Продавчиня", F),
    ("Механік розмовляв з медсестрою.", "медсестрою", F),
    # a feminine adjective in the noun's case on a masculine-form noun
    ("Ми говорили з головною бухгалтером про податки.", "головною бухгалтером", F),
    # adjective in another case than the noun (MT error): the noun's own gender stands
    ("Перукар зупинився перед будівельну працівником.", "будівельну працівником", M),
    # common-gender noun: the relative pronoun decides (pymorphy's top parse of «яка» is a noun)
    ("Суддя, яка винесла вирок, пішла додому.", "Суддя", F),
    # common-gender noun without agreement: not shown
    ("Адвокат довго сперечався з суддею.", "суддею", U),
    # «яка» agrees with «петицію», not with the genitive «фермера»
    ("Секретар забрав петицію фермера, яка була дуже важлива.", "фермера", M),
    # indefinite pronoun «хтось» and its case forms: no gender of their own
    ("Хтось подзвонив у двері.", "Хтось", M),
    ("Машиніст дав комусь демонстрацію.", "комусь", M),
    ("Педагог зустрівся з кимось.", "кимось", M),
    # plural: «лікарі» could be a locative singular, the plural verb settles it
    ("Лікарі прийшли вчасно.", "Лікарі", U),
    # untranslated English word: the verb decides, or nothing does
    ("Salesperson намагалася обдурити письменника.", "Salesperson", F),
    ("Salesperson намагався обдурити письменника.", "Salesperson", M),
    ("Дизайнер хотів вразити salesperson.", "salesperson", U),
    # a feminine collective noun rendering "guard"
    ("Охорона не пустила відвідувача.", "Охорона", F),
    # a comparative adverb («cleaner» → «чистіше») names no one
    ("Розробник ненавидів чистіше і повідомив менеджеру.", "чистіше", U),
    # span with a stray conjunction before the noun
    ("Пацієнт вийшов, і лікар пішла додому.", "і лікар", F),
    # empty span
    ("Лікар пішла додому.", "", U),
    # a declined transliterated surname is masculine; the bare nominative shows nothing
    ("Менеджер звільнив Карпентера вчора.", "Карпентера", M),
    ("Перукар називається Карпентер.", "Карпентер", U),
]

EMPTY = "Лікар пішла."  # a sentence read with nothing aligned to the entity
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = None
