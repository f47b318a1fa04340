"""Issue 40 item 10, users' suite files: a misspelled known field is refused with the right name (it was ignored
and its default used), a bad value is echoed cut short (never a 5 MB line), and repeated item ids are refused (the
results and --details are keyed by them). Every error is exit 2 and one line."""

from __future__ import annotations

import json

import pytest

from discotest.errors import LONGEST, InputError
from tests.support.cli_helpers import assert_one_line_error, run_cli
from tests.support.files import JAZP_ROW, write


def _run(capsys, tmp_path, *rows: dict) -> tuple[int, str, str]:
    """``run jazp`` on a suite file of ``rows`` with a scores file that prefers each correct candidate."""
    suite = write(tmp_path, "suite.jsonl", "".join(json.dumps(row) + "\n" for row in rows))
    scores = write(tmp_path, "scores.txt", "1\n0\n" * len(rows))
    return run_cli(capsys, "-q", "run", "jazp", "--suite-file", suite, "--scores", scores)


@pytest.mark.parametrize(("field", "meant"), [("corect", "correct"), ("incorect", "incorrect"),
                                              ("distnace", "distance"), ("targetcontext", "target_context"),
                                              ("Phenomenon", "phenomenon")])
def test_a_misspelled_field_is_refused_with_the_right_name(capsys, tmp_path, field, meant):
    row = {**JAZP_ROW, field: 2 if meant == "distance" else "x"}
    code, _, err = _run(capsys, tmp_path, row)
    assert_one_line_error(code, err, "suite.jsonl:1: unknown field", f"(did you mean {meant!r}?)")


def test_fields_of_the_users_own_are_still_read(capsys, tmp_path):
    row = {**JAZP_ROW, "id": "a", "annotator": "kim", "meta": {"note": "x"}}
    code, _, err = _run(capsys, tmp_path, row)
    assert code == 0, err


def test_a_huge_bad_value_is_echoed_cut_short(capsys, tmp_path):
    row = {**JAZP_ROW, "distance": "9" * 5_000_000}
    code, _, err = _run(capsys, tmp_path, row)
    assert_one_line_error(code, err, "distance must be a whole number ≥ 0, not '999", "(5,000,002 characters)")
    assert len(err) < 300
    # and any error line, whatever it quotes, is cut at LONGEST characters
    line = InputError("bad: " + "x" * 100_000, "f.txt", 3).one_line()
    assert line.startswith("f.txt:3: bad: xxx") and len(line) < LONGEST + 80 and "100,014 characters; cut" in line


def test_repeated_item_ids_are_refused(capsys, tmp_path):
    rows = [{**JAZP_ROW, "id": "a"}, {**JAZP_ROW, "id": "b"}, {**JAZP_ROW, "id": "a"}]
    code, _, err = _run(capsys, tmp_path, *rows)
    assert_one_line_error(code, err, "suite.jsonl:3: item id 'a' repeats the id of line 1")
    rows = [{**JAZP_ROW, "id": 1}, {**JAZP_ROW}, {**JAZP_ROW}]  # ids not given: each line is its own
    code, _, err = _run(capsys, tmp_path, *rows)
    assert code == 0, err
