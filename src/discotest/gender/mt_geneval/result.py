"""MT-GenEval's result (Currey et al. 2022): reference-based gender accuracy per gender, the share of items the
metric cannot decide, and the authors' own figure; the per-item rows mark the deciding words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from discotest.gender.mt_geneval.judge import (
    PUNCTUATION_AS_SPACE,
    Agreement,
    FreeReading,
    GenEvalScores,
    GenEvalVerdict,
    based,
    words,
)
from discotest.report.charts import Chart, ChartPoint
from discotest.report.result import Headline, ItemRow, Mark, PairedMetric, Result, Signature, grouped_signatures
from discotest.report.table import fixed_width, row_ranges
from discotest.stats import accuracy_from_sums


@dataclass
class GenEvalResult(Result):
    """One system on one MT-GenEval subset, language and split."""

    family: ClassVar[str] = "mt-geneval"
    suite: str
    lang: str
    subset: str
    split: str
    system: str
    scores: GenEvalScores
    signature: Signature
    verdicts: list[GenEvalVerdict] = field(default_factory=list, repr=False)
    unmatched: list[int] = field(default_factory=list)
    # the reference-free reading beside it (``--reference-free``): one per verdict, and its agreement
    free: list[FreeReading] | None = field(default=None, repr=False)
    agreement: Agreement | None = None

    @property
    def scope(self) -> str:
        return self.subset if self.split == "test" else f"{self.subset}-{self.split}"

    @property
    def n(self) -> int:
        return self.scores.overall.decided

    def headline(self) -> Headline:
        return Headline("accuracy", self.scores.overall.accuracy)

    def summary(self) -> dict:
        free = {"reference_free": self.agreement.to_json()} if self.agreement else {}
        return {**self.scores.to_json(), **free}

    def extra_json(self) -> dict:
        return {"subset": self.subset, "split": self.split, "unmatched": len(self.unmatched),
                "unmatched_rows": row_ranges(self.unmatched)}

    def details(self) -> list[dict]:
        rows = [{"system": self.system, "lang": self.lang, "subset": self.subset, **v.to_json()}
                for v in self.verdicts]
        for row, v, f in zip(rows, self.verdicts, self.free or ()):
            both = v.decided and f.verdict != "undecided"
            row.update(reference_free=f.to_json(), agree=(based(v) == f.verdict) if both else None)
        return rows

    def charts(self) -> list[Chart]:
        points = [ChartPoint(f"{self.lang} {g}", self.system, c.accuracy, f"n={c.decided}")
                  for g, c in self.scores.by_gender.items() if g != "unknown"]
        return [Chart(f"MT-GenEval {self.scope}: accuracy by language and gender", tuple(points),
                      note="% of the items the metric decides (a word of one reference only in the translation)")]

    def item_rows(self) -> list[ItemRow]:
        """The details with the deciding words marked: in the translation those of the right reference (cue) and
        of the other one (alt); in each reference the words the other lacks."""
        out = []
        for v, row in zip(self.verdicts, self.details()):
            marks = [*word_marks("translation", v.translation, v.right_words, "cue"),
                     *word_marks("translation", v.translation, v.wrong_words, "alt"),
                     *word_marks("reference", v.reference, v.right_only, "ref"),
                     *word_marks("other_reference", v.other, v.other_only, "alt")]
            if row.get("reference_free"):  # the words the reference-free reading read the gender from
                marks += [m for m in word_marks("translation", v.translation, [w.lower() for w in
                                                                               row["reference_free"]["words"]], "ali")
                          if not any(o.field == m.field and o.start == m.start for o in marks)]
            out.append(ItemRow(row, tuple(marks), f"{self.lang}/{self.scope}/{v.index}"))
        return out

    def paired_metrics(self) -> list[PairedMetric]:
        decided = {v.index: (float(v.outcome == "correct"), 1.0) for v in self.verdicts if v.decided}
        scorer = {v.index: (float(v.scorer_correct), 1.0) for v in self.verdicts}
        return [PairedMetric("accuracy", decided, accuracy_from_sums),
                PairedMetric("scorer_item_accuracy", scorer, accuracy_from_sums)]


_TOKEN = re.compile(r"\S+")


def word_marks(field_name: str, text: str, wanted: Sequence[str], kind: str) -> list[Mark]:
    """Every occurrence in ``text`` of a word of ``wanted``, read as the metric reads words (lowercased, ASCII
    punctuation as a space), marked on the original characters."""
    if not wanted:
        return []
    targets = set(wanted)
    spaced = text.translate(PUNCTUATION_AS_SPACE)  # the same length: offsets stay those of ``text``
    return [Mark(field_name, m.start(), m.end(), kind) for m in _TOKEN.finditer(spaced)
            if words(m.group()) & targets]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def render_geneval_table(results: Sequence[GenEvalResult]) -> str:
    """One row per system, language and subset, then the signatures."""
    header = ["system", "lang", "subset", "n", "decided", "Acc", "Acc♀", "Acc♂", "undec%", "ties", "scorer",
              "unmatched"]
    rows = []
    for r in results:
        s = r.scores
        rows.append([r.system, r.lang, r.scope, str(s.overall.n), str(s.overall.decided), _pct(s.overall.accuracy),
                     _pct(s.by_gender["female"].accuracy if "female" in s.by_gender else None),
                     _pct(s.by_gender["male"].accuracy if "male" in s.by_gender else None),
                     _pct(s.overall.undecided_share), str(s.overall.tie), _pct(s.scorer_accuracy),
                     str(len(r.unmatched))])
    title = ("MT-GenEval; Acc = correct / decided items (a word of one reference only); undec% = items with no such "
             "word (left out of Acc); ties (words of both: wrong) are in Acc; scorer = the authors' accuracy_metric.py "
             "figure (undecided counted correct; counterfactual: both of a pair)")
    text = "\n".join([title, *fixed_width(header, rows, left=3), "",
                      *grouped_signatures([r.signature for r in results], "system")])
    if any(r.agreement for r in results):
        text += "\n\n" + render_agreement_table(results)
    return text


def render_agreement_table(results: Sequence[GenEvalResult]) -> str:
    """The reference-free reading beside the reference-based verdict, per result that has one."""
    rows = []
    for r in results:
        a = r.agreement
        if a is None:
            continue
        confusion = " ".join(f"{k}:{v}" for k, v in sorted(a.confusion.items()))
        rows.append([r.system, r.lang, r.scope, str(a.n), str(a.free_decided), str(a.both), _pct(a.agreement),
                     confusion])
    title = ("reference-free reading (aligner + gender analyser on the words aligned to the English anchors): "
             "free = items it decides; agree% = same verdict as the reference-based one, over the items both decide; "
             "confusion: reference-based/reference-free")
    return "\n".join([title, *fixed_width(["system", "lang", "subset", "n", "free", "both", "agree%", "confusion"],
                                          rows, left=3)])
