"""The Wino-X pronoun-accuracy result (Emelin and Sennrich 2021) and its text table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from discotest.data.winox import WinoxItem
from discotest.report.charts import Chart, ChartPoint
from discotest.report.result import Headline, ItemRow, PairedMetric, Result, Signature, phrase_marks
from discotest.report.table import fixed_width, row_ranges
from discotest.stats import accuracy_from_sums
from discotest.winox.judge import VERDICTS, PronounVerdict


@dataclass
class WinoxResult(Result):
    family: ClassVar[str] = "winox"
    suite: ClassVar[str] = "winox"
    lang: str
    system: str
    signature: Signature
    items: list[WinoxItem] = field(repr=False)
    translations: dict[int, str] = field(repr=False)
    verdicts: dict[int, PronounVerdict] = field(repr=False)
    unmatched: list[int] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.verdicts)

    @property
    def counts(self) -> Counter:
        return Counter(v.verdict for v in self.verdicts.values())

    @property
    def accuracy(self) -> float:
        """Percent of the judged items whose translation uses the gold pronoun (the paper's measure)."""
        return 100.0 * self.counts["correct"] / len(self.verdicts) if self.verdicts else 0.0

    @property
    def decided_accuracy(self) -> float:
        """The same among items whose translation chose one of the two pronouns."""
        decided = self.counts["correct"] + self.counts["wrong"]
        return 100.0 * self.counts["correct"] / decided if decided else 0.0

    table_legend: ClassVar[str] = ("acc % = translations using the gold pronoun; acc(decided) = the same among those "
                                   "using one of the two; then items per verdict")

    def headline(self) -> Headline:
        return Headline("accuracy", self.accuracy)

    def table_row(self) -> dict:
        return {"lang": self.lang, "system": self.system, "n": len(self.verdicts), "acc": self.accuracy,
                "acc(decided)": self.decided_accuracy, **{v: self.counts[v] for v in VERDICTS}}

    def summary(self) -> dict:
        return {"accuracy": round(self.accuracy, 2), "decided_accuracy": round(self.decided_accuracy, 2),
                "counts": {v: self.counts[v] for v in VERDICTS}}

    def extra_json(self) -> dict:
        return {"unmatched": len(self.unmatched), "unmatched_rows": row_ranges(self.unmatched)}

    def details(self) -> list[dict]:
        out = []
        for item in self.items:
            if item.index not in self.verdicts:
                continue
            v = self.verdicts[item.index]
            out.append({"system": self.system, "lang": self.lang, "index": item.index, "qID": item.qid,
                        "source": item.sentence, "translation": self.translations[item.index],
                        "gold_pronoun": item.gold_pronoun, "wrong_pronoun": item.wrong_pronoun,
                        "referent": item.gold_referent, "verdict": v.verdict, "counts": list(v.counts),
                        "expected_gold": list(v.expected_gold), "expected_wrong": list(v.expected_wrong)})
        return out

    def charts(self) -> list[Chart]:
        return [Chart("Wino-X pronoun accuracy by language", (ChartPoint(self.lang, self.system, self.accuracy),)),
                Chart("Wino-X verdicts (items)", tuple(ChartPoint(v, self.system, float(self.counts[v]))
                                                       for v in VERDICTS), unit="", digits=0)]

    def item_rows(self) -> list[ItemRow]:
        rules = (("source", "referent", "ent"), ("translation", "gold_pronoun", "gold"),
                 ("translation", "wrong_pronoun", "alt"))
        return [ItemRow(row, tuple(phrase_marks(row, rules)), f"{self.lang}/{row['index']}", row["index"])
                for row in self.details()]

    def paired_metrics(self) -> list[PairedMetric]:
        rows = {index: (float(v.verdict == "correct"), 1.0) for index, v in self.verdicts.items()}
        return [PairedMetric("accuracy", rows, accuracy_from_sums)]


def render_winox_table(results: Sequence[WinoxResult]) -> str:
    head = ["lang", "system", "n", "acc", "acc(decided)", *VERDICTS]
    rows = [[r.lang, r.system, str(len(r.verdicts)), f"{r.accuracy:.1f}", f"{r.decided_accuracy:.1f}",
             *(str(r.counts[v]) for v in VERDICTS)] for r in results]
    return "\n".join([*fixed_width(head, rows, left=2), *(f"signature: {r.signature}" for r in results)])
