"""Contrastive suites in context: every suite name maps to a loader returning ``ContrastiveItem`` lists."""

from __future__ import annotations

import re
from pathlib import Path

from discotest.data import registry
from discotest.data.contrastive_item import ContrastiveItem, candidate_pair, make_item
from discotest.errors import InputError

__all__ = ["ContrastiveItem", "candidate_pair", "make_item", "is_contrastive", "load_suite", "contrastive_suites",
           "suite_version"]

VOITA = {
    "voita-deixis": "deixis", "voita-deixis-dev": "deixis", "voita-lexcohesion": "lexical-cohesion",
    "voita-lexcohesion-dev": "lexical-cohesion", "voita-ellipsis-vp": "ellipsis-vp",
    "voita-ellipsis-infl": "ellipsis-inflection",
}
FILE_SUITES = {"jazp", "contrastive-jsonl", "winox-mt", "contrapro"}  # read from a file the user gives (or bundled)


def language_pair(suite: str) -> tuple[str, str] | None:
    """(source, target) ISO codes of a suite, for multilingual scorers (M2M100, mBART-50, NLLB); None when the
    suite is a file whose languages the user names (winox-mt, contrastive-jsonl)."""
    if suite.startswith("voita-"):
        return ("en", "ru")
    if suite.startswith(("bawden-", "scat")):
        return ("en", "fr")
    if suite.startswith("ctxpro-"):
        found = re.search(r"-([a-z]{2})-([a-z]{2})-", suite)
        return (found.group(1), found.group(2)) if found else None
    return {"jazp": ("ja", "en"), "contrapro": ("en", "de")}.get(suite)


def suite_version(suite: str) -> str:
    """The version of a registered suite's data ("current" …); "file" for a suite read from the user's file."""
    source = registry.SOURCES.get(suite) or registry.SOURCES.get(f"{suite}-fr")
    return source.version if source is not None else "file"


def contrastive_suites() -> list[str]:
    named = [s for s in registry.suites() if s in VOITA or s.startswith(("bawden-", "scat", "ctxpro-"))]
    return sorted({*named, *FILE_SUITES})


def is_contrastive(suite: str) -> bool:
    return suite in contrastive_suites()


def is_expected_word(suite: str) -> bool:
    """CTXPRO suites score a translation (does it contain the expected word?), not model scores."""
    return suite.startswith("ctxpro-")


def load_suite(suite: str, data_dir: str | Path | None = None, input: str | Path | None = None,
               **options) -> list[ContrastiveItem]:
    """Items of a named suite; ``input`` is the suite file for file suites (jazp defaults to the bundled one)."""
    from discotest.contrastive import ctxpro, jsonl, published

    if suite in VOITA:
        return published.load_voita(registry.locate(suite, data_dir), VOITA[suite])
    if suite == "bawden-anaphora":
        return published.load_bawden_anaphora(registry.locate(suite, data_dir))
    if suite == "bawden-lexical":
        return published.load_bawden_lexical(registry.locate(suite, data_dir))
    if suite in ("scat", "scat-valid"):
        folder = registry.locate(f"{suite}-fr", data_dir).parent
        return published.load_scat(folder, "test" if suite == "scat" else "valid")
    if suite.startswith("ctxpro-"):
        inputs = f"{suite}-inputs"
        return ctxpro.load_ctxpro(registry.locate(suite, data_dir),
                                  registry.locate(inputs, data_dir) if inputs in registry.SOURCES else None)
    if suite == "jazp":
        return jsonl.load_jsonl(input or registry.locate("jazp"))
    if suite in FILE_SUITES and input is None:
        raise InputError(f"suite {suite!r} is read from a file: give it with --suite-file (or --input)")
    if suite == "contrastive-jsonl":
        return jsonl.load_jsonl(input, default_phenomenon="")
    if suite == "winox-mt":
        return jsonl.load_winox_mt(input)
    if suite == "contrapro":
        return jsonl.load_contrapro(input, options.get("contrapro_context"), options.get("context_size", 0),
                                    opus=options.get("opensubtitles"))
    raise InputError(f"unknown contrastive suite {suite!r}; available: {', '.join(contrastive_suites())}")
