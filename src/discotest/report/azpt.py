"""Text and JSON renderings of AZPT results and comparisons, and the per-ZP details file."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from discotest.report.azpt_result import AZPTResult, ComparisonResult
from discotest.report.render import write_jsonl
from discotest.report.result import grouped_signatures
from discotest.stats import kendall_tau_b


def _fmt(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:+.1f}" if signed else f"{value:.1f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


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
        *_table(header, rows, left=2),
    ]
    taus = rank_agreement(results)
    if taus:
        out += ["", "Kendall τ-b, our vs the released ordering of the systems:"]
        out += [f"  {domain:<6} τ = {_fmt(tau) if tau is None else f'{tau:+.2f}'}  ({n} systems)"
                for domain, (tau, n) in taus.items()]
    notes = [r.released_mismatch for r in results if r.released_mismatch]
    if notes:
        out += ["", "Note: " + "; ".join(notes)]
    out += ["", *grouped_signatures([r.signature for r in results], "domain", "system")]
    bleu_sigs = dict.fromkeys(r.bleu_signature.rsplit("|sents:", 1)[0] for r in results if r.bleu_signature)
    out += [f"BLEU: {sig}" for sig in bleu_sigs]
    return "\n".join(out)


def render_azpt_json(results: Sequence[AZPTResult]) -> str:
    payload = {
        "results": [r.to_json() for r in results],
        "kendall_tau": {d: {"tau": None if t is None else round(t, 4), "systems": n}
                        for d, (t, n) in rank_agreement(results).items()},
    }
    return json.dumps(payload, ensure_ascii=False, indent=1)


def azpt_detail_rows(results: Sequence[AZPTResult]) -> list[dict]:
    """One dict per ZP (excluded ones too, with ``correct: null``), with domain and system."""
    return [{"domain": r.domain, "system": r.system, **v.to_json()} for r in results for v in r.verdicts]


def write_azpt_details(path: str | Path, results: Sequence[AZPTResult]) -> None:
    write_jsonl(path, azpt_detail_rows(results))


def _p(p: float) -> str:
    if p == 0.0:
        return "<1e-300"  # an exact sign test far beyond float range
    return f"{p:.4f}" if p >= 0.0001 else f"{p:.1e}"


def render_comparison(comparison: ComparisonResult) -> str:
    """Both systems' scores, the difference, and the p-values of the sign test and the paired bootstrap."""
    a, b = comparison.a.system, comparison.b.system
    header = ["metric", "A", "B", "B−A", "n", "A better", "B better", "ties", "sign p", "bootstrap p",
              "A 95% CI", "B 95% CI"]
    rows = []
    for m in comparison.metrics:
        bs = m.bootstrap
        rows.append([
            m.metric, _fmt(m.score_a), _fmt(m.score_b), _fmt(m.score_b - m.score_a, signed=True), str(m.n),
            str(m.sign.wins_a), str(m.sign.wins_b), str(m.sign.ties), _p(m.sign.p_value), _p(bs.p_value),
            f"{bs.mean_a:.1f}±{bs.ci_a:.1f}", f"{bs.mean_b:.1f}±{bs.ci_b:.1f}",
        ])
    first = comparison.metrics[0].bootstrap if comparison.metrics else None
    out = [
        f"mZPRT {comparison.domain}: A = {a}, B = {b}",
        *_table(header, rows, left=1),
        "",
        "AZPT pairs ZPs, BLEU pairs sentences; sign test two-sided exact; paired bootstrap as sacrebleu "
        f"({first.n_samples if first else 0} resamples, seed {first.seed if first else '–'})",
        *grouped_signatures([comparison.a.signature, comparison.b.signature], "system"),
    ]
    if comparison.a.bleu_signature:
        out.append(f"BLEU: {comparison.a.bleu_signature}")
    return "\n".join(out)
