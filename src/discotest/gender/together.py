"""Several gender suites' published systems over their languages in one pool of language workers, each worker one
language of every suite in turn: the worker's interpreter, its analyser (French's spaCy model, Russian's
dictionaries), its lexicons and its word tables are loaded once per language, not once per suite as one ``run_many``
per suite loads them. The card runs its WinoMT and WinoMT-adj rows of every pair so (``Family.suites_together``);
each row's own run then reads its verdicts back from the cache, found by their files (``verdict_cache.files_key``).

The verdicts are ``run_many``'s: ``_evaluate_language`` computes each suite's as a worker of ``run_many`` does, and a
verdict depends on its sentence, the language's alignment model of the suite and the analyser's rules, never on what
the worker read before (every system of a language shares one analyser in ``run_many`` already; the card with one job
ran both suites in one process, byte for byte the card of two workers). The workers are ``run_many``'s
(``gender.run.in_language_workers``: its schedule, its start, one language per worker process).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from discotest.errors import InputError
from discotest.gender.run import (
    RunOptions,
    _evaluate_language,
    _read_back,
    in_language_workers,
    load_suite,
    planned_pairs,
)
from discotest.gender.suites import locate_gender_suite

Work = list[tuple[list[str], RunOptions]]  # one language's runs: each suite's systems still to compute, its options


def run_suites(runs: Sequence[tuple[RunOptions, Sequence[str] | str, Sequence[str] | str]],
               jobs: int | None = None, on_language: Callable[[str], None] | None = None
               ) -> list[tuple[RunOptions, InputError]]:
    """Compute, and keep in the cache, the verdicts of every run (its options, languages and published systems, as
    ``run_many`` takes them), languages in ``jobs`` worker processes (default one per core), each language's runs of
    every suite in one worker. A language whose verdicts of a run are all cached is not run again for it. A run
    refused before any work (its suite or an output missing, a malformed suite) is left out, the others made: its
    own run says why. ``on_language(lang)`` as each computed language's verdicts are all in the cache (the card
    ranks its rows while the workers make the other languages'). Returns the runs left out, each with its error."""
    work: dict[str, Work] = {}
    refused: list[tuple[RunOptions, InputError]] = []
    for options, langs, systems in runs:
        try:
            options.check()
            tasks = planned_pairs(options.suite, langs, systems)
            locate_gender_suite(options.suite, options.suite_version, options.data_dir)
            done = _read_back(tasks, options, None)
            todo = {lang: names for lang, names in tasks.items() if lang not in done}
            if todo:
                load_suite(options)  # a malformed suite fails here, before any worker starts
        except InputError as exc:
            refused.append((options, exc))
            continue
        for lang, names in todo.items():
            work.setdefault(lang, []).append((names, options))
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(work)))
    if jobs == 1:
        for lang, runs_ in work.items():
            evaluate_suites(lang, runs_, in_worker=False)
            if on_language is not None:
                on_language(lang)
        return refused
    in_language_workers({lang: (evaluate_suites, (lang, runs_)) for lang, runs_ in work.items()},
                        {lang: [name for names, _ in runs_ for name in names] for lang, runs_ in work.items()}, jobs,
                        lambda lang, _: on_language(lang) if on_language is not None else None)
    return refused


def evaluate_suites(lang: str, runs: Work, in_worker: bool = True) -> int:
    """One language's runs, one suite after another in this process (its analyser loaded once): their verdicts are
    cached by ``_evaluate_language`` (by their files). Returns the (system, language) pairs computed."""
    for names, options in runs:
        _evaluate_language(lang, names, options, in_worker=in_worker, looked_up=True)
    return sum(len(names) for names, _ in runs)
