"""Translation files in three formats, row matching, and every malformed input as an InputError."""

from __future__ import annotations

import json

import pytest

from discotest.data.readers import read_lines
from discotest.data.translations import read_translations
from discotest.errors import InputError
from discotest.gender.winomt import read_gender_tsv

SOURCES = ["The nurse came.", "The doctor left.", "The nurse came."]


def write(tmp_path, name: str, data: bytes | str):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def test_plain_lines_match_by_position(tmp_path):
    path = write(tmp_path, "t.txt", "A\nB\nC\n")
    got = read_translations(path, SOURCES)
    assert got.by_row == {0: "A", 1: "B", 2: "C"} and got.unmatched == [] and got.format == "plain"


def test_bom_and_crlf_are_accepted(tmp_path):
    path = write(tmp_path, "t.txt", b"\xef\xbb\xbfA\r\nB\r\nC")
    assert read_translations(path, SOURCES).by_row == {0: "A", 1: "B", 2: "C"}


def test_bitext_matches_by_source_and_reports_unmatched(tmp_path):
    path = write(tmp_path, "t.txt", "The doctor left. ||| Der Arzt ging.\nThe nurse came. ||| Die Pflegerin kam.\n")
    got = read_translations(path, [*SOURCES, "The judge sat."])
    assert got.by_row == {0: "Die Pflegerin kam.", 1: "Der Arzt ging.", 2: "Die Pflegerin kam."}
    assert got.unmatched == [3]


def test_repeated_sources_are_consumed_in_order(tmp_path):
    path = write(tmp_path, "t.txt", "The nurse came. ||| X\nThe doctor left. ||| Y\nThe nurse came. ||| Z\n")
    assert read_translations(path, SOURCES).by_row == {0: "X", 1: "Y", 2: "Z"}


def test_jsonl_with_and_without_sources(tmp_path):
    rows = [{"translation": t} for t in "ABC"]
    path = write(tmp_path, "t.jsonl", "\n".join(json.dumps(r) for r in rows))
    assert read_translations(path, SOURCES).by_row == {0: "A", 1: "B", 2: "C"}
    path = write(tmp_path, "s.jsonl", json.dumps({"src": "The doctor left.", "hyp": "Y"}))
    got = read_translations(path, SOURCES)
    assert got.by_row == {1: "Y"} and got.unmatched == [0, 2]


@pytest.mark.parametrize("indent", ["", " ", "\t ", "\u3000"])
def test_jsonl_is_told_from_plain_and_bitext_by_its_objects_alone(tmp_path, indent):
    """Only a line that opens an object (after any white space) is tried as JSON: indented objects are JSONL, and a
    line holding other JSON (a string, a number) or a bitext line is not an object, read as before."""
    rows = [{"translation": t} for t in "ABC"]
    path = write(tmp_path, "t.jsonl", "\n".join(indent + json.dumps(r) for r in rows))
    got = read_translations(path, SOURCES)
    assert got.format == ("jsonl" if indent != "\u3000" else "plain")  # U+3000 is white space to str, not to JSON
    assert got.by_row == ({0: "A", 1: "B", 2: "C"} if got.format == "jsonl" else  # plain lines are stripped
                          {k: json.dumps(r) for k, r in enumerate(rows)})
    path = write(tmp_path, "p.txt", '"A"\n3\n{"translation": "C"} ||| x\n')
    assert read_translations(path, SOURCES).format == "plain"


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        (b"A\nB\n", 3, "expected 3 lines"),
        (b"A\n\nC\n", 2, "empty line"),
        (b"A\nB\xff\xfeC\nC\n", 2, "not valid UTF-8"),
        (b"\xff\xfeA\x00", 1, "UTF-16"),
        (b"The nurse came. ||| A\nThe doctor left. B\n", 2, "missing '|||'"),
        (b"The nurse came. ||| \n", 1, "empty translation"),
        (b'{"translation": "A"}\n{"translation": \n', 2, "invalid JSON"),
        (b'{"translation": "A"}\n[1, 2]\n', 2, "JSON object"),
        (b'{"translation": "A"}\n{"text": "B"}\n', 2, "no non-empty string"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path, content, line, message):
    path = write(tmp_path, "bad.txt", content)
    with pytest.raises(InputError) as err:
        read_translations(path, SOURCES)
    assert err.value.path == str(path) and err.value.line == line
    assert message in err.value.one_line() and "\n" not in err.value.one_line()


def test_missing_and_directory_inputs(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_lines(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_lines(tmp_path)


def test_no_source_matches_is_an_error(tmp_path):
    path = write(tmp_path, "t.txt", "The nurse came. ||| Y\nSomething else. ||| X\n")
    with pytest.raises(InputError, match="source sentence is not in the suite") as err:
        read_translations(path, SOURCES)
    assert err.value.line == 2


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("male\t1\tThe nurse came.", "expected 4 tab-separated columns"),
        ("man\t1\tThe nurse came.\tnurse", "gold gender must be one of"),
        ("male\tx\tThe nurse came.\tnurse", r"expected the entity index \(a whole number"),
        ("male\t7\tThe nurse came.\tnurse", "outside the sentence"),
    ],
)
def test_malformed_suite_rows(tmp_path, row, message):
    path = write(tmp_path, "suite.txt", "female\t1\tThe nurse came.\tnurse\n" + row + "\n")
    with pytest.raises(InputError, match=message) as err:
        read_gender_tsv(path)
    assert err.value.line == 2


def test_suite_entity_article_is_stripped_and_span_computed(tmp_path):
    path = write(tmp_path, "suite.txt", "male\t1\tThe construction worker came.\tThe construction worker\n")
    (item,) = read_gender_tsv(path)
    assert item.entity == "construction worker" and list(item.entity_word_span) == [1, 2]
