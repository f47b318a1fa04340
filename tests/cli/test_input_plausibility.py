"""Issue 24, "a file in the wrong language is scored": an --input file mostly in another language or script is
refused before any work (one line naming the file and both languages), unless --skip-language-check (then the
signature says langcheck:off); a result whose gender is unreadable in many items carries a warning in the text
(stderr), JSON and HTML reports; a file made from another WinoMT version is named with the rows that differ.
Accuracy and cost of the check on every published output: bench/validity/bench_langid.py (docs/your-files.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from discotest.data.translations import translation_texts
from discotest.gender.family import other_version
from discotest.lang import identify
from tests.support.cli_helpers import assert_one_line_error, run_cli

pytest.importorskip("py3langid")
DEMO = Path(__file__).resolve().parents[2] / "src/discotest/data/bundled/winomt-demo/translations/demo"


def _published(shared_data: Path, system: str, lang: str) -> Path:
    return shared_data / "mt_gender" / "translations" / system / f"en-{lang}.txt"


@pytest.mark.parametrize(("lang", "scored_as", "fragment"), [
    ("fr", "de", "is mostly French (fr: 100% of 200 sampled lines), not German (de: 0%)"),
    ("de", "ru", "is mostly in Latin script (100% of its letters), not in the Cyrillic script of Russian (ru)"),
    ("ru", "uk", "is mostly Russian (ru: 99% of 200 sampled lines), not Ukrainian (uk: 0%)"),
    ("es", "it", "is mostly Spanish"),
    ("he", "ar", "is mostly in Hebrew script"),
])
def test_a_published_output_scored_as_another_language_is_refused(shared_data, lang, scored_as, fragment):
    texts = translation_texts(_published(shared_data, "google", lang))
    assert identify.read_language(texts, lang).problem() is None  # accepted as what it is
    assert fragment in identify.read_language(texts, scored_as).problem()


def test_every_language_of_the_published_outputs_is_accepted(shared_data):
    for path in sorted((shared_data / "mt_gender" / "translations" / "bing").glob("en-??.txt")):
        lang = path.stem.split("-")[1]
        reading = identify.read_language(translation_texts(path), lang)
        assert reading.problem() is None and reading.expected_share >= 0.95, (path, reading)


def test_cli_refuses_before_any_work_and_the_flag_scores_it_marked(capsys, tmp_path):
    french = DEMO / "en-fr.txt"
    code, _, err = run_cli(capsys, "-q", "run", "winomt-demo", "--lang", "de", "--input", str(french))
    assert_one_line_error(code, err, f"{french}: is mostly French", "not German (de", "--skip-language-check")
    page = tmp_path / "p.html"
    code, out, err = run_cli(capsys, "-q", "run", "winomt-demo", "--lang", "de", "--input", str(french),
                             "--skip-language-check", "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    assert "|langcheck:off|files:" in report["results"][0]["signature"]
    warning = next(w for w in report["warnings"] if "could not be read" in w)
    assert warning.startswith("warning: en-fr.txt/de: the gender of ") and warning in err  # JSON and stderr
    code, _, _ = run_cli(capsys, "-q", "run", "winomt-demo", "--lang", "de", "--input", str(french),
                         "--skip-language-check", "-f", "html", "-o", str(page))
    assert code == 0 and '<ul class="warnings"><li>warning: en-fr.txt/de: the gender of ' in page.read_text("utf-8")
    code, out, _ = run_cli(capsys, "-q", "run", "winomt-demo", "--lang", "de", "--input", str(DEMO / "en-de.txt"),
                           "-f", "json")
    report = json.loads(out)
    assert code == 0 and "langcheck" not in report["results"][0]["signature"] and "warnings" not in report


def test_other_families_check_their_input_language(capsys, shared_data):
    """mZPRT's input is English, CTXPRO's its suite's target language, Wino-X's its --lang."""
    german = str(_published(shared_data, "google", "de"))
    for args, expected in ((["run", "mzprt", "-d", "QA", "--input", german], "not English (en"),
                           (["run", "ctxpro-formality-en-ru-dev", "--input", german], "script of Russian (ru)"),
                           (["run", "winox", "--lang", "ru", "--input", german], "Cyrillic script of Russian")):
        code, _, err = run_cli(capsys, "-q", *args)
        assert_one_line_error(code, err, german, expected)


def test_a_file_made_from_winomt_2019_is_named_with_the_rows_that_differ(shared_data, tmp_path):
    published = _published(shared_data, "google", "de")  # made from the 2019 file, sources included
    said = other_version("winomt", "current", str(published), "auto", str(shared_data))
    assert said and "made from winomt 2019, not current (its sources are 2019's, row for row)" in said
    assert "rows 2120-2121" in said and "--suite-version 2019" in said
    plain = tmp_path / "plain.txt"  # the same translations by position: 2019's rows 2120-2121 repeat rows 536-537
    texts = translation_texts(published)
    plain.write_text("\n".join(texts) + "\n", "utf-8")
    said = other_version("winomt", "current", str(plain), "auto", str(shared_data))
    assert said and "its rows 2120 and 536, 2121 and 537 hold the same translation" in said
    assert other_version("winomt", "2019", str(plain), "auto", str(shared_data)) is None
    texts[2120] = "Der Bäcker schrie den Umzugshelfer an, weil er den Ofen kaputt gemacht hatte."  # current's row
    plain.write_text("\n".join(texts) + "\n", "utf-8")
    assert other_version("winomt", "current", str(plain), "auto", str(shared_data)) is None


def test_the_cached_language_model_classifies_as_the_shipped_one(tmp_path, monkeypatch):
    """py3langid's model is unpacked once and kept in the cache; the identifier built from the cache entry gives
    the same language and score as py3langid's own loader, for text of every script the check meets."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    from discotest.lang import identify

    monkeypatch.setenv("DISCOTEST_MODELS", str(tmp_path))  # its namespace's own folder (cache.NAMESPACE_ENV)
    first, again = identify._load_identifier(), identify._load_identifier()  # computed, then read back
    assert list((tmp_path / identify.MODEL_NAMESPACE).rglob("*.npz"))
    shipped = LanguageIdentifier.from_model_file(MODEL_FILE)
    texts = ["Der Arzt sagte der Krankenschwester, dass sie müde war.", "La médica habló con el enfermero.",
             "Врач сказал медсестре, что она устала.", "The doctor asked the nurse to help her.", "שלום עולם",
             "قال الطبيب للممرضة", "医生告诉护士她累了。", "Il medico ha detto all'infermiera che era stanca."]
    for text in texts:
        assert first.classify(text) == again.classify(text) == shipped.classify(text), text


def _mixed(tmp_path: Path, name: str, keep: Path, other: Path, n: int = 300) -> Path:
    """``n`` lines of ``keep`` with every other one replaced by a line of ``other`` (real text of both)."""
    ours, theirs = keep.read_text("utf-8").splitlines(), other.read_text("utf-8").splitlines()
    path = tmp_path / name
    path.write_text("".join((theirs[i] if i % 2 else ours[i]) + "\n" for i in range(n)), "utf-8")
    return path


@pytest.mark.parametrize(("suite", "options", "lang", "other"), [
    ("winomt", {"lang": "de"}, "de", "fr"),
    ("mzprt", {"domain": "QA"}, "en", "de"),
    ("mt-geneval", {"lang": "fr"}, "fr", "de"),
    ("dip", {}, "en", "de"),
])
def test_every_family_warns_of_a_file_half_in_another_language(suite, options, lang, other, shared_data, tmp_path):
    """Issue 40 (6b): the unreadable-share warning reaches every family that reads a translation file, through the
    one language reading (``LanguageReading.doubt``); the file alone stays silent."""
    from discotest.registry import check_input_language, family_of, settings_for

    folder = shared_data / "mt_geneval/data/sentences/test"

    def text(code: str) -> Path:
        return folder / (f"geneval-sentences-feminine-test.en_{code}.{code}" if code != "en"
                         else "geneval-sentences-feminine-test.en_de.en")

    family = family_of(suite)
    clean = tmp_path / "clean.txt"
    clean.write_text("\n".join(text(lang).read_text("utf-8").splitlines()) + "\n", "utf-8")
    mixed = _mixed(tmp_path, "mixed.txt", text(lang), text(other))
    for path, warned in ((clean, False), (mixed, True)):
        settings = settings_for(family, {**options, "input": str(path)})
        unchecked, warnings = check_input_language(family, suite, settings)
        assert unchecked == [] and bool(warnings) == warned, (path, warnings)
    assert warnings[0].startswith(f"warning: {mixed}: only ") and "sampled lines read as " in warnings[0]
    assert f"({lang}; the commonest other: {other} " in warnings[0]


def test_the_language_warning_reaches_the_report(shared_data, tmp_path, capsys):
    mixed = _mixed(tmp_path, "mixed.de", DEMO / "en-de.txt", DEMO / "en-fr.txt",
                   len((DEMO / "en-de.txt").read_text("utf-8").splitlines()))
    code, out, err = run_cli(capsys, "-q", "run", "winomt-demo", "--lang", "de", "--input", str(mixed), "-f", "json")
    assert code == 0, err
    said = [w for w in json.loads(out)["warnings"] if "sampled lines read as German" in w]
    assert len(said) == 1 and said[0] in err


def test_compare_names_a_file_made_from_another_version_as_run_does(shared_data, capsys):
    """Issue 40 (6a): ``compare`` runs each system through the family's ``run``, so the version detection speaks
    there too, in the same words, once."""
    published = str(_published(shared_data, "google", "de"))
    said = other_version("winomt", "current", published, "auto", str(shared_data))
    code, out, err = run_cli(capsys, "-q", "--data-dir", str(shared_data), "compare", "winomt", "--lang", "de",
                             "--input", published, "--system", "bing", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["warnings"].count(said) == 1 and said in err


def test_the_cached_model_decides_every_sampled_line_as_the_shipped_one(shared_data):
    """The cached identifier keeps py3langid's transition table as a numpy array (no copy into an ``array``): the
    same language and score on 30 sampled lines of each of google's 8 published WinoMT outputs."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    cached, shipped = identify._load_identifier(), LanguageIdentifier.from_model_file(MODEL_FILE)
    lines = [line for path in sorted((shared_data / "mt_gender/translations/google").glob("en-*.txt"))
             for line in identify.sample(translation_texts(path), 30)]
    assert len(lines) >= 200
    assert [cached.classify(line) for line in lines] == [shipped.classify(line) for line in lines]


def test_japanese_kanji_count_as_its_script_and_chinese_is_still_refused(shared_data):
    """Japanese is written in kana and kanji (Han): a kanji-heavy Japanese text is not 'mostly in Han script', while
    Chinese scored as Japanese is still refused, by its language. Real dialogue lines from BSD's dev set."""
    import json

    from discotest.lang.identify import read_language

    turns = [u for doc in json.loads((shared_data / "bsd" / "dev.json").read_text("utf-8"))
             for u in doc["conversation"]]
    kanji_heavy = [u["ja_sentence"] for u in turns if _han_share(u["ja_sentence"]) > 0.5]
    assert len(kanji_heavy) >= 10
    reading = read_language(kanji_heavy, "ja")
    assert reading.script == "Japanese" and reading.problem() is None, reading
    chinese = (shared_data / "mzprt" / "1_testset_mzprt" / "raw" / "Government_Report.zh").read_text("utf-8")
    problem = read_language([line for line in chinese.splitlines() if line.strip()], "ja").problem() or ""
    assert "is mostly Chinese (zh" in problem and "not Japanese (ja" in problem, problem


def _han_share(text: str) -> float:
    from discotest.lang.identify import letter_scripts

    scripts = letter_scripts(text)
    return scripts["Han"] / max(1, sum(scripts.values()))
