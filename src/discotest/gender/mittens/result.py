"""MiTTenS's result: per language, the share of passages whose translation gives the person the right gender
(``correct``), the other one (``wrong``), both, or none, overall and by the authors' ``eval_set_key``; the per-item
rows mark the deciding words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from discotest.report.result import Headline, ItemRow, Mark, PairedMetric, Result, Signature, grouped_signatures
from discotest.report.table import fixed_width, row_ranges
from discotest.stats import accuracy_from_sums

VERDICTS = ("correct", "wrong", "both", "none")


@dataclass(frozen=True)
class MittensVerdict:
    """One passage's translation read for the person's gender."""

    index: int  # the CSV row
    lang: str
    key: str  # eval_set_key
    gender: str  # the person's: female / male
    source: str
    translation: str
    verdict: str  # correct / wrong / both / none
    read: str  # female / male / both / none
    words: tuple[dict, ...]  # the gendered words read: word, start, end, gender, kind, person, why (in ``field``)
    field: str = "translation"  # the text the marks are on
    reason: str = ""  # out of English: why nothing was read

    def to_json(self) -> dict:
        return {"index": self.index, "lang": self.lang, "eval_set_key": self.key, "gender": self.gender,
                "source": self.source, "translation": self.translation, "verdict": self.verdict, "read": self.read,
                "deciding": [w["word"] for w in self.words if w["person"]], "words": list(self.words),
                **({"reason": self.reason} if self.reason else {})}


@dataclass(frozen=True)
class Counts:
    n: int
    correct: int
    wrong: int
    both: int
    none: int

    @classmethod
    def of(cls, verdicts: Sequence[MittensVerdict]) -> Counts:
        found = [v.verdict for v in verdicts]
        return cls(len(found), *(found.count(k) for k in VERDICTS))

    def pct(self, k: str) -> float | None:
        return 100.0 * getattr(self, k) / self.n if self.n else None

    def to_json(self) -> dict:
        return {"n": self.n, **{k: getattr(self, k) for k in VERDICTS},
                **{f"{k}_pct": None if self.pct(k) is None else round(self.pct(k), 4) for k in VERDICTS}}


@dataclass
class MittensResult(Result):
    """One system on one MiTTenS language (into English: the source language; out of English: the target)."""

    family: ClassVar[str] = "mittens"
    suite: str
    lang: str
    system: str
    signature: Signature
    verdicts: list[MittensVerdict] = field(default_factory=list, repr=False)
    unmatched: list[int] = field(default_factory=list)

    @property
    def pair(self) -> str:
        return f"{self.lang}-en" if self.suite == "mittens" else f"en-{self.lang}"

    @property
    def n(self) -> int:
        return len(self.verdicts)

    @property
    def overall(self) -> Counts:
        return Counts.of(self.verdicts)

    def by_key(self) -> dict[str, Counts]:
        keys = sorted({v.key for v in self.verdicts})
        return {k: Counts.of([v for v in self.verdicts if v.key == k]) for k in keys}

    def headline(self) -> Headline:
        return Headline("accuracy", self.overall.pct("correct"))

    def summary(self) -> dict:
        genders = {g: Counts.of([v for v in self.verdicts if v.gender == g]).to_json() for g in ("female", "male")}
        return {**self.overall.to_json(), "accuracy": self.overall.pct("correct"),
                "by_eval_set_key": {k: c.to_json() for k, c in self.by_key().items()}, "by_gender": genders}

    def extra_json(self) -> dict:
        return {"pair": self.pair, "unmatched": len(self.unmatched), "unmatched_rows": row_ranges(self.unmatched)}

    def details(self) -> list[dict]:
        return [{"system": self.system, "lang": self.lang, **v.to_json()} for v in self.verdicts]

    def item_rows(self) -> list[ItemRow]:
        """The translation (out of English: the translation's words the analyser read) with the person's words
        marked (cue) and the other people's (alt)."""
        out = []
        for v, row in zip(self.verdicts, self.details()):
            marks = tuple(Mark(v.field, w["start"], w["end"], "cue" if w["person"] else "alt") for w in v.words
                          if "start" in w)
            out.append(ItemRow(row, marks, f"{self.lang}/{v.index}"))
        return out

    def paired_metrics(self) -> list[PairedMetric]:
        correct = {v.index: (float(v.verdict == "correct"), 1.0) for v in self.verdicts}
        wrong = {v.index: (float(v.verdict in ("wrong", "both")), 1.0) for v in self.verdicts}
        return [PairedMetric("accuracy", correct, accuracy_from_sums),
                PairedMetric("wrong_rate", wrong, accuracy_from_sums)]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def render_mittens_table(results: Sequence[MittensResult]) -> str:
    """One row per system and language, then one per eval_set_key over them, then the signatures."""
    header = ["system", "pair", "n", "correct%", "wrong%", "both%", "none%", "unmatched"]
    rows = [[r.system, r.pair, str(r.n), *(_pct(r.overall.pct(k)) for k in VERDICTS), str(len(r.unmatched))]
            for r in results]
    by_key = []
    for system in dict.fromkeys(r.system for r in results):
        mine = [v for r in results if r.system == system for v in r.verdicts]
        for key in sorted({v.key for v in mine}):
            c = Counts.of([v for v in mine if v.key == key])
            by_key.append([system, key, str(c.n), *(_pct(c.pct(k)) for k in VERDICTS)])
    title = ("MiTTenS: the person's gender read from the translation; correct% = the passage's gender only, wrong% = "
             "the other only, both% = both, none% = no gendered word of the person")
    return "\n".join([title, *fixed_width(header, rows, left=2), "", "by eval_set_key (all languages above):",
                      *fixed_width(["system", "eval_set_key", "n", "correct%", "wrong%", "both%", "none%"], by_key,
                                   left=2), "", *grouped_signatures([r.signature for r in results], "system")])
