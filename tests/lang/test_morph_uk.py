"""The Ukrainian analyser (pymorphy3 + agreement by position): what only Ukrainian does; the harness
(``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/uk.py``) reads its traps, empty span and
version. No shared data needed.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import TargetEntity  # noqa: E402
from tests.support.morph_cases import marked  # noqa: E402


def item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "uk")


@pytest.fixture(scope="module")
def analyser():
    return load_analyser("uk")


def test_pronoun_reading_preferred(analyser):
    """pymorphy's first parse of «вона» is a noun (genitive of «вон»); the analyser keeps only the pronoun."""
    readings = analyser.morph.readings("вона")
    assert readings and all(r.pos == "PRON" for r in readings)


def test_a_word_is_analysed_only_where_a_rule_looks(analyser):
    """Each token's readings are made when a rule first looks at them (``_slavic.TokenReadings``): the entity and its
    neighbours, not the far end of the sentence; what is looked at is what an eager list gives, index for index."""
    from discotest.lang.morph._slavic import TokenReadings
    from discotest.lang.morph.base import Gender

    fresh = type(analyser)()
    target = item("Лікар сказала, що завтра погода буде дуже гарною в Києві.", "Лікар")
    (reading,) = fresh.read([target])
    assert reading.gender == Gender.FEMALE and "сказала" in reading.evidence
    assert {"лікар", "сказала"} <= set(fresh.morph._readings) and "києві" not in fresh.morph._readings
    lazy, eager = TokenReadings(target.tokens, fresh.morph.readings), [fresh.morph.readings(t.text)
                                                                        for t in target.tokens]
    assert len(lazy) == len(eager) and lazy[-1] == eager[-1] and lazy[2:5] == eager[2:5] and list(lazy) == eager
