"""Analyser readings through the content-hash cache (lang/morph/cached.py): the same readings as the analyser, a rerun
that never creates the analyser, a key that changes with the items, the code and the version, and versions known
without loading that equal the loaded analysers' own."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from discotest import cache
from discotest.lang import morph
from discotest.lang.morph.base import (
    Gender,
    GenderAnalyser,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
    Token,
)
from discotest.lang.morph.cached import CachedReads
from discotest.lang.tokenize import tokenize


class CountingAnalyser(GenderAnalyser):
    """Reads "die" before the entity as female; counts how often it was created and asked."""

    lang = "zz"
    name = "counting"
    created = 0
    reads = 0

    def __init__(self) -> None:
        type(self).created += 1

    @classmethod
    def static_version(cls) -> str:
        return "counting-1"

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        type(self).reads += 1
        return [GenderReading(Gender.FEMALE if item.tokens[0].text == "die" else Gender.UNKNOWN, "first word",
                              (item.tokens[0].text,)) for item in items]

    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        type(self).reads += 1
        return [PronounReading(Gender.NEUTRAL, "plural", (), "neutral-form") for _ in items]


@pytest.fixture
def counting(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setitem(morph.ANALYSERS, "zz", f"{__name__}:CountingAnalyser")
    CountingAnalyser.created = CountingAnalyser.reads = 0
    morph.load_analyser.cache_clear()
    yield CountingAnalyser
    morph.load_analyser.cache_clear()


def entity(sentence: str, span: tuple[int, ...] = (1,)) -> TargetEntity:
    return TargetEntity(sentence, tokenize(sentence, "de"), span)


def test_a_rerun_reads_from_the_cache_and_never_creates_the_analyser(counting):
    items = [entity("die Ärztin kam"), entity("der Arzt kam")]
    first = CachedReads("zz").read(items)
    assert first == [GenderReading(Gender.FEMALE, "first word", ("die",)),
                     GenderReading(Gender.UNKNOWN, "first word", ("der",))]
    assert (counting.created, counting.reads) == (1, 1)
    morph.load_analyser.cache_clear()  # a new process
    again = CachedReads("zz")
    assert again.version() == "counting-1" and again.read(items) == first
    assert (counting.created, counting.reads) == (1, 1)  # neither created nor asked


def test_pronoun_readings_keep_the_omission(counting):
    tokens = tokenize("sie kam", "de")
    items = [PronounTarget("sie kam", tokens, (0,), (), "they", "subject")]
    first = CachedReads("zz").read_pronouns(items)
    assert CachedReads("zz").read_pronouns(items) == first == [PronounReading(Gender.NEUTRAL, "plural", (),
                                                                              "neutral-form")]
    assert counting.reads == 1


@pytest.mark.parametrize("change", ["sentence", "offsets", "span", "code", "no-cache"])
def test_what_changes_a_reading_misses_the_cache(counting, monkeypatch, change):
    items = [entity("die Ärztin kam")]
    CachedReads("zz").read(items)
    if change == "sentence":
        items = [entity("die Ärztin ging")]
    elif change == "offsets":  # same words, other character offsets: spaCy and the analysers read offsets
        items = [TargetEntity(items[0].sentence, tuple(Token(t.text, t.start + 1, t.end + 1) for t in items[0].tokens),
                              (1,))]
    elif change == "span":
        items = [entity("die Ärztin kam", (0, 1))]
    elif change == "code":  # an edited rule or word list of discotest's own
        monkeypatch.setattr(cache, "code_key", lambda: "edited")
    CachedReads("zz", use_cache=change != "no-cache").read(items)
    assert counting.reads == 2


def test_code_key_is_the_package_files_and_nothing_else():
    """Recomputed here from the package's files: byte-compiled files (written by setup.sh, or not at all where
    PYTHONDONTWRITEBYTECODE is set) must not be part of it, or the same code would key differently per machine."""
    import hashlib
    from pathlib import Path

    root = Path(cache.__file__).resolve().parent
    files = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    assert any(p.name == "cached.py" for p in files) and not any(p.suffix == ".pyc" for p in files)
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\x00" + path.read_bytes() + b"\x00")
    assert cache.code_key() == digest.hexdigest()


def test_a_damaged_entry_is_read_again(counting):
    items = [entity("die Ärztin kam")]
    CachedReads("zz").read(items)
    for path in (cache.cache_dir() / "readings").rglob("*.txt"):
        path.write_bytes(path.read_bytes()[:-5])
    assert CachedReads("zz").read(items)[0].gender == Gender.FEMALE  # one warning line on stderr, then recomputed
    assert counting.reads == 2


@pytest.mark.parametrize("lang", [lang for lang in morph.languages()
                                  if morph.analyser_class(lang).static_version() is not None])
def test_the_version_known_without_loading_is_the_loaded_analysers(lang):
    """The signature and the cache key use the unloaded version; the analyser's own reading of it (spaCy's
    ``__version__`` and its model's meta, the packages' metadata) must be the same string."""
    import importlib.metadata

    cls = morph.analyser_class(lang)
    loaded = morph.load_analyser(lang)
    assert loaded.version() == cls.static_version()
    if hasattr(loaded, "_nlp"):  # spaCy: what the loaded pipeline itself reports
        import spacy

        assert cls.static_version() == f"spacy-{spacy.__version__}+{cls.model}-{loaded._nlp.meta['version']}"
        assert importlib.metadata.version(cls.model) == loaded._nlp.meta["version"]
