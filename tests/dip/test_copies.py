"""Issue 53 item 3: a file equal or nearly equal to a reference, or to the output of a WMT system the run ranks, is
not the user's system: ``run dip`` refuses it in one line before any parsing or model (``dip.run.refuse_copy``), and
the card's DiP row from --outputs fails with that line; a copy of a WMT system the run does not rank is scored with a
warning. The thresholds are measured (bench/validity/dip_input_check.py): no real WMT22 output trips them."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from discotest.data.readers import read_lines
from discotest.dip.documents import _pairs, reference_paths, system_paths
from discotest.dip.run import COPY_OF_REFERENCE, COPY_OF_SYSTEM, identical_share, refuse_copy
from discotest.errors import InputError
from tests.support.cli_helpers import assert_one_line_error, run_cli

REFS = "wmt22_general/txt/references/generaltest2022.de-en.ref.{}.en"
HYPS = "wmt22_general/txt/system-outputs/generaltest2022.de-en.hyp.{}.en"


def _nearly(lines: list[str], every: int = 10) -> list[str]:
    """``lines`` with every ``every``-th one reworded: a copy touched up."""
    return [f"In short, {line}" if k % every == 0 and line else line for k, line in enumerate(lines)]


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), "utf-8")
    return str(path)


def test_a_reference_or_a_ranked_system_as_input_is_refused_in_one_line(shared_data, tmp_path, capsys):
    ref_a = read_lines(shared_data / REFS.format("A"))
    ref_b = read_lines(shared_data / REFS.format("B"))
    online_b = read_lines(shared_data / HYPS.format("Online-B"))
    cases = {
        "mine-a.en": (ref_a, ["reference A's", "100.0%"]),
        "mine-b.en": (_nearly(ref_b), ["reference B's", "90.0%"]),  # another --ref than the run's, touched up
        "mine-online.en": (online_b, ["system Online-B's", "ranked already"]),
    }
    for name, (lines, needles) in cases.items():
        path = _write(tmp_path / name, lines)
        code, _, err = run_cli(capsys, "-q", "run", "dip", "--pair", "de-en", "--input", path, "--systems",
                               "LT22,Online-B", "--phenomena", "lexical", "--max-docs", "1")
        assert_one_line_error(code, err, name, *needles)


def test_a_copy_of_a_system_the_run_does_not_rank_is_scored_with_a_warning(shared_data, tmp_path):
    promt = read_lines(shared_data / HYPS.format("PROMT"))
    warning = refuse_copy(tmp_path / "mine.en", promt, "wmt22", "de-en", ["LT22", "Online-B"], shared_data)
    assert warning is not None and "system PROMT's output" in warning and "not a system of your own" in warning
    with pytest.raises(InputError, match="ranked already"):
        refuse_copy(tmp_path / "mine.en", promt, "wmt22", "de-en", ["PROMT"], shared_data)
    # a post-edit of a system's output (half its lines reworded) is a system of one's own: no word
    edited = _nearly(read_lines(shared_data / HYPS.format("LT22")), every=2)
    assert refuse_copy(tmp_path / "edited.en", edited, "wmt22", "de-en", ["LT22"], shared_data) is None


def test_a_mined_test_set_refuses_a_reference_as_input(shared_data, tmp_path, capsys):
    tests = tmp_path / "mydip"
    tests.mkdir()
    (tests / "manifest.json").write_text(json.dumps({"data": "wmt22", "pair": "de-en", "ref": "A", "pair_lines": 1984,
                                                     "counts": {"lexical": 1}}), "utf-8")
    (tests / "lexical.jsonl").write_text('{"id": "goods", "sentences": [0, 1], "lemma": "goods", "ref_count": 2}\n',
                                         "utf-8")
    path = _write(tmp_path / "mine.en", read_lines(shared_data / REFS.format("B")))
    code, _, err = run_cli(capsys, "-q", "--data-dir", str(shared_data), "run", "dip", "--tests", str(tests), "--input",
                           path)
    assert_one_line_error(code, err, "mine.en", "reference B's")


def test_the_cards_dip_row_of_a_reference_fails_with_that_line(shared_data, tmp_path, capsys):
    _write(tmp_path / "mine.en", read_lines(shared_data / REFS.format("A")))
    (tmp_path / "manifest.json").write_text(json.dumps({"system": "mine", "files": {"de-en/dip": "mine.en"}}),
                                            "utf-8")
    code, out, err = run_cli(capsys, "-q", "card", "--outputs", str(tmp_path), "--pairs", "de-en", "--suites", "dip",
                             "--format", "json", "--no-cache")
    (row,) = [r for r in json.loads(out)["rows"] if r["suite"] == "dip"]
    assert row["status"] == "failed" and "reference A's" in row["reason"] and not row["lines"], row


def test_no_real_wmt22_output_trips_the_thresholds(shared_data):
    """Each WMT22 X-en system against every other and against every reference (the WMT21 pairs too are measured by
    the bench: their one trip is ja-en's KwaiNLP and XMU, one file twice)."""
    for pair in _pairs("wmt22"):
        refs = [read_lines(p) for p in reference_paths("wmt22", pair, shared_data).values()]
        systems = {n: read_lines(p) for n, p in system_paths("wmt22", pair, shared_data).items()}
        for lines in systems.values():
            assert all(identical_share(lines, ref) < COPY_OF_REFERENCE for ref in refs), pair
        for a, b in itertools.combinations(systems, 2):
            assert identical_share(systems[a], systems[b]) < COPY_OF_SYSTEM, (pair, a, b)
