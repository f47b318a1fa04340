"""Your own gender suite (``--suite-file``, gender/suite_file.py): WinoMT given as a file scores exactly as ``run
winomt`` (but for the signature's version), JSONL the same as TSV, and every malformed row is one line naming the file
and line."""

from __future__ import annotations

import json
import shutil

import pytest

from discotest.gender.suite_file import load_suite_file
from discotest.gender.winomt import load_winomt, winomt_files
from tests.support.cli_helpers import assert_one_line_error, run_cli


def _winomt_2019(shared_data):
    from discotest.data import catalogue

    main, subsets = winomt_files("winomt", "2019")
    return catalogue.locate(main, shared_data), [catalogue.locate(name, shared_data) for _, name in subsets]


def _without_version(text: str) -> dict:
    report = json.loads(text)
    for result in report["results"]:
        fields = dict(part.split(":", 1) for part in result["signature"].split("|"))
        assert fields["version"].startswith("file@")
        result["signature"] = result["signature"].replace(f"|version:{fields['version']}|", "|version:2019|")
    return report


def test_winomt_as_a_file_scores_as_run_winomt(shared_data, tmp_path, capsys):
    """The 2019 WinoMT TSV (its pro/anti files beside it) given by its data-directory path gives the same report and
    per-item details as ``run winomt --suite-version 2019``, byte for byte but for the signature's version; a copy
    outside the data directory the same but for version and ``files:``."""
    main, subsets = _winomt_2019(shared_data)
    output = str(shared_data / "mt_gender" / "translations" / "google" / "en-de.txt")
    common = ("--data-dir", str(shared_data), "--lang", "de", "--input", output, "--format", "json", "--quiet",
              "--suite-version", "2019")  # with a suite file: which published outputs train the aligner's model
    code, registered, err = run_cli(capsys, "run", "winomt", *common,
                                    "--details", str(tmp_path / "registered.jsonl"))
    assert code == 0, err
    code, given, err = run_cli(capsys, "run", "winomt", "--suite-file", str(main), *common,
                               "--details", str(tmp_path / "given.jsonl"))
    assert code == 0, err
    assert _without_version(given) == json.loads(registered)
    assert (tmp_path / "given.jsonl").read_bytes() == (tmp_path / "registered.jsonl").read_bytes()
    mine = tmp_path / "mine"
    mine.mkdir()
    for path in (main, *subsets):
        shutil.copy(path, mine / path.name)
    code, copied, err = run_cli(capsys, "run", "winomt", "--suite-file", str(mine / main.name), *common)
    assert code == 0, err
    (result,), (expected,) = _without_version(copied)["results"], json.loads(registered)["results"]
    assert result.pop("signature").rsplit("|files:", 1)[1] == "none"
    expected.pop("signature")
    assert result == expected
    assert json.loads(copied)["results"][0]["signature"].split("|")[2].count("@") == 3  # file, pro and anti


def test_jsonl_gives_the_items_of_the_tsv(shared_data, tmp_path):
    main, _ = _winomt_2019(shared_data)
    items = load_winomt("2019", shared_data)
    jsonl = tmp_path / "suite.jsonl"
    jsonl.write_text("".join(json.dumps({"id": f"r{i.index}", "gold": i.gold, "entity_index": i.entity_index,
                                         "sentence": i.sentence, "entity": i.entity, "stereotype": i.stereotype,
                                         "note": "yours"}) + "\n" for i in items), "utf-8")
    assert list(load_suite_file(jsonl).items) == items == list(load_suite_file(main, shared_data).items)
    assert load_suite_file(jsonl).version.startswith("file@") and "+" not in load_suite_file(jsonl).version


ROW = {"gold": "female", "entity_index": 1, "sentence": "The developer argued with the designer because she did "
       "not like the design.", "entity": "developer"}


@pytest.mark.parametrize(("lines", "line", "message"), [
    (["female\t1\tThe developer argued.\tdeveloper", "male\t9\tThe developer argued.\tdeveloper"], 2,
     "entity index 9 is outside the sentence"),
    (["female\t1\tThe developer argued.\tdeveloper", "male\t1\tThe developer argued.\tnurse"], 2,
     "entity 'nurse' is not in its sentence"),
    (["female\t1\tThe developer argued."], 1, "expected 4 tab-separated columns"),
    (["fem\t1\tThe developer argued.\tdeveloper"], 1, "gold gender must be one of"),
    ([json.dumps(ROW), json.dumps({**ROW, "entity": "nurse"})], 2, "entity 'nurse' is not in its sentence"),
    ([json.dumps({**ROW, "id": 1}), json.dumps({**ROW, "id": 1})], 2, "item id 1 repeats the id of line 1"),
    ([json.dumps({**ROW, "entity_idx": 1})], 1, "unknown field 'entity_idx' (did you mean 'entity_index'?)"),
    ([json.dumps({k: v for k, v in ROW.items() if k != "gold"})], 1, "missing field 'gold'"),
    ([json.dumps({**ROW, "entity_index": 30})], 1, "entity index 30 is outside the sentence"),
    ([json.dumps({**ROW, "stereotype": "neutral"})], 1, "stereotype must be pro, anti or null"),
])
def test_a_bad_row_is_one_line_naming_file_and_line(shared_data, tmp_path, capsys, lines, line, message):
    suite = tmp_path / "suite.txt"
    suite.write_text("\n".join(lines) + "\n", "utf-8")
    translations = tmp_path / "de.txt"
    translations.write_text("Der Entwickler stritt.\n" * len(lines), "utf-8")
    code, _, err = run_cli(capsys, "run", "winomt", "--suite-file", str(suite), "--lang", "de", "--input",
                           str(translations), "--data-dir", str(shared_data), "--skip-language-check")
    assert_one_line_error(code, err, f"{suite}:{line}", message)


def test_a_suite_file_is_refused_with_published_outputs(shared_data, tmp_path, capsys):
    main, _ = _winomt_2019(shared_data)
    code, _, err = run_cli(capsys, "run", "winomt", "--suite-file", str(main), "--lang", "de", "--system", "google",
                           "--data-dir", str(shared_data))
    assert_one_line_error(code, err, "--suite-file scores your own suite")
