"""Results and signatures: the objects every renderer (text, JSON, details) formats."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from discotest.phenomena.gender import ConsistencyScores, GenderScores, GenderVerdict


@dataclass(frozen=True)
class Signature:
    """sacrebleu-style ``key:value|key:value`` naming everything that makes two numbers comparable."""

    fields: tuple[tuple[str, str], ...]

    def format(self) -> str:
        return "|".join(f"{k}:{v}" for k, v in self.fields)

    def get(self, key: str) -> str | None:
        return dict(self.fields).get(key)

    def replace(self, **changes: str) -> Signature:
        return Signature(tuple((k, changes.get(k, v)) for k, v in self.fields))

    def __str__(self) -> str:
        return self.format()


FILES = "files"  # the data files a result read (``registry.data_field``): ``<8 hex>[,modified=…][,unpinned=…]``


def _merged_files(values: Sequence[str]) -> str:
    """One ``files`` value for several results: a hash over their own values, keeping every modified/unpinned
    marker, so a table of many systems still says whether any input was not pristine."""
    distinct = sorted(set(values))
    if len(distinct) == 1:
        return distinct[0]
    digest = hashlib.sha256("\n".join(distinct).encode()).hexdigest()[:8]
    marks = dict.fromkeys(part for value in distinct for part in value.split(",")[1:])
    return ",".join([digest, *marks])


def grouped_signatures(signatures: Sequence[Signature], *wildcards: str) -> list[str]:
    """The signatures of a table of results, the ``wildcards`` fields (system, domain …) shown as ``*``: one line per
    distinct remainder, its ``files`` merged over the group (the JSON keeps each result's own)."""
    if len(signatures) == 1:
        return [signatures[0].format()]
    groups: dict[Signature, list[str]] = {}
    for sig in signatures:
        key = sig.replace(**dict.fromkeys(wildcards, "*"), **{FILES: "*"})
        groups.setdefault(key, []).append(sig.get(FILES) or "")
    out = []
    for key, files in groups.items():
        merged = key.replace(**{FILES: _merged_files(files)}) if any(files) else key
        out.append(merged.format())
    return out


@dataclass
class GenderResult:
    """Scores of one system in one language on one suite, with the per-item evidence."""

    suite: str
    version: str
    lang: str
    system: str
    scores: GenderScores
    signature: Signature
    verdicts: list[GenderVerdict] = field(default_factory=list, repr=False)
    unmatched: list[int] = field(default_factory=list)
    located_by: dict[str, int] = field(default_factory=dict)
    consistency: ConsistencyScores | None = None

    def to_json(self) -> dict:
        extra = {"consistency": self.consistency.to_json()} if self.consistency else {}
        return {
            "suite": self.suite,
            "version": self.version,
            "lang": self.lang,
            "system": self.system,
            "scores": self.scores.to_json(),
            "unmatched": len(self.unmatched),
            "unmatched_rows": self.unmatched,
            "located_by": self.located_by,
            "signature": self.signature.format(),
            **extra,
        }
