"""Rank systems per phenomenon like the paper's Tables 4-7: score, paired bootstrap against the next system,
and sacrebleu corpus BLEU beside it (same reference, same documents)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from discotest.dip.score import EXTRA, METRICS, PhenomenonScore
from discotest.stats import DEFAULT_SEED, paired_bootstrap, tie_order

ALPHA = 0.05


@dataclass
class RankRow:
    system: str
    value: float
    extra: float | int | None  # ANY % (connectives) or the count of items whose pronoun differs (anaphora)
    n: int
    bleu: float | None
    p_next: float | None = None  # paired bootstrap p against the next system in the ranking
    holdout: bool = False
    rank: int = 0  # 1 = best; tied systems share the better rank (``stats.tie_order``)

    @property
    def significant(self) -> bool:
        return self.p_next is not None and self.p_next < ALPHA


@dataclass
class Ranking:
    phenomenon: str
    metric: str
    higher_is_better: bool
    extra_label: str | None
    rows: list[RankRow] = field(default_factory=list)


def bleu_scores(reference: Sequence[str], systems: dict[str, Sequence[str]], lines: Sequence[int]
                ) -> tuple[dict[str, float], str]:
    """sacrebleu corpus BLEU of each system on the given lines, and the BLEU signature."""
    from sacrebleu.metrics import BLEU

    bleu = BLEU()
    refs = [[reference[i] for i in lines]]
    out = {name: bleu.corpus_score([hyp[i] for i in lines], refs).score for name, hyp in systems.items()}
    return out, str(bleu.get_signature())


def rank_phenomenon(phenomenon: str, scores: Sequence[PhenomenonScore], bleu: dict[str, float],
                    held_out: Collection[str] = (), n_bootstrap: int = 1000, seed: int = DEFAULT_SEED) -> Ranking:
    """The systems in order, each with its paired bootstrap against the next; ``held_out``: the systems mining left
    out (``--holdout``, a user's ``--input``), flagged."""
    metric = METRICS[phenomenon]
    extra_label, extra_fn = EXTRA.get(phenomenon, (None, None))
    order = tie_order([-s.value if metric.higher_is_better else s.value for s in scores], [s.system for s in scores])
    ordered = [scores[i] for i, _ in order]
    ranking = Ranking(phenomenon, metric.label, metric.higher_is_better, extra_label)
    for k, (score, (_, rank)) in enumerate(zip(ordered, order)):
        row = RankRow(score.system, score.value, extra_fn(score.sums()) if extra_fn else None, len(score.stats),
                      bleu.get(score.system), holdout=score.system in held_out, rank=rank)
        if k + 1 < len(ordered) and score.stats:
            row.p_next = paired_bootstrap(score.stats, ordered[k + 1].stats, metric.value,
                                          n_samples=n_bootstrap, seed=seed).p_value
        ranking.rows.append(row)
    return ranking
