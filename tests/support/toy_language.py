"""A gender analyser of the test's own, registered as language "xx" by tests/registry/test_families.py
(docs/contributing/adding-a-language.md followed for real): it reads the article before the entity's aligned words of
a German translation, the way a newcomer's first analyser might, so a whole ``discotest.run`` can go through a
language discotest did not ship."""

from __future__ import annotations

from collections.abc import Sequence

from discotest.lang.morph.base import Gender, GenderAnalyser, GenderReading, TargetEntity

ARTICLES = {"der": Gender.MALE, "den": Gender.MALE, "dem": Gender.MALE, "ein": Gender.MALE, "einen": Gender.MALE,
            "die": Gender.FEMALE, "eine": Gender.FEMALE, "das": Gender.NEUTRAL}


class ArticleAnalyser(GenderAnalyser):
    lang = "xx"
    name = "toy-articles"

    def version(self) -> str:
        return "toy-articles-1"

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        out = []
        for item in items:
            if not item.entity:
                out.append(GenderReading(Gender.UNKNOWN, "no aligned words"))
                continue
            before = item.tokens[min(item.entity) - 1].text.lower() if min(item.entity) > 0 else ""
            gender = ARTICLES.get(before, Gender.UNKNOWN)
            out.append(GenderReading(gender, f"article '{before}'" if before in ARTICLES else "no article",
                                     (before,) if before in ARTICLES else ()))
        return out
