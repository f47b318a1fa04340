"""Gender analysers, one module per target language, loaded by name on first use."""

from __future__ import annotations

import importlib
from functools import cache

from discotest.errors import InputError
from discotest.lang.morph.base import GenderAnalyser

# language code -> "module:Class"; each module imports its heavy dependencies lazily, in __init__ or on first use
ANALYSERS: dict[str, str] = {
    "ar": "discotest.lang.morph.ar:ArabicAnalyser",
    "de": "discotest.lang.morph.de:GermanAnalyser",
    "es": "discotest.lang.morph.es:SpanishAnalyser",
    "fr": "discotest.lang.morph.fr:FrenchAnalyser",
    "he": "discotest.lang.morph.he:HebrewAnalyser",
    "it": "discotest.lang.morph.it:ItalianAnalyser",
    "ru": "discotest.lang.morph.ru:RussianAnalyser",
    "uk": "discotest.lang.morph.uk:UkrainianAnalyser",
}
# CPU seconds of one cold run of one published output (aligning both directions, loading the analyser, reading;
# bench/speed/bench_gender_speed.py, 2026-11-25): --lang all starts the languages with the most work first
MEASURED_COST = {"fr": 11.5, "ru": 9.1, "ar": 6.9, "es": 6.8, "de": 6.2, "it": 6.2, "uk": 5.9, "he": 5.4}
# MiB at the peak of one language's --lang all worker (its analyser loaded, every published output read: the largest
# RSS of each worker process of a cold `run winomt --lang all --system all`, 2026-11-27): --lang all keeps the heavy
# ones apart (fr's spaCy model, its lemmatizer tables included, is 470 MiB of its worker)
MEASURED_MEMORY = {"fr": 650, "es": 360, "it": 340, "ru": 320, "ar": 280, "he": 210, "uk": 200, "de": 170}
EXTRAS = {lang: lang for lang in ANALYSERS}  # pyproject extra that installs each analyser


def languages() -> tuple[str, ...]:
    """Every language with a gender analyser, built in or registered."""
    return tuple(sorted(ANALYSERS))


def register_analyser(lang: str, spec: str, cost: float = 0.0, extra: str | None = None, memory: float = 0.0
                      ) -> None:
    """Add a language: ``spec`` is ``"module:Class"`` of a ``GenderAnalyser`` (imported on first use), ``cost`` the
    seconds one language takes (``--lang all`` starts the slowest first), ``extra`` the pyproject extra it needs,
    ``memory`` the MiB its worker peaks at (``--lang all`` keeps heavy workers apart)."""
    ANALYSERS[lang] = spec
    MEASURED_COST[lang] = cost
    MEASURED_MEMORY[lang] = memory
    EXTRAS[lang] = extra or lang
    load_analyser.cache_clear()


def analyser_class(lang: str) -> type[GenderAnalyser]:
    """The analyser class for ``lang``, its module imported (its heavy tools load when it is created)."""
    if lang not in ANALYSERS:
        raise InputError(f"unknown language {lang!r}; gender analysers exist for {', '.join(languages())}")
    module_name, class_name = ANALYSERS[lang].split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise _missing(lang, exc) from None
    return getattr(module, class_name)


@cache
def load_analyser(lang: str) -> GenderAnalyser:
    """The analyser for ``lang``, created once per process (a module imports its tools here, not when imported: a
    warm run needs only the class)."""
    cls = analyser_class(lang)
    try:
        return cls()
    except ImportError as exc:
        raise _missing(lang, exc) from None


def _missing(lang: str, exc: ImportError) -> InputError:
    return InputError(
        f"the {lang} analyser needs extra packages ({exc.name} is missing): pip install 'discotest[{EXTRAS[lang]}]'")
