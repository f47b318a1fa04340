"""Whole verdict lists cached by content (gender/verdict_cache.py): a rerun gives the same result without
tokenising, aligning or reading; anything that can change a verdict misses the cache."""

from __future__ import annotations

import pytest

import discotest
from discotest import cache
from discotest.data import catalogue
from discotest.gender import run as gender_run
from discotest.gender.verdict_cache import NAMESPACE


@pytest.fixture
def demo(tmp_path, monkeypatch):
    """The demo suite's German translations, a private cache, and a counter of tokenised translation sets."""
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    built = []
    real = gender_run._LanguageReading.bitext_of

    def counting(self, name):  # an evaluated translation set tokenised (the alignment model's text is not counted)
        if name not in self.bitexts:
            built.append(name)
        return real(self, name)

    monkeypatch.setattr(gender_run._LanguageReading, "bitext_of", counting)
    return catalogue.locate("winomt-demo-demo-de"), built


def run(path, **options):
    (result,) = discotest.run("winomt-demo", lang="de", input=str(path), **options)
    return result


def test_a_rerun_reads_the_verdicts_back_without_tokenising(demo):
    path, built = demo
    first = run(path)
    assert len(built) == 1
    again = run(path)
    assert len(built) == 1  # nothing tokenised, so nothing aligned, located or read
    assert again.verdicts == first.verdicts and again.summary() == first.summary()
    assert again.signature.format() == first.signature.format()
    assert again.located_by == first.located_by and again.unmatched == first.unmatched


def test_the_reader_verdict_round_trips_its_pronoun_fields(demo):
    path, built = demo
    first = run(path, verdict="reader")
    again = run(path, verdict="reader")
    assert len(built) == 1 and again.verdicts == first.verdicts and again.consistency == first.consistency
    assert any(v.conveyed_gender for v in again.verdicts) and any(v.target_pronoun for v in again.verdicts)


@pytest.mark.parametrize("change", ["translation", "lexicon", "measure", "no-cache"])
def test_what_can_change_a_verdict_misses_the_cache(demo, tmp_path, change):
    path, built = demo
    run(path)
    options = {}
    if change == "translation":  # one word of one translation
        edited = tmp_path / "edited.de"
        lines = path.read_text(encoding="utf-8").splitlines()
        lines[0] = lines[0].replace("Arzt", "Ärztin", 1) if "Arzt" in lines[0] else lines[0] + " x"
        edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
        path = edited
    elif change == "lexicon":
        options["lexicon"] = "off"
    elif change == "measure":
        options["measure"] = "consistency"
    elif change == "no-cache":
        options["use_cache"] = False
    run(path, **options)
    assert len(built) == 2


def test_a_damaged_entry_is_computed_again(demo):
    path, built = demo
    first = run(path)
    for entry in (cache.cache_dir() / NAMESPACE).rglob("*.txt"):
        entry.write_bytes(entry.read_bytes()[:-10])
    assert run(path).verdicts == first.verdicts and len(built) == 2


def test_extra_aligner_text_is_never_served_from_this_cache(demo):
    """With the published outputs as aligner training text the links depend on text the key does not cover."""
    path, built = demo
    discotest.run("winomt-demo", lang="de", input=str(path), align_train="input", align_extra="published")
    first = len(built)  # the user's file and the published demo output as training text
    discotest.run("winomt-demo", lang="de", input=str(path), align_train="input", align_extra="published")
    assert len(built) == 2 * first and not (cache.cache_dir() / NAMESPACE).exists()
