"""Hand-written traps for the Ukrainian analyser (pymorphy3 + agreement by position); no shared data needed.

Each case: the translation, the words aligned to the entity, the gender the *translation* gives
the entity, and why.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import Gender, TargetEntity  # noqa: E402
from tests.support.morph_cases import marked  # noqa: E402


def item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "uk")


CASES = [
    # masculine-form noun used for a woman: the past-tense verb shows it
    ("Лікар сказала медсестрі, що вона зайнята.", "Лікар", Gender.FEMALE),
    # the same noun with masculine agreement
    ("Лікар сказав медсестрі, що він зайнятий.", "Лікар", Gender.MALE),
    # «вона» is a pronoun (pymorphy's top parse is a noun): it must not be taken for a new subject's noun
    # and must not disturb the object «лікаря», which stays masculine
    ("Вона побачила лікаря в коридорі.", "лікаря", Gender.MALE),
    # negation and an adverb between subject and verb
    ("Водій сьогодні не прийшла на роботу.", "Водій", Gender.FEMALE),
    # feminine suffixes: -ка, -иня, and a feminine noun in the instrumental
    ("Лікарка прийшла вчасно.", "Лікарка", Gender.FEMALE),
    ("Продавчиня посміхнулася покупцеві.", "Продавчиня", Gender.FEMALE),
    ("Механік розмовляв з медсестрою.", "медсестрою", Gender.FEMALE),
    # a feminine adjective in the noun's case on a masculine-form noun
    ("Ми говорили з головною бухгалтером про податки.", "головною бухгалтером", Gender.FEMALE),
    # adjective in another case than the noun (MT error): the noun's own gender stands
    ("Перукар зупинився перед будівельну працівником.", "будівельну працівником", Gender.MALE),
    # common-gender noun: the relative pronoun decides (pymorphy's top parse of «яка» is a noun)
    ("Суддя, яка винесла вирок, пішла додому.", "Суддя", Gender.FEMALE),
    # common-gender noun without agreement: not shown
    ("Адвокат довго сперечався з суддею.", "суддею", Gender.UNKNOWN),
    # «яка» agrees with «петицію», not with the genitive «фермера»
    ("Секретар забрав петицію фермера, яка була дуже важлива.", "фермера", Gender.MALE),
    # indefinite pronoun «хтось» and its case forms: no gender of their own
    ("Хтось подзвонив у двері.", "Хтось", Gender.MALE),
    ("Машиніст дав комусь демонстрацію.", "комусь", Gender.MALE),
    ("Педагог зустрівся з кимось.", "кимось", Gender.MALE),
    # plural: «лікарі» could be a locative singular, the plural verb settles it
    ("Лікарі прийшли вчасно.", "Лікарі", Gender.UNKNOWN),
    # untranslated English word: the verb decides, or nothing does
    ("Salesperson намагалася обдурити письменника.", "Salesperson", Gender.FEMALE),
    ("Salesperson намагався обдурити письменника.", "Salesperson", Gender.MALE),
    ("Дизайнер хотів вразити salesperson.", "salesperson", Gender.UNKNOWN),
    # a feminine collective noun rendering "guard"
    ("Охорона не пустила відвідувача.", "Охорона", Gender.FEMALE),
    # a comparative adverb («cleaner» → «чистіше») names no one
    ("Розробник ненавидів чистіше і повідомив менеджеру.", "чистіше", Gender.UNKNOWN),
    # span with a stray conjunction before the noun
    ("Пацієнт вийшов, і лікар пішла додому.", "і лікар", Gender.FEMALE),
    # empty span
    ("Лікар пішла додому.", "", Gender.UNKNOWN),
    # a declined transliterated surname is masculine; the bare nominative shows nothing
    ("Менеджер звільнив Карпентера вчора.", "Карпентера", Gender.MALE),
    ("Перукар називається Карпентер.", "Карпентер", Gender.UNKNOWN),
]


@pytest.fixture(scope="module")
def analyser():
    return load_analyser("uk")


def test_traps(analyser):
    items = [item(sentence, words) for sentence, words, _ in CASES]
    readings = analyser.read(items)
    wrong = [(s, w, want.value, got.gender.value, got.reason)
             for (s, w, want), got in zip(CASES, readings) if got.gender != want]
    assert not wrong, wrong


def test_empty_span_reason(analyser):
    (reading,) = analyser.read([item("Лікар пішла.", "")])
    assert reading.reason == "no target words aligned to the entity"


def test_pronoun_reading_preferred(analyser):
    """pymorphy's first parse of «вона» is a noun (genitive of «вон»); the analyser keeps only the pronoun."""
    readings = analyser.morph.readings("вона")
    assert readings and all(r.pos == "PRON" for r in readings)


def test_version_names_tools(analyser):
    assert analyser.version().startswith("pymorphy3-") and "pymorphy3-dicts-uk-" in analyser.version()
