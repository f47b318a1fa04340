"""Text and JSON reports of contrastive results, and the per-item evidence (one JSON line per item)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from discotest.phenomena.contrastive import Accuracy, ContrastiveComparison
from discotest.pipelines.contrastive import ContrastiveResult
from discotest.report.render import write_jsonl

MAX_PAIRS = 15  # the text table shows the most frequent pronoun pairs; JSON has them all


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
        if len(s.by_pair) > 1:
            frequent = sorted(s.by_pair.items(), key=lambda kv: -kv[1].n)[:MAX_PAIRS]
            more = len(s.by_pair) - len(frequent)
            lines.append(" by pair (correct>incorrect)" + (f", {len(frequent)} most frequent of {len(s.by_pair)}"
                                                           if more else ""))
            lines += [_row(k, v) for k, v in frequent]
        lines.append(f" signature: {r.signature.format()}")
        lines.append("")
    return "\n".join(lines).rstrip()


def render_contrastive_json(results: Sequence[ContrastiveResult]) -> str:
    return json.dumps([r.to_json() for r in results], ensure_ascii=False, indent=1)


def render_comparison(c: ContrastiveComparison) -> str:
    return (f"{c.name_a}: {c.accuracy_a:.2f} ± {c.ci_a:.2f}   {c.name_b}: {c.accuracy_b:.2f} ± {c.ci_b:.2f}   "
            f"(n={c.n})\n"
            f"paired bootstrap p = {c.p_bootstrap:.4f}; sign test: {c.wins_a} items only {c.name_a} gets right, "
            f"{c.wins_b} only {c.name_b}, p = {c.p_sign:.4f}")


def contrastive_detail_rows(results: Sequence[ContrastiveResult]) -> list[dict]:
    return [{"system": r.system, "suite": r.suite, **v.to_json()} for r in results for v in r.verdicts]


def write_contrastive_details(path: str | Path, results: Sequence[ContrastiveResult]) -> None:
    write_jsonl(path, contrastive_detail_rows(results))
