"""Bilingual lexicon of the suites' entity nouns, used to confirm or find the target entity.

One TSV per target language in ``entities/``: ``entity`` (English, lower case, as in WinoMT/BUG),
``masculine``, ``feminine``, ``common`` (``|``-separated surface forms, inflected forms included;
``common`` holds epicene forms shared by both genders). Matching is case-insensitive; for Hebrew and
Arabic a token may carry the language's one-letter proclitics (ה, ו, ב, ל …; ال, و, ب, ل …); for German a
compound whose last part is a known form (Bau|arbeiterin) matches when no whole word does.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from discotest.lang.morph.base import Token

# proclitics that may be glued to a noun; longest first so "وال" is tried before "و"
_PROCLITICS = {
    "he": (
        "וכשה", "וכש", "ושה", "שה", "וה", "וב", "ול", "ומ", "בה", "לה", "מה", "כש", "ה", "ו", "ב", "ל", "מ", "כ", "ש",
    ),
    "ar": ("وبال", "فال", "وال", "بال", "كال", "لال", "لل", "ال", "و", "ف", "ب", "ل", "ك"),
}
# languages that build compounds whose last part is the entity noun (Bau|arbeiterin, Rechts|berater)
_COMPOUNDING = {"de"}
_MIN_COMPOUND_HEAD = 5


@dataclass(frozen=True)
class EntityForms:
    masculine: frozenset[str]
    feminine: frozenset[str]
    common: frozenset[str]

    @property
    def all(self) -> frozenset[str]:
        return self.masculine | self.feminine | self.common


_MARKS = {
    "ar": re.compile("[\u0610-\u061A\u064B-\u065F\u0670\u0640]"),  # harakat, shadda, tatweel
    "he": re.compile("[\u0591-\u05C7]"),  # niqqud and cantillation
}
_ALEF = str.maketrans("أإآٱ", "اااا")


def normalise(word: str, lang: str) -> str:
    """Lower case; for Arabic and Hebrew also without vowel marks (and one Arabic alef)."""
    word = word.lower()
    if lang in _MARKS:
        word = _MARKS[lang].sub("", word)
    if lang == "ar":
        word = word.translate(_ALEF)
    return word


def _split(cell: str | None, lang: str) -> frozenset[str]:
    return frozenset(normalise(f.strip(), lang) for f in (cell or "").split("|") if f.strip())


@cache
def entity_lexicon(lang: str) -> dict[str, EntityForms]:
    """English entity -> its target forms; empty when the language has no lexicon file."""
    resource = resources.files("discotest.lang.lexicon").joinpath("entities", f"{lang}.tsv")
    if not resource.is_file():
        return {}
    with resource.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return {
            r["entity"].strip().lower(): EntityForms(
                _split(r["masculine"], lang), _split(r["feminine"], lang), _split(r["common"], lang)
            )
            for r in rows
        }


# endings a target language puts on an English noun it keeps (Mover, Movers, Movern; auditor, auditors)
_LOAN_ENDINGS = ("", "s", "n", "en", "es", "ern")


def english_kept(word: str, lang: str) -> bool:
    """Whether ``word`` is an English entity noun left untranslated (German "Mover", Italian "auditor"), as the
    entity lexicon lists it among the target forms: not a native noun, so it has no lexical gender of its own and
    its article or agreeing words decide (issue 40). Its inflected forms count (Movern); a feminine derivation
    (Moverin) is native morphology and does not."""
    return normalise(word, lang) in _english_forms(lang)


@cache
def _english_forms(lang: str) -> frozenset[str]:
    return frozenset(key + ending for key in entity_lexicon(lang) if " " not in key for ending in _LOAN_ENDINGS)


@lru_cache(maxsize=200_000)
def _candidates(word: str, lang: str) -> tuple[str, ...]:
    """The normalised word and, for Hebrew/Arabic, the word without each proclitic it may carry."""
    word = normalise(word, lang)
    out = [word]
    for clitic in _PROCLITICS.get(lang, ()):
        if word.startswith(clitic) and len(word) - len(clitic) >= 2:
            out.append(word[len(clitic):])
    return tuple(out)


@dataclass(frozen=True)
class _Matcher:
    """An entity's forms arranged for matching: multi-word forms longest first, compound heads."""

    single: frozenset[str]
    multi: tuple[tuple[str, ...], ...]
    heads: tuple[str, ...]


@cache
def _matcher(lang: str, entity: str) -> _Matcher | None:
    forms = entity_lexicon(lang).get(entity)
    if not forms:
        return None
    # longest first; equal lengths in a fixed order (``forms.all`` is a set, whose order changes with the hash seed:
    # without the tie-break two runs could locate a different two-word rendering of the same entity)
    multi = sorted((tuple(f.split()) for f in forms.all if " " in f), key=lambda parts: (-len(parts), parts))
    heads = tuple(f for f in forms.all if len(f) >= _MIN_COMPOUND_HEAD and " " not in f)
    return _Matcher(forms.all, tuple(multi), heads if lang in _COMPOUNDING else ())


def find_entity_tokens(tokens: tuple[Token, ...], entity: str, lang: str) -> tuple[int, ...]:
    """Indices of tokens that are a known rendering of ``entity`` (multi-word forms matched whole)."""
    matcher = _matcher(lang, entity.lower())
    if matcher is None:
        return ()
    candidates = [_candidates(t.text, lang) for t in tokens]
    texts = [c[0] for c in candidates]
    for parts in matcher.multi:
        for start in range(len(texts) - len(parts) + 1):
            if parts[0] in candidates[start] and tuple(texts[start + 1 : start + len(parts)]) == parts[1:]:
                return tuple(range(start, start + len(parts)))
    found = tuple(i for i, cands in enumerate(candidates) if not matcher.single.isdisjoint(cands))
    if found or not matcher.heads:
        return found
    return tuple(i for i, text in enumerate(texts) if any(text.endswith(h) and text != h for h in matcher.heads))
