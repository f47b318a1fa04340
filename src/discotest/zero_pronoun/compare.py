"""BLEU of two mZPRT results on the sentences both cover, with a paired sign test and bootstrap: the metric the AZPT
family's ``compare`` adds to the per-ZP comparison every family gets (``report.comparison``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from discotest.report.comparison import MetricComparison
from discotest.stats import paired_bootstrap, sign_test
from discotest.zero_pronoun.mzprt import load_mzprt
from discotest.zero_pronoun.result import AZPTResult
from discotest.zero_pronoun.run import bleu_metric, bleu_signature, bleu_texts


def bleu_comparison(a: AZPTResult, b: AZPTResult, n_bootstrap: int, seed: int | None,
                    data_dir: str | Path | None = None) -> tuple[list[MetricComparison], list[str]]:
    """BLEU pairs sentences (those both systems cover). The sign test counts, per sentence, whether putting B's
    translation into A's output raises or lowers A's corpus BLEU (sentence-level BLEU is too noisy to vote with).
    Both results get the BLEU of the shared sentences and its signature; the signature is also returned as a note."""
    suite = load_mzprt(a.domain, data_dir)
    segments = sorted(set(a.hypotheses) & set(b.hypotheses))
    metric = bleu_metric("published" in (a.kind, b.kind))  # published outputs are lower-cased
    hyps_a, refs = bleu_texts(a, suite, segments)
    hyps_b, _ = bleu_texts(b, suite, segments)
    stats_a = np.array(metric._extract_corpus_statistics(hyps_a, [refs]), dtype=float)
    stats_b = np.array(metric._extract_corpus_statistics(hyps_b, [refs]), dtype=float)

    def bleu_of(row: np.ndarray) -> float:
        return metric._compute_score_from_stats([int(x) for x in row]).score

    total_a = stats_a.sum(0)
    base = bleu_of(total_a)
    swapped = [bleu_of(total_a - stats_a[i] + stats_b[i]) - base for i in range(len(segments))]
    compared = MetricComparison("BLEU", base, bleu_of(stats_b.sum(0)), len(segments),
                                sign_test([0.0] * len(swapped), swapped),
                                paired_bootstrap(stats_a, stats_b, bleu_of, n_bootstrap, seed))
    a.bleu, b.bleu = compared.score_a, compared.score_b
    a.bleu_signature = b.bleu_signature = bleu_signature(metric, len(segments))
    return [compared], [f"BLEU: {a.bleu_signature}"]
