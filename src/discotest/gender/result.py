"""The gender suites' result (WinoMT, BUG; Stanovsky et al. 2019, Yehudai et al. 2023) and its text tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from discotest.gender.judge import (
    ConsistencyScores,
    GenderScores,
    GenderVerdict,
    delta_g_from_sums,
    delta_s_from_sums,
)
from discotest.report.charts import Chart, ChartPoint
from discotest.report.result import (
    DEFAULT_MARKS,
    Headline,
    ItemRow,
    PairedMetric,
    Result,
    Signature,
    grouped_signatures,
    lang_of,
    phrase_marks,
)
from discotest.report.table import fixed_width, row_ranges
from discotest.stats import accuracy_from_sums

if TYPE_CHECKING:  # annotations only: a plain run does not load the paired tests
    from discotest.report.comparison import Comparison


@dataclass
class GenderResult(Result):
    """Scores of one system in one language on one suite, with the per-item evidence."""

    family: ClassVar[str] = "gender"
    labels: ClassVar[dict[str, str]] = {
        "precision_male": "Precision ♂ (%)", "recall_male": "Recall ♂ (%)", "f1_male": "F1 ♂ (%)",
        "precision_female": "Precision ♀ (%)", "recall_female": "Recall ♀ (%)", "f1_female": "F1 ♀ (%)",
        "delta_g": "ΔG = F1♂ − F1♀ (pp)", "accuracy_pro": "Accuracy pro-stereotypical (%)",
        "accuracy_anti": "Accuracy anti-stereotypical (%)", "delta_s": "ΔS = pro − anti (pp)",
        "neutral": "Read as neutral (%)", "consistency.consistency": "Consistency (%)",
        "consistency.scored": "Consistency: scored", "consistency.trivial": "Consistency: trivial (%)",
        "consistency.n": "Consistency: items", "target_entity": "Entity in translation",
        "predicted_gender": "Gender read", "gold_gender": "Gold gender", "stereotype": "Stereotype",
        "target_pronoun": "Pronoun in translation", "pronoun_gender": "Pronoun gender",
        "pronoun_reason": "Pronoun: why", "omitted": "Left out because",
        "target_distractor": "Distractor in translation", "distractor_gender": "Distractor gender",
    }
    headers: ClassVar[dict[str, str]] = {
        "precision_male": "P ♂ (%)", "recall_male": "R ♂ (%)", "precision_female": "P ♀ (%)",
        "recall_female": "R ♀ (%)", "delta_g": "ΔG (pp)", "accuracy_pro": "Acc. pro (%)",
        "accuracy_anti": "Acc. anti (%)", "delta_s": "ΔS (pp)", "neutral": "Neutral (%)",
        "consistency.consistency": "Cons. (%)", "consistency.scored": "Cons. scored",
        "consistency.trivial": "Trivial (%)", "consistency.n": "Cons. items", "target_entity": "Entity (MT)",
        "predicted_gender": "Read", "gold_gender": "Gold", "stereotype": "Stereo.", "target_pronoun": "Pronoun (MT)",
        "pronoun_gender": "Pron. gender", "pronoun_reason": "Pron.: why", "omitted": "Left out",
        "target_distractor": "Distr. (MT)", "distractor_gender": "Distr. gender", "located_by": "Located",
    }
    suite: str
    version: str
    lang: str
    system: str
    scores: GenderScores
    signature: Signature
    verdicts: list[GenderVerdict] = field(default_factory=list, repr=False)
    unmatched: list[int] = field(default_factory=list)
    located_by: dict[str, int] = field(default_factory=dict)
    consistency: ConsistencyScores | None = None
    verdict: str = "noun"  # what the scores are computed on: noun (predicted_gender) or reader (conveyed_gender)

    # each clause of the paper table's legend with the column it defines (None: said of every table)
    legend_terms: ClassVar[tuple[tuple[str | None, str], ...]] = (
        (None, "percentages"), ("Acc", "Acc = entities translated with the gold gender"),
        ("P♂", "♂ male, ♀ female (P precision, R recall)"), ("ΔG", "ΔG = F1♂ − F1♀"),
        ("ΔS", "ΔS = Acc(pro) − Acc(anti-stereotypical)"), ("unk%", "unk% = gender not read"),
        ("mixed%", "mixed% = the noun's and the pronoun's genders contradict (reader verdict)"),
        ("unmatched", "unmatched = suite rows without a translation"),
        ("Cons%", "Cons% = pronoun agrees with its entity (target-side consistency)"),
    )
    table_legend: ClassVar[str] = "; ".join(clause for _, clause in legend_terms)

    def legend_for(self, columns: Sequence[str]) -> str:
        """Only the clauses of the columns printed: Cons% when consistency was measured, mixed% on the reader
        verdict, ΔS where the suite has stereotype labels."""
        return "; ".join(clause for column, clause in self.legend_terms if column is None or column in columns)

    @property
    def n(self) -> int:
        return self.scores.n

    def headline(self) -> Headline:
        return Headline("accuracy", self.scores.accuracy)

    def table_row(self) -> dict:
        """The text table's columns (mixed% on the reader verdict, Cons% when consistency was measured)."""
        columns = _COLUMNS if self.verdict != "reader" else (*_COLUMNS[:-1], ("mixed%", "mixed"), _COLUMNS[-1])
        row = {name: (len(self.unmatched) if key == "unmatched" else getattr(self, key) if key in ("system", "lang")
                      else getattr(self.scores, key)) for name, key in columns}
        if self.consistency is not None:
            row["Cons%"] = self.consistency.consistency
        return row

    def summary(self) -> dict:
        extra = {"consistency": self.consistency.to_json()} if self.consistency else {}
        return {**self.scores.to_json(), **extra}

    def extra_json(self) -> dict:
        reader = {"verdict": self.verdict} if self.verdict != "noun" else {}  # the noun default: today's JSON
        return {"suite_version": self.version, **reader, "unmatched": len(self.unmatched),
                "unmatched_rows": row_ranges(self.unmatched), "located_by": self.located_by}

    def details(self) -> list[dict]:
        """``system`` and ``lang`` first, so several runs can share a file."""
        return [{"system": self.system, "lang": self.lang, **v.to_json()} for v in self.verdicts]

    def charts(self) -> list[Chart]:
        s, name = self.scores, self.system
        on = "; reader-level verdict (noun and coreferent pronoun)" if self.verdict == "reader" else ""
        out = [Chart("Gender accuracy by language", (ChartPoint(self.lang, name, s.accuracy),),
                     note=f"entities translated with the gold gender, % of all items{on}"),
               Chart("ΔG = F1♂ − F1♀ by language", (ChartPoint(self.lang, name, s.delta_g),), unit="pp",
                     note="positive: male entities are translated better than female ones")]
        if s.delta_s is not None:
            out.append(Chart("ΔS = accuracy pro − anti-stereotypical by language",
                             (ChartPoint(self.lang, name, s.delta_s),), unit="pp",
                             note="positive: stereotypical roles are translated better"))
        if self.consistency is not None:
            out.append(Chart("Target-side consistency by language",
                             (ChartPoint(self.lang, name, self.consistency.consistency),)))
        return out

    def item_rows(self) -> list[ItemRow]:
        """The details with entity, pronoun and distractor marked in source and translation, and the words that
        decided the gender (article, noun ending …) in the translation."""
        rules = (*DEFAULT_MARKS, ("translation", "evidence", "cue"), ("translation", "conveyed_evidence", "cue"))
        return [ItemRow(row, tuple(phrase_marks(row, rules)), f"{self.lang}/{row['index']}", row["index"])
                for row in self.details()]

    def paired_metrics(self) -> list[PairedMetric]:
        metrics = [PairedMetric("accuracy", {v.index: (float(v.is_correct(self.verdict)), 1.0) for v in self.verdicts},
                                accuracy_from_sums)]
        if self.consistency is not None:
            scored = {v.index: (float(bool(v.consistent)), 1.0) for v in self.verdicts if v.consistent is not None}
            metrics.append(PairedMetric("consistency", scored, accuracy_from_sums))
        return metrics

    def ranked_metrics(self) -> list[PairedMetric]:
        """Accuracy, ΔG and ΔS as the table computes them (``judge.score_gender``), from per-item rows: ΔG from
        ``[hit♂, gold♂, predicted♂, hit♀, gold♀, predicted♀]``, ΔS from ``[correct pro, pro, correct anti, anti]``;
        both are best at 0."""
        gender_rows, stereo_rows = {}, {}
        for v in self.verdicts:
            ok, said = float(v.is_correct(self.verdict)), v.gender(self.verdict)
            row = []
            for g in ("male", "female"):
                gold = float(v.gold_gender == g)
                row += [ok * gold, gold, float(said == g)]
            gender_rows[v.index] = tuple(row)
            if v.stereotype in ("pro", "anti"):
                pro = float(v.stereotype == "pro")
                stereo_rows[v.index] = (ok * pro, pro, ok * (1 - pro), 1 - pro)
        out = [self.paired_metrics()[0],
               PairedMetric("delta_g", gender_rows, delta_g_from_sums, higher_is_better=False, unit="pp", target=0.0)]
        if self.scores.delta_s is not None:
            out.append(PairedMetric("delta_s", stereo_rows, delta_s_from_sums, higher_is_better=False, unit="pp",
                                    target=0.0))
        return out


_COLUMNS = (
    ("system", "system"), ("lang", "lang"), ("n", "n"), ("Acc", "accuracy"),
    ("P♂", "precision_male"), ("R♂", "recall_male"), ("F1♂", "f1_male"),
    ("P♀", "precision_female"), ("R♀", "recall_female"), ("F1♀", "f1_female"),
    ("ΔG", "delta_g"), ("ΔS", "delta_s"), ("unk%", "unknown"), ("unmatched", "unmatched"),
)


def _cell(result: GenderResult, key: str) -> str:
    if key in ("system", "lang"):
        return getattr(result, key)
    if key == "unmatched":
        return str(len(result.unmatched))
    value = getattr(result.scores, key)
    if value is None:
        return "–"
    return str(value) if isinstance(value, int) else f"{value:.1f}"


_VERDICT_TITLES = {
    "reader": "; on the reader-level verdict (noun and coreferent pronoun; mixed% = they contradict)",
    "grammatical": "; on the grammatical gender (mt_gender's convention: an indefinite's or epicene noun's counts)",
}


def render_gender_table(results: Sequence[GenderResult]) -> str:
    """A fixed-width table, one row per system and language, then the signatures; the consistency table follows
    when it was measured."""
    columns = _COLUMNS
    if any(r.verdict == "reader" for r in results):
        columns = (*_COLUMNS[:-1], ("mixed%", "mixed"), _COLUMNS[-1])
    out = fixed_width([name for name, _ in columns], [[_cell(r, key) for _, key in columns] for r in results],
                      left=2)
    if results:
        title = f"{results[0].suite} ({results[0].version}); percentages; ΔG = F1♂ − F1♀, ΔS = Acc(pro) − Acc(anti)"
        others = {r.verdict for r in results} - {"noun"}
        if others:  # the noun default keeps today's title
            title += (_VERDICT_TITLES[next(iter(others))] if len({r.verdict for r in results}) == 1
                      else "; verdict per row in its signature")
        out.insert(0, title)
    out += ["", *grouped_signatures([r.signature for r in results], "system")]
    text = "\n".join(out)
    if any(r.consistency for r in results):
        text += "\n\n" + render_consistency_table(results)
    return text


_OMISSION_COLUMNS = (
    ("poss", "possessive-agrees-with-possessed"), ("dropped", "pronoun-dropped"), ("neutral", "neutral-form"),
    ("no-words", "no-target-words"), ("pron?", "pronoun-unreadable"), ("entity?", "entity-unreadable"),
)


def render_consistency_table(results: Sequence[GenderResult]) -> str:
    """Target-side consistency per system and language, with the omitted items counted by reason."""
    header = ["system", "lang", "n", "scored", "Cons%", "trivial%", *(name for name, _ in _OMISSION_COLUMNS)]
    rows = []
    for r in results:
        c = r.consistency
        if c is None:
            continue
        rows.append([r.system, r.lang, str(c.n), str(c.scored), f"{c.consistency:.1f}", f"{c.trivial:.1f}",
                     *(str(c.omitted.get(key, 0)) for _, key in _OMISSION_COLUMNS)])
    title = ("target-side consistency: Cons% = pronoun gender agrees with the entity's, over the scored items; "
             "trivial% = entity and distractor share a gender; then items left out, by reason (pron?/entity? = the "
             "pronoun's/entity's gender could not be read)")
    return "\n".join([title, *fixed_width(header, rows, left=2)])


def adjective_rows(comparisons: Sequence[Comparison]) -> list[dict]:
    """Per language: accuracy without (A) and with (B) the adjective on the same rows, the change and its tests."""
    rows = []
    for c in comparisons:
        m = next(m for m in c.metrics if m.metric == "accuracy")
        rows.append({"system": c.b.system, "lang": lang_of(c.b), "n": m.n, "without": round(m.score_a, 4),
                     "with": round(m.score_b, 4), "change": round(m.score_b - m.score_a, 4),
                     "sign_p": m.sign.p_value, "bootstrap_p": m.bootstrap.p_value})
    return rows


def render_adjective_effect(comparisons: Sequence[Comparison]) -> str:
    """The paper's comparison as one table: gender accuracy without and with the stereotypical adjective."""
    rows = [[r["system"], r["lang"], str(r["n"]), f"{r['without']:.1f}", f"{r['with']:.1f}", f"{r['change']:+.1f}",
             f"{r['sign_p']:.2g}", f"{r['bootstrap_p']:.2g}"] for r in adjective_rows(comparisons)]
    title = ("winomt-adj: gender accuracy on WinoMT's anti-stereotypical rows without the adjective (the system's "
             "WinoMT 2019 output) and with it (Stanovsky et al. 2019 §5); paired by row")
    return "\n".join([title, *fixed_width(["system", "lang", "n", "without", "with", "change", "sign p",
                                           "bootstrap p"], rows, left=2)])
