"""The Wino-X family: does the translation use the gold pronoun's gender (Emelin and Sennrich 2021)? One language
(de, fr or ru) and one translations file per run.

Judging is a pronoun count per item: 4,000 items take 0.3 s, less than starting Ray. ``--engine`` and ``--ray-address``
are accepted (every family takes them, so one command line serves every suite; a flag means the same in every family,
so its help cannot say this), and both engines judge here, in this process: Ray is not started."""

from __future__ import annotations

from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.registry import Family, Settings, SuiteFacts, SuiteSize, count_items, register
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report
from discotest.report.table import row_ranges

WINOX_LANGS = ("de", "fr", "ru")
OPTIONS = (shared.LANG, shared.INPUT, shared.INPUT_FORMAT, shared.SUITE_FILE, *shared.ENGINE_OPTIONS,
           *shared.EVERY_FAMILY)


def run(suite: str, s: Settings) -> Report:
    from discotest.winox.result import render_winox_table
    from discotest.winox.run import run_winox

    resolve_engine(s.engine)  # a bad name is an error here too; the judging itself runs here on both engines
    if not s.input:
        raise InputError("winox needs --input (your translations of the Wino-X English sentences)")
    lang = s.lang.lower() if isinstance(s.lang, str) else s.lang  # codes are case-insensitive
    if not lang or not isinstance(lang, str) or "," in lang or lang == "all":
        raise InputError("winox needs exactly one --lang (de, fr or ru)")
    result = run_winox(lang, s.input, s.data_dir, s.suite_file, s.input_format)
    unmatched = len(result.unmatched)
    warnings = [f"winox/{lang}: {unmatched} items have no translation (rows {row_ranges(result.unmatched, 10)}); "
                "left out"] if unmatched else []
    return Report("discotest · Wino-X pronoun accuracy", [result], text=render_winox_table, warnings=warnings)


def check_lines(suite: str, s: Settings, path: str) -> str | None:
    """``--input``'s lines against the items they land on, before any work: Wino-X has no published translations,
    so they are judged against the items' English sentences (names and shared words survive translation), into de
    and fr; ru's Cyrillic shares too little with English to be judged so."""
    from discotest.data.translations import read_translations
    from discotest.data.winox import load_winox
    from discotest.lang.correspondence import refuse_misaligned

    lang = s.lang.lower() if isinstance(s.lang, str) else None
    if lang not in WINOX_LANGS:
        return None  # the run refuses it, in its own words
    items = load_winox(lang, s.data_dir, s.suite_file)
    sources = {i.index: i.sentence for i in items}
    return refuse_misaligned(read_translations(path, sources, s.input_format), sources, [],
                      "the Wino-X items' English sentences", lang)


def compare(suite: str, s: Settings) -> Report:
    if s.system:
        raise InputError("winox has no published systems: compare two translation files (--input A --input B)")
    return compare_systems(suite, s, run)


def describe(suite: str, data_dir: str | None) -> SuiteFacts:
    """Items per language; the languages whose file is missing are named with the fetch command."""
    from discotest.data import catalogue
    from discotest.data.winox import LANGUAGES, load_winox

    sizes = {lang: count_items(lambda lang=lang: len(load_winox(lang, data_dir))) for lang in LANGUAGES}
    missing = [f"winox-{lang}" for lang, size in sizes.items() if size.n is None]
    by_lang = {lang: size.n for lang, size in sizes.items() if size.n is not None}
    hint = f"not in the data directory: `discotest data fetch {' '.join(missing)}`" if missing else ""
    size = SuiteSize(sum(by_lang.values()) if not missing else None, "items", missing=hint, by_lang=by_lang or None)
    return SuiteFacts(size, "en→" + ",".join(LANGUAGES), catalogue.suite_licence(suite) or "")


FAMILY = register(Family(
    name="winox",
    title="winox",
    suites=lambda: {"winox": []},
    options=OPTIONS,
    run=run,
    compare=compare,
    compare_options=shared.COMPARE,
    doc="pronoun accuracy on Wino-X: the translation's pronoun must agree with the gold referent's gender",
    describe=describe,
    input_language=lambda suite, s: s.lang if s.lang in WINOX_LANGS else None,  # others: its error
    check_lines=check_lines,
))
