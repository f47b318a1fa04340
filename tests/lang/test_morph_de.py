"""German gender analyser: what only German does (no ../shared/data needed). Its tricky cases, empty span, version,
reason and batch are read by the harness (``tests/lang/test_morph_readings.py``, cases in
``tests/lang/morph_cases/de.py``); the registry loads it by its code.
"""

from __future__ import annotations

import pytest

pytest.importorskip("german_nouns")
pytest.importorskip("HanTa")

from discotest.lang.morph import load_analyser  # noqa: E402
from discotest.lang.morph.base import Gender, TargetEntity  # noqa: E402
from discotest.lang.morph.de import GermanAnalyser  # noqa: E402
from discotest.lang.tokenize import normalise_moses  # noqa: E402
from tests.support.morph_cases import marked  # noqa: E402


@pytest.fixture(scope="module")
def analyser() -> GermanAnalyser:
    return GermanAnalyser()


def entity(sentence: str, *words: str) -> TargetEntity:
    return marked(sentence, " ".join(words), "de")


def test_moses_tokenised_output(analyser: GermanAnalyser) -> None:
    # sota outputs are Moses-tokenised; callers undo it before tokenising (Olympia-Rat is one token)
    sentence = normalise_moses("Die Irritationen argumentierten mit dem Olympia @-@ Rat , weil ihr das Design gefiel .")
    reading = analyser.read([entity(sentence, "Olympia-Rat")])[0]
    assert reading.gender == Gender.MALE  # der Rat: masculine head of the hyphenated compound


def test_the_registry_loads_it() -> None:
    assert isinstance(load_analyser("de"), GermanAnalyser)
