"""A card's row as data: what ``cards.build.fill_row`` makes, the card's cache keeps and every renderer reads
(text, JSON, Markdown, LaTeX, HTML, ``--versus``, the CLI's exit status). Typed and frozen, so a misspelt field fails
where it is written, not as a ``KeyError`` on some later card; ``to_json`` is the row of docs/card.md's JSON, key for
key, and ``from_json`` reads it back (the cache stores that JSON: a row read back equals the row computed)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

Status = Literal["ok", "unfilled", "failed"]  # filled; the system cannot fill it (why); its run failed (the error)
Better = Literal["higher", "lower", "nearer 0"]
Sample = Literal["in", "out", "none"]  # VALIDITY.md's figure: the rule shaped on those items, or not; none declared


@dataclass(frozen=True)
class Neighbour:
    """A published system just above or below the row's on one metric, with the paired bootstrap p-value."""

    system: str
    value: float
    p: float | None

    def to_json(self) -> dict[str, Any]:
        return {"system": self.system, "value": self.value, "p": self.p}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Neighbour | None:
        return None if data is None else cls(data["system"], data["value"], data["p"])


@dataclass(frozen=True)
class CardLine:
    """One metric of one part of the row's run (a language, an mZPRT domain, a context size): its value and 95%
    interval (None where no item could be scored, ``n`` 0), its place among the suite's published systems (None
    where it has none) and, for a contrastive accuracy, the accuracy by antecedent distance."""

    scope: str
    lang: str | None
    metric: str
    unit: str
    better: Better
    value: float | None
    ci95: float | None
    n: int
    rank: int | None = None
    of: int | None = None
    above: Neighbour | None = None
    below: Neighbour | None = None
    by_distance: dict[str, float] | None = None  # absent from the JSON where None

    def to_json(self) -> dict[str, Any]:
        out = {"scope": self.scope, "lang": self.lang, "metric": self.metric, "unit": self.unit,
               "better": self.better, "value": self.value, "ci95": self.ci95, "n": self.n, "rank": self.rank,
               "of": self.of, "above": self.above.to_json() if self.above else None,
               "below": self.below.to_json() if self.below else None}
        if self.by_distance is not None:
            out["by_distance"] = dict(self.by_distance)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CardLine:
        return cls(data["scope"], data["lang"], data["metric"], data["unit"], data["better"], data["value"],
                   data["ci95"], data["n"], data["rank"], data["of"], Neighbour.from_json(data["above"]),
                   Neighbour.from_json(data["below"]), data.get("by_distance"))


@dataclass(frozen=True)
class HandCheck:
    """A hand check behind a validity figure: the items that hold of those read."""

    holds: int
    n: int


@dataclass(frozen=True)
class Validity:
    """What VALIDITY.md says of a row's number (``groups.validity_badge``): its text, in or out of sample (None: no
    figure declared), the figure for the row's language, the hand check or headline behind it, and its section."""

    sample: Sample | None
    text: str
    figure: str | None = None
    hand_check: HandCheck | None = None
    headline: str | None = None
    section: str | None = None

    def to_json(self) -> dict[str, Any]:
        check = self.hand_check
        return {"sample": self.sample, "text": self.text, "figure": self.figure,
                "hand_check": {"holds": check.holds, "n": check.n} if check else None,
                "headline": self.headline, "section": self.section}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Validity:
        check = data.get("hand_check")
        return cls(data["sample"], data["text"], data.get("figure"),
                   HandCheck(check["holds"], check["n"]) if check else None, data.get("headline"),
                   data.get("section"))


@dataclass(frozen=True)
class FilledRow:
    """One row of the card as ``fill_row`` filled it: ``ok`` with its lines and what its run said (``system``,
    ``signature``, ``warnings``, the sha256 of every ``data_files`` it read, the published systems
    ``not_ranked_against``), ``unfilled`` (the system cannot fill it: ``reason``) or ``failed`` (its run failed:
    the error's one line; not cached). The last four fields are an ``ok`` row's only (absent from the others'
    JSON)."""

    pair: str
    id: str
    suite: str
    phenomenon: str
    validity: Validity
    status: Status
    reason: str | None = None
    lines: tuple[CardLine, ...] = ()
    signature: str | tuple[str, ...] | None = None  # the run's; one per result where they differ
    system: str | None = None  # the name the row's results go by (the published system's, the manifest's …)
    warnings: tuple[str, ...] = ()
    data_files: dict[str, str] = field(default_factory=dict)
    not_ranked_against: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """``pair/id``: how the manifest and ``--versus`` name the row."""
        return f"{self.pair}/{self.id}"

    @property
    def signatures(self) -> list[str]:
        """Every signature of the row's run (none for a row not filled)."""
        return ([] if self.signature is None else [self.signature] if isinstance(self.signature, str)
                else list(self.signature))

    def to_json(self) -> dict[str, Any]:
        """The row of the card's JSON (docs/card.md)."""
        out: dict[str, Any] = {
            "pair": self.pair, "id": self.id, "suite": self.suite, "phenomenon": self.phenomenon,
            "validity": self.validity.to_json(), "status": self.status, "reason": self.reason,
            "lines": [line.to_json() for line in self.lines],
            "signature": self.signature if self.signature is None or isinstance(self.signature, str)
            else list(self.signature)}
        if self.status == "ok":
            out.update(system=self.system, warnings=list(self.warnings), data_files=dict(self.data_files),
                       not_ranked_against=list(self.not_ranked_against))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FilledRow:
        """A row from its JSON (the card's cache)."""
        signature = data.get("signature")
        return cls(data["pair"], data["id"], data["suite"], data["phenomenon"], Validity.from_json(data["validity"]),
                   cast(Status, data["status"]), data.get("reason"),
                   tuple(CardLine.from_json(line) for line in data.get("lines") or ()),
                   tuple(signature) if isinstance(signature, list) else signature, data.get("system"),
                   tuple(data.get("warnings") or ()), dict(data.get("data_files") or {}),
                   tuple(data.get("not_ranked_against") or ()))

