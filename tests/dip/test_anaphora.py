"""Anaphora mining: pronoun at the aligned place, acceptable variants, anchoring."""

from __future__ import annotations

import pytest

from discotest.dip.anaphora import acceptable_pairs, aligned_pronouns, context_lines, differences, is_error
from discotest.dip.parse import parse

pytest.importorskip("spacy")


def _diffs(ref: str, sys: str) -> list[tuple[str, str]]:
    r, s = parse([ref, sys])
    return [(d.ref, d.sys) for d in differences(r, s)]


def test_substituted_pronoun_is_a_difference() -> None:
    # "her" rendered as "him" at the same place: an anaphora error
    assert _diffs("He saw her yesterday.", "He saw him yesterday.") == [("her", "him")]


def test_case_only_is_not_a_difference() -> None:
    # "He" vs "he": the same pronoun
    assert _diffs("He left early.", "Then he left early.") == []


def test_acceptable_collective_variant() -> None:
    # collective noun: "its" and "their" are both English for "the company"
    assert ("its", "their") in acceptable_pairs()
    assert _diffs("The company lost its license.", "The company lost their license.") == []
    assert not is_error("it", "they") and is_error("he", "she")


def test_pronoun_inside_rephrased_clause_is_not_compared() -> None:
    # "my main priority" vs "I would like": no equal neighbour anchors the pair, so no difference is claimed
    r, s = parse(["In any case, my main priority is a quick return.", "But I would like to return it quickly."])
    assert "i" not in aligned_pronouns(r, s).values()
    assert differences(r, s) == []


def test_anchored_replacement_in_a_longer_run() -> None:
    # "because it is" / "since he is": "is" anchors "it" -> "he"
    assert _diffs("because it is available in black", "since he is available in black") == [("it", "he")]


def test_context_lines_stay_in_the_document() -> None:
    assert context_lines(10, doc_start=9) == [9]
    assert context_lines(10, doc_start=0) == [8, 9]
    assert context_lines(0, doc_start=0) == []
