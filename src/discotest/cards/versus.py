"""``card --versus B``: two systems' cards row by row, each metric with both values, the difference and the paired
bootstrap p-value on the items both have, and which rows differ (p < 0.05). Each row is run for both systems (their
translations, scores and verdicts come from the caches a card fills), so the test pairs the very items."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discotest.cards.build import Card, CardOptions, build_card, resolve, where_of
from discotest.cards.options import OPTIONS
from discotest.cards.render import METRIC_NAMES, p_text
from discotest.cards.system import MANIFEST, SystemSpec, endpoint_system, read_manifest
from discotest.registry import checked_settings
from discotest.report.ranking import paired_p, value_and_interval
from discotest.report.result import lang_of, scope_of
from discotest.report.table import fixed_width

SIGNIFICANT = 0.05


def versus_system(spec: str, model_options: dict[str, Any]) -> SystemSpec:
    """``--versus``'s system from how it is written: a URL (an endpoint), a folder with a manifest (outputs), another
    folder (a local model), else a published system's name."""
    if spec.startswith(("http://", "https://")):
        return endpoint_system(spec, None, model_options)
    from discotest.cards.checks import all_published_names, check_model_folder
    from discotest.errors import InputError, did_you_mean

    path = Path(spec)
    if (path / MANIFEST).is_file():
        name, files, row_options = read_manifest(path)
        return SystemSpec("outputs", folder=spec, files=files, label=name, row_options=row_options)
    if path.is_dir():
        check_model_folder(spec, "--versus")
        return SystemSpec("model", path=spec, model_options=model_options)
    names = all_published_names()
    if spec not in names:
        raise InputError(f"--versus {spec}: neither a folder (of outputs with a manifest, or a model), an endpoint URL "
                         f"nor a published system{did_you_mean(spec, names)}")
    return SystemSpec("published", published=spec)


def _key(result) -> tuple:
    return lang_of(result), scope_of(result), where_of(result)


def compare_cards(a: Card, b: Card, bootstrap: int = 1000, seed: int = 12345) -> list[dict[str, Any]]:
    """One line per row and metric both cards filled; a row only one filled is one line saying so."""
    out = []
    for row in a.rows:
        key = row.key
        other = b.row(key)
        head = {"row": key, "phenomenon": row.phenomenon}
        if key not in a.reports or key not in b.reports:
            why = [f"{side}: {r.status} ({r.reason})" for side, r in (("A", row), ("B", other)) if r.status != "ok"]
            out.append({**head, "metric": None, "note": "; ".join(why) or "not run"})
            continue
        theirs = {_key(r): r for r in b.reports[key].results}
        for result in a.reports[key].results:
            match = theirs.get(_key(result))
            if match is None:
                continue
            metrics_b = {m.name: m for m in match.ranked_metrics()}
            for metric in result.ranked_metrics():
                if metric.name not in metrics_b:
                    continue
                value_a, _, n = value_and_interval(metric, bootstrap, seed)
                value_b, _, n_b = value_and_interval(metrics_b[metric.name], bootstrap, seed)
                if not n or not n_b:  # a side scored no item: no number to compare
                    continue
                p = paired_p(metric, metrics_b[metric.name], bootstrap, seed)
                out.append({**head, "metric": metric.name, "scope": where_of(result), "a": round(value_a, 4),
                            "b": round(value_b, 4), "n": n, "p": p, "differs": p is not None and p < SIGNIFICANT,
                            "note": ""})
    return out


def render_versus(a: Card, b: Card, lines: list[dict[str, Any]]) -> str:
    rows, unfilled = [], []
    for line in lines:
        if line["metric"] is None:
            unfilled.append(f"  {line['row']}: {line['note']}")
            continue
        metric = METRIC_NAMES.get(line["metric"], line["metric"]) + (f" {line['scope']}" if line["scope"] else "")
        rows.append([line["row"], metric, f"{line['a']:.1f}", f"{line['b']:.1f}", f"{line['b'] - line['a']:+.1f}",
                     p_text(line["p"]), "yes" if line["differs"] else ""])
    table = [t.rstrip() for t in fixed_width(["row", "metric", "A", "B", "B−A", "p", "differs"], rows, left=2)]
    differ = sum(bool(line.get("differs")) for line in lines)
    return "\n".join([f"discourse cards: A = {a.system} ({a.kind}), B = {b.system} ({b.kind})", *table,
                      *(["rows not compared:", *unfilled] if unfilled else []), "",
                      f"{differ} of {len(rows)} numbers differ (paired bootstrap p < {SIGNIFICANT} on the items both "
                      f"have, {a.bootstrap} resamples, seed {a.seed})", f"A: {a.signature()}", f"B: {b.signature()}"])


def make_versus(**options: Any) -> tuple[Card, Card, list[dict[str, Any]]]:
    """Both cards (each row run for both systems) and the comparison lines (``compare_cards``): ``discotest card
    --versus`` and ``discotest.card(versus=…)`` both come here (here, not in cards.build: the comparison sits above
    the card it compares)."""
    s = checked_settings(OPTIONS, options, "card")
    system, pairs, rows = resolve(s)
    other = versus_system(s.versus, system.model_options)
    card_options = CardOptions.of(s)
    first = build_card(system, rows, pairs, card_options, keep_reports=True)
    second = build_card(other, rows, pairs, card_options, keep_reports=True)
    return first, second, compare_cards(first, second, s.bootstrap, s.seed)
