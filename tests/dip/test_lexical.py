"""Lexical consistency: repeated reference lemmas, counting, miss classification, document blocks."""

from __future__ import annotations

import pytest

from discotest.dip.documents import Document, blocks, group_documents
from discotest.dip.lexical import classify_miss, count_lemma, focus_lemmas
from discotest.dip.parse import parse
from discotest.errors import InputError

pytest.importorskip("spacy")

REF = ["The car was red.", "She washed the car.", "Then the car broke down."]


def test_focus_lemmas_need_two_occurrences_of_a_noun_or_adjective() -> None:
    # "car" occurs 3 times; "red" once; stop-listed adjectives never count
    assert dict(focus_lemmas(parse(REF))) == {"car": 3}
    assert dict(focus_lemmas(parse(["Other people came.", "Other people left."]))) == {"people": 2}


def test_other_word_miss() -> None:
    # the system says "vehicle" where the reference repeats "car": consistent 2 < 3, classified "other_word"
    sys = parse(["The car was red.", "She washed the vehicle.", "Then the car broke down."])
    ref = parse(REF)
    assert count_lemma(sys, "car") == 2
    assert classify_miss(ref, sys, "car") == ("other_word", "vehicle")


def test_omission_miss() -> None:
    # the system drops the noun phrase: "She washed it" -> the aligned place has no noun: "omission"
    sys = parse(["The car was red.", "She washed it.", "Then the car broke down."])
    assert classify_miss(parse(REF), sys, "car")[0] == "omission"


def test_blocks_are_3_to_5_lines_without_overlap() -> None:
    # 11 lines -> 4 + 4 + 3; 2 lines -> no block; 5 lines -> one block
    assert [len(b) for b in blocks(Document("d", 0, 11))] == [4, 4, 3]
    assert blocks(Document("d", 0, 2)) == []
    assert blocks(Document("d", 7, 12)) == [range(7, 12)]
    for n in range(3, 40):
        sizes = [len(b) for b in blocks(Document("d", 0, n))]
        assert sum(sizes) == n and all(3 <= s <= 5 for s in sizes)


def test_group_documents_rejects_split_documents() -> None:
    docs = group_documents(["a", "a", "b", "b", "b"])
    assert [(d.doc_id, d.start, d.end) for d in docs] == [("a", 0, 2), ("b", 2, 5)]
    with pytest.raises(InputError, match="non-contiguous"):
        group_documents(["a", "b", "a"])
