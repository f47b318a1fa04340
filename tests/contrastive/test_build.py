"""make-contrastive: swapping a whole pronoun chain and fixing English agreement, on tricky cases."""

from __future__ import annotations

import json

import pytest

from discotest.cli import main
from discotest.contrastive.build import build_item, swap_chain
from discotest.contrastive.jsonl import load_jsonl
from discotest.errors import InputError

CASES = [
    # (target, chain, replacement, expected)
    ("He is happy and he likes his dog .", [0, 4, 6], "they", "They are happy and they like their dog ."),
    ("They were tired , but they kept going .", [0, 5], "it", "It was tired , but it kept going ."),
    ("I saw her in the park with her brother .", [2, 7], "he", "I saw him in the park with his brother ."),
    ("The book is hers .", [3], "they", "The book is theirs ."),
    ("She says she has lost her keys and blames herself .", [0, 2, 5, 9], "he",
     "He says he has lost his keys and blames himself ."),
    ("He's been here before , he doesn't care .", [0, 5], "they", "They've been here before , they don't care ."),
    ("They're late because they always go there .", [0, 3], "she", "She's late because she always goes there ."),
    ("It fell , but it did not break . I picked it up .", [0, 4, 11], "they",
     "They fell , but they did not break . I picked them up ."),
    ("He tries and he watches .", [0, 3], "they", "They try and they watch ."),
    ("Give it to her .", [1], "they", "Give them to her ."),  # "her" is not in the chain: untouched
    ("They went home .", [0], "he", "He went home ."),  # past tense needs no agreement
    ("They have a car ; they do not drive it .", [0, 5], "she", "She has a car ; she does not drive it ."),
    ("\"He was right ,\" she said .", [0], "they", "\"They were right ,\" she said ."),
    ("HE IS HERE .", [0], "she", "SHE IS HERE ."),
    ("Tell him his coffee is ready .", [{"token": 1, "case": "obj"}, 2], "she", "Tell her her coffee is ready ."),
    ("The house is his .", [3], "she", "The house is hers ."),
    ("She can swim but she isn't fast .", [0, 4], "they", "They can swim but they aren't fast ."),
]


@pytest.mark.parametrize("target, chain, new, expected", CASES)
def test_swap_chain(target, chain, new, expected):
    assert swap_chain(target, chain, new) == expected


def test_build_item_defaults_and_passthrough():
    row = {"id": "x1", "source": "母は駅に着いた。", "context": ["a", "b", "c"], "distance": 0,
           "target": "She arrived at the station and she called me .", "chain": [0, 6]}
    out = build_item(row)
    assert out["incorrect"] == ["He arrived at the station and he called me ."]
    assert (out["pronoun"], out["incorrect_pronoun"], out["id"], out["distance"]) == ("she", ["he"], "x1", 0)
    assert build_item({**row, "chain": [0]}, replacement="they")["incorrect"][0].startswith("They arrived")


@pytest.mark.parametrize("row, message", [
    ({"chain": [0]}, "missing field 'target'"),
    ({"target": "She came .", "chain": []}, "non-empty list"),
    ({"target": "She came .", "chain": [7]}, "does not point into"),
    ({"target": "The cat came .", "chain": [1]}, "not a he/she/it/they"),
])
def test_build_item_errors(row, message):
    with pytest.raises(InputError, match=message):
        build_item(row, where="in.jsonl", line=3)


def test_cli_make_contrastive_round_trip(tmp_path, capsys):
    src = tmp_path / "annotated.jsonl"
    rows = [{"source": "s1", "target": "He said he was busy .", "chain": [0, 2], "distance": 1},
            {"source": "s2", "target": "They lost their keys .", "chain": [0, 2], "distance": 2}]
    src.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "suite.jsonl"
    assert main(["make-contrastive", "--input", str(src), "-o", str(out)]) == 0
    items = load_jsonl(out)
    assert [i.incorrect[0] for i in items] == ["She said she was busy .", "It lost its keys ."]
    assert [i.pair for i in items] == ["he>she", "they>it"]
    src.write_text(json.dumps({"target": "x"}) + "\n")
    assert main(["make-contrastive", "--input", str(src), "-o", str(out)]) == 2
    assert f"{src}:1: missing field 'chain'" in capsys.readouterr().err
