"""The contrastive suites' result (Voita, Bawden, SCAT, CTXPRO, ContraPro, jazp …) and its text report."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from discotest.contrastive.judge import Accuracy, ContrastiveScores, ContrastiveVerdict
from discotest.data.contrastive_item import ContrastiveItem
from discotest.report.charts import Chart, ChartPoint
from discotest.report.result import Headline, ItemRow, Mark, PairedMetric, Result, Signature
from discotest.stats import accuracy_from_sums

MAX_PAIRS = 15  # the text table shows the most frequent pronoun pairs; JSON has them all


@dataclass
class ContrastiveResult(Result):
    """Accuracy of one system (a scores file, a model at one context size, a baseline, a translation file)."""

    family: ClassVar[str] = "contrastive"
    labels: ClassVar[dict[str, str]] = {
        "overall.ci95": "± 95% CI (pp)", "candidates": "Candidates", "chosen": "Chosen", "distance": "Distance",
    }
    suite: str
    system: str
    scores: ContrastiveScores
    signature: Signature
    verdicts: list[ContrastiveVerdict] = field(default_factory=list, repr=False)
    lang: str | None = None  # "en-ru" …, when the suite has fixed languages
    suite_items: dict[int, ContrastiveItem] = field(default_factory=dict, repr=False)  # by index: the HTML's text
    licence: str = ""  # the suite data's licence, when the registry holds it (BSD's CC BY-NC-SA must travel along)

    @property
    def n(self) -> int:
        return self.scores.overall.n

    table_legend: ClassVar[str] = ("accuracy % = items where the correct candidate scores best; ± = half-width of the "
                                   "95% bootstrap interval; d=k: accuracy when the antecedent is k sentences back")
    table_digits: ClassVar[int] = 2

    def headline(self) -> Headline:
        return Headline("accuracy", self.scores.overall.accuracy)

    def table_row(self) -> dict:
        """System, suite, accuracy ± CI, n, then accuracy by antecedent distance (Shimazu et al.'s table)."""
        s = self.scores
        return {"suite": self.suite, "lang": self.lang, "system": self.system, "accuracy": s.overall.accuracy,
                "±": s.overall.ci, "n": s.overall.n, **{f"d={k}": v.accuracy for k, v in s.by_distance.items()}}

    def summary(self) -> dict:
        return {**self.scores.to_json(), **({"licence": self.licence} if self.licence else {})}

    def details(self) -> list[dict]:
        return [{"system": self.system, "suite": self.suite, **v.to_json()} for v in self.verdicts]

    def charts(self) -> list[Chart]:
        s, name = self.scores, self.system
        out = [Chart(f"{self.suite}: accuracy", (ChartPoint(name, "accuracy", s.overall.accuracy,
                                                              f"± {s.overall.ci:.1f}"),),
                     note="± the half-width of the 95% bootstrap interval")]
        if s.by_distance:
            out.append(Chart(f"{self.suite}: accuracy by antecedent distance",
                             tuple(ChartPoint(f"d={k}", name, v.accuracy, f"n={v.n}")
                                   for k, v in s.by_distance.items()),
                             note="d = sentences between the pronoun and its antecedent (0: the same sentence)"))
        if len(s.by_phenomenon) > 1:
            out.append(Chart(f"{self.suite}: accuracy by phenomenon",
                             tuple(ChartPoint(k, name, v.accuracy, f"n={v.n}") for k, v in s.by_phenomenon.items())))
        return out

    def item_rows(self) -> list[ItemRow]:
        """The details with the item's text when the suite's items are known: context, source, and the candidates
        with the right one marked (and the chosen one, when it is wrong); CTXPRO: the expected word in the
        translation."""
        out = []
        for v, row in zip(self.verdicts, self.details()):
            row = dict(row)
            if row.get("tied"):  # a tie is shown as one: no candidate was chosen, and it counts as wrong
                row["chosen"] = "tie: " + ", ".join(map(str, row.pop("tied")))
            marks = self._expected_mark(v)
            item = self.suite_items.get(v.index)
            if item is not None:
                row["context"] = " ⏎ ".join(item.src_context)
                row["source"] = item.src
                if item.tgt_context:
                    row["target context"] = " ⏎ ".join(item.tgt_context)
                text, at = [], 0
                for k, candidate in enumerate(item.candidates):
                    if k:
                        text.append(" ‖ ")
                        at += 3
                    tie = v.chosen is None and len(v.scores) > 1 and k in v.tied
                    kind = ("gold" if k == item.correct_index else "tie" if tie else "chosen" if k == v.chosen
                            else "")
                    if kind:
                        marks.append(Mark("candidates", at, at + len(candidate), kind))
                    text.append(candidate)
                    at += len(candidate)
                if item.candidates:
                    row["candidates"] = "".join(text)
            out.append(ItemRow(row, tuple(marks), f"{self.suite}/{v.index}", v.index))
        return out

    def _expected_mark(self, v: ContrastiveVerdict) -> list[Mark]:
        """The expected word where the verdict found it: in the translation's last sentence, in any case (as the
        authors' test lower-cases)."""
        if not v.expected or not v.translation:
            return []
        from discotest.contrastive.ctxpro import last_sentence

        last = last_sentence(v.translation, (self.lang or "en-de").split("-")[-1])
        at = v.translation.rfind(last) if last else -1
        found = re.search(rf"(?<!\w){re.escape(v.expected)}(?!\w)", last, re.IGNORECASE) if at >= 0 else None
        return [Mark("translation", at + found.start(), at + found.end(), "gold")] if found else []

    def paired_metrics(self) -> list[PairedMetric]:
        return [PairedMetric("accuracy", {v.index: (float(v.correct), 1.0) for v in self.verdicts},
                             accuracy_from_sums)]


def _row(label: str, acc: Accuracy) -> str:
    return f"  {label:<28} {acc.accuracy:6.2f} ± {acc.ci:5.2f}  (n={acc.n})"


def render_contrastive_table(results: Sequence[ContrastiveResult]) -> str:
    lines = []
    for r in results:
        s = r.scores
        lines.append(f"{r.suite} · {r.system}: accuracy {s.overall.accuracy:.2f} ± {s.overall.ci:.2f} "
                     f"(95% bootstrap CI, n={s.overall.n})")
        if s.by_distance:
            lines.append(" by antecedent distance d")
            lines += [_row(f"d={k}", v) for k, v in s.by_distance.items()]
        if len(s.by_phenomenon) > 1:
            lines.append(" by phenomenon")
            lines += [_row(k, v) for k, v in s.by_phenomenon.items()]
        if len(s.by_pair) > 1 and set(s.by_pair) != set(s.by_phenomenon):  # CTXPRO: pairs are its phenomena
            frequent = sorted(s.by_pair.items(), key=lambda kv: -kv[1].n)[:MAX_PAIRS]
            more = len(s.by_pair) - len(frequent)
            lines.append(" by pair (correct>incorrect)" + (f", {len(frequent)} most frequent of {len(s.by_pair)}"
                                                           if more else ""))
            lines += [_row(k, v) for k, v in frequent]
        if r.licence:
            lines.append(f" licence of the suite's data: {r.licence}")
        lines.append(f" signature: {r.signature.format()}")
        lines.append("")
    return "\n".join(lines).rstrip()
