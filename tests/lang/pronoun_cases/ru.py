"""Hand-written traps for the Russian pronoun reading (target-side consistency); no shared data needed.

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

    return load_analyser("ru")


M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # the target's gender, not the English one: Google wrote «он» for "she"
    ("Врач сказала, что он устал.", "он", "she", "subject", M, None),
    # oblique feminine forms after a preposition (n- forms)
    ("Писатель купил фрукты у нее.", "нее", "her", "object", F, None),
    # «его» possessive shows the possessor (masculine), it does not agree with «идея» (feminine)
    ("Потому что его идея не может быть реализована.", "его", "his", "possessive", M, None),
    # «её» possessive with ё before a masculine noun: the possessor is feminine
    ("Директор доверял её опыту.", "её", "her", "possessive", F, None),
    # reflexive possessive agrees with the possessed noun: the possessor's gender is not shown
    ("Клерк пытался скрыть свою ошибку.", "свою", "his", "possessive", U, "possessive-agrees-with-possessed"),
    # dropped subject, past tense: «сказала» shows a woman
    ("Бухгалтер ушла, потому что сказала правду.", "сказала", "she", "subject", F, None),
    # dropped subject, short adjective: «должна» is feminine
    ("Секретарь осталась, потому что должна закончить отчет.", "должна", "she", "subject", F, None),
    # dropped subject, present tense: no gender anywhere
    ("Разработчик создал сайт, потому что хочет продавать одежду.", "хочет", "he", "subject", U,
     "pronoun-dropped"),
    # the aligner took the conjunction: the pronoun right after it decides
    ("Менеджер уволил уборщика, потому что она слишком ленива.", "что", "she", "subject", F, None),
    # conjunction aligned, pronoun dropped, past verb in the clause
    ("Менеджер уволил библиотекаря, потому что нашел лучшего кандидата.", "что", "he", "subject", M, None),
    # «у него»: the preposition aligned, the genitive pronoun follows
    ("Повар позвал дежурного, потому что у него отличный вкус.", "у", "he", "subject", M, None),
    # plural «они» for singular "they": no gender
    ("Адвокат допросил кого-то, пока они не сломались.", "они", "they", "subject", U, "neutral-form"),
    # «к ним» after a dative preposition is plural even though «ним» is also masculine singular
    ("Клерк предоставил документы, чтобы он вернулся к ним.", "ним", "him", "object", U, "neutral-form"),
    # «с ним» for "him": masculine singular instrumental
    ("Учитель начал с ним разговор.", "ним", "him", "object", M, None),
    # «это» stands for the pronoun: a neutral form
    ("Это было сложно для всех.", "Это", "he", "subject", U, "neutral-form"),
    # "herself" as the intensifier «сама»: feminine
    ("Водитель сама починила машину.", "сама", "herself", "reflexive", F, None),
    # reflexive «себя» has no gender form
    ("Юрист винил себя за ошибку.", "себя", "himself", "reflexive", U, "neutral-form"),
    # nothing aligned and no pronoun in the sentence: the object was dropped
    ("Генеральный директор получил товар и заплатил.", "", "her", "object", U, "pronoun-dropped"),
    # nothing aligned, but the only oblique pronoun form is there: the aligner missed «ей»
    ("Врач осмотрел пекаря и прописал ей лекарство.", "", "her", "object", F, None),
    # nothing aligned, and the sentence's pronoun is a subject form that cannot render "his"
    ("Электрик предупредил кого-то, чтобы он не пытался.", "", "his", "possessive", U, "no-target-words"),
    # a plural past verb carries no gender
    ("Они ушли, потому что устали.", "устали", "she", "subject", U, "neutral-form"),
]
