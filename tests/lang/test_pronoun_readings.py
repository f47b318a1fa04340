"""Every language's pronoun reading (target-side consistency) on its hand-written tricky cases, one harness for all:
each case read alone, and every case of a language in one batch, in order. The cases, each language's analyser and
what it needs are in ``tests/lang/pronoun_cases/`` (no ../shared/data needed); the gender is the one the
*translation* shows, never the English pronoun's. A language whose analyser cannot be made here (a module or the
hspell binary missing, Italian's model absent) is skipped, as each language's own file did."""

from __future__ import annotations

import importlib
import shutil
from typing import Any

import pytest

from discotest.lang.morph.ar import pronoun_form as arabic_form
from discotest.lang.morph.base import Gender, PronounTarget
from discotest.lang.morph.he import pronoun_form as hebrew_form
from tests.support.morph_cases import case_analyser, pronoun_marked

LANGS = ("ar", "de", "es", "fr", "he", "it", "ru", "uk")
M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN


def _module(lang: str) -> Any:
    return importlib.import_module(f"tests.lang.pronoun_cases.{lang}")


def _cases(lang: str) -> list[tuple[PronounTarget, tuple[Gender, str | None]]]:
    """(target, expected (gender, omitted)) of every case: ``CASES`` (sentence, aligned words, English pronoun, role,
    gender, omitted; German's are targets already) and ``UNALIGNED`` (nothing aligned, the entity named instead)."""
    module = _module(lang)
    if lang == "de":
        return list(module.CASES)
    out = [(pronoun_marked(s, words, lang, pronoun, role), (gender, omitted))
           for s, words, pronoun, role, gender, omitted in module.CASES]
    out += [(pronoun_marked(s, "", lang, pronoun, role, entity), (gender, omitted))
            for s, entity, pronoun, role, gender, omitted in getattr(module, "UNALIGNED", [])]
    return out


CASES = [(lang, n, target, expected) for lang in LANGS for n, (target, expected) in enumerate(_cases(lang))]


@pytest.fixture(scope="module")
def analysers() -> dict[str, Any]:
    return {}


def _analyser(analysers: dict[str, Any], lang: str) -> Any:
    """The language's analyser, made once per module; skipped where what it needs is missing."""
    return case_analyser(analysers, lang, _module(lang))


@pytest.mark.parametrize(("lang", "n", "target", "expected"), CASES,
                         ids=[f"{lang}-{n}-{target.sentence[:30]}" for lang, n, target, _ in CASES])
def test_pronoun_case(analysers, lang: str, n: int, target: PronounTarget, expected: tuple) -> None:
    (reading,) = _analyser(analysers, lang).read_pronouns([target])
    assert (reading.gender, reading.omitted) == expected, reading.reason


@pytest.mark.parametrize("lang", LANGS)
def test_batch_keeps_order(analysers, lang: str) -> None:
    """A language's ``CASES`` read in one batch: one reading per item, each the one it has alone, in order."""
    cases = _cases(lang)[:len(_module(lang).CASES)]
    readings = _analyser(analysers, lang).read_pronouns([target for target, _ in cases])
    assert len(readings) == len(cases)
    assert [(r.gender, r.omitted) for r in readings] == [expected for _, expected in cases]


def test_arabic_closed_forms() -> None:
    # hamza-less spellings (MT drops hamza: لانه، الي) and the conjunction wa- are accepted
    assert arabic_form("لانه") == (M, False)
    assert arabic_form("واليها") == (F, False)
    assert arabic_form("وهي") == (F, False)
    assert arabic_form("هما") == (None, True)
    # a noun ending in -h is not a closed form (the suffix reading needs farahidi)
    assert arabic_form("وجه") is None


@pytest.mark.skipif(shutil.which("hspell") is None, reason="hspell is not installed")
def test_hebrew_demonstrative_is_not_a_pronoun() -> None:
    # ha-hu "that (one)" is a demonstrative, not the pronoun hu; she-hu and u-le-atsmo are pronoun forms
    assert hebrew_form("ההוא") is None
    assert hebrew_form("שהוא") == (M, False)
    assert hebrew_form("לעצמו") == (M, False)


def test_russian_entity_is_not_the_pronoun(analysers) -> None:
    # nothing aligned; «она» is inside the entity span, so it is not taken for the pronoun
    target = pronoun_marked("Она позвонила врачу.", "", "ru", "him", "object", "Она")
    (reading,) = _analyser(analysers, "ru").read_pronouns([target])
    assert reading.omitted == "pronoun-dropped", reading.reason
