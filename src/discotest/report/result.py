"""The Result protocol and signatures: what every suite family returns and every renderer formats.

A family's result is a small class over its own scores and verdicts that answers a few hooks (``summary``,
``details``, ``headline``, ``paired_metrics``); the base class builds the one JSON form every family shares
(``to_json``, documented in ``report/schema.json``), so a renderer, the HTML page or ``compare`` never needs to
know a family. Signatures are built from settings the way sacrebleu builds them: ``build_signature`` owns the
fields every result has (discotest version, suite, suite version, language, system, n, data files) and each
component (aligner, analyser, scorer, model, options) adds its own ``(key, value)`` pairs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from discotest.version import VERSION

FILES = "files"  # the data files a result read (``registry.data_field``): ``<8 hex>[,modified=…][,unpinned=…]``


@dataclass(frozen=True)
class Signature:
    """sacrebleu-style ``key:value|key:value`` naming everything that makes two numbers comparable."""

    fields: tuple[tuple[str, str], ...]

    def format(self) -> str:
        return "|".join(f"{k}:{v}" for k, v in self.fields)

    @classmethod
    def parse(cls, text: str) -> Signature:
        """A signature from its ``key:value|…`` text (sacrebleu's own BLEU signature …)."""
        return cls(tuple(tuple(part.split(":", 1)) for part in text.split("|") if ":" in part))  # type: ignore[misc]

    def get(self, key: str) -> str | None:
        return dict(self.fields).get(key)

    def replace(self, **changes: str) -> Signature:
        return Signature(tuple((k, changes.get(k, v)) for k, v in self.fields))

    def __str__(self) -> str:
        return self.format()


def build_signature(
    suite: str,
    suite_version: str,
    system: str,
    n: int,
    *,
    lang: str | None = None,
    scope: Iterable[tuple[str, str]] = (),
    settings: Iterable[tuple[str, str]] = (),
    files: tuple[str, str] = (FILES, "none"),
) -> Signature:
    """The shared fields in a fixed order, then ``scope`` (which part of the suite: an mZPRT domain, a DiP pair),
    then each component's ``settings``, then the data files (``registry.data_field``) last."""
    head = [("discotest", VERSION), ("suite", suite), ("version", suite_version)]
    if lang is not None:
        head.append(("lang", lang))
    head += [*scope, ("system", system), ("n", str(n))]
    return Signature(tuple((k, str(v)) for k, v in (*head, *settings, files)))


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


@dataclass(frozen=True)
class PairedMetric:
    """One metric of a result as per-item rows of sufficient statistics, so two results on the same items can be
    compared with a paired bootstrap and a sign test (``report.comparison``). ``statistic`` turns the column sums
    of the rows into the metric (accuracy from ``[correct, 1]`` rows, a sum from ``[difference]`` rows …); the sign
    test compares each item's first column."""

    name: str
    rows: dict[Hashable, tuple[float, ...]]
    statistic: Callable[[np.ndarray], float]
    higher_is_better: bool = True
    unit: str = "%"


@dataclass(frozen=True)
class Headline:
    """The one number a table or chart shows first for a result."""

    metric: str
    value: float | None
    higher_is_better: bool = True
    unit: str = "%"

    def to_json(self) -> dict:
        value = None if self.value is None else round(float(self.value), 4)
        return {"metric": self.metric, "value": value, "higher_is_better": self.higher_is_better, "unit": self.unit}


def lang_of(result: Result) -> str | None:
    return getattr(result, "lang", None)


def scope_of(result: Result) -> str | None:
    return getattr(result, "scope", None)


class Result:
    """What a suite family returns for one system (on one language, domain or test set).

    Subclasses set ``family`` and the attributes ``suite``, ``system``, ``signature``, and implement the hooks;
    ``to_json`` is shared so every family's JSON has the same envelope."""

    family: ClassVar[str] = ""
    suite: str
    system: str
    signature: Signature
    # Optional attributes (a field or a property of the subclass; read with ``lang_of``/``scope_of``): ``lang``, the
    # language (pair) when the suite has several; ``scope``, the part of the suite (an mZPRT domain, a WMT test set).

    @property
    def n(self) -> int:
        """Items the headline is computed on."""
        raise NotImplementedError

    def headline(self) -> Headline:
        raise NotImplementedError

    def summary(self) -> dict[str, Any]:
        """The family's own scores, JSON-ready."""
        raise NotImplementedError

    def details(self) -> list[dict[str, Any]]:
        """One JSON-ready row per item with its evidence and verdict (the ``--details`` lines), each naming the
        result it belongs to (system, and language, domain or suite), so several results can share one file."""
        raise NotImplementedError

    def paired_metrics(self) -> list[PairedMetric]:
        """Per-item statistics for ``compare``; empty when the result's items cannot be paired."""
        return []

    def extra_json(self) -> dict[str, Any]:
        """Family fields beside ``scores`` in the JSON (provenance of the input, unmatched rows …)."""
        return {}

    def to_json(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "suite": self.suite,
            "system": self.system,
            "lang": lang_of(self),
            "scope": scope_of(self),
            "n": self.n,
            "headline": self.headline().to_json(),
            "scores": self.summary(),
            **self.extra_json(),
            "signature": self.signature.format(),
        }
