"""Contrastive suites in context, described by data: a suite is a row, never a branch in the code.

A published suite is a row of the data catalogue (``data/sources.json``) with a ``format`` (how its file is read: one
of ``FORMATS``), a language ``pair`` and, where its file does not say, a ``phenomenon``; a suite read from the user's
own file is a row of ``FILE_SUITES``. Adding a suite in a known format is adding such a row; a new format is one
reader in ``FORMATS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discotest.data import catalogue
from discotest.data.contrastive_item import ContrastiveItem, candidate_pair, make_item
from discotest.errors import InputError

__all__ = ["ContrastiveItem", "candidate_pair", "make_item", "is_contrastive", "load_suite", "contrastive_suites",
           "suite_version"]


@dataclass(frozen=True)
class SuiteRow:
    """One contrastive suite: its name, file format, language pair (None: the user's file names its own languages)
    and phenomenon (when the file does not say); ``source`` is the data catalogue's row for a published suite."""

    name: str
    format: str
    pair: tuple[str, str] | None
    phenomenon: str = ""
    source: catalogue.Source | None = None


@dataclass(frozen=True)
class Format:
    """How a suite file is read (``read(row, path, data_dir, options)``) and what a system gives for it: model
    scores of each candidate (``scores``), or a translation that must contain the expected word (CTXPRO,
    ``expected-word``)."""

    read: Callable[[SuiteRow, Path, str | Path | None, dict[str, Any]], list[ContrastiveItem]]
    scoring: str = "scores"


def _voita(row, path, data_dir, options):
    from discotest.contrastive.published import load_voita

    return load_voita(path, row.phenomenon)


def _bawden_anaphora(row, path, data_dir, options):
    from discotest.contrastive.published import load_bawden_anaphora

    return load_bawden_anaphora(path)


def _bawden_lexical(row, path, data_dir, options):
    from discotest.contrastive.published import load_bawden_lexical

    return load_bawden_lexical(path)


def _scat(row, path, data_dir, options):
    from discotest.contrastive.published import load_scat

    return load_scat(path.parent, "test" if row.name == "scat" else "valid")


def _ctxpro(row, path, data_dir, options):
    from discotest.contrastive.ctxpro import load_ctxpro

    inputs = f"{row.name}-inputs"
    return load_ctxpro(path, catalogue.locate(inputs, data_dir) if inputs in catalogue.SOURCES else None)


def _jsonl(row, path, data_dir, options):
    from discotest.contrastive.jsonl import load_jsonl

    return load_jsonl(path) if row.source is not None else load_jsonl(path, default_phenomenon="")


def _winox_mt(row, path, data_dir, options):
    from discotest.contrastive.jsonl import load_winox_mt

    return load_winox_mt(path)


def _contrapro(row, path, data_dir, options):
    from discotest.contrastive.jsonl import load_contrapro

    return load_contrapro(path, options.get("contrapro_context"), options.get("context_size", 0),
                          opus=options.get("opensubtitles"))


def _bsd(row, path, data_dir, options):
    from discotest.contrastive.bsd import load_bsd

    return load_bsd(path, path.stem, options.get("context_size", 0))


FORMATS: dict[str, Format] = {
    "voita": Format(_voita),  # Voita et al. 2019
    "bawden-anaphora": Format(_bawden_anaphora),  # Bawden et al. 2018, DiscEvalMT
    "bawden-lexical": Format(_bawden_lexical),
    "scat": Format(_scat),  # Yin et al. 2021
    "ctxpro": Format(_ctxpro, scoring="expected-word"),  # Wicks & Post 2023
    "jsonl": Format(_jsonl),  # discotest's own format (docs/your-files.md)
    "winox-mt": Format(_winox_mt),  # Emelin & Sennrich 2021, the MT part
    "contrapro": Format(_contrapro),  # Müller et al. 2018
    "bsd": Format(_bsd),  # zero pronouns built from the Business Scene Dialogue corpus (Rikters et al. 2019)
}

# suites read from a file the user gives: name -> (format, language pair)
FILE_SUITES: dict[str, tuple[str, tuple[str, str] | None]] = {
    "contrastive-jsonl": ("jsonl", None),
    "winox-mt": ("winox-mt", None),
    "contrapro": ("contrapro", ("en", "de")),
}


def _pair(text: str | None) -> tuple[str, str] | None:
    return tuple(text.split("-", 1)) if text else None  # type: ignore[return-value]


def suite_rows() -> dict[str, SuiteRow]:
    """Every contrastive suite by name: the registry's rows with a format, then the file suites."""
    rows = {s.suite: SuiteRow(s.suite, s.format, _pair(s.pair), s.phenomenon or "", s)
            for s in catalogue.SOURCES.values() if s.kind == "suite" and s.format in FORMATS}
    rows.update({name: SuiteRow(name, fmt, pair) for name, (fmt, pair) in FILE_SUITES.items()})
    return rows


def _row(suite: str) -> SuiteRow:
    row = suite_rows().get(suite)
    if row is None:
        raise InputError(f"unknown contrastive suite {suite!r}; available: {', '.join(contrastive_suites())}")
    return row


def is_file_suite(suite: str) -> bool:
    """A suite read from a file the user may give (``--suite-file``/``--input``); jazp's file is bundled."""
    row = suite_rows().get(suite)
    return row is not None and (row.source is None or row.source.bundled)


def language_pair(suite: str) -> tuple[str, str] | None:
    """(source, target) ISO codes of a suite, for multilingual scorers (M2M100, mBART-50, NLLB); None when the
    suite is a file whose languages the user names (winox-mt, contrastive-jsonl)."""
    row = suite_rows().get(suite)
    return row.pair if row else None


def suite_version(suite: str) -> str:
    """The version of a registered suite's data ("current" …); "file" for a suite read from the user's file."""
    row = suite_rows().get(suite)
    return row.source.version if row is not None and row.source is not None else "file"


def contrastive_suites() -> list[str]:
    return sorted(suite_rows())


def is_contrastive(suite: str) -> bool:
    return suite in suite_rows()


def is_expected_word(suite: str) -> bool:
    """CTXPRO suites score a translation (does it contain the expected word?), not model scores."""
    row = suite_rows().get(suite)
    return row is not None and FORMATS[row.format].scoring == "expected-word"


def load_suite(suite: str, data_dir: str | Path | None = None, input: str | Path | None = None,
               **options) -> list[ContrastiveItem]:
    """Items of a named suite; ``input`` is the suite file for file suites (jazp defaults to the bundled one)."""
    row = _row(suite)
    if row.source is not None and (input is None or not row.source.bundled):
        path = catalogue.locate(row.source.name, data_dir)
    elif input is not None:
        path = Path(input)
    else:
        raise InputError(f"suite {suite!r} is read from a file: give it with --suite-file (or --input)")
    return FORMATS[row.format].read(row, path, data_dir, options)
