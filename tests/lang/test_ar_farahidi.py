"""farahidi with its pattern scan indexed (lang/morph/ar_farahidi.py): the index hands farahidi exactly the patterns its
own test accepts, on the stems of the published Arabic outputs, so every analysis is farahidi's; and it hands it few."""

from __future__ import annotations

from importlib.metadata import version

import pytest

pytest.importorskip("farahidi")

import farahidi  # noqa: E402
from farahidi import normalize  # noqa: E402
from farahidi.clitics import get_lists_segment  # noqa: E402

from discotest.lang.morph import ar_farahidi  # noqa: E402
from discotest.lang.morph.ar import strip_diacritics  # noqa: E402

SYSTEMS = ("google", "bing", "aws", "systran")


def _words(shared_data, every: int) -> list[str]:
    """The distinct Arabic words of every ``every``-th line of the four systems' published outputs, in order."""
    words: dict[str, None] = {}
    for system in SYSTEMS:
        lines = (shared_data / "mt_gender" / "translations" / system / "en-ar.txt").read_text(encoding="utf-8")
        for line in lines.splitlines()[::every]:
            for word in line.split(" ||| ")[-1].split():
                word = word.strip(".,،؛?!:\"'()")
                if word:
                    words[word] = None
    return list(words)


def test_the_index_hands_farahidi_exactly_the_patterns_its_own_test_accepts(shared_data):
    lexicon = ar_farahidi.IndexedLexicon()
    stems = {seg.stem for word in _words(shared_data, 20)
             for seg in get_lists_segment(lexicon, strip_diacritics(word))}
    handed = offered = 0
    for stem in sorted(stems):
        key = ar_farahidi._normalised(stem)
        for cat in ("Nouns", "Verbs"):
            patterns = lexicon.unvoweled_stems(cat, len(key))  # all of them: no stem under analysis
            accepted = [p for p in patterns if normalize.is_diac_pattern(key, ar_farahidi._normalised(p["val"]))]
            lexicon.stem = stem
            try:
                assert lexicon.unvoweled_stems(cat, len(key)) == accepted, (stem, cat)
            finally:
                lexicon.stem = None
            handed += len(accepted)
            offered += len(patterns)
    assert len(stems) > 2000
    assert handed < offered / 10, "the index should spare farahidi most of its patterns"


def test_every_analysis_is_farahidis_own(shared_data):
    plain, indexed = farahidi.Analyzer(), ar_farahidi.IndexedAnalyzer()
    words = _words(shared_data, 100)
    assert len(words) > 400
    for word in words:
        assert indexed.analyze(word) == plain.analyze(word), word


def test_only_the_checked_version_is_indexed():
    assert version("farahidi") in ar_farahidi.INDEXED_VERSIONS, "check the index on this farahidi, then list it"
    assert type(ar_farahidi.analyzer("0.0.1")) is farahidi.Analyzer
    assert isinstance(ar_farahidi.analyzer(version("farahidi")), ar_farahidi.IndexedAnalyzer)


def test_every_record_of_a_lazy_table_is_the_one_farahidis_loader_gives():
    """Each table the indexed lexicon reads its own way (lazily, or a flat map by one regular expression) holds
    farahidi's keys in farahidi's order and, parsed from its own text, every value and record farahidi's loader parses;
    a record read twice is the same object (farahidi's analyser tells formulas apart by identity); a formula's pattern
    id read off the column is the record's; the unvoweled patterns and the small tables load whole."""
    from farahidi import lexicon as loader

    lexicon = ar_farahidi.IndexedLexicon()
    read = {name: getattr(lexicon, accessor)(*args) for accessor, table_names in (
        ("map", loader.TABLES), ("list", loader.TABLES), ("derived_map", loader.DERIVED_TABLES),
        ("derived_list", loader.DERIVED_TABLES))
        for logical, pattern in table_names.items()
        for args in ([(logical,)] if accessor in ("map", "list") else [("Nouns", logical), ("Verbs", logical)])
        for name in [pattern.format(cat=args[0])]
        if name.endswith(".map") == accessor.endswith("map")
        and (loader._data_dir() / f"{name}.jsonl.gz").is_file()}
    assert len(read) > 30
    lazy = 0
    for name, table in read.items():
        whole = loader.load_map(name) if name.endswith(".map") else loader.load_list(name)
        if table is whole:
            continue
        lazy += 1
        if name.endswith(".list"):
            assert list(table) == whole, name
            continue
        assert list(table) == list(whole), name
        for key, value in whole.items():
            got = table.get(key)
            assert (list(got) if isinstance(got, ar_farahidi._LazyList) else got) == value, (name, key)
            assert table[key] is got
            if isinstance(got, ar_farahidi._LazyList) and len(got):
                assert got[len(got) - 1] is got[-1]
            if "Formulas" in name:
                assert got.column("idDiacPatternStem") == [f["idDiacPatternStem"] for f in value], (name, key)
    assert lazy >= 12
    assert lexicon.unvoweled_stems("Nouns", 4) is loader.load_map("DATA.Derived.Nouns.Patterns.Stems.Unvoweled.map")[4]
