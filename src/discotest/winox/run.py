"""Wino-X pronoun accuracy of a translations file: read the suite and the file, judge every item."""

from __future__ import annotations

from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import system_name
from discotest.data.translations import read_translations
from discotest.data.winox import load_winox
from discotest.report.result import build_signature
from discotest.winox.judge import judge
from discotest.winox.result import WinoxResult


def run_winox(lang: str, input: str | Path, data_dir: str | Path | None = None,
              suite_file: str | Path | None = None, input_format: str = "auto") -> WinoxResult:
    """Pronoun accuracy of the translations in ``input`` (one per Wino-X item, or ``source ||| translation``)."""
    with catalogue.tracking() as files:
        items = load_winox(lang, data_dir, suite_file)
        if suite_file:
            catalogue.check_file(suite_file, data_dir)  # the data dir's own file given by path is checked too
    translations = read_translations(input, {i.index: i.sentence for i in items}, input_format)
    verdicts = {i.index: judge(i, translations.by_row[i.index], lang) for i in items if i.index in translations.by_row}
    source, name = catalogue.SOURCES.get(f"winox-{lang}"), system_name(input)
    version = catalogue.user_file_version(suite_file, data_dir) if suite_file else None
    signature = build_signature("winox", version or (source.version if source else "current"), name, len(verdicts),
                                lang=lang, settings=(("measure", "pronoun-count-v1"),),
                                files=catalogue.data_field(files))
    return WinoxResult(lang, name, signature, items, translations.by_row, verdicts, translations.unmatched)
