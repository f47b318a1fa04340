"""Whole verdict lists cached by content (gender/verdict_cache.py): a rerun gives the same result without
tokenising, aligning or reading; anything that can change a verdict misses the cache."""

from __future__ import annotations

import pytest

import discotest
from discotest import cache
from discotest.data import catalogue
from discotest.gender import run as gender_run
from discotest.gender.verdict_cache import NAMESPACE, files_key


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


@pytest.fixture
def demo_published(tmp_path, monkeypatch):
    """A private cache, and counters of the published outputs read and of the translation sets tokenised."""
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    counts = {"read": 0, "tokenised": 0}
    real_read, real_bitext = gender_run.published_translations, gender_run._LanguageReading.bitext_of

    def reading(*args, **kwargs):
        counts["read"] += 1
        return real_read(*args, **kwargs)

    def tokenising(self, name):
        if name not in self.bitexts:
            counts["tokenised"] += 1
        return real_bitext(self, name)

    monkeypatch.setattr(gender_run, "published_translations", reading)
    monkeypatch.setattr(gender_run._LanguageReading, "bitext_of", tokenising)
    return counts


def test_a_published_output_is_read_back_by_its_files_without_reading_it(demo_published):
    first = discotest.run("winomt-demo", lang="de", system="demo")[0]
    assert demo_published == {"read": 1, "tokenised": 1}
    again = discotest.run("winomt-demo", lang="de", system="demo")[0]
    assert demo_published == {"read": 1, "tokenised": 1}  # found by the files: the translations were not read
    assert again.verdicts == first.verdicts and again.summary() == first.summary()
    assert again.signature.format() == first.signature.format()
    assert again.located_by == first.located_by and again.unmatched == first.unmatched
    assert again.consistency == first.consistency


def test_a_published_output_is_looked_up_by_its_files_once_a_run(demo_published, monkeypatch):
    """A cold run looks its verdicts up in the parent (``_read_back``) and not again where it computes them."""
    looked = []
    real = gender_run.load_by_files
    monkeypatch.setattr(gender_run, "load_by_files", lambda key: looked.append(key) or real(key))
    discotest.run("winomt-demo", lang="de", system="demo")
    assert len(looked) == 1 and demo_published["tokenised"] == 1
    discotest.run("winomt-demo", lang="de", system="demo")
    assert len(looked) == 2 and looked[0] == looked[1] and demo_published["tokenised"] == 1


@pytest.mark.parametrize("change", [{"limit": 8}, {"verdict": "reader"}, {"lexicon": "off"}])
def test_what_chooses_the_items_or_their_reading_misses_the_files_entry(demo_published, change):
    discotest.run("winomt-demo", lang="de", system="demo")
    discotest.run("winomt-demo", lang="de", system="demo", **change)
    assert demo_published["tokenised"] == 2


def test_a_lost_verdict_list_is_computed_again_though_its_files_entry_is_there(demo_published):
    first = discotest.run("winomt-demo", lang="de", system="demo")[0]
    for entry in (cache.cache_dir() / NAMESPACE).rglob("*.txt"):
        entry.unlink()
    assert discotest.run("winomt-demo", lang="de", system="demo")[0].verdicts == first.verdicts
    assert demo_published["tokenised"] == 2


def test_the_files_key_names_every_file_by_its_content():
    suite, output = catalogue.FileCheck("suite", "a" * 64, "ok"), catalogue.FileCheck("out", "b" * 64, "ok")
    key = files_key([suite, output], "de", "google", ("x",))
    assert files_key([output, suite], "de", "google", ("x",)) == key
    edited = catalogue.FileCheck("out", "c" * 64, "modified")
    for other in (files_key([suite, edited], "de", "google", ("x",)), files_key([suite], "de", "google", ("x",)),
                  files_key([suite, output], "es", "google", ("x",)), files_key([suite, output], "de", "bing", ("x",)),
                  files_key([suite, output], "de", "google", ("y",))):
        assert other != key


def test_a_warm_run_of_every_language_starts_no_worker(demo_published, monkeypatch, capsys):
    """Languages whose verdicts are all cached are read back in the parent: the same results as the workers gave."""
    from discotest.cli import main

    assert main(["-q", "run", "winomt-demo", "--lang", "all", "--system", "all", "--format", "json"]) == 0
    first = capsys.readouterr().out

    def no_pool(*args, **kwargs):
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr(gender_run, "each_in_own_process", no_pool)
    assert main(["-q", "run", "winomt-demo", "--lang", "all", "--system", "all", "--format", "json"]) == 0
    assert capsys.readouterr().out == first
