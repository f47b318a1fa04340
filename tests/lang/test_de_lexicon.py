"""The compiled german-nouns lexicon (``lang.morph.de_lexicon``): what it keeps of a row, its file, its cache key.

A five-row german-nouns CSV written here, in the package's own column layout (lemma, pos, genus, genus 1..4, then
case forms), stands in for the 20 MB original; each expected entry is worked out by hand from the rows below. The
last test reads the installed german-nouns through the cache. That every form of the installed german-nouns (1.2.5)
reads the same as through ``german_nouns.lookup.Nouns`` and its index.txt before this module existed was checked
once over all 273,642 index keys, and by ``cmp`` of the German per-item outputs of all five published systems
(issue 15 note).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from discotest.lang.morph import de_lexicon
from discotest.lang.morph.de_lexicon import ADJECTIVAL_CELLS, GermanNounLexicon, cache_key, compile_lexicon

HEADER = ["lemma", "pos", "genus", "genus 1", "genus 2", "genus 3", "genus 4",
          "nominativ singular", "nominativ singular 1", "nominativ singular 2", "nominativ plural",
          "dativ singular", "genitiv singular*", "nominativ singular stark", "nominativ singular schwach"]


def write_nouns(folder: Path) -> Path:
    rows = [
        # 0: a plain masculine noun
        ["Arzt", "Substantiv", "m", "", "", "", "", "Arzt", "", "", "Ärzte", "Arzt", "Arztes", "", ""],
        # 1: the surname Arzt: a name row, left out (Arzt would otherwise also be read from it)
        ["Arzt", "Nachname,Substantiv", "f", "", "", "", "", "Arzt", "", "", "", "", "", "", ""],
        # 2: two genders, each on its own numbered column: Leiter 1 is masculine, Leiter 2 feminine
        ["Leiter", "Substantiv", "", "m", "f", "", "", "", "Leiter", "Leiter", "Leiter", "", "", "", ""],
        # 3: a person noun declined like an adjective (lemma Angestellter)
        ["Angestellter", "Substantiv,adjektivische Deklination", "m", "", "", "", "", "", "", "", "", "", "",
         "Angestellter", "Angestellte"],
        # 4: not a noun at all
        ["blau", "Adjektiv", "", "", "", "", "", "blau", "", "", "", "", "", "", ""],
    ]
    csv_path = folder / "nouns.csv"
    with open(csv_path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([HEADER, *rows])
    return csv_path


def test_compiled_entries(tmp_path):
    data = compile_lexicon(write_nouns(tmp_path))
    lines = data.decode().splitlines()
    # sorted by the form's bytes ("ä" after every ASCII letter); blau (no noun) and nothing-filling forms are absent
    assert [line.split("\t")[0] for line in lines] == ["angestellte", "angestellter", "arzt", "arztes", "leiter",
                                                       "ärzte"]
    entries = dict(line.split("\t") for line in lines)
    # Arzt: nominative and dative singular of row 0 only (the surname row 1 would add feminine cells)
    assert entries["arzt"] == "Nmds-mns-"
    # the starred column "genitiv singular*" is a genitive singular like any other
    assert entries["arztes"] == "Nmgs-"
    assert entries["ärzte"] == "Nmnp-"
    # Leiter: "nominativ singular 1" takes genus 1 (m), "... 2" genus 2 (f); the plural column both
    assert entries["leiter"] == "Nfnp-fns-mnp-mns-"
    # Angestellte on the adjectival lemma Angestellter: stem "angestellt" + ending "e", every cell of that ending
    cells = lexicon(data).lookup("angestellte")
    assert cells == (ADJECTIVAL_CELLS["e"], True)
    assert ("f", "nom", "sg", "stark") in cells[0] and ("m", "nom", "sg", "schwach") in cells[0]


def lexicon(data: bytes) -> GermanNounLexicon:
    return GermanNounLexicon(data)


def test_lookup_finds_every_line_and_nothing_else(tmp_path):
    data = compile_lexicon(write_nouns(tmp_path))
    lex = lexicon(data)
    assert lex.lookup("arzt") == (frozenset({("m", "nom", "sg", ""), ("m", "dat", "sg", "")}), False)
    assert lex.lookup("ärzte") == (frozenset({("m", "nom", "pl", "")}), False)
    # absent: before the first line, after the last, between lines, a prefix of a form, a form with a tab
    for form in ("aaa", "zzz", "arzu", "arz", "", "arzt\tx", "Arzt"):
        assert lex.lookup(form) is None, form


def test_search_on_a_longer_sorted_file():
    # every other three-letter word present: binary search must find each present one and none of the others
    words = sorted(f"{a}{b}{c}" for a in "abcdefgh" for b in "aeiou" for c in "nrst")
    present = words[::2]
    data = "".join(f"{w}\tNmns-\n" for w in present).encode()
    lex = lexicon(data)
    assert [w for w in words if lex.lookup(w) is not None] == present


def test_cache_key_follows_the_data(tmp_path):
    csv_path = write_nouns(tmp_path)
    key = cache_key(csv_path)
    assert cache_key(csv_path) == key
    with open(csv_path, "a", encoding="utf-8") as f:
        f.write("Ärztin,Substantiv,f,,,,,Ärztin,,,,,,,\n")  # another german-nouns version: another compiled file
    assert cache_key(csv_path) != key


def test_compiled_once_then_read_from_the_cache(tmp_path, monkeypatch):
    csv_path = write_nouns(tmp_path)
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(de_lexicon, "_data_file", lambda: csv_path)
    first = de_lexicon.load_compiled()
    monkeypatch.setattr(de_lexicon, "compile_lexicon", lambda *a: pytest.fail("compiled again"))
    assert de_lexicon.load_compiled() == first
    assert GermanNounLexicon().lookup("arzt") == lexicon(first).lookup("arzt")


def test_installed_german_nouns(tmp_path, monkeypatch):
    pytest.importorskip("german_nouns")
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    lex = GermanNounLexicon()
    # Wiktionary: der Arzt (masculine; nominative, dative, accusative singular), die Ärztin (feminine, all four)
    assert lex.lookup("arzt") == (frozenset({("m", c, "sg", "") for c in ("nom", "acc", "dat")}), False)
    assert lex.lookup("ärztin") == (frozenset({("f", c, "sg", "") for c in ("nom", "acc", "dat", "gen")}), False)
    # die Angestellte: a nominalised participle, read by its adjectival ending
    assert lex.lookup("angestellte") == (ADJECTIVAL_CELLS["e"], True)
    assert lex.lookup("xyzzy") is None
