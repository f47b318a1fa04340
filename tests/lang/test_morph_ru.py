"""The Russian analyser (natasha + pymorphy3): what only Russian does (each reading from its own sentence, natasha
only where needed); the harness (``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/ru.py``)
reads its traps, empty span, version and reason. No shared data needed beyond the gold test.
"""

from __future__ import annotations

import pytest

pytest.importorskip("natasha")
pytest.importorskip("pymorphy3")

from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import Gender, TargetEntity  # noqa: E402
from tests.lang.morph_cases.ru import CASES  # noqa: E402
from tests.support.morph_cases import marked  # noqa: E402


def item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "ru")


@pytest.fixture(scope="module")
def analyser():
    return load_analyser("ru")


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
    """``read`` skips natasha where the words alone settle the verdict (``_context_free``: a feminine lexicon noun; a
    masculine one with no word that could agree with it in the feminine). On the gold sample's real translations and
    the traps, every verdict is the one the tagger and parse give, and the shortcut is taken for some of them; where it
    is taken the reading may only leave out the masculine agreeing words the parse would list."""
    from tests.support.gender_gold import gold_entity, load_gold

    items = [gold_entity(row) for row in load_gold("ru")] + [item(s, w) for s, w, _ in CASES]
    items += [item("Врач пришёл домой.", "Врач"), item("Медсестра пришла домой.", "Медсестра"),
              item("Врач сказал ей, что она может идти.", "Врач"), item("Её врач пришёл домой.", "врач"),
              item("Ей помог опытный врач.", "врач"), item("Оно не помогло врачу.", "врачу"),
              item("Механик починил новую машину, потому что она сломалась.", "Механик"),
              item("Врач сказал, что медсестра пришла.", "Врач"),
              item("Юристу нужна была библиотекарь.", "библиотекарь"),
              item("Парикмахера кричала на водителя.", "Парикмахера")]
    fast = type(analyser)()
    shortcut = [fast._context_free(i, tuple(t.text for t in i.tokens)) for i in items]
    assert sum(r is not None and r.reason != "no target words aligned to the entity" for r in shortcut) >= 7
    got = fast.read(items)
    slow = type(analyser)()
    monkeypatch.setattr(slow, "_context_free", lambda item, key: None)
    full = slow.read(items)
    assert [(r.gender, r.silent, r.generic) for r in got] == [(r.gender, r.silent, r.generic) for r in full]
    assert all(g == f or s is not None and g == s and f.gender == Gender.MALE for g, f, s in zip(got, full, shortcut))


def test_a_masculine_noun_with_no_word_that_could_agree_in_the_feminine_is_read_without_natasha(analyser):
    """A personal pronoun form is never an agreeing word (coreference, not agreement: «её врач» is her doctor); an
    attributive word agrees only in a case the noun can take («новую» is accusative, «механик» nominative); a verb
    after «она» agrees with «она»; a word in another clause (after что, потому что, чтобы) does not agree with the
    noun. Such sentences settle a masculine lexicon noun without natasha; a word that could agree in the feminine
    (сказала after the noun, нужна before it, которая after it, an oblique feminine adjective beside an oblique noun)
    still sends it to the tagger."""
    fresh = type(analyser)()
    for sentence, words in (("Врач сказал ей, что она может идти.", "Врач"), ("Её врач пришёл домой.", "врач"),
                            ("Оно не помогло врачу.", "врачу"), ("Врач ответил ей, что всё в порядке.", "Врач"),
                            ("Врач сказал ей, что она здорова.", "Врач"),
                            ("Врач сказал, что медсестра пришла.", "Врач"),
                            ("Механик починил новую машину.", "Механик"),
                            ("Дворник убрал комнату, и она вышла.", "Дворник")):
        found = fresh._context_free(item(sentence, words), ())
        assert found is not None and found.gender == Gender.MALE, (sentence, found)
    for sentence, words in (("Врач сказала пациенту правду.", "Врач"), ("Врач, которая устала, ушла.", "Врач"),
                            ("Юристу нужна была библиотекарь.", "библиотекарь"),
                            ("Парикмахера кричала на водителя.", "Парикмахера"),
                            ("Он позвал опытную врача.", "врача")):
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


def test_feminine_ways_answer_the_form_gender_questions(analyser):
    """``_feminine_ways`` takes in one pass over a word's forms what ``_form_gender`` answers for each kind and case
    (18 questions, asked one by one before): the same ways for adjectives, participles, verbs, short forms, котор-,
    pronouns, nouns, numbers and words the dictionary does not know."""
    from discotest.lang.morph.ru import _CASES, _LETTER, _PERSONAL_FORMS, _RELATIVES, FEM

    def asked(word: str) -> frozenset[str]:
        low, ways = word.lower(), set()
        if low in _PERSONAL_FORMS:
            return frozenset()
        for kinds in (("ADJF", "PRTF", "NPRO", "NUMR"), ("PRTF",)):
            ways.update(case or "none" for case in (None, *_CASES.values())
                        if fresh._form_gender(low, kinds, case) == FEM)
        if any(fresh._form_gender(low, kinds, None) == FEM for kinds in (("VERB", "PRTS", "ADJS"), ("ADJS", "PRTS"))):
            ways.add("predicate")
        if ways - {"predicate"} and (low.startswith("котор") or low in _RELATIVES):
            ways.add("relative")
        if _LETTER.search(low) and not fresh.morph.known(low) \
                and not any(p.tag.POS == "NOUN" for p in fresh.morph.parses(low)):
            ways.add("unread")
        return frozenset(ways)

    fresh = type(analyser)()
    words = ("новую", "новой", "главная", "опытная", "сказала", "сказал", "нужна", "должна", "рада", "которая",
             "которую", "которой", "Которой", "сама", "одна", "эта", "этой", "та", "наша", "её", "она", "врач",
             "медсестра", "мама", "бухгалтер", "уставшая", "написанную", "прочитанной", "был", "была", "1", ",",
             "пришла", "ушедшей", "зуммерша", "фыркнула", "бла-бла", "xyz", "три", "одной", "сделана")
    got = {word: fresh._feminine_ways(word) for word in words}
    assert got == {word: asked(word) for word in words}
    assert got["новую"] == {"acc", "none"} and "predicate" in got["сказала"] and "relative" in got["которая"]
    assert not got["сказал"] and not got["её"] and not got["врач"]


def test_a_clause_runs_to_the_nearest_opener_on_each_side():
    """``_clause``: the tokens with no clause opener between them and the noun (an opener counts from the token
    after it)."""
    from discotest.lang.morph.ru import _clause

    tokens = item("Врач сказал, что медсестра пришла, когда она ушла.", "").tokens
    texts = [t.text for t in tokens]
    assert [texts[i] for i in _clause(tokens, texts.index("Врач"))] == ["Врач", "сказал", ",", "что"]
    assert [texts[i] for i in _clause(tokens, texts.index("медсестра"))] == ["медсестра", "пришла", ",", "когда"]
    assert [texts[i] for i in _clause(tokens, len(texts) - 1)] == ["она", "ушла", "."]


def test_tags_are_the_tags_of_the_parses_in_any_order(analyser):
    """``Pymorphy.tags`` (pymorphy's parse without its probability estimator, which only orders the parses) gives the
    tags of ``parses`` for known, unknown, hyphenated, ё-, Latin, numeric and punctuation tokens; after a word was
    parsed, the parses' own tags."""
    from collections import Counter

    from discotest.lang.morph._slavic import Pymorphy

    words = ("врач", "сказала", "новую", "которая", "её", "ее", "ёлка", "елка", "зуммерша", "фыркнула", "бла-бла",
             "кто-то", "по-моему", "xyz", "Google", "1", "3,5", ",", "—", "одитор", "низкоуглеводной", "IV")
    fresh, parsed = Pymorphy("ru"), Pymorphy("ru")
    for word in words:
        want = Counter(str(p.tag) for p in parsed.parses(word))
        assert Counter(map(str, fresh.tags(word))) == want, word
        assert Counter(map(str, parsed.tags(word))) == want, word
