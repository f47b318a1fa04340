"""Issue 53, trust at the edges: every family that takes ``--input`` declares the language its file is in and the
check of its lines against the rows they land on (both run by the registry before any work), and every family that
takes ``--model`` takes every option the door uses, declared once (``registry.options.TRANSLATING_MODEL``); a served
model's ``--timeout`` reaches MiTTenS's rows of the card (a real socket server that accepts and never answers)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from discotest import families
from discotest.gender.mittens.suite import load_mittens
from discotest.registry import options as common
from tests.support.cli_helpers import assert_one_line_error, run_cli

# ---------------------------------------------------------------- the registry: declared by every family


def _takes(family, name: str) -> bool:
    return any(o.name == name for o in (*family.options, *family.compare_options))


def test_every_family_that_takes_input_declares_its_language_and_its_line_check():
    taking = [f for f in families.families() if _takes(f, "input")]
    assert {f.name for f in taking} >= {"gender", "mittens", "mt-geneval", "contrastive", "zero-pronoun", "dip",
                                        "winox"}
    for family in taking:
        assert family.input_language is not None, f"{family.name}: no input_language"
        assert family.check_lines is not None, f"{family.name}: no check_lines"


def test_every_family_that_takes_a_model_takes_every_option_the_door_uses_declared_once():
    """Not a copy of the declaration (``Option`` objects compare by value): the very objects of
    ``TRANSLATING_MODEL``; and every family with --endpoint takes --timeout and --concurrency."""
    door = {o.name: o for o in common.TRANSLATING_MODEL}
    assert {"timeout", "concurrency", "context", "prompt_file", "ray_actors", "src_lang", "tgt_lang"} <= set(door)
    with_model = [f for f in families.families() if _takes(f, "model")]
    assert {f.name for f in with_model} >= {"gender", "mittens", "mt-geneval", "contrastive", "zero-pronoun", "dip"}
    for family in with_model:
        declared = {o.name: o for o in family.options}
        missing = sorted(set(door) - set(declared))
        assert not missing, f"{family.name} lacks {missing}"
        for name, option in door.items():
            assert declared[name] is option, f"{family.name}: its --{name} is its own, not the shared declaration"
    for family in families.families():
        if _takes(family, "endpoint"):
            assert _takes(family, "timeout") and _takes(family, "concurrency"), family.name


def test_the_door_takes_every_shared_model_option():
    """Each option of ``TRANSLATING_MODEL`` is a keyword ``open_translator`` or a backend it opens takes (the
    languages as their codes, the engine as ``runner``): a declared option no backend reads would be a flag that
    changes nothing."""
    import inspect

    from discotest.models.causal_translator import CausalTranslator
    from discotest.models.door import _taken, open_translator
    from discotest.models.endpoint import EndpointTranslator
    from discotest.models.translator import ModelTranslator

    taken = set(inspect.signature(open_translator).parameters) | _taken(ModelTranslator) | \
        _taken(CausalTranslator) | _taken(EndpointTranslator)
    as_named = {"prompt_file": "prompt_file", "src_lang": "src_code", "tgt_lang": "tgt_code"}
    for option in common.TRANSLATING_MODEL:
        assert as_named.get(option.name, option.name) in taken, option.name


# ---------------------------------------------------------------- MiTTenS's files, checked as WinoMT's are


@pytest.fixture(scope="module")
def ja(shared_data) -> list:
    return load_mittens("mittens", ["ja"], str(shared_data))


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line.replace("\n", " ") + "\n" for line in lines), "utf-8")
    return str(path)


def test_mittens_untranslated_japanese_as_the_ja_en_output_is_refused(ja, tmp_path, capsys):
    path = _write(tmp_path / "ja.txt", [i.source for i in ja])
    code, _, err = run_cli(capsys, "-q", "run", "mittens", "--lang", "ja", "--input", path)
    assert_one_line_error(code, err, "ja.txt", "Japanese", "English (en)")


def test_mittens_out_french_references_as_the_german_output_are_refused(shared_data, tmp_path, capsys):
    french = load_mittens("mittens-out", ["fr"], str(shared_data))
    assert len(french) == len(load_mittens("mittens-out", ["de"], str(shared_data)))  # the same line count
    path = _write(tmp_path / "fr.txt", [i.reference for i in french])
    code, _, err = run_cli(capsys, "-q", "run", "mittens-out", "--lang", "de", "--input", path)
    assert_one_line_error(code, err, "fr.txt", "French", "German")


def test_mittens_a_file_shifted_by_one_line_is_refused_at_the_line_and_the_right_one_scored(ja, tmp_path, capsys):
    refs = [i.reference for i in ja]
    shifted = _write(tmp_path / "shifted.txt", [*refs[:30], *refs[31:], refs[30]])
    code, _, err = run_cli(capsys, "-q", "run", "mittens", "--lang", "ja", "--input", shifted)
    assert_one_line_error(code, err, "shifted.txt:31:", "lines shifted", "the mittens references")
    right = _write(tmp_path / "right.txt", refs)
    code, out, err = run_cli(capsys, "-q", "run", "mittens", "--lang", "ja", "--input", right, "-f", "json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["n"] == len(ja)
    # --skip-language-check scores the shifted one anyway, and says so in its signature
    code, out, err = run_cli(capsys, "-q", "run", "mittens", "--lang", "ja", "--input", shifted, "-f", "json",
                             "--skip-language-check")
    assert code == 0 and "langcheck:off" in json.loads(out)["results"][0]["signature"]


def test_mittens_references_with_the_gender_swapped_are_no_misaligned_file(ja, tmp_path, capsys):
    """A system that gets every person's gender wrong translates each passage as its twin row's reference reads
    ("my son … He" / "my daughter … She"): it is scored (0% correct), not refused as swapped lines."""
    from discotest.gender.mittens.english import swap_gender

    path = _write(tmp_path / "wrong-gender.txt", [swap_gender(i.reference) for i in ja])
    code, out, err = run_cli(capsys, "-q", "run", "mittens", "--lang", "ja", "--input", path, "-f", "json")
    assert code == 0, err


# ---------------------------------------------------------------- --timeout reaches MiTTenS's rows of the card


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP server on 127.0.0.1 that accepts every connection and never answers (nor closes)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            conn.close()
        listener.close()


def test_card_timeout_reaches_the_mittens_rows(silent_server, tmp_path, capsys):
    """``card --endpoint URL --timeout 3 --suites mittens`` against a server that never answers ends in about
    twice the timeout (one request's bound, retries included), its row failed in one line: not 120 s per attempt."""
    started = time.monotonic()
    code, out, err = run_cli(capsys, "-q", "card", "--endpoint", silent_server, "--model", "m", "--timeout", "3",
                             "--pairs", "ja-en", "--suites", "mittens", "--format", "json", "--no-cache")
    took = time.monotonic() - started
    assert took < 20, took  # 6 s the request's bound, the card's own work around it
    rows = json.loads(out)["rows"] if code == 0 else []
    reasons = [row.get("reason") or "" for row in rows] + [err]
    assert any("no answer" in reason and "--timeout 3" in reason for reason in reasons), (code, out[-800:], err)


def test_card_timeout_bounds_the_question_which_model_is_served(silent_server, capsys):
    """Without --model the card first asks the server which model it serves (``GET /models``): --timeout bounds
    that question too, one line and exit status 2 in about twice the timeout."""
    started = time.monotonic()
    code, _, err = run_cli(capsys, "-q", "card", "--endpoint", silent_server, "--timeout", "3", "--pairs", "ja-en",
                           "--suites", "mittens", "--no-cache")
    assert time.monotonic() - started < 20
    assert_one_line_error(code, err, "/v1/models: no answer", "--timeout 3 s per attempt")
