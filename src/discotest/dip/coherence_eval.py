"""What the DiP coherence model measures, out of sample: WMT22 into-English, where no model trains or tunes.

Three checks beside the DiP task itself (reference vs system output, ``coherence.pairwise_accuracy``):

- **shuffled documents** (Barzilay & Lapata 2008): each reference document of ≥ 3 lines against k sentence
  shuffles of itself (fixed seed); a model that only tells human from machine text sits at chance here, because
  every order-free feature is equal on both sides;
- **MT vs MT where people differ**: two systems' outputs of one document whose WMT22 DA scores (reference-based
  MTurk DA, z-scored, mean over the segments both systems have scores for; segment ids follow the documents
  sorted by doc id, see ``sid_lines``) differ by at least a margin — does the
  model prefer the system people preferred? And Kendall's τ_b between systems' mean model score and mean DA;
- **what decides**: for any list of pairs, the accuracy of the model restricted to one feature group
  (``coherence.FEATURE_GROUPS``, trained coefficients kept) and the group's share of the score differences,
  Σ Δ_g·Δ / Σ Δ² over the pairs (Δ = score(better) − score(worse), Δ_g its terms from group g; the shares sum to 1
  and do not depend on which side of a pair is called better).

Every check works on pairs (better, worse) of feature rows (``coherence.document_features``), so a test can build
them from hand-made documents.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import finite_number, is_number, is_whole_number
from discotest.dip.coherence import FEATURE_GROUPS, CoherenceModel, PairFeatures
from discotest.dip.documents import DATASETS, Document
from discotest.errors import InputError
from discotest.stats import kendall_tau_b

Row = Mapping[str, float]
Pair = tuple[Row, Row]  # (the side that should score higher, the other)
EPS = 1e-12  # score differences at most this are ties (as in coherence.pairwise_accuracy)
SHUFFLES = 20  # shuffles per reference document in the shuffled-document check
MARGIN = 0.5  # DA z-score difference (document means) above which people are taken to prefer one system
MIN_SEGMENTS = 2  # document segments both systems need DA scores for
MIN_LINES = 2  # documents of one line have no coherence to compare (as in DiP mining)


@dataclass(frozen=True)
class Tally:
    pairs: int
    wins: int  # the model scores the better side higher
    ties: int

    @property
    def accuracy(self) -> float:
        """Wins over all pairs: a tie is not a win (Barzilay & Lapata count it as an error too)."""
        return self.wins / self.pairs if self.pairs else 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.pairs + other.pairs, self.wins + other.wins, self.ties + other.ties)


def _terms(model: CoherenceModel, row: Row) -> dict[str, float]:
    return {name: c * row[name] / s for name, c, s in zip(model.feature_names, model.coef, model.scale)}


def tally(model: CoherenceModel, pairs: Sequence[Pair], features: Sequence[str] | None = None) -> Tally:
    """How often the model (restricted to ``features`` if given, coefficients unchanged) prefers the better side."""
    keep = set(model.feature_names if features is None else features)
    wins = ties = 0
    for better, worse in pairs:
        a, b = _terms(model, better), _terms(model, worse)
        delta = sum(a[n] - b[n] for n in a if n in keep)
        wins += delta > EPS
        ties += abs(delta) <= EPS
    return Tally(len(pairs), wins, ties)


def decompose(model: CoherenceModel, pairs: Sequence[Pair],
              groups: Mapping[str, Sequence[str]] = FEATURE_GROUPS) -> dict[str, dict[str, float]]:
    """Per feature group the model uses: restricted accuracy and share Σ Δ_g·Δ / Σ Δ² of the score differences."""
    used = {g: [n for n in names if n in model.feature_names] for g, names in groups.items()}
    used = {g: names for g, names in used.items() if names}
    deltas = []
    for better, worse in pairs:
        a, b = _terms(model, better), _terms(model, worse)
        deltas.append({g: sum(a[n] - b[n] for n in names) for g, names in used.items()})
    total = [sum(d.values()) for d in deltas]
    norm = sum(t * t for t in total)
    return {g: {"accuracy": tally(model, pairs, names).accuracy,
                "share": sum(d[g] * t for d, t in zip(deltas, total)) / norm if norm else 0.0}
            for g, names in used.items()}


# ---------------------------------------------------------------------------------------------------------------
# the three kinds of pairs


def reference_pairs(pf: PairFeatures) -> list[Pair]:
    """The DiP task: (reference, system output) per document and system."""
    return [(ref, out) for outs in pf.systems.values() for ref, out in zip(pf.reference, outs)]


def shuffle_pairs(pf: PairFeatures) -> list[Pair]:
    """(reference, one of its shuffles) per document and shuffle (``pair_features(shuffles=k)``: ≥ 3 lines)."""
    return [(ref, sh) for ref, shs in zip(pf.reference, pf.shuffled) for sh in shs]


def da_path(pair: str, root: str | Path | None = None) -> Path:
    folder = DATASETS["wmt22"][0]
    path = catalogue.data_dir(root) / folder / "humaneval" / "DA" / "newstest2022-toen" / f"ad-seg-scores-{pair}.csv"
    if not path.is_file():
        raise InputError(f"WMT22 DA segment scores for {pair} not found (copy humaneval/DA/newstest2022-toen from "
                         "github.com/wmt-conference/wmt22-news-systems into wmt22_general)", path)
    return catalogue.check_file(path, root)


def sid_lines(doc_ids: Sequence[str]) -> list[int]:
    """0-based text line of each DA segment id (SID k is entry k − 1): the pair's lines with its documents sorted by
    doc id, each document's lines in order.

    Not the text's own order (the data PROVENANCE's guess): with SID = line, the output closer to the reference
    gets the higher DA in 50% of same-segment system pairs (chance; zh-en Online-W's empty line 1479 gets z +1.29);
    with documents sorted by id, 60-76% per pair, and that empty line gets z −1.48 (checked with difflib similarity
    to reference A over every pair of systems whose similarities differ by > 0.2)."""
    return sorted(range(len(doc_ids)), key=lambda i: (doc_ids[i], i))


def read_da_scores(path: str | Path, lines: Sequence[int] | None = None) -> dict[str, dict[int, float]]:
    """WMT22 ``ad-seg-scores-*.csv`` (``SYS SID RAW.SCR Z.SCR N``): system → 0-based line → z-scored DA.

    ``SYS`` is ``<system>.<k>`` (the suffix is dropped to match the output files); SID k is line ``lines[k − 1]``
    (``sid_lines`` of the pair's doc ids for the WMT22 files), or line k − 1 when ``lines`` is None."""
    path = Path(path)
    out: dict[str, dict[int, float]] = {}
    rows = path.read_text("utf-8").splitlines()
    if not rows or rows[0].split()[:4] != ["SYS", "SID", "RAW.SCR", "Z.SCR"]:
        raise InputError("not a WMT DA segment score file (header SYS SID RAW.SCR Z.SCR N)", path, 1)
    for number, row in enumerate(rows[1:], start=2):
        fields = row.split()
        if not fields:
            continue
        if len(fields) < 4 or not is_whole_number(fields[1]) or not is_number(fields[3]):
            raise InputError("malformed DA row (want SYS SID RAW.SCR Z.SCR N; numbers as in JSON)", path, number)
        system, sid, z = fields[0].rsplit(".", 1)[0], int(fields[1]), finite_number(fields[3], "Z.SCR", path, number)
        if sid < 1 or (lines is not None and sid > len(lines)):
            raise InputError(f"segment id {sid} outside 1..{len(lines) if lines is not None else 'N'}", path, number)
        line = lines[sid - 1] if lines is not None else sid - 1
        if line in out.setdefault(system, {}):
            raise InputError(f"second score for {system} segment {sid}", path, number)
        out[system][line] = z
    return out


def human_pairs(pf: PairFeatures, documents: Sequence[Document], da: Mapping[str, Mapping[int, float]],
                margin: float = MARGIN, min_segments: int = MIN_SEGMENTS, min_lines: int = MIN_LINES) -> list[Pair]:
    """(preferred, other) system outputs of one document where people's mean DA differs by ≥ ``margin``; the
    means are over the document's segments both systems have scores for (at least ``min_segments``)."""
    if [d.doc_id for d in documents] != pf.doc_ids:
        raise ValueError("documents do not match the features")
    systems = [s for s in pf.systems if s in da]
    out: list[Pair] = []
    for k, doc in enumerate(documents):
        if doc.end - doc.start < min_lines:
            continue
        for i, a in enumerate(systems):
            for b in systems[i + 1:]:
                in_both = [line for line in doc.lines if line in da[a] and line in da[b]]
                if len(in_both) < max(min_segments, 1):
                    continue
                diff = sum(da[a][line] - da[b][line] for line in in_both) / len(in_both)
                if abs(diff) >= margin:
                    better, worse = (a, b) if diff > 0 else (b, a)
                    out.append((pf.systems[better][k], pf.systems[worse][k]))
    return out


def system_tau(model: CoherenceModel, pf: PairFeatures, documents: Sequence[Document],
               da: Mapping[str, Mapping[int, float]], min_lines: int = MIN_LINES) -> tuple[float | None, int]:
    """Kendall τ_b between the systems' mean model score and their mean DA over the same documents; (τ, systems)."""
    keep = [k for k, doc in enumerate(documents) if doc.end - doc.start >= min_lines]
    systems = [s for s in pf.systems if s in da]
    model_means, human_means = [], []
    for s in systems:
        scores = model.score_features([pf.systems[s][k] for k in keep])
        human = [da[s][line] for k in keep for line in documents[k].lines if line in da[s]]
        if not scores or not human:
            continue
        model_means.append(sum(scores) / len(scores))
        human_means.append(sum(human) / len(human))
    return kendall_tau_b(model_means, human_means), len(model_means)
