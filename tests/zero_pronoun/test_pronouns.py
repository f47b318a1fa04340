"""The zh→en pronoun table: every row as we mean it, and every row through the scorer."""

from __future__ import annotations

import pytest

from discotest.zero_pronoun.judge import judge_segment
from discotest.zero_pronoun.mzprt import ZeroPronoun
from discotest.zero_pronoun.pronouns import FORMS, load_zh_en

PERSONAL = {
    # stem: (S, O, Pa, P, R)
    "我": ("i", "me", "my", "mine", "myself"),
    "你": ("you", "you", "your", "yours", "yourself"),
    "您": ("you", "you", "your", "yours", "yourself"),
    "他": ("he", "him", "his", "his", "himself"),
    "她": ("she", "her", "her", "hers", "herself"),
    "它": ("it", "it", "its", "its", "itself"),
    "我们": ("we", "us", "our", "ours", "ourselves"),
    "咱们": ("we", "us", "our", "ours", "ourselves"),
    "咱": ("we|i", "us|me", "our|my", "ours|mine", "ourselves|myself"),
    "你们": ("you", "you", "your", "yours", "yourselves"),
    "您们": ("you", "you", "your", "yours", "yourselves"),
    "他们": ("they", "them", "their", "theirs", "themselves"),
    "她们": ("they", "them", "their", "theirs", "themselves"),
    "它们": ("they", "them", "their", "theirs", "themselves"),
}
DEMONSTRATIVE = {"这": "this|it", "这个": "this|it", "那": "that|it", "那个": "that|it"}

EXPECTED = {
    **{
        (stem, form): set(words.split("|"))
        for stem, row in PERSONAL.items()
        for form, words in zip(("S", "O", "Pa", "P", "R"), row)
    },
    **{(stem, form): set(words.split("|")) for stem, words in DEMONSTRATIVE.items() for form in ("S", "O")},
}


def test_the_table_is_exactly_the_intended_one():
    table = load_zh_en()
    assert {k: set(v) for k, v in table.entries.items()} == EXPECTED
    assert set(FORMS) == {"S", "O", "Pa", "P", "R"}


@pytest.mark.parametrize(("stem", "form"), sorted(EXPECTED))
def test_every_row_through_the_scorer(stem, form):
    """A ZP aligned to a right word is correct; to the same pronoun in another form it is wrong."""
    table = load_zh_en()
    right = sorted(EXPECTED[(stem, form)])[0]
    src = ["说", stem, "来"]
    links = {(0, 0), (1, 1), (2, 2)}
    zps = [(ZeroPronoun(0, 1, 0, stem, form, 1, 1 + len(stem)), 1)]

    def correct(hyp: list[str]) -> bool | None:
        return judge_segment(src, hyp, links, zps, table, window=0)[0].correct

    assert correct(["said", right, "come"])
    # wrong: the same pronoun in another form (I for me), else another pronoun
    others = set().union(*(words for (s, _), words in EXPECTED.items() if s == stem)) - EXPECTED[(stem, form)]
    wrong = sorted(others)[0] if others else next(w for w in ("he", "that") if w not in EXPECTED[(stem, form)])
    assert correct(["said", wrong, "come"]) is False


@pytest.mark.parametrize(
    ("written", "form", "words"),
    [
        ("我的", "Pa", {"my"}),
        ("我的", "P", {"mine"}),
        ("我自己", "R", {"myself"}),
        ("我自己的", "R", {"myself"}),
        ("他们的", "Pa", {"their"}),
        ("她们自己", "R", {"themselves"}),
        ("他", "Pa", {"his"}),  # a bare pronoun labelled possessive: the label decides
        ("你的", "S", {"you"}),
        ("这个", "O", {"this", "it"}),
    ],
)
def test_written_forms_reduce_to_their_stem(written, form, words):
    assert set(load_zh_en().expected(written, form)) == words


def test_unknown_pronouns_and_forms():
    table = load_zh_en()
    assert table.stem("他們") is None and table.expected("他們", "S") == frozenset()
    assert table.expected("这的", "Pa") == frozenset()  # demonstratives have no 的 forms
    assert table.expected("我", "UN") == frozenset()


def test_written_forms_are_the_tokeniser_user_words():
    forms = load_zh_en().written_forms()
    assert {"我", "我的", "我自己", "我自己的", "它们的", "这个"} <= set(forms)
    assert "这的" not in forms and len(forms) == len(set(forms))
