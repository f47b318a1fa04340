"""Pronoun accuracy on Wino-X (Yehudai et al. 2023, §4.3): did the translation use the gold target pronoun?

The two reference translations of an item differ in the pronoun (``il``/``elle``, ``er``/``sie``/``es``) and
its agreement. The pronoun may also occur elsewhere in a sentence (German ``sie`` is also "they" and "her"), so a
translation is not judged by the mere presence of a pronoun: the number of times it uses each of the two
pronouns is compared with the numbers in the gold and in the wrong reference translation, and the closer one
wins. A translation with neither pronoun (it repeated the noun, dropped or rephrased the pronoun) and one equally
close to both are counted apart, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

from discotest.data.winox import WinoxItem
from discotest.lang.tokenize import tokenize

VERDICTS = ("correct", "wrong", "no-pronoun", "undecided")


@dataclass(frozen=True)
class PronounVerdict:
    verdict: str  # one of VERDICTS
    counts: tuple[int, int]  # times the translation uses the gold / the wrong pronoun
    expected_gold: tuple[int, int]  # the same counts in the gold reference translation
    expected_wrong: tuple[int, int]  # … and in the wrong one


def _words(text: str, lang: str) -> list[str]:
    """Lower-cased words; French elided forms keep their apostrophe (``qu'``), so ``il`` stays a word."""
    return [t.text.lower() for t in tokenize(text, lang)]


def _counts(words: list[str], gold: str, wrong: str) -> tuple[int, int]:
    return words.count(gold), words.count(wrong)


def judge(item: WinoxItem, translation: str, lang: str) -> PronounVerdict:
    gold, wrong = item.gold_pronoun.lower(), item.wrong_pronoun.lower()
    counts = _counts(_words(translation, lang), gold, wrong)
    expected_gold = _counts(_words(item.gold_translation, lang), gold, wrong)
    expected_wrong = _counts(_words(item.wrong_translation, lang), gold, wrong)
    if gold == wrong:  # both readings use the same form: the translation cannot show the choice
        return PronounVerdict("undecided", counts, expected_gold, expected_wrong)
    if counts == (0, 0):
        return PronounVerdict("no-pronoun", counts, expected_gold, expected_wrong)

    def distance(expected: tuple[int, int]) -> int:
        return abs(counts[0] - expected[0]) + abs(counts[1] - expected[1])

    to_gold, to_wrong = distance(expected_gold), distance(expected_wrong)
    verdict = "correct" if to_gold < to_wrong else "wrong" if to_wrong < to_gold else "undecided"
    return PronounVerdict(verdict, counts, expected_gold, expected_wrong)
