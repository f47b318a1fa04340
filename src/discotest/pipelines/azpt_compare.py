"""Two systems on one mZPRT domain: AZPT and BLEU of each, with a paired sign test and bootstrap for both."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from discotest.errors import InputError
from discotest.lang.align.base import WordAligner
from discotest.options import check_int
from discotest.phenomena.zero_pronoun import DEFAULT_REACH
from discotest.pipelines.azpt import bleu_metric, bleu_texts, run_mzprt
from discotest.report.azpt_result import AZPTResult, ComparisonResult, MetricComparison
from discotest.stats import DEFAULT_SEED, accuracy_from_sums, paired_bootstrap, sign_test
from discotest.suites.mzprt import MZPRTSuite, check_domain, load_mzprt


def compare_results(
    a: AZPTResult, b: AZPTResult, suite: MZPRTSuite, n_bootstrap: int = 1000, seed: int | None = DEFAULT_SEED
) -> ComparisonResult:
    """AZPT and BLEU of two results on the same domain with a sign test and a paired bootstrap each.

    AZPT pairs the two systems' verdicts ZP by ZP; BLEU pairs sentences (those both systems cover).
    The BLEU sign test counts, per sentence, whether putting B's translation into A's output raises
    or lowers A's corpus BLEU (sentence-level BLEU is too noisy to vote with).
    """
    if a.domain != b.domain:
        raise InputError(f"cannot compare systems on different domains ({a.domain} vs {b.domain})")
    verdicts_b = {(v.segment, v.ordinal): v for v in b.verdicts if v.correct is not None}
    paired = [(v, verdicts_b[(v.segment, v.ordinal)]) for v in a.verdicts
              if v.correct is not None and (v.segment, v.ordinal) in verdicts_b]
    if not paired:
        raise InputError("the two systems share no scored zero pronoun")
    zp_a = np.array([[float(va.correct), 1.0] for va, _ in paired])
    zp_b = np.array([[float(vb.correct), 1.0] for _, vb in paired])
    azpt = MetricComparison(
        "AZPT",
        accuracy_from_sums(zp_a.sum(0)),
        accuracy_from_sums(zp_b.sum(0)),
        len(paired),
        sign_test(zp_a[:, 0], zp_b[:, 0]),
        paired_bootstrap(zp_a, zp_b, accuracy_from_sums, n_bootstrap, seed),
    )
    segments = sorted(set(a.hypotheses) & set(b.hypotheses))
    lowercase = "published" in (a.kind, b.kind)
    metric = bleu_metric(lowercase)
    hyps_a, refs = bleu_texts(a, suite, segments)
    hyps_b, _ = bleu_texts(b, suite, segments)
    stats_a = np.array(metric._extract_corpus_statistics(hyps_a, [refs]), dtype=float)
    stats_b = np.array(metric._extract_corpus_statistics(hyps_b, [refs]), dtype=float)

    def bleu_of(row: np.ndarray) -> float:
        return metric._compute_score_from_stats([int(x) for x in row]).score

    total_a = stats_a.sum(0)
    base = bleu_of(total_a)
    swapped = [bleu_of(total_a - stats_a[i] + stats_b[i]) - base for i in range(len(segments))]
    bleu_cmp = MetricComparison(
        "BLEU",
        base,
        bleu_of(stats_b.sum(0)),
        len(segments),
        sign_test([0.0] * len(swapped), swapped),
        paired_bootstrap(stats_a, stats_b, bleu_of, n_bootstrap, seed),
    )
    a.bleu, b.bleu = bleu_cmp.score_a, bleu_cmp.score_b
    a.bleu_signature = b.bleu_signature = f"{metric.get_signature().format()}|sents:{len(segments)}"
    return ComparisonResult(a.domain, a, b, [azpt, bleu_cmp])


def compare_mzprt(
    domain: str,
    input_a: str | Path,
    input_b: str | Path,
    data_dir: str | Path | None = None,
    window: int = 1,
    n_bootstrap: int = 1000,
    seed: int | None = DEFAULT_SEED,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
    extra: str = "wmt",
    aligner: str | WordAligner = "default",
    reach: int = DEFAULT_REACH,
) -> ComparisonResult:
    """Compare two hypothesis files on one domain: AZPT and BLEU of each, sign-test and paired-bootstrap
    p-values for both metrics (``n_bootstrap`` resamples, seeded)."""
    if isinstance(domain, str) and domain == "all":
        raise InputError("compare needs one --domain")
    check_domain(domain)
    check_int(n_bootstrap, "bootstrap")
    if seed is not None:
        check_int(seed, "seed")
    a, b = run_mzprt([domain], inputs=[input_a, input_b], data_dir=data_dir, window=window,
                     use_cache=use_cache, progress=progress, extra=extra, aligner=aligner, reach=reach)
    return compare_results(a, b, load_mzprt(domain, data_dir), n_bootstrap, seed)
