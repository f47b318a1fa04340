"""Results and signatures: the objects every renderer (text, JSON, details) formats."""

from __future__ import annotations

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
