"""How ``--lang all`` hands languages to its two workers (``run._next_language``): the slowest first, but never two
heavy workers at once (French's spaCy model beside Russian peaked the tree at 1,024 MiB), and no worker left idle.
Simulated on the measured tables (``MEASURED_COST`` per output, ``MEASURED_MEMORY`` per worker) and WinoMT's
published pairs, so a new row in either table is checked too."""

from __future__ import annotations

from discotest.gender.run import WORKER_MEMORY, _next_language, _slowest_first, planned_pairs
from discotest.lang.morph import MEASURED_COST, MEASURED_MEMORY


def _simulate(tasks: dict[str, list[str]], jobs: int, choose) -> tuple[float, float]:
    """The makespan and the peak of the workers' summed memory when each free worker takes ``choose(pending,
    running)``."""
    pending, running, clock, peak = _slowest_first(tasks), {}, 0.0, 0.0
    while pending or running:
        while pending and len(running) < jobs:
            lang = choose(pending, list(running))
            pending.remove(lang)
            running[lang] = clock + MEASURED_COST[lang] * len(tasks[lang])
            peak = max(peak, sum(MEASURED_MEMORY[x] for x in running))
        lang = min(running, key=running.get)
        clock = running.pop(lang)
    return clock, peak


def test_heavy_workers_are_kept_apart_at_about_the_same_wall_time(shared_data):
    tasks = planned_pairs("winomt", "all", "all")
    wall, peak = _simulate(tasks, 2, lambda pending, running: _next_language(pending, running, 2))
    slowest_wall, slowest_peak = _simulate(tasks, 2, lambda pending, running: pending[0])
    assert peak <= WORKER_MEMORY * 2 < slowest_peak
    assert wall <= slowest_wall * 1.02


def test_a_free_worker_is_never_left_idle():
    heavy = sorted(MEASURED_MEMORY, key=MEASURED_MEMORY.get)[-2:]
    assert _next_language(heavy[:1], heavy[1:], 2) == heavy[0]  # nothing fits: it runs anyway
    assert _next_language(["fr", "it", "he"], ["ru"], 2) == "it"  # slowest first among those that fit beside ru
    assert _next_language(["fr", "ru"], [], 2) == "fr"
