"""Inline coreference markers on the source (Yehudai et al. 2023, §4):
``The trophy didn't fit in the <ENT1> suitcase </ENT1> because <ENT1> it </ENT1> was too small``.

Clusters are numbered ENT1, ENT2 … in the order of their first mention in the text; every mention span is wrapped,
with a space inside each tag so the tags stay whole words for any tokenizer. Spans are what the resolver gives
(the rules resolver: a noun's head and its compounds, not the whole noun phrase). At most ``MAX_CLUSTERS`` clusters
are marked (the fine-tuning vocabulary holds that many tag pairs); overlapping spans are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from discotest.gender.coref.clusters import GENDER_PRONOUNS, Cluster

MAX_CLUSTERS = 9
MARKER_TOKENS = [f"<ENT{k}>" for k in range(1, MAX_CLUSTERS + 1)] + [f"</ENT{k}>" for k in range(1, MAX_CLUSTERS + 1)]
_MARKER = re.compile(r"\s*</?ENT\d+>\s*")


def mark(text: str, clusters: Sequence[Cluster]) -> str:
    """``text`` with every mention of every (non-singleton) cluster wrapped in ``<ENTk> … </ENTk>``."""
    ordered = sorted((c for c in clusters if len(c) > 1), key=lambda c: min(c))[:MAX_CLUSTERS]
    spans = sorted((s, e, k) for k, cluster in enumerate(ordered, start=1) for s, e in cluster)
    out, at = [], 0
    for start, end, k in spans:
        if start < at or end <= start:
            continue  # overlaps the previous mention
        out.append(text[at:start])
        out.append(f"<ENT{k}> {text[start:end]} </ENT{k}>")
        at = end
    out.append(text[at:])
    return "".join(out)


def strip_markers(text: str) -> str:
    """A model's output (or a marked source) without marker tags, spacing repaired."""
    return " ".join(_MARKER.sub(" ", text).split())


def is_gender_cluster(text: str, cluster: Cluster) -> bool:
    """The paper's Gender data: a cluster holding he/she/him/her/his/hers."""
    return any(text[s:e].lower() in GENDER_PRONOUNS for s, e in cluster)
