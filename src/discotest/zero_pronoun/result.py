"""The AZPT result (mZPRT, Wang et al. 2022) and its text table, with the rank agreement against the released scores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from discotest.report.charts import Chart, ChartPoint
from discotest.report.result import (
    Headline,
    ItemRow,
    PairedMetric,
    Result,
    Signature,
    grouped_signatures,
    token_marks,
)
from discotest.report.table import fixed_width
from discotest.stats import accuracy_from_sums, kendall_tau_b
from discotest.zero_pronoun.judge import AZPTScores, ZPVerdict
from discotest.zero_pronoun.mzprt import FORM_NAMES

FORM_LEGEND = "ZP forms: " + ", ".join(f"{code} {name}" for code, name in FORM_NAMES.items())
PRONOUN_NOTE = "the Chinese pronoun the ZP stands for, by stem (我 covers 我, 我的, 我自己)"
MAX_PRONOUNS = 12  # the text table's pronoun breakdown shows the most frequent; JSON has them all


@dataclass
class AZPTResult(Result):
    """AZPT of one system (published output or input file) on one mZPRT domain, with the evidence."""

    family: ClassVar[str] = "zero-pronoun"
    labels: ClassVar[dict[str, str]] = {
        "excluded_un": "Excluded: UN", "excluded_no_form": "Excluded: no form", "released_azpt": "Released AZPT (%)",
        "difference": "Ours − released (pp)", "form": "Form",
    }
    headers: ClassVar[dict[str, str]] = {
        "excluded_un": "Excl. UN", "excluded_no_form": "Excl. no form", "released_azpt": "Released (%)",
        "difference": "Δ released (pp)",
    }
    suite: ClassVar[str] = "mzprt"
    lang: ClassVar[str] = "zh-en"
    domain: str
    system: str
    scores: AZPTScores
    signature: Signature
    kind: str = "input"  # "published" / "input" / "reference"
    path: str = ""
    layout: str = "all-segments"  # which test lines the hypotheses cover (see zero_pronoun/outputs.py)
    n_segments: int = 0  # hypotheses evaluated
    bleu: float | None = None
    bleu_signature: str | None = None
    released: float | None = None  # the .score figure of a published system, percent
    released_counts: tuple[int, int] | None = None
    released_details_counts: tuple[int, int] | None = None  # counted in the .details rows
    verdicts: list[ZPVerdict] = field(default_factory=list, repr=False)
    hypotheses: dict[int, str] = field(default_factory=dict, repr=False)  # segment -> text, for BLEU tests

    @property
    def scope(self) -> str:  # type: ignore[override]
        return self.domain

    @property
    def n(self) -> int:
        return self.scores.n

    @property
    def released_mismatch(self) -> str | None:
        """A note when the released .score and .details files disagree (QA unified_tgt does)."""
        if not self.released_counts or not self.released_details_counts:
            return None
        right, wrong = self.released_details_counts
        details = 100 * right / (right + wrong) if right + wrong else 0.0
        if abs(details - self.released) < 0.05:
            return None
        return (f"{self.domain}/{self.system}: the released .score says {self.released:.1f} "
                f"({self.released_counts[0]} correct), its .details {details:.1f} ({right})")

    @property
    def difference(self) -> float | None:
        return None if self.released is None else self.scores.accuracy - self.released

    table_legend: ClassVar[str] = ("AZPT % = zero pronouns rendered with an acceptable English pronoun; released = the "
                                   "authors' .score figure; diff = AZPT − released; n = scored ZPs; UN / no-form = ZPs "
                                   "left out (unlabelled, no pronoun form); " + FORM_LEGEND)
    signature_wildcards: ClassVar[tuple[str, ...]] = ("domain", "system")

    def headline(self) -> Headline:
        return Headline("AZPT", self.scores.accuracy)

    def table_row(self) -> dict:
        return {"domain": self.domain, "system": self.system, "AZPT": self.scores.accuracy, "released": self.released,
                "diff": self.difference, "n": self.scores.n, "UN": self.scores.excluded_un,
                "no-form": self.scores.excluded_no_form, "BLEU": self.bleu}

    def table_notes(self) -> list[str]:
        return [f"BLEU: {self.bleu_signature.rsplit('|sents:', 1)[0]}"] if self.bleu_signature else []

    def summary(self) -> dict:
        return self.scores.to_json()

    def extra_json(self) -> dict:
        return {
            "domain": self.domain,
            "kind": self.kind,
            "path": self.path,
            "layout": self.layout,
            "segments": self.n_segments,
            "released_azpt": None if self.released is None else round(self.released, 2),
            "released_note": self.released_mismatch,
            "difference": None if self.difference is None else round(self.difference, 2),
            "bleu": None if self.bleu is None else round(self.bleu, 2),
            "bleu_signature": self.bleu_signature,
            "form_names": FORM_NAMES,
        }

    def details(self) -> list[dict]:
        """One dict per ZP (excluded ones too, with ``correct: null``), with domain and system."""
        return [{"domain": self.domain, "system": self.system, **v.to_json()} for v in self.verdicts]

    def charts(self) -> list[Chart]:
        s, name = self.scores, self.system
        out = [Chart("AZPT by domain", (ChartPoint(self.domain, name, s.accuracy, f"n={s.n}"),),
                     note="zero pronouns rendered with an acceptable English pronoun, % of the scored ZPs")]
        for title, tallies, note in (("form", s.by_form, FORM_LEGEND), ("pronoun", s.by_pronoun, PRONOUN_NOTE)):
            if tallies:
                out.append(Chart(f"AZPT by {title} · {self.domain}",
                                 tuple(ChartPoint(k, name, t.accuracy, f"n={t.n}") for k, t in tallies.items()),
                                 note=note))
        return out

    def item_rows(self) -> list[ItemRow]:
        """Each ZP with the source (the ZP marked) and the hypothesis (the aligned words, the candidate span and
        the matched word marked)."""
        out = []
        for v in self.verdicts:
            source, hypothesis = " ".join(v.labelled_source), " ".join(v.hypothesis)
            row = {"domain": self.domain, "system": self.system, "segment": v.segment, "line": v.line,
                   "ordinal": v.ordinal, "pronoun": v.pronoun, "form": v.form, "correct": v.correct,
                   "excluded": v.excluded, "source": source, "hypothesis": hypothesis, "expected": v.expected,
                   "matched": v.matched, "found_by": v.found_by, "matched_by": v.matched_by,
                   "released_correct": v.released_correct}
            hits = [] if v.matched_at is None else [v.matched_at]
            marks = [*token_marks("source", v.labelled_source, [([v.zp_word], "zp")]),
                     *token_marks("hypothesis", v.hypothesis, [(hits, "hit"), (v.aligned, "ali"), (v.span, "span")])]
            out.append(ItemRow(row, tuple(marks), f"{self.domain}/{v.segment}/{v.ordinal}",
                               (v.segment, v.ordinal)))
        return out

    def paired_metrics(self) -> list[PairedMetric]:
        rows = {(v.segment, v.ordinal): (float(v.correct), 1.0) for v in self.verdicts if v.correct is not None}
        return [PairedMetric("AZPT", rows, accuracy_from_sums)]


def _fmt(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:+.1f}" if signed else f"{value:.1f}"


def rank_agreement(results: Sequence[AZPTResult]) -> dict[str, tuple[float | None, int]]:
    """Kendall τ-b between our and the released AZPT orderings of the systems, per domain and
    pooled over all (domain, system) pairs: domain -> (τ, number of systems)."""
    by_domain: dict[str, list[AZPTResult]] = {}
    for r in results:
        if r.released is not None:
            by_domain.setdefault(r.domain, []).append(r)
    out = {}
    for domain, rows in by_domain.items():
        if len(rows) >= 2:
            out[domain] = (kendall_tau_b([r.scores.accuracy for r in rows], [r.released for r in rows]), len(rows))
    pooled = [r for rows in by_domain.values() for r in rows]
    if len(by_domain) > 1 and len(pooled) >= 2:
        out["all"] = (kendall_tau_b([r.scores.accuracy for r in pooled], [r.released for r in pooled]), len(pooled))
    return out


def rank_agreement_json(results: Sequence[AZPTResult]) -> dict:
    return {d: {"tau": None if t is None else round(t, 4), "systems": n}
            for d, (t, n) in rank_agreement(results).items()}


def render_azpt_table(results: Sequence[AZPTResult]) -> str:
    """One row per domain × system (ours, released, difference, n), then τ per domain, then signatures."""
    with_bleu = any(r.bleu is not None for r in results)
    header = ["domain", "system", "AZPT", "released", "diff", "n", "UN", "no-form"] + (["BLEU"] if with_bleu else [])
    rows = []
    for r in results:
        row = [
            r.domain, r.system, _fmt(r.scores.accuracy), _fmt(r.released), _fmt(r.difference, signed=True),
            str(r.scores.n), str(r.scores.excluded_un), str(r.scores.excluded_no_form),
        ]
        if with_bleu:
            row.append(_fmt(r.bleu))
        rows.append(row)
    window = results[0].signature.get("window") if results else "1"
    reach = results[0].signature.get("reach") if results else "0"
    out = [
        f"mZPRT zero-pronoun translation: AZPT % (window ±{window}, reach {reach}); released = the authors' "
        ".score figure; n = scored ZPs; UN / no-form = ZPs left out",
        *fixed_width(header, rows, left=2),
    ]
    taus = rank_agreement(results)
    if taus:
        out += ["", "Kendall τ-b, our vs the released ordering of the systems:"]
        out += [f"  {domain:<6} τ = {_fmt(tau) if tau is None else f'{tau:+.2f}'}  ({n} systems)"
                for domain, (tau, n) in taus.items()]
    notes = [r.released_mismatch for r in results if r.released_mismatch]
    if notes:
        out += ["", "Note: " + "; ".join(notes)]
    out += _breakdowns(results)
    out += ["", *grouped_signatures([r.signature for r in results], "domain", "system")]
    bleu_sigs = dict.fromkeys(r.bleu_signature.rsplit("|sents:", 1)[0] for r in results if r.bleu_signature)
    out += [f"BLEU: {sig}" for sig in bleu_sigs]
    return "\n".join(out)


def _breakdowns(results: Sequence[AZPTResult]) -> list[str]:
    """AZPT by ZP form and by pronoun, one row per domain × system, each cell ``accuracy/n`` (the JSON's
    ``by_form``/``by_pronoun``); the pronouns most frequent over all rows first."""
    out: list[str] = []
    forms = [f for f in FORM_NAMES if any(f in r.scores.by_form for r in results)]
    counts: dict[str, int] = {}
    for r in results:
        for k, t in r.scores.by_pronoun.items():
            counts[k] = counts.get(k, 0) + t.n
    pronouns = sorted(counts, key=lambda k: (-counts[k], k))[:MAX_PRONOUNS]
    for title, keys, attr, legend in (
            ("by ZP form", forms, "by_form", FORM_LEGEND),
            ("by pronoun" + (f" ({len(pronouns)} most frequent of {len(counts)})" if len(counts) > len(pronouns)
                             else ""), pronouns, "by_pronoun", "")):
        if not keys:
            continue
        rows = []
        for r in results:
            tallies = getattr(r.scores, attr)
            rows.append([r.domain, r.system, *(f"{tallies[k].accuracy:.1f}/{tallies[k].n}" if k in tallies else "–"
                                               for k in keys)])
        out += ["", f"AZPT {title}, accuracy %/n" + (f"; {legend}" if legend else ""),
                *fixed_width(["domain", "system", *keys], rows, left=2)]
    return out
