"""Readings per word form prepared once (lang/morph/word_table.py), for Arabic: a table gives every word the readings
farahidi gives it, so reading through it changes no verdict, and farahidi loads only for a word it lacks. Needs the
farahidi wheel, not ../shared/data."""

from __future__ import annotations

import pytest

from discotest import cache
from discotest.lang.morph import word_table
from discotest.lang.tokenize import tokenize
from tests.lang.morph_cases.ar import CASES
from tests.lang.test_morph_ar import _item

pytest.importorskip("farahidi")

KNOWN, UNSEEN = CASES[:-4], CASES[-4:]


@pytest.fixture(autouse=True)
def private_caches(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setenv("DISCOTEST_MODELS", str(tmp_path / "models"))
    monkeypatch.setattr(word_table, "_adopted", set())


def _analyser():
    from discotest.lang.morph.ar import ArabicAnalyser

    return ArabicAnalyser()


def _sentences(cases):
    return [tokenize(sentence, "ar") for sentence, _, _ in cases]


def test_a_table_reads_as_farahidi_and_loads_it_only_for_a_word_it_lacks():
    farahidi_only = _analyser()
    table = farahidi_only.export_readings(sorted(farahidi_only.word_forms(_sentences(KNOWN))))
    tabled = _analyser()
    tabled.adopt_readings(table)
    known = [_item(sentence, words) for sentence, words, _ in KNOWN]
    assert tabled.read(known) == farahidi_only.read(known)
    assert tabled._analyzer is None, "farahidi loaded although the table holds every word"
    words = [w for tokens in _sentences(KNOWN) for w in (t.text for t in tokens)]
    assert all(tabled.readings(w) == farahidi_only.readings(w) for w in words)
    unseen = [_item(sentence, words) for sentence, words, _ in UNSEEN]
    assert tabled.read(unseen) == farahidi_only.read(unseen)
    assert tabled._analyzer is not None


def test_farahidi_loads_while_the_aligner_runs_only_for_a_text_with_a_word_the_table_lacks():
    """``prepare`` (called while the alignment runs) loads farahidi ahead of the readings where they will need it."""
    farahidi_only = _analyser()
    table = farahidi_only.export_readings(sorted(farahidi_only.word_forms(_sentences(KNOWN))))
    tabled = _analyser()
    tabled.adopt_readings(table)
    tabled.prepare(_sentences(KNOWN))
    assert tabled._analyzer is None, "farahidi loaded although the table holds every word of the text"
    tabled.prepare(_sentences(UNSEEN))
    assert tabled._analyzer is not None
    unseen = [_item(sentence, words) for sentence, words, _ in UNSEEN]
    assert tabled.read(unseen) == farahidi_only.read(unseen)
    bare = _analyser()  # no table: loaded ahead at once
    bare.prepare(_sentences(KNOWN[:1]))
    assert bare._analyzer is not None


def test_the_table_holds_clitic_stripped_forms():
    forms = _analyser().word_forms([tokenize("وللممرضة كتاب.", "ar")])
    assert {"وللممرضة", "ممرضة"} <= forms


def test_the_table_is_made_once_and_read_back_without_its_text(tmp_path):
    made = []

    def sentences():
        made.append(1)
        return _sentences(KNOWN)

    first = _analyser()
    word_table.adopt_table(first, "text", sentences, make=True)
    word_table.adopt_table(first, "text", sentences, make=True)  # adopted already: nothing read
    assert made == [1]
    key = word_table.table_key(first, "text")
    assert cache.entry_path(word_table.NAMESPACE, key).is_relative_to(tmp_path / "models")  # kept with the models

    word_table._adopted.clear()  # a new process: only the cache entry is left
    again = _analyser()
    word_table.adopt_table(again, "text", lambda: pytest.fail("the table was made again"))
    assert again._memo.keys() == first._memo.keys() and again._analyzer is None


def test_a_damaged_table_is_made_again(capsys):
    word_table.adopt_table(_analyser(), "text", lambda: _sentences(KNOWN), make=True)
    path = cache.entry_path(word_table.NAMESPACE, word_table.table_key(_analyser(), "text"))
    path.write_bytes(path.read_bytes()[:-50])
    word_table._adopted.clear()
    again = _analyser()
    word_table.adopt_table(again, "text", lambda: _sentences(KNOWN), make=True)
    assert "is damaged; recomputing" in capsys.readouterr().err
    assert again._memo and again._analyzer is not None  # made again with farahidi


def test_the_key_holds_the_text_farahidis_version_and_the_arabic_code_alone(monkeypatch):
    from discotest.lang.morph.ar import ArabicAnalyser

    key = word_table.table_key(ArabicAnalyser, "text")
    assert word_table.table_key(ArabicAnalyser, "other text") != key
    real = cache.code_key
    monkeypatch.setattr(cache, "code_key", lambda *parts: "edited" if not parts or "cards/build.py" in parts
                        else real(*parts))
    assert word_table.table_key(ArabicAnalyser, "text") == key  # an edit elsewhere: the same table
    monkeypatch.setattr(cache, "code_key", lambda *parts: "edited" if "lang/morph/ar.py" in parts else real(*parts))
    assert word_table.table_key(ArabicAnalyser, "text") != key
    monkeypatch.undo()
    monkeypatch.setattr(ArabicAnalyser, "static_version", classmethod(lambda cls: "farahidi-9.9"))
    assert word_table.table_key(ArabicAnalyser, "text") != key


def test_a_run_reads_a_prepared_table_but_does_not_make_one():
    """Making Arabic's table costs about 12 s of CPU, far more than it saves a run (about 0.04 s): only ``data prepare``
    (``make``) makes it; a run without one reads every word with farahidi, as before."""
    first = _analyser()
    word_table.adopt_table(first, "text", lambda: pytest.fail("a run made the table"))
    assert word_table.table_key(first, "text") is not None
    assert cache.load(word_table.NAMESPACE, word_table.table_key(first, "text")) is None


def test_the_words_a_run_read_are_kept_for_the_next_run(monkeypatch, tmp_path):
    """``keep_seen``: the words farahidi read are added to the table of words seen (no text in its key), so the next
    process reads them back without farahidi; a run that asked farahidi nothing writes nothing, and two runs' words
    are merged."""
    monkeypatch.setattr(word_table, "_seen", {})
    known = [_item(sentence, words) for sentence, words, _ in KNOWN]
    first = _analyser()
    word_table.adopt_seen(first)
    expected = first.read(known)
    word_table.keep_seen(first)
    key = word_table.seen_key(first)
    assert key is not None and cache.load(word_table.SEEN_NAMESPACE, key) is not None
    assert cache.entry_path(word_table.SEEN_NAMESPACE, key).is_relative_to(tmp_path / "cache")  # this cache's history

    word_table._seen.clear()  # a new process
    again = _analyser()
    word_table.adopt_seen(again)
    assert again.read(known) == expected and again._analyzer is None, "farahidi loaded for words a run had read"
    stored = []
    with monkeypatch.context() as patch:
        patch.setattr(cache, "store", lambda *args: stored.append(args))
        word_table.keep_seen(again)
    assert stored == [], "a run that read no new word wrote the table"

    other = _analyser()  # another process: adopted the table before `first`'s words were there
    word_table._seen[id(other)] = other, key, frozenset()
    unseen = [_item(sentence, words) for sentence, words, _ in UNSEEN]
    other.read(unseen)
    word_table.keep_seen(other)
    merged = cache.load(word_table.SEEN_NAMESPACE, key, parse=other.table_words)
    assert set(first.analysed_words()) | set(other.analysed_words()) <= set(merged)
    last = _analyser()
    last.adopt_readings(cache.load(word_table.SEEN_NAMESPACE, key))
    assert last.read(known + unseen) == expected + other.read(unseen) and last._analyzer is None
