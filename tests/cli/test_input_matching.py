"""Every suite family: a translation lands on exactly the suite row it belongs to, or the file is refused at its line.

Single rows are taken from the start, the middle and the end of the real suites in ../shared/data (BUG also right
after the row its loader skips, where positions and row indices part), plus the refusals: a file for another suite,
ambiguous repeats, half-bitext files, and plain text that merely looks like JSONL or bitext.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.contrastive.ctxpro_translations import read_ctxpro_translations
from discotest.contrastive.suites import load_suite as load_contrastive
from discotest.data.translations import read_translations
from discotest.data.winox import read_winox
from discotest.errors import InputError
from discotest.gender.bug import load_bug
from discotest.gender.pipeline import Bitext
from discotest.gender.winomt import load_winomt
from discotest.winox.run import run_winox
from discotest.zero_pronoun.hypotheses import read_input
from discotest.zero_pronoun.mzprt import load_mzprt
from tests.support.cli_helpers import one_result

WINOX = Path(__file__).resolve().parents[1] / "fixtures" / "winox"


def _norm(text: str) -> str:
    return " ".join(text.split())


def _unique_near(sources: list[str], position: int) -> int:
    """The first position at or after ``position`` (else before it) whose source occurs once in the suite."""
    counts = Counter(_norm(s) for s in sources)
    order = [*range(position, len(sources)), *range(position - 1, -1, -1)]
    return next(p for p in order if counts[_norm(sources[p])] == 1)


def _ends(sources: list[str]) -> list[int]:
    """Positions of unique sources at the start, the middle and the end of a suite."""
    return sorted({_unique_near(sources, 0), _unique_near(sources, len(sources) // 2),
                   _unique_near(sources, len(sources) - 1)})


def _bitext(tmp_path: Path, rows: list[tuple[str, str]], name: str = "t.txt") -> Path:
    path = tmp_path / name
    path.write_text("".join(f"{s} ||| {t}\n" for s, t in rows), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- gender suites


@pytest.fixture(scope="module")
def bug(shared_data):
    return load_bug(shared_data)


@pytest.fixture(scope="module")
def winomt(shared_data):
    return load_winomt("current", shared_data)


def _lands_on_its_row(tmp_path, items, position):
    item = items[position]
    path = _bitext(tmp_path, [(item.sentence, "X")])
    found = read_translations(path, {i.index: i.sentence for i in items})
    assert found.by_row == {item.index: "X"} and len(found.unmatched) == len(items) - 1
    (landed,) = Bitext(items, found.by_row, "es").items
    assert landed.sentence == item.sentence and landed.index == item.index


def test_winomt_single_rows_land_on_their_row(tmp_path, winomt):
    positions = _ends([i.sentence for i in winomt])
    assert positions[0] == 0 and positions[-1] == len(winomt) - 1
    for position in positions:
        _lands_on_its_row(tmp_path, winomt, position)


def test_bug_single_rows_land_on_their_row(tmp_path, bug):
    after_gap = next(p for p, item in enumerate(bug) if item.index != p)  # the row after the skipped "nan" row
    assert bug[after_gap].index == after_gap + 1
    architect = next(p for p, i in enumerate(bug) if i.sentence.startswith("The architect died in 1867"))
    for position in [*_ends([i.sentence for i in bug]), after_gap, architect]:
        _lands_on_its_row(tmp_path, bug, position)


def test_bug_reported_file_scores_the_architect_row(tmp_path, monkeypatch, capsys, shared_data):
    """The reported defect: one BUG line was scored as suite row 1021 (another sentence) with exit 0."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    path = _bitext(tmp_path, [("The architect died in 1867 and he was buried in Odessa .",
                               "El arquitecto murió en 1867 y fue enterrado en Odesa .")])
    details = tmp_path / "d.jsonl"
    assert main(["run", "bug", "--lang", "es", "--input", str(path),
                 "--details", str(details), "--data-dir", str(shared_data)]) == 0
    (row,) = [json.loads(line) for line in details.read_text("utf-8").splitlines()]
    assert row["index"] == 1022 and row["source"].startswith("The architect died in 1867")


def test_bug_plain_text_by_position_or_by_file_row(tmp_path, bug):
    gap = next(p for p, item in enumerate(bug) if item.index != p)
    sources = {i.index: i.sentence for i in bug}
    usable = tmp_path / "usable.txt"
    usable.write_text("".join(f"t{i.index}\n" for i in bug), encoding="utf-8")
    assert read_translations(usable, sources).by_row[bug[gap].index] == f"t{bug[gap].index}"
    every_row = tmp_path / "file_rows.txt"  # one line per row of the gold file, the skipped one included
    every_row.write_text("".join(f"t{k}\n" for k in range(bug[-1].index + 1)), encoding="utf-8")
    found = read_translations(every_row, sources)
    assert all(found.by_row[i.index] == f"t{i.index}" for i in bug) and found.unmatched == []


def test_a_file_for_another_suite_is_refused_at_its_first_foreign_line(tmp_path, bug, winomt):
    path = _bitext(tmp_path, [(bug[0].sentence, "A"), (winomt[5].sentence, "B"), (winomt[6].sentence, "C")])
    with pytest.raises(InputError, match="not in the suite") as err:
        read_translations(path, {i.index: i.sentence for i in bug})
    assert err.value.line == 2 and err.value.path == str(path)


def test_wrong_suite_file_exits_2_with_one_line(tmp_path, capsys, shared_data, winomt):
    path = _bitext(tmp_path, [(winomt[0].sentence, "El desarrollador discutió con la diseñadora .")])
    assert main(["run", "bug", "--lang", "es", "--input", str(path), "--data-dir", str(shared_data)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"discotest: error: {path}:1: source sentence is not in the suite") and "\n" not in err


def test_repeated_suite_sentence(tmp_path, winomt):
    """WinoMT holds some sentences twice: once in the file serves both rows, twice goes in suite order, and
    two different translations for a sentence the suite holds once are refused."""
    counts = Counter(_norm(i.sentence) for i in winomt)
    twice = next(i.sentence for i in winomt if counts[_norm(i.sentence)] == 2)
    rows = [i.index for i in winomt if _norm(i.sentence) == _norm(twice)]
    sources = {i.index: i.sentence for i in winomt}
    assert read_translations(_bitext(tmp_path, [(twice, "A")]), sources).by_row == dict.fromkeys(rows, "A")
    found = read_translations(_bitext(tmp_path, [(twice, "A"), (twice, "B")]), sources)
    assert found.by_row == {rows[0]: "A", rows[1]: "B"}
    with pytest.raises(InputError, match="given 3 times with different translations") as err:
        read_translations(_bitext(tmp_path, [(twice, "A"), (twice, "B"), (twice, "C")]), sources)
    assert err.value.line == 2
    once = winomt[_unique_near([i.sentence for i in winomt], 0)].sentence
    assert read_translations(_bitext(tmp_path, [(once, "A"), (once, "A")]), sources).by_row == {0: "A"}
    with pytest.raises(InputError, match="suite has it 1 time ") as err:
        read_translations(_bitext(tmp_path, [(once, "A"), (twice, "C"), (once, "B")]), sources)
    assert err.value.line == 3


# ----------------------------------------------------------------------------- formats


SOURCES = ["The nurse came.", "The doctor left."]


@pytest.mark.parametrize(
    "text",
    [
        "{Die Pflegerin} kam.\nDer Arzt ging.\n",  # starts with "{", is not JSON
        '{"a": 1} ist kein Satz\nDer Arzt ging.\n',
        "Die Pflegerin ||| kam.\nDer Arzt ging.\n",  # "|||" in the first line only
        "Die Pflegerin kam.\nDer Arzt ||| ging ||| heute.\n",  # "|||" in a minority of lines
    ],
)
def test_plain_text_that_looks_like_jsonl_or_bitext_is_plain(tmp_path, text):
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    found = read_translations(path, SOURCES)
    assert found.format == "plain" and found.by_row == dict(enumerate(text.splitlines()))


def test_plain_text_with_a_separator_on_every_line_needs_forcing(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("Die Pflegerin ||| kam.\nDer Arzt ||| ging.\n", encoding="utf-8")
    with pytest.raises(InputError, match="--input-format plain") as err:
        read_translations(path, SOURCES)
    assert err.value.line == 1
    assert read_translations(path, SOURCES, "plain").by_row == {0: "Die Pflegerin ||| kam.", 1: "Der Arzt ||| ging."}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("The nurse came. ||| A\nThe doctor left. B\n", 2, "missing '|||'"),  # a broken bitext, not plain text
        ("The nurse came. ||| A\nThe doctor left. ||| B ||| C\n", 2, "more than one '|||'"),
        ("Die Pflegerin ||| kam ||| heute.\nDer Arzt ||| ging.\n", 1, "more than one '|||'"),  # most lines: a bitext
        ('{"translation": "A"}\nB\n', 2, "invalid JSON"),
        ('{"src": "The nurse came.", "tgt": "A"}\n{"tgt": "B"}\n', 2, "no source, while line 1 has one"),
    ],
)
def test_half_formatted_files_are_refused(tmp_path, text, line, message):
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        read_translations(path, SOURCES)
    assert err.value.line == line


def test_forced_formats(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text('{"translation": "A"}\n{"translation": "B"}\n', encoding="utf-8")
    assert read_translations(path, SOURCES).by_row == {0: "A", 1: "B"}
    assert read_translations(path, SOURCES, "plain").by_row == {0: '{"translation": "A"}', 1: '{"translation": "B"}'}
    with pytest.raises(InputError, match="missing '|||'"):
        read_translations(path, SOURCES, "bitext")
    with pytest.raises(InputError, match="input-format must be one of"):
        read_translations(path, SOURCES, "tsv")


# ----------------------------------------------------------------------------- mZPRT


@pytest.fixture(scope="module")
def qa(shared_data):
    return load_mzprt("QA", shared_data)


def test_mzprt_single_segments_land_on_their_segment(tmp_path, qa):
    sources = [s.source for s in qa.segments]
    for position in _ends(sources):
        segment = qa.segments[position]
        hyps = read_input(_bitext(tmp_path, [(segment.source, "I know .")]), qa)
        assert hyps.by_segment == {segment.index: "I know ."} and hyps.layout == "by-source"


def test_mzprt_plain_single_line_is_refused(tmp_path, qa):
    path = tmp_path / "one.txt"
    path.write_text("I know .\n", encoding="utf-8")
    with pytest.raises(InputError, match="expected 1171 lines") as err:
        read_input(path, qa)
    assert err.value.path == str(path) and err.value.line == 2


def test_mzprt_repeated_sentence_must_be_given_per_occurrence(tmp_path, qa):
    counts = Counter(_norm(s.source) for s in qa.segments)
    repeated = next(s for s in qa.segments if counts[_norm(s.source)] == 2)
    rows = [s.index for s in qa.segments if _norm(s.source) == _norm(repeated.source)]
    with pytest.raises(InputError, match="ambiguous source") as err:
        read_input(_bitext(tmp_path, [(repeated.source, "A")]), qa)
    assert err.value.line == 1
    hyps = read_input(_bitext(tmp_path, [(repeated.source, "A"), (repeated.source, "B")]), qa)
    assert hyps.by_segment == {rows[0]: "A", rows[1]: "B"}


def test_mzprt_file_for_another_domain_is_refused(tmp_path, qa, shared_data):
    other = load_mzprt("GR", shared_data).segments[0].source
    with pytest.raises(InputError, match="not in the suite") as err:
        read_input(_bitext(tmp_path, [(qa.segments[0].source, "A"), (other, "B")]), qa)
    assert err.value.line == 2


# ----------------------------------------------------------------------------- CTXPRO


@pytest.fixture(scope="module")
def ctxpro(shared_data):
    return load_contrastive("ctxpro-auxiliary-en-de-dev", shared_data)


def test_ctxpro_single_items_land_on_their_item(tmp_path, ctxpro, shared_data):
    inputs = (shared_data / "ctxpro/release/inputs/auxiliary.opensubtitles.en-de.dev").read_text("utf-8").splitlines()
    for position in _ends(inputs):  # the line CTXPRO gives systems: context <eos> … sentence
        found = read_ctxpro_translations(_bitext(tmp_path, [(inputs[position], "Ja, das tue ich.")]), ctxpro)
        assert found.by_row == {ctxpro[position].index: "Ja, das tue ich."}
    bare = _ends([i.src for i in ctxpro])  # the bare sentence, where the suite holds it once
    for position in bare:
        found = read_ctxpro_translations(_bitext(tmp_path, [(ctxpro[position].src, "X")]), ctxpro)
        assert found.by_row == {ctxpro[position].index: "X"}


def test_ctxpro_bare_sentence_in_several_contexts_is_ambiguous(tmp_path, ctxpro):
    counts = Counter(_norm(i.src) for i in ctxpro)
    repeated = next(i.src for i in ctxpro if counts[_norm(i.src)] > 1)
    once = ctxpro[_unique_near([i.src for i in ctxpro], 0)].src
    with pytest.raises(InputError, match="different contexts; give the source with its context") as err:
        read_ctxpro_translations(_bitext(tmp_path, [(once, "A"), (repeated, "B")]), ctxpro)
    assert err.value.line == 2


def test_ctxpro_cli_scores_a_subset_and_refuses_another_suite(tmp_path, capsys, ctxpro, shared_data):
    rows = [(ctxpro[k].src, f"Ich {ctxpro[k].expected} das.") for k in _ends([i.src for i in ctxpro])]
    path = _bitext(tmp_path, rows)
    out = tmp_path / "r.json"
    assert main(["run", "ctxpro-auxiliary-en-de-dev", "--input", str(path), "--format", "json",
                 "--output", str(out), "--data-dir", str(shared_data)]) == 0
    result = one_result(out.read_text("utf-8"))
    assert "|n:3|" in result["signature"]
    foreign = _bitext(tmp_path, [("The nurse came.", "Die Pflegerin kam.")], "foreign.txt")
    assert main(["run", "ctxpro-auxiliary-en-de-dev", "--input", str(foreign), "--data-dir", str(shared_data)]) == 2
    assert f"{foreign}:1: source sentence is not in the suite" in capsys.readouterr().err


# ----------------------------------------------------------------------------- Wino-X


def test_winox_single_items_land_on_their_item(tmp_path):
    items = read_winox(WINOX / "en_fr_test.jsonl")
    for position in _ends([i.sentence for i in items]):
        item = items[position]
        path = _bitext(tmp_path, [(item.sentence, item.gold_translation)])
        result = run_winox("fr", path, suite_file=WINOX / "en_fr_test.jsonl")
        assert list(result.verdicts) == [item.index] and result.translations == {item.index: item.gold_translation}


def test_winox_file_for_another_language_is_refused(tmp_path):
    de = read_winox(WINOX / "en_de_test.jsonl")
    fr = {i.sentence for i in read_winox(WINOX / "en_fr_test.jsonl")}
    foreign = next(i for i in de if i.sentence not in fr)
    with pytest.raises(InputError, match="not in the suite") as err:
        run_winox("fr", _bitext(tmp_path, [(foreign.sentence, "x")]), suite_file=WINOX / "en_fr_test.jsonl")
    assert err.value.line == 1


# ----------------------------------------------------------------------------- DiP


def test_dip_input_is_by_line_count_only(tmp_path):
    """DiP reads no sources: a translation file must have the pair's line count, so a single row is refused."""
    from discotest.dip.run import read_input as read_dip_input

    path = tmp_path / "one.txt"
    path.write_text("The cat sat.\n", encoding="utf-8")
    with pytest.raises(InputError, match="1 lines, but wmt21 de-en has 1002") as err:
        read_dip_input(path, 1002, "wmt21 de-en")
    assert err.value.path == str(path)


# ----------------------------------------------------------------------------- --model


class _EchoTranslator:
    """Translates a sentence into itself, so each translation shows which source it came from."""

    name = "echo"

    def translate(self, sources: list[str]) -> list[str]:
        return list(sources)


def test_model_translations_are_keyed_by_suite_row(bug):
    from discotest.gender.translate import ModelSystem

    by_row = ModelSystem(_EchoTranslator()).translations(bug).by_row
    assert all(by_row[item.index] == _norm(item.sentence) for item in bug)
