"""Resolvers and MT systems side by side (Yehudai et al. 2023, Table 2): how often is the pronoun
resolved to the right entity?

An MT system resolves through its translation: the pronoun's target gender matches the entity's and
not the distractor's (entity), or the distractor's and not the entity's (distractor). When entity and
distractor share a gender, or a gender cannot be read, the translation does not decide ("none").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from discotest.errors import InputError
from discotest.gender.judge import GenderVerdict
from discotest.report.charts import Chart, ChartPoint
from discotest.report.result import FILES, Headline, PairedMetric, Result, Signature, build_signature
from discotest.report.table import fixed_width
from discotest.stats import accuracy_from_sums

_GENDERS = ("male", "female", "neutral")


def mt_resolution(v: GenderVerdict) -> str:
    if v.omitted or v.pronoun_gender not in _GENDERS or v.distractor_gender not in _GENDERS:
        return "none"
    if v.predicted_gender == v.distractor_gender:
        return "none"  # both candidates agree with the pronoun, or neither does: undecided
    if v.pronoun_gender == v.predicted_gender:
        return "entity"
    return "distractor" if v.pronoun_gender == v.distractor_gender else "none"


@dataclass(frozen=True)
class Agreement:
    """An MT system's decisions against a resolver's, over the items both decided (Yehudai et al. 2023, Table 2)."""

    n: int  # items both decided
    agree: float  # % of them decided the same way

    def to_json(self) -> dict:
        return {"n": self.n, "agree": round(self.agree, 2)}


@dataclass(frozen=True)
class CorefScores:
    name: str
    n: int
    decided: float  # share of items the resolver decided
    accuracy: float  # resolved to the gold entity, over all items
    accuracy_decided: float  # over the decided items
    accuracy_pro: float | None = None  # over the pro-stereotypical items (None: the suite has no such labels)
    accuracy_anti: float | None = None  # over the anti-stereotypical items
    agreement: dict[str, Agreement] = field(default_factory=dict)  # resolver name -> agreement (MT systems only)

    def to_json(self) -> dict:
        out = {k: round(v, 2) if isinstance(v, float) else v for k, v in self.__dict__.items() if k != "agreement"}
        if self.agreement:
            out["agreement"] = {name: a.to_json() for name, a in self.agreement.items()}
        return out


def _accuracy(resolutions: Sequence[str]) -> float | None:
    return 100 * sum(r == "entity" for r in resolutions) / len(resolutions) if resolutions else None


def score_resolutions(name: str, resolutions: Sequence[str], stereotypes: Sequence[str | None] | None = None
                      ) -> CorefScores:
    """``stereotypes``: each item's pro/anti label (WinoMT, BUG), for the accuracy of each subset."""
    n = len(resolutions)
    decided = [r for r in resolutions if r != "none"]
    right = sum(r == "entity" for r in resolutions)
    labels = list(stereotypes) if stereotypes is not None else [None] * n
    subset = {s: [r for r, label in zip(resolutions, labels, strict=True) if label == s] for s in ("pro", "anti")}
    return CorefScores(
        name, n, 100 * len(decided) / n if n else 0.0, 100 * right / n if n else 0.0,
        100 * right / len(decided) if decided else 0.0, _accuracy(subset["pro"]), _accuracy(subset["anti"]),
    )


def agreement(a: Sequence[tuple[int, str]], b: Sequence[tuple[int, str]]) -> Agreement:
    """How often two sets of (row, resolution) decide an item the same way, over the rows both decided."""
    other = dict(b)
    both = [(r, other[row]) for row, r in a if r != "none" and other.get(row, "none") != "none"]
    return Agreement(len(both), 100 * sum(x == y for x, y in both) / len(both) if both else 0.0)


@dataclass
class CorefResult(Result):
    """A resolver's (or an MT system's) resolutions of the suite's pronouns, one per item."""

    family: ClassVar[str] = "coref"
    suite: str
    system: str
    scores: CorefScores
    signature: Signature
    resolutions: list[tuple[int, str]] = field(default_factory=list, repr=False)  # (suite row, resolution)
    lang: str | None = None

    @property
    def n(self) -> int:
        return self.scores.n

    def headline(self) -> Headline:
        return Headline("accuracy", self.scores.accuracy)

    def summary(self) -> dict:
        return self.scores.to_json()

    def details(self) -> list[dict]:
        return [{"system": self.system, "row": row, "resolution": r} for row, r in self.resolutions]

    def charts(self) -> list[Chart]:
        return [Chart("Pronoun resolved to the gold entity", (
            ChartPoint(self.system, "over all items", self.scores.accuracy),
            ChartPoint(self.system, "over decided items", self.scores.accuracy_decided)))]

    def paired_metrics(self) -> list[PairedMetric]:
        rows = {row: (float(r == "entity"), 1.0) for row, r in self.resolutions}
        return [PairedMetric("accuracy", rows, accuracy_from_sums)]


BASE_FIELDS = ("discotest", "suite", "version", "lang", "system", "n")


def coref_result(suite: str, suite_version: str, name: str, rows: Sequence[int], resolutions: Sequence[str],
                 settings: Iterable[tuple[str, str]], lang: str | None = None,
                 stereotypes: Mapping[int, str | None] | None = None,
                 resolvers: Mapping[str, CorefResult] | None = None) -> CorefResult:
    """``settings``: the resolver's version, or the fields of the MT result's signature beyond the shared ones;
    ``stereotypes``: each suite row's pro/anti label; ``resolvers``: the resolvers' results an MT system's decisions
    are set against (short name -> result)."""
    settings = list(settings)
    files = next(((k, v) for k, v in settings if k == FILES), (FILES, "none"))
    kept = [(k, v) for k, v in settings if k not in BASE_FIELDS and k != FILES]
    signature = build_signature(suite, suite_version, name, len(resolutions), lang=lang, settings=kept, files=files)
    pairs = list(zip(rows, resolutions, strict=True))
    scores = score_resolutions(name, resolutions, [(stereotypes or {}).get(row) for row in rows])
    if resolvers:
        scores = replace(scores, agreement={k: agreement(pairs, r.resolutions) for k, r in resolvers.items()})
    return CorefResult(suite, name, scores, signature, pairs, lang)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def render_coref_table(results: Sequence[CorefResult]) -> str:
    resolvers = list(dict.fromkeys(name for r in results for name in r.scores.agreement))
    subsets = any(r.scores.accuracy_pro is not None for r in results)
    header = ["resolver / system", "n", "decided%", "Acc%", "Acc% of decided"]
    header += ["Acc% pro", "Acc% anti"] if subsets else []
    header += [f"agree% {name}" for name in resolvers]
    rows = []
    for r in results:
        s = r.scores
        row = [r.system, str(s.n), f"{s.decided:.1f}", f"{s.accuracy:.1f}", f"{s.accuracy_decided:.1f}"]
        row += [_percent(s.accuracy_pro), _percent(s.accuracy_anti)] if subsets else []
        row += [f"{s.agreement[k].agree:.1f} ({s.agreement[k].n})" if k in s.agreement else "" for k in resolvers]
        rows.append(row)
    return "\n".join([
        *fixed_width(header, rows, left=1),
        "Acc% = pronoun resolved to the gold entity; an MT system decides only where its translation gives "
        "entity and distractor different genders and the pronoun agrees with one of them",
        *(["pro / anti: the pro- and anti-stereotypical items"] if subsets else []),
        *(["no-distractor: on an item with no distractor a resolver decides the entity when it links the pronoun "
           "to the entity's mention, other when it links it to another name or noun phrase (decided, wrong)"]
          if any(k == "no-distractor" for r in results for k, _ in r.signature.fields) else []),
        *(["agree% R: the MT system's decisions equal to resolver R's, over the items both decided (how many)"]
          if resolvers else []),
        "", *(r.signature.format() for r in results),
    ])


def coref_report(suite: str, resolvers: Sequence[str] = ("rules",), lang: str | None = None, system: str = "all",
                 suite_version: str = "current", jobs: int | None = None, data_dir: str | None = None,
                 quiet: bool = False):
    """``discotest coref``: each source-side resolver, and (with ``lang``) each MT system through its translation,
    scored on the same suite items (Yehudai et al. 2023, Table 2)."""
    from discotest.gender.coref import RESOLVERS
    from discotest.gender.coref.resolvers import make_resolver, rule_settings
    from discotest.gender.run import planned_pairs, run_many
    from discotest.gender.suites import load_gender_suite
    from discotest.progress import progress_bar
    from discotest.registry import lang_codes, split_list
    from discotest.report.emit import Report

    items = load_gender_suite(suite, suite_version, data_dir)
    stereotypes = {item.index: item.stereotype for item in items}
    names = list(dict.fromkeys(resolvers)) or ["rules"]
    for name in names:
        if name not in RESOLVERS:
            raise InputError(f"no resolver {name!r}: {', '.join(RESOLVERS)}")
    made = [make_resolver(name) for name in names]  # a missing environment fails before any work
    rule = rule_settings(items)  # the no-distractor rule, named where it can decide an item (BUG, not WinoMT)
    by_name: dict[str, CorefResult] = {}
    with progress_bar(f"coref: resolving {len(items)} {suite} items", "resolver", total=len(names),
                      quiet=quiet) as bar:
        for name, resolver in zip(names, made):
            by_name[name] = coref_result(suite, suite_version, f"{name} ({resolver.version()})",
                                         [item.index for item in items], resolver.resolve(items),
                                         (("resolver", resolver.version()), *rule), stereotypes=stereotypes)
            bar.update(1)
    results = list(by_name.values())
    if lang:
        pairs = planned_pairs(suite, lang_codes(lang), split_list(system))
        with progress_bar("system×language pairs", "pair", total=sum(map(len, pairs.values())), quiet=quiet) as bar:
            gender = run_many(suite, lang_codes(lang), split_list(system), jobs=jobs, progress=bar.update,
                              measure=("accuracy", "consistency"), suite_version=suite_version, data_dir=data_dir)
        results += [coref_result(suite, suite_version, f"{r.system}/{r.lang}", [v.index for v in r.verdicts],
                                 [mt_resolution(v) for v in r.verdicts], r.signature.fields, r.lang,
                                 stereotypes, by_name) for r in gender]
    return Report(f"discotest · coreference on {suite}", results, text=render_coref_table)
