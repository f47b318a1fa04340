"""Hand-written traps for the Russian analyser (natasha + pymorphy3); no shared data needed.

Each case: the translation, the words aligned to the entity, the gender the *translation* gives
the entity, and why.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason) is
``tests/lang/test_morph_readings.py``; what only this language does stays in ``tests/lang/test_morph_ru.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ('natasha', 'pymorphy3')  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH
VERSION = ('natasha-', 'pymorphy3-')  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph import load_analyser

    return load_analyser("ru")


M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # masculine-form profession noun used for a woman: only the past-tense verb shows it
    ("Врач сказала пациенту, что всё в порядке.", "Врач", F),
    # the same noun with masculine agreement
    ("Врач сказал пациенту, что всё в порядке.", "Врач", M),
    # agreement across an oblique phrase between subject and verb
    ("Водитель из соседнего города остановилась у магазина.", "Водитель", F),
    # verb-subject order: the parse still finds the subject
    ("Вчера в офис пришла новый бухгалтер.", "бухгалтер", F),
    # «главная бухгалтер»: a feminine adjective on a masculine-form noun
    ("Мы поговорили с главной бухгалтером о налогах.", "главной бухгалтером", F),
    # common-gender noun: the relative pronoun and the verb decide
    ("Судья, которая вынесла приговор, ушла домой.", "Судья", F),
    # common-gender noun with masculine agreement
    ("Судья вынес приговор и ушёл.", "Судья", M),
    # common-gender noun with nothing agreeing: the translation does not show the gender
    ("Адвокат долго спорил с судьёй.", "судьёй", U),
    # feminine suffix -щица, and a feminine noun in the instrumental case
    ("Продавщица улыбнулась покупателю.", "Продавщица", F),
    ("Механик поговорил с медсестрой.", "медсестрой", F),
    # oblique masculine noun; «она» and «заболела» belong to another clause, not to the entity
    ("Пациентка позвонила врачу, потому что она заболела.", "врачу", M),
    # «которая» agrees with «петицию», not with the genitive «фермера»
    ("Секретарь забрал петицию фермера, которая была очень важна.", "фермера", M),
    # the nurse's verb after «и» is not the driver's: «хромает» carries no gender
    ("Медсестра заметила, что водитель хромает, и осмотрела его.", "водитель", M),
    # indefinite pronoun: no gender of its own, masculine agreement is only the default
    ("Кто-то позвонил в дверь.", "Кто-то", M),
    # ... unless the agreement is feminine
    ("Кто-то из гостей сказала, что устала.", "Кто-то", F),
    # a neuter epicene rendering of "attendant"
    ("Сопровождающее лицо опоздало на поезд.", "Сопровождающее лицо", N),
    # plural entity: Russian has no gender in the plural
    ("Врачи пришли вовремя.", "Врачи", U),
    # untranslated English word: the verb decides
    ("Paralegal забыла подать документы.", "Paralegal", F),
    # untranslated word with no agreeing word
    ("Юрист позвонил paralegal вчера.", "paralegal", U),
    # span with stray words (punctuation, conjunction) before the noun
    ("Пассажир вышел, и водитель уехала домой.", ", и водитель", F),
    # span holding only a verb: no noun to read
    ("Врач сказала пациенту правду.", "сказала", U),
    # empty span
    ("Врач сказала пациенту правду.", "", U),
    # a mistranslation is read for the gender it has: «двигатель» (engine) is masculine
    ("Двигатель отказался подчиняться дизайнеру.", "Двигатель", M),
    # a declined foreign surname is masculine (a woman's would not decline) ...
    ("Менеджер уволил Бейкера вчера.", "Бейкера", M),
    # ... but its nominative with no agreement does not show the gender
    ("Продавец сказал Бейкер правду.", "Бейкер", U),
    # a feminine person noun keeps its gender in the plural; a masculine plural is also the mixed form; a feminine
    # plural that names no person shows nothing of one
    ("Мы все очень хорошие спортсменки.", "спортсменки", F),
    ("Мы все очень хорошие спортсмены.", "спортсмены", U),
    ("Сейчас мы получаем лицензии.", "лицензии", U),
]

EMPTY = "Врач пришла."  # a sentence read with nothing aligned to the entity
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = ("Врач сказала пациенту правду.", "Врач", F, "сказала", ("Врач", "сказала"))
