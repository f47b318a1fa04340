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
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from discotest.report.charts import Chart
from discotest.version import VERSION

if TYPE_CHECKING:
    import numpy as np

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

    def with_limit(self, limit: int | None) -> Signature:
        """``limit:N`` before ``files`` (which stays last) for a ``--limit`` sample: its number is not the suite's;
        unchanged without a limit."""
        if not limit:
            return self
        fields = list(self.fields)
        at = next((i for i, (key, _) in enumerate(fields) if key == FILES), len(fields))
        return Signature((*fields[:at], ("limit", str(limit)), *fields[at:]))

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
    # best at this value (ΔG, ΔS: 0), so a ranking orders by the distance to it; None: by ``higher_is_better``
    target: float | None = None


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


@dataclass(frozen=True)
class Mark:
    """Characters ``start:end`` of an item's text field ``field`` are evidence of ``kind`` (``MARK_KINDS``)."""

    field: str
    start: int
    end: int
    kind: str


# what each kind of mark means (the HTML legend lists only the kinds a page uses)
MARK_KINDS = {
    "ent": "entity / expected word", "pro": "pronoun", "dis": "distractor", "cue": "words that decided the gender",
    "zp": "zero pronoun", "ali": "aligned words", "span": "candidate span", "hit": "matched word",
    "gold": "correct candidate / gold pronoun", "chosen": "chosen candidate (wrong)", "alt": "the wrong pronoun",
    "ref": "the reference's word", "same": "the system's word, as the reference's", "diff": "the system's other word",
    "tie": "tied for the top score (counts as wrong)",
}


@dataclass(frozen=True)
class ItemRow:
    """One item as the HTML page shows it: its fields (text and verdict), the evidence marked in the text, and the
    ``key`` naming the item across systems (the same key = the same test item, for the side-by-side view)."""

    fields: dict[str, Any]
    marks: tuple[Mark, ...] = ()
    key: str = ""
    item: Any = None  # the item's key in ``paired_metrics`` (a comparison marks what changed on it); None: ``index``


def phrase_marks(row: Mapping[str, Any], rules: Sequence[tuple[str, str, str]]) -> list[Mark]:
    """Marks for (text field, evidence field, kind) rules: each word or phrase of the evidence field (a string or a
    list of them), whole words, its first occurrence in the text field; overlapping marks: the first rule wins."""
    marks: list[Mark] = []
    for field_name, evidence, kind in rules:
        text = row.get(field_name)
        if not isinstance(text, str):
            continue
        value = row.get(evidence)
        phrases = [value] if isinstance(value, str) else value if isinstance(value, list | tuple) else []
        for phrase in phrases:
            if not isinstance(phrase, str) or not phrase.strip():
                continue
            found = re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text)
            if found and not any(m.field == field_name and m.start < found.end() and found.start() < m.end
                                 for m in marks):
                marks.append(Mark(field_name, found.start(), found.end(), kind))
    return marks


def token_marks(field_name: str, tokens: Sequence[str], kinds: Sequence[tuple[Iterable[int], str]]) -> list[Mark]:
    """Marks on tokens joined by single spaces: each (token positions, kind), the first kind of a token wins."""
    starts, at = [], 0
    for token in tokens:
        starts.append(at)
        at += len(token) + 1
    taken: set[int] = set()
    marks = []
    for positions, kind in kinds:
        for p in sorted(set(positions)):
            if 0 <= p < len(tokens) and p not in taken:
                taken.add(p)
                marks.append(Mark(field_name, starts[p], starts[p] + len(tokens[p]), kind))
    return marks


DEFAULT_MARKS = (
    ("source", "entity", "ent"), ("source", "pronoun", "pro"), ("source", "distractor", "dis"),
    ("translation", "target_entity", "ent"), ("translation", "target_pronoun", "pro"),
    ("translation", "target_distractor", "dis"), ("translation", "expected", "ent"),
)
KEY_FIELDS = ("suite", "lang", "domain", "phenomenon", "index", "row", "segment", "ordinal", "id")


def lang_of(result: Result) -> str | None:
    return getattr(result, "lang", None)


def scope_of(result: Result) -> str | None:
    return getattr(result, "scope", None)


class Result:
    """What a suite family returns for one system (on one language, domain or test set).

    Subclasses set ``family`` and the attributes ``suite``, ``system``, ``signature``, and implement the hooks;
    ``to_json`` is shared so every family's JSON has the same envelope."""

    family: ClassVar[str] = ""
    # what the HTML page calls this family's own summary and item keys (flattened, ``scores.`` dropped), over the
    # generic ones of ``report.html.LABELS``; ``headers``: short column headers where a label is long (the label is
    # then the tooltip)
    labels: ClassVar[dict[str, str]] = {}
    headers: ClassVar[dict[str, str]] = {}
    suite: str
    system: str
    signature: Signature
    # whether the run was asked for this system (its --input or --scores file, its --model or --endpoint, a published
    # system it was named), not one it adds to rank that system among (DiP ranks a given output beside the pair's WMT
    # systems): the card fills a row with its run's own results and ranks them against the others, reading this
    # instead of guessing from names. A family whose run adds such systems sets it per result
    own: bool = True
    # Optional attributes (a field or a property of the subclass; read with ``lang_of``/``scope_of``): ``lang``, the
    # language (pair) when the suite has several; ``scope``, the part of the suite (an mZPRT domain, a WMT test set).

    # the paper tables (``--format latex|markdown|csv``): what the columns' codes mean, decimals of a float, and the
    # signature fields that differ between the rows of one table (shown as ``*`` in its note)
    table_legend: ClassVar[str] = ""
    table_digits: ClassVar[int] = 1
    signature_wildcards: ClassVar[tuple[str, ...]] = ("system",)

    @property
    def n(self) -> int:
        """Items the headline is computed on."""
        raise NotImplementedError

    def legend_for(self, columns: Sequence[str]) -> str:
        """The legend of a paper table that prints ``columns``: a family whose columns vary (consistency measured
        or not, the reader verdict's mixed%) defines only those printed; by default ``table_legend``."""
        return self.table_legend

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

    def ranked_metrics(self) -> list[PairedMetric]:
        """The metrics a ranking or a discourse card shows, each with its per-item rows so it has a bootstrap
        interval and a paired test: ``paired_metrics`` and any a family adds for ranking only (gender: ΔG, ΔS,
        whose per-item sign test would mean nothing in ``compare``)."""
        return self.paired_metrics()

    def extra_json(self) -> dict[str, Any]:
        """Family fields beside ``scores`` in the JSON (provenance of the input, unmatched rows …)."""
        return {}

    def charts(self) -> list[Chart]:
        """What the HTML page plots for this result, as data; charts of the same title from several results merge
        (each result's points a series or a category)."""
        return []

    def item_rows(self) -> list[ItemRow]:
        """The items as the HTML page shows them. Default: the ``details`` rows, with entity/pronoun/distractor
        fields marked in ``source`` and ``translation`` (``DEFAULT_MARKS``), keyed by the fields that name an item
        (``KEY_FIELDS``); a family overrides it to add its text or evidence."""
        out = []
        for row in self.details():
            key = "/".join(f"{row[k]}" for k in KEY_FIELDS if row.get(k) is not None)
            out.append(ItemRow(row, tuple(phrase_marks(row, DEFAULT_MARKS)), key))
        return out

    def table_row(self) -> dict[str, Any]:
        """This result as one row of the paper tables: column -> value, numbers left as numbers (the renderer rounds
        them). Default: system, language, scope, the headline and n; a family gives the columns of its text table."""
        h = self.headline()
        unit = f" ({h.unit})" if h.unit else ""
        return {"system": self.system, "lang": lang_of(self), "scope": scope_of(self), f"{h.metric}{unit}": h.value,
                "n": self.n}

    def table_notes(self) -> list[str]:
        """Notes under the paper table beside the signatures (another scorer's signature: BLEU's)."""
        return []

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
