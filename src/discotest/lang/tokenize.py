"""Word tokenisation with character offsets, shared by the aligner and the analysers.

Deliberately simple and language-aware only where alignment needs it: French and Italian elided
articles (``l'``, ``dell'``) are split from their noun so the noun aligns on its own; hyphenated
words stay whole; punctuation is its own token. Moses escapes (``@-@``) in published outputs are
treated as a hyphen joining the words.
"""

from __future__ import annotations

import re
from functools import cache

from discotest.lang.morph.base import Token

_ELIDING_LANGS = {"fr", "it"}
# elided function words of French and Italian (the apostrophe stays on the head)
_ELISIONS = (
    "l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu",
    "dell", "all", "dall", "nell", "sull", "coll", "un", "quest", "quell", "bell", "sant",
)
# letters plus the combining marks Python's \w leaves out: Hebrew niqqud/cantillation, Arabic harakat
_LETTER = r"[\w\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED]"
# inside a word: hyphen/apostrophe, or a Hebrew geresh/gershayim between Hebrew letters (צ'יף, מנכ"ל)
_JOINER = r"(?:[-'’]|(?<=[\u05D0-\u05EA])[\"'׳״](?=[\u05D0-\u05EA]))"
_WORD = rf"{_LETTER}+(?:{_JOINER}{_LETTER}+)*"
_PUNCT = r"[^\w\s]"


@cache
def _pattern(lang: str) -> re.Pattern[str]:
    if lang in _ELIDING_LANGS:
        # "l'infirmière" -> "l'", "infirmière"; "aujourd'hui" stays whole (not an elided head)
        heads = "|".join(_ELISIONS)
        elided = rf"(?<!\w)(?:{heads})['’](?=\w)"
        return re.compile(rf"(?i:{elided})|{_WORD}|{_PUNCT}")
    return re.compile(rf"{_WORD}|{_PUNCT}")


_SPLIT_APOSTROPHE = re.compile(r"(?<=\w) ' (?=\w)")


def normalise_moses(text: str) -> str:
    """Undo the Moses escapes and splits some published outputs carry (``Olympia @-@ Rat``, ``l ' agent``)."""
    text = text.replace(" @-@ ", "-").replace("&apos;", "'").replace("&quot;", '"')
    return _SPLIT_APOSTROPHE.sub("'", text)


_new_tuple = tuple.__new__


def tokenize(text: str, lang: str) -> tuple[Token, ...]:
    """Tokens of ``text`` with offsets into ``text`` itself (no normalisation applied). Made by ``tuple.__new__``, the
    named tuple's own constructor without its Python-level ``__new__`` (a third of the cost of a token)."""
    return tuple([_new_tuple(Token, (m.group(), m.start(), m.end())) for m in _pattern(lang).finditer(text)])


def words(text: str, lang: str) -> tuple[str, ...]:
    """The texts of ``tokenize``'s tokens, without making the tokens (the patterns have no groups, so ``findall``
    gives whole matches): an alignment model's training text is 30,000 sentences, and making their tokens took
    most of its preparation."""
    return tuple(_pattern(lang).findall(text))
