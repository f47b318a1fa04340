"""Wino-X: the MT-format loader, pronoun accuracy against the gold target pronoun, the CLI, and the download pin.

Wino-X is not in ../shared/data; the files in tests/fixtures/winox are ours, in the published format."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.data import catalogue
from discotest.data.winox import read_winox
from discotest.errors import InputError
from discotest.winox.judge import judge
from discotest.winox.run import run_winox
from tests.support.cli_helpers import one_result

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winox"

# Expected verdict of every line of system.fr.txt, and why:
EXPECTED_FR = [
    "correct",  # 1: "il" for the trophy (gold il)
    "wrong",  # 2: "il" again, but the small one is the suitcase (gold elle)
    "correct",  # 3: "elle" for the table (gold elle)
    "no-pronoun",  # 4: repeats "le passage" instead of a pronoun
    "correct",  # 5: "elle" for the pie
    "wrong",  # 6: "elle" (the pie) was hot; the oven was (gold il)
    "correct",  # 7: "elle" for the slow car
    "undecided",  # 8: uses both "il" and "elle": as close to the gold as to the wrong translation
    "correct",  # 9: "elle" for the big bottle
    "wrong",  # 10: "elle" (bottle) full; the bag was (gold il)
]
# system.de.txt: German "Sie" (they) also occurs in the sentence, so presence alone cannot decide.
EXPECTED_DE = [
    "correct",  # 1: sie×2 (they + trophy) as in the gold translation; the wrong one has sie×1 + er×1
    "wrong",  # 2: sie×2 again, but the small one is the suitcase (gold er: sie×1 + er×1)
    "correct",  # 3: another noun for "bag" (Tasche), pronoun sie for the bottle as in the gold
    "correct",  # 4: "er" for the bag (Beutel)
]


def _write(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows))
    return path


def test_reads_the_published_fields():
    items = read_winox(FIXTURES / "en_fr_test.jsonl")
    assert len(items) == 10
    first, second = items[:2]
    assert (first.gold_pronoun, first.wrong_pronoun, first.gold_referent) == ("il", "elle", "trophy")
    assert (second.gold_pronoun, second.gold_referent) == ("elle", "suitcase")
    assert second.gold_translation.endswith("qu'elle est trop petite.")


@pytest.mark.parametrize("lang, expected", [("fr", EXPECTED_FR), ("de", EXPECTED_DE)])
def test_verdicts_on_hand_made_translations(lang, expected):
    items = read_winox(FIXTURES / f"en_{lang}_test.jsonl")
    lines = (FIXTURES / f"system.{lang}.txt").read_text().splitlines()
    assert [judge(i, t, lang).verdict for i, t in zip(items, lines)] == expected


def test_reference_translations_judge_themselves():
    """The gold translation is always correct and the wrong one always wrong: the check cannot be vacuous."""
    for lang in ("fr", "de"):
        for item in read_winox(FIXTURES / f"en_{lang}_test.jsonl"):
            assert judge(item, item.gold_translation, lang).verdict == "correct"
            assert judge(item, item.wrong_translation, lang).verdict == "wrong"


def test_accuracy_and_counts():
    result = run_winox("fr", FIXTURES / "system.fr.txt", suite_file=FIXTURES / "en_fr_test.jsonl")
    assert result.accuracy == pytest.approx(50.0)  # 5 of 10
    assert result.decided_accuracy == pytest.approx(62.5)  # 5 of the 8 that chose a pronoun
    assert dict(result.counts) == {"correct": 5, "wrong": 3, "no-pronoun": 1, "undecided": 1}


@pytest.mark.parametrize("row, message", [
    ('{"qID": "q"', "not valid JSON"),
    ('["a list"]', "expected a JSON object"),
    ({"sentence": "x", "translation1": "a", "translation2": "b", "answer": 1, "pronoun1": "il"},
     "missing Wino-X field 'pronoun2'"),
    ({"sentence": "x", "translation1": "a", "translation2": "b", "answer": "one", "pronoun1": "il",
      "pronoun2": "elle"}, "answer must be 1 or 2"),
    ({"sentence": "x", "translation1": "", "translation2": "b", "answer": 1, "pronoun1": "il", "pronoun2": "elle"},
     "non-empty strings"),
])
def test_malformed_lines_name_file_and_line(tmp_path, row, message):
    good = json.loads((FIXTURES / "en_fr_test.jsonl").read_text().splitlines()[0])
    path = _write(tmp_path / "bad.jsonl", [good, row])
    with pytest.raises(InputError, match=message) as info:
        read_winox(path)
    assert info.value.one_line().startswith(f"{path}:2: ")


def _data_dir_with_fixture(tmp_path: Path) -> Path:
    target = tmp_path / "data" / catalogue.get_source("winox-fr").path
    target.parent.mkdir(parents=True)
    shutil.copy(FIXTURES / "en_fr_test.jsonl", target)
    return tmp_path / "data"


def test_cli_reads_the_suite_from_the_data_dir(tmp_path, capsys):
    data = _data_dir_with_fixture(tmp_path)
    details = tmp_path / "details.jsonl"
    code = main(["run", "winox", "--lang", "fr", "--input", str(FIXTURES / "system.fr.txt"), "--data-dir", str(data),
                 "--format", "json", "--details", str(details)])
    assert code == 0
    payload = one_result(capsys.readouterr().out)
    assert payload["scores"]["accuracy"] == 50.0 and payload["scores"]["counts"]["no-pronoun"] == 1
    rows = [json.loads(line) for line in details.read_text().splitlines()]
    assert [r["verdict"] for r in rows] == EXPECTED_FR and rows[1]["gold_pronoun"] == "elle"


@pytest.mark.parametrize("extra, message", [
    ([], "winox needs --input"),
    (["--input", str(FIXTURES / "system.de.txt")], "is mostly German (de: 100% of 4 sampled lines), not French"),
    (["--input", str(FIXTURES / "system.de.txt"), "--skip-language-check"], "expected 10 lines"),
    (["--input", str(FIXTURES / "system.fr.txt"), "--lang", "es"], "Wino-X has no language 'es'"),
])
def test_cli_errors_are_one_line(tmp_path, capsys, extra, message):
    data = _data_dir_with_fixture(tmp_path)
    argv = ["run", "winox", "--data-dir", str(data), *extra]
    if "--lang" not in extra:
        argv += ["--lang", "fr"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_missing_suite_file_says_how_to_fetch(tmp_path, capsys):
    russian = tmp_path / "system.ru.txt"  # in the language scored: the language check lets it through
    russian.write_text("Он сказал, что она придёт.\nОна не пришла.\n", "utf-8")
    assert main(["run", "winox", "--lang", "ru", "--input", str(russian), "--data-dir", str(tmp_path)]) == 2
    assert "discotest data fetch winox-ru" in capsys.readouterr().err


class _Response(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_download_without_published_checksum_is_pinned(tmp_path):
    """Wino-X publishes no checksum: the first download is pinned and later changes are caught."""
    payload = (FIXTURES / "en_de_test.jsonl").read_bytes()
    urls = []

    def opener(url, **kwargs):
        urls.append(url)
        return _Response(payload)

    path = catalogue.fetch("winox-de", tmp_path, opener=opener)
    assert urls == [catalogue.get_source("winox-de").url] and path.read_bytes() == payload
    assert catalogue.verify("winox-de", tmp_path)[0] == "ok"
    catalogue.fetch("winox-de", tmp_path, opener=opener)
    assert len(urls) == 1  # pinned and unchanged: no second download
    path.write_bytes(payload + b"\n")
    assert catalogue.verify("winox-de", tmp_path)[0] == "mismatch"
    with pytest.raises(InputError, match="checksum mismatch"):
        catalogue.fetch("winox-de", tmp_path, opener=lambda url, **kwargs: _Response(b"something else"))


def test_a_file_put_in_place_by_hand_is_unpinned(tmp_path):
    target = tmp_path / catalogue.get_source("winox-ru").path
    target.parent.mkdir(parents=True)
    target.write_text("{}\n")
    assert catalogue.verify("winox-ru", tmp_path)[0] == "unpinned"
