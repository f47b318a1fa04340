"""Pronoun-differing (reference, system) pairs mined from WMT references against system outputs, in the "swap" view.

The anaphora miner (``mine.mine_anaphora``) finds reference pronouns that systems render as another pronoun. Each
distinct (item, system pronoun) gives one pair: the reference sentence, and the reference sentence with the system's
pronoun swapped in (``score.swap_pronoun``), both after the two previous reference lines. The two sentences differ in
the pronoun only, so a scorer trained to prefer the first learns about pronouns, not about the rest of a system's
wording. The reference is taken as right: human translators are, mostly (the miner's acceptable-pair list already
drops harmless variants). Pairs without document ids (WMT21 de-en, zh-en) are read as one document per file, so the
context of a document's first two lines comes from the previous document: tolerable for training data only.

Mined pairs are cached by the content of the pair's files and the parser version: the scorer trained on them
(``pronoun_trained``) is keyed by the pairs' own content.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from discotest import cache as disk_cache
from discotest.data import catalogue
from discotest.dip.documents import PairData, load_pair
from discotest.dip.mine import mine_anaphora, parse_lines
from discotest.dip.parse import pipeline_version
from discotest.dip.score import swap_pronoun

CACHE_NAMESPACE = "dip-pronoun-pairs"
PAIRS_VERSION = "1"


@dataclass(frozen=True)
class SwapPair:
    """One training or test pair; ``group`` names where it comes from (``wmt21:ja-en:A``)."""

    group: str
    context: tuple[str, ...]
    reference: str
    swapped: str
    ref_pronoun: str
    sys_pronoun: str


def _from_json(text: str) -> list[SwapPair]:
    rows = json.loads(text)
    if not isinstance(rows, list):
        raise ValueError("not a list of pairs")
    return [SwapPair(str(r["group"]), tuple(str(c) for c in r["context"]), str(r["reference"]), str(r["swapped"]),
                     str(r["ref_pronoun"]), str(r["sys_pronoun"])) for r in rows]


def pairs_to_json(pairs: Sequence[SwapPair]) -> str:
    return json.dumps([asdict(p) for p in pairs], ensure_ascii=False, sort_keys=True)


def mine_swap_pairs(data: str, pair: str, ref: str = "A", data_dir: str | Path | None = None,
                    use_cache: bool = True) -> list[SwapPair]:
    """Every distinct (mined anaphora item, system pronoun) of ``data`` ``pair`` against reference ``ref``, mined
    from all of the pair's systems, in item order then pronoun order."""
    loaded = load_pair(data, pair, ref, data_dir, need_docids=False)
    digest = [CACHE_NAMESPACE, PAIRS_VERSION, data, pair, ref, pipeline_version()]
    digest += [f"{name}={catalogue.sha256_of(path)}" for name, path in sorted(loaded.paths.items())]
    key = disk_cache.content_key(digest)
    if use_cache and (hit := disk_cache.load(CACHE_NAMESPACE, key, _from_json)) is not None:
        return hit
    out = swap_pairs(loaded, use_cache)
    if use_cache:
        disk_cache.store(CACHE_NAMESPACE, key, pairs_to_json(out))
    return out


def swap_pairs(loaded: PairData, use_cache: bool = True) -> list[SwapPair]:
    """The pairs of a loaded WMT pair (``mine_swap_pairs`` without the loading and caching)."""
    lines = [i for doc in loaded.documents for i in doc.lines]
    ref_parses = parse_lines(loaded.reference, lines, loaded.documents, use_cache)
    systems = {name: parse_lines(hyp, lines, loaded.documents, use_cache) for name, hyp in loaded.systems.items()}
    group = f"{loaded.data}:{loaded.pair}:{loaded.ref_name}"
    out = []
    for item in mine_anaphora(loaded, ref_parses, systems):
        line = item["sentences"][-1]
        context = tuple(loaded.reference[i] for i in item["sentences"][:-1])
        for pronoun in sorted(set(item["variants"].values())):
            swapped = swap_pronoun(loaded.reference[line], ref_parses, item, pronoun)
            if swapped != loaded.reference[line]:
                out.append(SwapPair(group, context, loaded.reference[line], swapped, item["pronoun"], pronoun))
    return out
