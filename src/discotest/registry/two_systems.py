"""``compare`` for any family: run the two systems with the same settings, pair their results (same suite, language
and scope) and compare every per-item metric (``report.comparison``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from discotest.errors import InputError
from discotest.progress import progress_bar
from discotest.registry import Settings
from discotest.report.emit import Report
from discotest.report.result import Result, lang_of, scope_of

if TYPE_CHECKING:  # the paired tests load when a comparison runs, not with every family
    from discotest.report.comparison import Comparison, MetricComparison

ExtraMetrics = Callable[[Result, Result, int, int | None], tuple[Sequence["MetricComparison"], Sequence[str]]]


def as_list(value: Any) -> list:
    """A setting naming one thing or several: ``"google"`` (Python's ``system="google"``) is one, not six letters."""
    if value is None or value == "":
        return []
    return [value] if isinstance(value, str | bytes) or not isinstance(value, Sequence) else list(value)


def two_systems(settings: Settings) -> list[Settings]:
    """The run settings of A and B: published names first, then files, as given (one of each may be a single
    value: ``compare("winomt", lang="de", system="google", input="f.txt")``). Each keeps every other setting
    (the bootstrap's too, which a run does not read)."""
    systems, inputs = as_list(settings.system), as_list(settings.input)
    if len(systems) + len(inputs) != 2:
        raise InputError("compare needs two systems: --input A --input B, --system A --system B, or one of each")
    return ([settings.replace(system=s, input=None) for s in systems]
            + [settings.replace(system=None, input=i) for i in inputs])


def _many(settings: Settings) -> bool:
    """More than two systems: ``--system all``, three names or more, or names and files making more than two."""
    systems, inputs = as_list(settings.system), as_list(settings.input)
    named = [n for s in systems for n in (s.split(",") if isinstance(s, str) else [s])]
    return "all" in named or len(named) + len(inputs) > 2


def rank_systems(suite: str, settings: Settings, run: Callable[[str, Settings], Report]) -> Report:
    """Every named system (``--system all``: every published one, with any ``--input`` files among them) ranked per
    language, scope and metric, with the paired bootstrap against the next system down."""
    from discotest.report.ranking import ranking, render_ranking

    systems, inputs = as_list(settings.system), as_list(settings.input)
    runs = (([settings.replace(system=",".join(map(str, systems)), input=None)] if systems else [])
            + [settings.replace(system=None, input=i) for i in inputs])
    reports = [run(suite, s) for s in runs]
    results = [r for report in reports for r in report.results]
    # a system has one result per language and part of the suite (``--lang all``): two of one name in one of them are
    # two systems the ranking could not tell apart
    named = [(r.suite, lang_of(r), scope_of(r), r.system) for r in results]
    twice = next((key for key in named if named.count(key) > 1), None)
    if twice is not None:
        where = " ".join(str(x) for x in twice[1:3] if x)
        raise InputError(f"two systems are named {twice[3]!r}" + (f" in {where}" if where else "") + ": rename a file")
    tables = ranking(results, settings.bootstrap, settings.seed)
    return Report(f"discotest · ranking {suite}", results, aggregates={"ranking": tables},
                  text=lambda _results: render_ranking(tables), warnings=[w for r in reports for w in r.warnings])


def compare_systems(suite: str, settings: Settings, run: Callable[[str, Settings], Report],
                    extra: ExtraMetrics | None = None) -> Report:
    """Both systems' results and one comparison per shared (language, scope); more than two systems: a ranking
    (``rank_systems``)."""
    from discotest.report.comparison import compare_results

    if _many(settings):
        return rank_systems(suite, settings, run)
    n_bootstrap, seed = settings.bootstrap, settings.seed  # checked by their Option declarations
    reports = [run(suite, s) for s in two_systems(settings)]
    first, second = (r.results for r in reports)
    pairs = _pairs(first, second)
    comparisons: list[Comparison] = []
    with progress_bar(f"compare: paired tests ({n_bootstrap} resamples)", "pair", total=len(pairs)) as bar:
        for a, b in pairs:
            metrics, notes = extra(a, b, n_bootstrap, seed) if extra else ((), ())
            comparisons.append(compare_results(a, b, n_bootstrap, seed, metrics, notes))
            bar.update(1)
    if not comparisons:
        raise InputError("the two systems share no language or part of the suite to compare on")
    return Report(f"discotest · compare {suite}", [*first, *second], comparisons, text=reports[0].text,
                  warnings=[w for r in reports for w in r.warnings])


def _pairs(first: Sequence[Result], second: Sequence[Result]) -> list[tuple[Result, Result]]:
    """A's results each with B's of the same language and scope (those B lacks are left out)."""
    out = []
    for a in first:
        b = next((r for r in second if (lang_of(r), scope_of(r)) == (lang_of(a), scope_of(a))), None)
        if b is not None:
            out.append((a, b))
    return out
