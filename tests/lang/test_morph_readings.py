"""Every language's gender analyser on its hand-written tricky cases, one harness for all: each case read alone, and
every case of a language in one batch, in order; a span with nothing aligned; the version naming the tools; one
reading's reason and evidence; a silent noun completed by its pronoun. The cases, each language's analyser and what
it needs are in ``tests/lang/morph_cases/`` (no ../shared/data needed); the gender is the one the *translation* gives
the entity, never what the English meant. A language whose analyser cannot be made here (a module or a program
missing, Italian's Apertium data absent) is skipped, as each language's own file did. What only one language does
stays in its ``test_morph_<lang>.py``."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from discotest.lang.morph.base import Gender
from tests.support.morph_cases import case_analyser, completed, marked

LANGS = ("ar", "de", "es", "fr", "he", "it", "ru", "uk")
NO_SPAN = "no target words aligned to the entity"


def _module(lang: str) -> Any:
    return importlib.import_module(f"tests.lang.morph_cases.{lang}")


CASES = [(lang, n, sentence, words, expected) for lang in LANGS
         for n, (sentence, words, expected) in enumerate(_module(lang).CASES)]


@pytest.fixture(scope="module")
def analysers() -> dict[str, Any]:
    return {}


def _analyser(analysers: dict[str, Any], lang: str) -> Any:
    """The language's analyser, made once per module; skipped where what it needs is missing."""
    return case_analyser(analysers, lang, _module(lang))


@pytest.mark.parametrize(("lang", "n", "sentence", "words", "expected"), CASES,
                         ids=[f"{lang}-{n}-{words or 'empty'}:{text[:30]}" for lang, n, text, words, _ in CASES])
def test_morph_case(analysers, lang: str, n: int, sentence: str, words: str, expected: Gender) -> None:
    (reading,) = _analyser(analysers, lang).read([marked(sentence, words, lang)])
    assert reading.gender is expected, f"{sentence!r} [{words}]: {reading.gender} ({reading.reason})"
    assert reading.reason


@pytest.mark.parametrize("lang", LANGS)
def test_batch_keeps_order(analysers, lang: str) -> None:
    """A language's ``CASES`` read in one batch (one hspell or farahidi call, one spaCy pipe): one reading per item,
    each the one it has alone, in order, every one with its reason."""
    cases = _module(lang).CASES
    readings = _analyser(analysers, lang).read([marked(sentence, words, lang) for sentence, words, _ in cases])
    wrong = [(s, w, want.value, got.gender.value, got.reason)
             for (s, w, want), got in zip(cases, readings, strict=True) if got.gender is not want]
    assert not wrong, wrong
    assert all(r.reason for r in readings)


@pytest.mark.parametrize("lang", LANGS)
def test_empty_span_is_unknown(analysers, lang: str) -> None:
    (reading,) = _analyser(analysers, lang).read([marked(_module(lang).EMPTY, "", lang)])
    assert reading.gender is Gender.UNKNOWN and reading.reason == NO_SPAN


@pytest.mark.parametrize("lang", LANGS)
def test_version_names_tools(analysers, lang: str) -> None:
    first, *others = _module(lang).VERSION
    version = _analyser(analysers, lang).version()
    assert version.startswith(first) and all(name in version for name in others), version


@pytest.mark.parametrize("lang", [lang for lang in LANGS if _module(lang).EVIDENCE is not None])
def test_reason_and_evidence_name_the_words(analysers, lang: str) -> None:
    """The reason names the word that shows the gender (German's whole reason is given), the evidence the words."""
    sentence, words, gender, named, evidence = _module(lang).EVIDENCE
    (reading,) = _analyser(analysers, lang).read([marked(sentence, words, lang)])
    assert reading.gender is gender, reading.reason
    assert (reading.reason == named) if lang == "de" else (named in reading.reason), reading.reason
    assert reading.evidence == evidence


SILENT = [(lang, n, *case) for lang in LANGS for n, case in enumerate(getattr(_module(lang), "SILENT", ()))]


@pytest.mark.parametrize(("lang", "n", "english", "at", "entity", "sentence", "words", "pronoun", "expected",
                          "named", "evidence", "ending"), SILENT,
                         ids=[f"{case[0]}-{case[1]}:{case[5][:30]}" for case in SILENT])
def test_silent_noun_completed_by_its_pronoun(analysers, lang: str, n: int, english: str, at: int, entity: str,
                                              sentence: str, words: str, pronoun: str, expected: Gender,
                                              named: tuple[str, ...], evidence: tuple[str, ...],
                                              ending: str | None) -> None:
    """issue 25: a noun whose translation shows no gender takes the one of the words that render the English
    sentence's pronoun (``complete_silent``), its reason and evidence naming them; with nothing agreeing it stays
    unknown (the languages' ``SILENT``)."""
    got = completed(_analyser(analysers, lang), english, at, entity, sentence, words, pronoun, lang)
    assert got.gender is expected, got.reason
    assert all(word in got.reason for word in named), got.reason
    assert all(word in got.evidence for word in evidence), got.evidence
    assert ending is None or got.reason.endswith(ending), got.reason
