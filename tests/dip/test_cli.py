"""CLI errors for DiP: exit status 2 and exactly one line on stderr."""

from __future__ import annotations

from pathlib import Path

from discotest.cli import main
from tests.support.wmt_fakes import BAD, GOOD, write_pair


def _fails(capsys, argv: list[str], *needles: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    for needle in needles:
        assert needle in err, err


def test_unknown_pair(shared_data: Path, capsys) -> None:
    _fails(capsys, ["mine", "dip", "--data", "wmt22", "--pair", "fr-en", "-o", "x", "-q"], "unknown pair fr-en")


def test_into_english_only(shared_data: Path, capsys) -> None:
    _fails(capsys, ["rank", "dip", "--data", "wmt22", "--pair", "en-de", "-q"], "English-target only")


def test_missing_doc_ids(shared_data: Path, capsys) -> None:
    _fails(capsys, ["mine", "dip", "--data", "wmt21", "--pair", "de-en", "-o", "x", "-q"],
           "no document ids for wmt21 de-en")


def test_unknown_data_and_holdout(shared_data: Path, capsys) -> None:
    _fails(capsys, ["rank", "dip", "--data", "wmt19", "--pair", "de-en", "-q"], "unknown --data 'wmt19'")
    _fails(capsys, ["rank", "dip", "--pair", "de-en", "--holdout", "Nobody", "--max-docs", "1",
                    "--phenomena", "lexical", "-q"], "--holdout 'Nobody'")


def test_misaligned_system_file(tmp_path: Path, capsys, monkeypatch) -> None:
    # a system output one line short: the file and both counts are named
    data = write_pair(monkeypatch, tmp_path / "data", {"Good": GOOD, "Short": BAD[:-1]})
    _fails(capsys, ["mine", "dip", "--pair", "de-en", "--data-dir", str(data), "-o", str(tmp_path / "t"), "-q",
                    "--phenomena", "lexical"], "hyp.Short.en", "6 lines", "has 7")


def test_misaligned_input_and_missing_tests(tmp_path: Path, capsys, monkeypatch) -> None:
    data = write_pair(monkeypatch, tmp_path / "data", {"Good": GOOD, "Bad": BAD})
    assert main(["mine", "dip", "--pair", "de-en", "--data-dir", str(data), "-o", str(tmp_path / "t"), "-q",
                 "--phenomena", "lexical,connectives"]) == 0
    capsys.readouterr()
    short = tmp_path / "mine.txt"
    short.write_text("one line\n", "utf-8")
    _fails(capsys, ["run", "dip", "--tests", str(tmp_path / "t"), "--input", str(short), "--data-dir", str(data)],
           "mine.txt", "1 lines", "has 7")
    _fails(capsys, ["run", "dip", "--tests", str(tmp_path), "--input", str(short)], "manifest.json")
    _fails(capsys, ["run", "dip", "--input", str(short)], "--tests")


def test_output_must_be_a_folder(tmp_path: Path, capsys, monkeypatch) -> None:
    data = write_pair(monkeypatch, tmp_path / "data", {"Good": GOOD})
    (tmp_path / "file").write_text("x")
    _fails(capsys, ["mine", "dip", "--pair", "de-en", "--data-dir", str(data), "-o", str(tmp_path / "file"), "-q",
                    "--phenomena", "lexical"], "not a folder")


def test_your_translation_beside_the_wmt_systems_is_refused_when_it_does_not_fit(shared_data: Path, tmp_path: Path,
                                                                                 capsys) -> None:
    """``run dip --pair de-en --input FILE`` (the card's DiP row from --outputs): a real WMT22 output made wrong in
    each way is refused in one line naming the file (and the line), before any parsing or model: a line short, one
    line lost and an empty one added at the end (shifted), its lines rotated (other sentences'), the German source
    itself (another language), and a file named like a WMT system."""
    lt22 = (shared_data / "wmt22_general/txt/system-outputs/generaltest2022.de-en.hyp.LT22.en").read_text(
        "utf-8").splitlines()
    source = shared_data / "wmt22_general/txt/sources/generaltest2022.de-en.src.de"
    third = len(lt22) // 3
    files = {
        "short.en": (lt22[:-1], ["1983 lines", "has 1984"]),
        "shifted.en": ([*lt22[:100], *lt22[101:], ""], ["shifted", ":101:"]),
        "rotated.en": ([*lt22[third:], *lt22[:third]], ["other sentences"]),
        "german.en": (source.read_text("utf-8").splitlines(), ["de"]),
        "Online-B": (lt22, ["'Online-B' is a wmt22 de-en system's"]),
    }
    for name, (lines, needles) in files.items():
        path = tmp_path / name
        path.write_text("".join(f"{line}\n" for line in lines), "utf-8")
        _fails(capsys, ["run", "dip", "--pair", "de-en", "--input", str(path), "--phenomena", "lexical",
                        "--max-docs", "1", "-q"], name, *needles)
