"""Bilingual pronoun tables: which English words render a (dropped) pronoun in a given form.

``zh_en.tsv`` has one row per Chinese pronoun and ZP form (``S`` subject, ``O`` object, ``Pa``
possessive adjective, ``P`` possessive pronoun, ``R`` reflexive) with the acceptable English words,
``|``-separated, lower case. Rows are keyed by the pronoun's stem (我, 他们 …): a ZP written 我的 or
我自己 is looked up as 我, and its annotated form decides the English word (我的 tagged ``_Pa`` → my,
``_P`` → mine). The annotation's form label wins when it and the written pronoun disagree (a bare 他
tagged ``_Pa`` expects "his"), because the label is what the annotators checked against the reference.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources

FORMS = ("S", "O", "Pa", "P", "R")
# written pronouns are a stem plus these (longest first): 我自己的 -> 我
_SUFFIXES = ("自己的", "自己", "的")


@dataclass(frozen=True)
class PronounTable:
    """(stem, form) -> English words, with the written forms a Chinese tokeniser must keep whole."""

    entries: dict[tuple[str, str], frozenset[str]]

    @cached_property
    def stems(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(stem for stem, _ in self.entries))

    @cached_property
    def _stem_set(self) -> frozenset[str]:
        return frozenset(self.stems)

    def stem(self, written: str) -> str | None:
        """The stem of a written pronoun (我们的 -> 我们), or None when it is not a pronoun of the table."""
        if written in self._stem_set:
            return written
        for suffix in _SUFFIXES:
            head = written[: -len(suffix)]
            if written.endswith(suffix) and head in self._stem_set and (head, "Pa") in self.entries:
                return head
        return None

    def expected(self, written: str, form: str) -> frozenset[str]:
        """English words that render ``written`` in ``form``; empty when the table has no such row."""
        stem = self.stem(written)
        return self.entries.get((stem, form), frozenset()) if stem else frozenset()

    def written_forms(self) -> list[str]:
        """Every pronoun as it may be written (stems, 的/自己/自己的 forms): the tokeniser's user words."""
        out = []
        for stem in self.stems:
            out.append(stem)
            if (stem, "Pa") in self.entries:  # personal pronouns; not the demonstratives
                out.extend(stem + suffix for suffix in _SUFFIXES)
        return out


@cache
def load_zh_en() -> PronounTable:
    text = resources.files("discotest.zero_pronoun.pronouns").joinpath("zh_en.tsv").read_text("utf-8")
    entries: dict[tuple[str, str], frozenset[str]] = {}
    for row in csv.DictReader(text.splitlines(), delimiter="\t"):
        words = frozenset(w.strip() for w in row["english"].split("|") if w.strip())
        entries[(row["pronoun"], row["form"])] = words
    return PronounTable(entries)
