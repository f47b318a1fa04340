"""Text and JSON reports for ``run dip`` and ``rank dip``, and the ``--details`` verdict lines."""

from __future__ import annotations

import json
from pathlib import Path

from discotest.dip.api import RankReport, ScoreReport
from discotest.dip.rank import ALPHA
from discotest.report.render import write_jsonl

NOTES = {
    "lexical": "share of blocks where the system uses the reference's repeated lemma at least as often",
    "connectives": "accuracy = same connective as the reference; ANY = some connective at the aligned place",
    "anaphora": "Σ(score(ref) − score(sys)) over items where the system's pronoun differs (Eq. 1); lower is better",
    "coherence": "Σ(score(ref) − score(sys)) over the mined documents; lower is better",
}


def _fmt(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def _digits(label: str | None) -> int:
    """Counts ("differs") print as integers, percentages and sums with two decimals."""
    return 0 if label == "differs" else 2


def render_score_table(report: ScoreReport) -> str:
    m = report.manifest
    lines = [f"DiP {m['data']} {m['pair']} (ref {m['ref']}): {report.system}", ""]
    lines.append(f"{'phenomenon':<12} {'n':>6}  {'score':<24} details")
    for phenomenon, score in report.scores.items():
        summary = dict(score.summary)
        n = summary.pop("n")
        label, value = next(iter(summary.items()))
        details = ", ".join(f"{k} {_fmt(v, _digits(k))}" for k, v in list(summary.items())[1:])
        lines.append(f"{phenomenon:<12} {n:>6}  {label + ' ' + _fmt(value):<24} {details}")
    skipped = [p for p in m.get("counts", {}) if p not in report.scores]
    if skipped:
        lines.append(f"not scored (no model): {', '.join(skipped)}")
    lines += ["", *(f"{p}: {note}" for p, note in NOTES.items() if p in report.scores), report.signature]
    return "\n".join(lines)


def render_score_json(report: ScoreReport) -> str:
    return json.dumps({"system": report.system, "manifest": report.manifest, "signature": report.signature,
                       "scores": {p: s.summary for p, s in report.scores.items()}}, indent=1, ensure_ascii=False)


def render_rank_table(report: RankReport) -> str:
    m = report.manifest
    head = f"DiP ranking {m['data']} {m['pair']} (ref {m['ref']}), mined from {len(m['systems_mined'])} systems"
    if m.get("holdout"):
        head += f" without {m['holdout']} (marked †: never scored on its own errors)"
    out = [head]
    for ranking in report.rankings:
        n = ranking.rows[0].n if ranking.rows else 0
        better = "higher" if ranking.higher_is_better else "lower"
        out += ["", f"{ranking.phenomenon}: {ranking.metric}, {better} is better, n={n}"]
        extra = f" {ranking.extra_label:>8}" if ranking.extra_label else ""
        out.append(f"{'#':>3} {'system':<22} {ranking.metric:>14}{extra} {'p(next)':>9}  {'BLEU':>6}")
        for k, row in enumerate(ranking.rows, 1):
            name = row.system + (" †" if row.holdout else "")
            p = "" if row.p_next is None else f"{row.p_next:.3f}" + ("*" if row.significant else " ")
            extra = f" {_fmt(row.extra, _digits(ranking.extra_label)):>8}" if ranking.extra_label else ""
            out.append(f"{k:>3} {name:<22} {_fmt(row.value):>14}{extra} {p:>9}  {_fmt(row.bleu, 1):>6}")
    skipped = [p for p in m.get("counts", {}) if p not in {r.phenomenon for r in report.rankings}]
    skipped += m.get("skipped", [])
    if skipped:
        out += ["", f"not ranked (no model): {', '.join(dict.fromkeys(skipped))}"]
    out += ["", f"p(next): paired bootstrap ({report.n_bootstrap} resamples) against the next system; * p < {ALPHA}",
            report.signature, f"BLEU: {report.bleu_signature}"]
    return "\n".join(out)


def render_rank_json(report: RankReport) -> str:
    return json.dumps({
        "manifest": report.manifest, "signature": report.signature, "bleu_signature": report.bleu_signature,
        "rankings": [{
            "phenomenon": r.phenomenon, "metric": r.metric, "higher_is_better": r.higher_is_better,
            "extra": r.extra_label,
            "rows": [{"system": row.system, "score": row.value, "extra": row.extra, "n": row.n, "bleu": row.bleu,
                      "p_next": row.p_next, "significant": row.significant, "holdout": row.holdout}
                     for row in r.rows],
        } for r in report.rankings],
    }, indent=1, ensure_ascii=False)


def score_detail_rows(report: ScoreReport) -> list[dict]:
    return [{"phenomenon": p, "system": report.system, **v} for p, s in report.scores.items() for v in s.verdicts]


def rank_detail_rows(report: RankReport) -> list[dict]:
    return [{"phenomenon": p, "system": system, **v}
            for system, by_phen in report.scores.items() for p, s in by_phen.items() for v in s.verdicts]


def score_summaries(report: ScoreReport) -> list[dict]:
    """One summary row per phenomenon (the HTML report's table)."""
    return [{"phenomenon": p, "system": report.system, **s.summary, "signature": report.signature}
            for p, s in report.scores.items()]


def rank_summaries(report: RankReport) -> list[dict]:
    """One row per phenomenon and system, in rank order (the HTML report's table)."""
    return [{"phenomenon": r.phenomenon, "rank": k, "system": row.system + (" †" if row.holdout else ""),
             r.metric: row.value, **({r.extra_label: row.extra} if r.extra_label else {}), "n": row.n,
             "p_next": row.p_next, "BLEU": row.bleu, "signature": report.signature}
            for r in report.rankings for k, row in enumerate(r.rows, 1)]


def write_score_details(path: str | Path, report: ScoreReport) -> None:
    write_jsonl(path, score_detail_rows(report))


def write_rank_details(path: str | Path, report: RankReport) -> None:
    write_jsonl(path, rank_detail_rows(report))
