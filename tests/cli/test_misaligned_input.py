"""Issue 40 item 1, "a misaligned file of the right length is scored silently": an --input file whose lines are
shifted (one deleted, one added at the end), two lines swapped far apart, or translations of other sentences with
the same count is refused before any alignment or scoring, with one line naming the file and the first suspicious
line (``lang.correspondence``, judged against the other systems' published outputs); the published files pass.
Rates on all 33 published files: bench/validity/misaligned_input.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from discotest.data.translations import read_translations
from discotest.errors import InputError
from discotest.gender.published import check_lines_match
from discotest.gender.winomt import load_winomt
from discotest.lang.correspondence import find_misalignment
from tests.support.cli_helpers import assert_one_line_error, run_cli


def _plain(shared_data: Path, system: str, lang: str) -> list[str]:
    lines = (shared_data / "mt_gender/translations" / system / f"en-{lang}.txt").read_text("utf-8").splitlines()
    return [line.split("|||", 1)[1].strip() for line in lines]


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


@pytest.mark.parametrize(("lang", "system"), [("de", "bing"), ("he", "systran")])
def test_an_aligned_file_passes_and_its_corruptions_are_caught(shared_data, tmp_path, lang, system):
    items = load_winomt("current", shared_data)
    sources = {item.index: item.sentence for item in items}
    texts = _plain(shared_data, system, lang)

    def suspect(lines: list[str]) -> tuple[int, str] | None:
        translations = read_translations(_write(tmp_path / "t.txt", lines), sources)
        try:
            check_lines_match(translations, items, lang, shared_data)
        except InputError as error:
            return error.line, error.one_line()
        return None

    assert suspect(texts) is None  # the published file itself (it vouches for itself too; the bench leaves it out)
    shifted = suspect(texts[:99] + texts[100:] + ["Das ist eine Zeile."])
    assert shifted and shifted[0] == 100 and "match the row 1 after theirs" in shifted[1]
    swapped = list(texts)
    swapped[700], swapped[3100] = swapped[3100], swapped[700]
    found = suspect(swapped)
    assert found and found[0] == 701 and "translates the row of line 3101" in found[1]
    shuffled = list(texts)
    random.Random(7).shuffle(shuffled)
    found = suspect(shuffled)
    assert found and "no better than unrelated rows" in found[1]


def test_the_cli_refuses_a_shifted_file_before_any_work(capsys, shared_data, tmp_path):
    """The issue's own example: ``sed '100d'`` and a line added at the end scored Acc 34.1 without a word."""
    texts = _plain(shared_data, "bing", "de")
    shifted = _write(tmp_path / "shifted.de.txt", texts[:99] + texts[100:] + ["Das ist eine Zeile."])
    code, _, err = run_cli(capsys, "-q", "run", "winomt", "--lang", "de", "--input", str(shifted))
    assert_one_line_error(code, err, f"{shifted}:100: ", "lines shifted", "--skip-language-check")


def test_without_published_outputs_nothing_is_judged():
    texts = [f"Satz {k}." for k in range(40)]
    assert find_misalignment(texts, [], [f"Sentence {k}." for k in range(40)]) is None
    assert find_misalignment(texts[:5], [texts[:5]], texts[:5]) is None  # too short to tell a run from noise


@pytest.mark.parametrize(("lang", "system"), [("es", "google"), ("de", "sota"), ("fr", "bing")])
def test_a_suite_without_published_outputs_is_judged_against_its_sources(shared_data, tmp_path, lang, system):
    """Issue 40 (the BUG gap): BUG has no published outputs, so its --input files went unchecked. Such a suite's
    files are judged against the rows' English sentences (into a Latin-script language): real translations (WinoMT's
    published ones, judged as if their suite had no published output) pass, a shifted copy is refused."""
    from discotest.gender.published import published_systems

    assert not published_systems("bug")
    items = load_winomt("current", shared_data)
    sources = {item.index: item.sentence for item in items}
    texts = _plain(shared_data, system, lang)

    def suspect(lines: list[str]) -> InputError | None:
        translations = read_translations(_write(tmp_path / "t.txt", lines), sources)
        try:
            check_lines_match(translations, items, lang, shared_data, suite="bug")
        except InputError as error:
            return error
        return None

    assert suspect(texts) is None
    shifted = suspect(texts[:99] + texts[100:] + [texts[0]])
    # refused: at the shift or after it (the weaker signal may need a few more lines to be sure), or as a whole
    # (from row 100 on, 97% of the lines translate another row)
    assert shifted is not None, texts[:2]
    assert shifted.line >= 100 or "no better than unrelated rows" in shifted.one_line(), shifted
    assert "bug rows' English sentences" in shifted.one_line()
    russian = read_translations(_write(tmp_path / "ru.txt", _plain(shared_data, "google", "ru")[1:] + ["Да."]),
                                sources)
    check_lines_match(russian, items, "ru", shared_data, suite="bug")  # another script: not judged, not refused
