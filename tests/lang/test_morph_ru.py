"""Hand-written traps for the Russian analyser (natasha + pymorphy3); no shared data needed.

Each case: the translation, the words aligned to the entity, the gender the *translation* gives
the entity, and why.
"""

from __future__ import annotations

import pytest

pytest.importorskip("natasha")
pytest.importorskip("pymorphy3")

from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import Gender, TargetEntity  # noqa: E402
from tests.support.morph_cases import marked  # noqa: E402


def item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "ru")


CASES = [
    # masculine-form profession noun used for a woman: only the past-tense verb shows it
    ("Врач сказала пациенту, что всё в порядке.", "Врач", Gender.FEMALE),
    # the same noun with masculine agreement
    ("Врач сказал пациенту, что всё в порядке.", "Врач", Gender.MALE),
    # agreement across an oblique phrase between subject and verb
    ("Водитель из соседнего города остановилась у магазина.", "Водитель", Gender.FEMALE),
    # verb-subject order: the parse still finds the subject
    ("Вчера в офис пришла новый бухгалтер.", "бухгалтер", Gender.FEMALE),
    # «главная бухгалтер»: a feminine adjective on a masculine-form noun
    ("Мы поговорили с главной бухгалтером о налогах.", "главной бухгалтером", Gender.FEMALE),
    # common-gender noun: the relative pronoun and the verb decide
    ("Судья, которая вынесла приговор, ушла домой.", "Судья", Gender.FEMALE),
    # common-gender noun with masculine agreement
    ("Судья вынес приговор и ушёл.", "Судья", Gender.MALE),
    # common-gender noun with nothing agreeing: the translation does not show the gender
    ("Адвокат долго спорил с судьёй.", "судьёй", Gender.UNKNOWN),
    # feminine suffix -щица, and a feminine noun in the instrumental case
    ("Продавщица улыбнулась покупателю.", "Продавщица", Gender.FEMALE),
    ("Механик поговорил с медсестрой.", "медсестрой", Gender.FEMALE),
    # oblique masculine noun; «она» and «заболела» belong to another clause, not to the entity
    ("Пациентка позвонила врачу, потому что она заболела.", "врачу", Gender.MALE),
    # «которая» agrees with «петицию», not with the genitive «фермера»
    ("Секретарь забрал петицию фермера, которая была очень важна.", "фермера", Gender.MALE),
    # the nurse's verb after «и» is not the driver's: «хромает» carries no gender
    ("Медсестра заметила, что водитель хромает, и осмотрела его.", "водитель", Gender.MALE),
    # indefinite pronoun: no gender of its own, masculine agreement is only the default
    ("Кто-то позвонил в дверь.", "Кто-то", Gender.MALE),
    # ... unless the agreement is feminine
    ("Кто-то из гостей сказала, что устала.", "Кто-то", Gender.FEMALE),
    # a neuter epicene rendering of "attendant"
    ("Сопровождающее лицо опоздало на поезд.", "Сопровождающее лицо", Gender.NEUTRAL),
    # plural entity: Russian has no gender in the plural
    ("Врачи пришли вовремя.", "Врачи", Gender.UNKNOWN),
    # untranslated English word: the verb decides
    ("Paralegal забыла подать документы.", "Paralegal", Gender.FEMALE),
    # untranslated word with no agreeing word
    ("Юрист позвонил paralegal вчера.", "paralegal", Gender.UNKNOWN),
    # span with stray words (punctuation, conjunction) before the noun
    ("Пассажир вышел, и водитель уехала домой.", ", и водитель", Gender.FEMALE),
    # span holding only a verb: no noun to read
    ("Врач сказала пациенту правду.", "сказала", Gender.UNKNOWN),
    # empty span
    ("Врач сказала пациенту правду.", "", Gender.UNKNOWN),
    # a mistranslation is read for the gender it has: «двигатель» (engine) is masculine
    ("Двигатель отказался подчиняться дизайнеру.", "Двигатель", Gender.MALE),
    # a declined foreign surname is masculine (a woman's would not decline) ...
    ("Менеджер уволил Бейкера вчера.", "Бейкера", Gender.MALE),
    # ... but its nominative with no agreement does not show the gender
    ("Продавец сказал Бейкер правду.", "Бейкер", Gender.UNKNOWN),
    # a feminine person noun keeps its gender in the plural; a masculine plural is also the mixed form; a feminine
    # plural that names no person shows nothing of one
    ("Мы все очень хорошие спортсменки.", "спортсменки", Gender.FEMALE),
    ("Мы все очень хорошие спортсмены.", "спортсмены", Gender.UNKNOWN),
    ("Сейчас мы получаем лицензии.", "лицензии", Gender.UNKNOWN),
]


@pytest.fixture(scope="module")
def analyser():
    return load_analyser("ru")


def test_traps(analyser):
    items = [item(sentence, words) for sentence, words, _ in CASES]
    readings = analyser.read(items)
    wrong = [(s, w, want.value, got.gender.value, got.reason)
             for (s, w, want), got in zip(CASES, readings) if got.gender != want]
    assert not wrong, wrong


def test_empty_span_reason(analyser):
    (reading,) = analyser.read([item("Врач пришла.", "")])
    assert reading.reason == "no target words aligned to the entity"


def test_reason_and_evidence_name_the_agreeing_word(analyser):
    (reading,) = analyser.read([item("Врач сказала пациенту правду.", "Врач")])
    assert reading.gender == Gender.FEMALE
    assert "сказала" in reading.reason and reading.evidence == ("Врач", "сказала")


def test_version_names_tools(analyser):
    assert analyser.version().startswith("natasha-") and "pymorphy3-" in analyser.version()


def test_a_reading_depends_on_its_own_sentence_only(analyser):
    """WinoMT ru, SYSTRAN and AWS translations of the same kind of sentence. In SYSTRAN's «сопровождающему лицу»
    the noun is «лицу» (neuter: the entity's gender is not shown, so the verdict is neutral). AWS uses the
    participle alone as a noun («дал сопровождающему»), which natasha tags NOUN, masculine. pymorphy3 knows
    «сопровождающему» only as a participle, and the analyser used to memoise natasha's tag of such a word by form:
    after reading AWS's sentence, SYSTRAN's came out male, so ru/systran scored 45.83 alone and 46.14 after aws in
    one process. Each reading must come from its own sentence."""
    systran = item("Фермер дал сопровождающему лицу некоторые подсказки и он был очень радостен получить это.",
                   "сопровождающему лицу")
    aws = item("Фермер дал сопровождающему несколько советов, и он был очень рад этому получить.", "сопровождающему")
    fresh = type(analyser)()  # an analyser that has read nothing else
    fresh.read([aws])
    (after_aws,) = fresh.read([systran])
    (alone,) = type(analyser)().read([systran])
    assert alone.gender == Gender.NEUTRAL and "лицу" in alone.reason
    assert after_aws == alone


def test_readings_without_the_tagger_are_the_tagged_readings(analyser, shared_data, monkeypatch):
    """``read`` skips natasha where the words alone settle the reading (``_context_free``: a feminine lexicon noun; a
    masculine one in a sentence where no word but a personal pronoun can show the feminine). On the gold sample's real
    translations and the traps, every reading is the one the tagger and parse give, and the shortcut is taken for some
    of them."""
    from tests.support.gender_gold import gold_entity, load_gold

    items = [gold_entity(row) for row in load_gold("ru")] + [item(s, w) for s, w, _ in CASES]
    items += [item("Врач пришёл домой.", "Врач"), item("Медсестра пришла домой.", "Медсестра"),
              item("Врач сказал ей, что она может идти.", "Врач"), item("Её врач пришёл домой.", "врач"),
              item("Ей помог опытный врач.", "врач"), item("Оно не помогло врачу.", "врачу")]
    fast = type(analyser)()
    shortcut = [fast._context_free(i, tuple(t.text for t in i.tokens)) for i in items]
    assert sum(r is not None and r.reason != "no target words aligned to the entity" for r in shortcut) >= 5
    got = fast.read(items)
    slow = type(analyser)()
    monkeypatch.setattr(slow, "_context_free", lambda item, key: None)
    assert got == slow.read(items)


def test_a_masculine_noun_beside_a_feminine_pronoun_is_read_without_natasha(analyser):
    """A personal pronoun form is never an agreeing word (coreference, not agreement: «её врач» is her doctor), so a
    sentence whose only feminine-capable words are personal pronouns (most WinoMT sentences with "she" or "her"), or
    whose words can show only the neuter, settles a masculine lexicon noun without natasha; a word that can show the
    feminine (сказала, новая, которая) still sends it to the tagger."""
    fresh = type(analyser)()
    for sentence, words in (("Врач сказал ей, что она может идти.", "Врач"), ("Её врач пришёл домой.", "врач"),
                            ("Оно не помогло врачу.", "врачу"), ("Врач ответил ей, что всё в порядке.", "Врач")):
        found = fresh._context_free(item(sentence, words), ())
        assert found is not None and found.gender == Gender.MALE, (sentence, found)
    for sentence, words in (("Врач сказала пациенту правду.", "Врач"), ("Врач, который устал.", "Врач"),
                            ("Врач сказал ей, что она здорова.", "Врач")):
        assert fresh._context_free(item(sentence, words), ()) is None, sentence
    (her_doctor,) = type(analyser)().read([item("Её врач пришёл домой.", "врач")])
    assert her_doctor.gender == Gender.MALE and "Её" not in her_doctor.evidence


def test_natasha_loads_only_where_a_sentence_needs_it(analyser):
    """The analyser loads pymorphy3 alone; natasha loads for the first sentence whose reading needs the tagger, or in
    ``prepare`` (while the aligner runs): items the words alone settle, and pronoun readings, never load it."""
    from discotest.lang.morph.base import PronounTarget

    fresh = type(analyser)()
    assert fresh._natasha is None
    settled = [item("Медсестра пришла домой.", "Медсестра"), item("Врач ответил ей, что всё в порядке.", "Врач")]
    assert [r.gender for r in fresh.read(settled)] == [Gender.FEMALE, Gender.MALE]
    tokens = item("Она сказала правду.", "").tokens
    fresh.read_pronouns([PronounTarget("Она сказала правду.", tokens, (0,), (), "she", "subject")])
    assert fresh._natasha is None
    assert fresh.read([item("Врач сказала пациенту правду.", "Врач")])[0].gender == Gender.FEMALE
    assert fresh._natasha is not None
    prepared = type(analyser)()
    prepared.prepare([settled[0].tokens])
    assert prepared._natasha is not None
