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
from discotest.registry import options as shared
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


def test_every_family_that_takes_a_model_takes_every_model_option_declared_once():
    """Every field of the model's spec (``models.spec.ModelSpec``) is a declared option of the same name
    (``MODEL_SPEC``), and every family that takes --model declares every one of them: the very objects (``Option``
    objects compare by value), so no model option (``--timeout``, ``--context`` …) is missing from a family."""
    from discotest.models.spec import ModelSpec

    spec = {o.name: o for o in shared.MODEL_SPEC}
    assert set(spec) == set(ModelSpec.names()) and len(spec) == len(shared.MODEL_SPEC)
    assert {"timeout", "concurrency", "context", "prompt_file", "ray_actors", "src_lang", "tgt_lang",
            "max_length", "engine"} <= set(spec)
    with_model = [f for f in families.families() if _takes(f, "model")]
    assert {f.name for f in with_model} >= {"gender", "mittens", "mt-geneval", "contrastive", "zero-pronoun", "dip"}
    for family in with_model:
        declared = {o.name: o for o in family.options}
        missing = sorted(set(spec) - set(declared))
        assert not missing, f"{family.name} lacks {missing}"
        for name, option in spec.items():
            assert declared[name] is option, f"{family.name}: its --{name} is its own, not the shared declaration"
    for family in families.families():
        if _takes(family, "endpoint"):
            assert _takes(family, "timeout") and _takes(family, "concurrency"), family.name


def test_a_spec_built_from_a_family_s_settings_holds_every_value_given(monkeypatch):
    """``ModelSpec.from_settings`` of a family's checked settings: each option given reaches its field (nothing is
    dropped or renamed on the way), the defaults are the declarations'."""
    from discotest.models.spec import ModelSpec
    from discotest.registry import settings_for

    monkeypatch.delenv("DISCOTEST_ENGINE", raising=False)
    given = dict(model="m", endpoint="http://x", prompt_file="p.j2", context=[2], beam=3, max_length=77,
                 batch_size=5, device="cuda:1", revision="r", src_lang="zh", tgt_lang="de", concurrency=7,
                 timeout=9.5, engine="ray", ray_address="h:1", ray_actors=3, use_cache=False, quiet=True)
    assert set(given) == set(ModelSpec.names())
    for family in families.families():
        if not _takes(family, "model"):
            continue
        spec = ModelSpec.from_settings(settings_for(family, given))
        assert {name: getattr(spec, name) for name in given} == {**given, "context": (2,)}, family.name
        default = ModelSpec.from_settings(settings_for(family, {}))
        assert (default.max_length, default.beam, default.timeout, default.batch_size, default.engine) == \
            (shared.MAX_LENGTH.default, shared.BEAM.default, shared.ENDPOINT_TIMEOUT.default,
             shared.BATCH_SIZE.default, "local"), family.name


# every field of the spec, a value other than its default, as the command line gives it
GIVEN_ON_THE_COMMAND_LINE = dict(model="m", endpoint="http://127.0.0.1:9/v1", prompt_file="p.j2", context=[2], beam=3,
                                 max_length=77, batch_size=5, device="cuda:1", revision="r", src_lang="zh",
                                 tgt_lang="de", concurrency=7, timeout=9.5, engine="ray", ray_address="h:1",
                                 ray_actors=3, use_cache=False, quiet=True)


@pytest.mark.parametrize("family", sorted(f.name for f in families.families() if _takes(f, "model")))
def test_every_model_option_on_the_command_line_reaches_the_family_s_spec(family, monkeypatch):
    """``discotest run SUITE --timeout 9.5 --concurrency 7 …``: each flag of the model's spec that the command line
    offers, given to a family that takes --model (MiTTenS's ``--timeout`` the issue's example), is parsed, taken as
    the family's option and lands in the ``ModelSpec`` it builds, value for value: no flag dropped or renamed on the
    way (``cli.parsers.family_options`` → ``settings_for`` → ``ModelSpec.from_settings``)."""
    from discotest.cli.dispatch import build_parser
    from discotest.cli.parsers import family_options
    from discotest.models.spec import ModelSpec
    from discotest.registry import settings_for

    monkeypatch.delenv("DISCOTEST_ENGINE", raising=False)
    assert set(GIVEN_ON_THE_COMMAND_LINE) == set(ModelSpec.names())
    chosen = next(f for f in families.families() if f.name == family)
    argv = []
    for option in shared.MODEL_SPEC:
        value = GIVEN_ON_THE_COMMAND_LINE[option.name]
        if option.action in ("store_true", "store_false"):
            argv += [option.flags[0]] if value != option.default else []
        else:
            argv += [option.flags[0], *(str(v) for v in (value if isinstance(value, list) else [value]))]
    suite = next(iter(chosen.suites()))
    args = build_parser().parse_args(["run", suite, *argv])
    spec = ModelSpec.from_settings(settings_for(chosen, family_options(args, chosen.options)))
    assert {name: getattr(spec, name) for name in ModelSpec.names()} == {**GIVEN_ON_THE_COMMAND_LINE,
                                                                         "context": (2,)}


def test_the_door_gives_a_local_model_every_spec_field_it_takes(tiny_marian):
    """The door hands a local seq2seq translator the spec's fields by name (no inspection of constructors): each
    given value is the backend's."""
    from discotest.models.door import open_translator
    from discotest.models.spec import ModelSpec

    spec = ModelSpec.of(model=str(tiny_marian), beam=2, max_length=33, batch_size=3, src_lang="en", tgt_lang="de",
                        use_cache=False, quiet=True, ray_address="h:1", ray_actors=5)
    t = open_translator(spec, "de")  # the language watch hands attributes on to the backend
    got = (t.beam, t.max_length, t.batch_size, t.device, t.use_cache, t.quiet, t.src_code, t.tgt_code, t.runner,
           t.ray_address, t.ray_actors)
    assert got == (2, 33, 3, "cpu", False, True, "en", "de", "local", "h:1", 5)
    assert dict(t.signature_fields())["max_len"] == "33"  # the signature's name, kept (recorded ones)


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


# ---------------------------------------------------------------- item 4: swaps only where the order decides


def test_a_file_matched_by_its_sources_is_not_judged_for_swapped_lines(shared_data, tmp_path):
    """Google's published WinoMT de output with the translations of rows 100 and 2000 exchanged: as plain text the
    file's order puts each on the other's row (refused: lines swapped); as ``source ||| translation`` lines each
    lands on the row of its source, so no line was put on another's row by its place in the file and the swap test,
    which takes near-copies of a sentence ("… the work." / "… their work.") for swaps, is not run."""
    from discotest.data import catalogue
    from discotest.errors import InputError
    from discotest.registry import settings_for

    published = catalogue.locate(catalogue.system_outputs("winomt")[("google", "de")], str(shared_data))
    pairs = [line.split("|||") for line in published.read_text("utf-8").splitlines()]
    translations = [t.strip() for _, t in pairs]
    translations[100], translations[2000] = translations[2000], translations[100]
    plain = _write(tmp_path / "plain.de", translations)
    bitext = _write(tmp_path / "bitext.de", [f"{s.strip()} ||| {t}" for (s, _), t in zip(pairs, translations)])
    family = families.family_of("winomt")

    def check(path: str) -> None:
        family.check_lines("winomt", settings_for(family, {"lang": "de", "input": path}), path)

    with pytest.raises(InputError, match="lines swapped"):
        check(plain)
    check(bitext)


# ---------------------------------------------------------------- item 5: the catalogue's classes, every family


def _cases(good: list[str], other: list[str]) -> dict[str, tuple[list[str] | bytes, str]]:
    """Each broken file made from ``good`` (a right file) and the fragment its one line must hold."""
    third = len(good) // 3
    return {
        "shifted": ([*good[:third], *good[third + 1:], good[-1]], "lines shifted"),
        "truncated": (good[: len(good) // 2], ""),  # each family says its counts in its own words
        "duplicated": (good + good, ""),
        "empty": ([], ""),
        "another suite's": (other, ""),
        "utf-16": ("".join(f"{line}\n" for line in good).encode("utf-16"), "UTF-16"),
    }


def _catalogue_runs(shared_data):
    from discotest.gender.mt_geneval.suite import load_mt_geneval

    mg = load_mt_geneval("counterfactual", "de", "test", str(shared_data))
    ja = load_mittens("mittens", ["ja"], str(shared_data))
    de = load_mittens("mittens-out", ["de"], str(shared_data))
    ctxpro = (shared_data / "ctxpro/paper/outputs/deepl.auxiliary.opensubtitles.en-de.test.sentences")
    lt22 = shared_data / "wmt22_general/txt/system-outputs/generaltest2022.de-en.hyp.LT22.en"
    winomt = [line.split("|||")[1].strip() for line in
              (shared_data / "mt_gender/translations/google/en-de.txt").read_text("utf-8").splitlines()]
    return {
        "mittens": (["run", "mittens", "--lang", "ja"], [i.reference for i in ja], winomt),
        "mittens-out": (["run", "mittens-out", "--lang", "de"], [i.reference for i in de], winomt),
        "mt-geneval": (["run", "mt-geneval", "--subset", "counterfactual", "--lang", "de"],
                       [i.reference for i in mg], winomt),
        "ctxpro": (["run", "ctxpro-auxiliary-en-de-test"], ctxpro.read_text("utf-8").splitlines(), winomt),
        "dip": (["run", "dip", "--pair", "de-en", "--systems", "Online-B", "--phenomena", "lexical", "--max-docs",
                 "1"], lt22.read_text("utf-8").splitlines(), [i.reference for i in ja]),
    }


@pytest.mark.parametrize("family", ["mittens", "mittens-out", "mt-geneval", "ctxpro", "dip"])
def test_the_catalogues_bad_inputs_get_one_line_before_any_work(family, shared_data, tmp_path, capsys):
    """Shifted, truncated, duplicated, empty, another suite's file of the same count, UTF-16, and -o onto the input:
    each one line and exit status 2, the input untouched. (WinoMT's are in tests/cli; mZPRT's shifted one is below;
    a wrong language in test_mittens_* above and tests/cli/test_input_plausibility.py.)"""
    command, good, other = _catalogue_runs(shared_data)[family]
    other = (other * (len(good) // len(other) + 1))[: len(good)]
    for case, (content, fragment) in _cases(good, other).items():
        path = tmp_path / f"{case.replace(' ', '_')}.txt"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            _write(path, content)
        code, _, err = run_cli(capsys, "-q", *command, "--input", str(path))
        assert_one_line_error(code, err, path.name, fragment)
    right = _write(tmp_path / "right.txt", good)
    before = Path(right).read_bytes()
    code, _, err = run_cli(capsys, "-q", *command, "--input", right, "-o", right)
    assert_one_line_error(code, err, "right.txt", "also an input")
    assert Path(right).read_bytes() == before


def test_mzprt_a_shifted_file_is_refused_and_the_reference_is_warned_of(shared_data, tmp_path, capsys):
    from discotest.registry import settings_for
    from discotest.zero_pronoun.mzprt import load_mzprt

    reference = [seg.reference for seg in load_mzprt("GR", str(shared_data)).segments]
    third = len(reference) // 3
    shifted = _write(tmp_path / "shifted.en", [*reference[:third], *reference[third + 1:], reference[-1]])
    code, _, err = run_cli(capsys, "-q", "run", "mzprt", "--domain", "GR", "--input", shifted)
    assert_one_line_error(code, err, f"shifted.en:{third + 1}:", "lines shifted", "mZPRT GR reference")
    family = families.family_of("mzprt")
    copy = _write(tmp_path / "copy.en", reference)
    warning = family.check_lines("mzprt", settings_for(family, {"domain": "GR", "input": copy}), copy)
    assert warning and "100% of its lines are the mZPRT GR reference" in warning


@pytest.mark.parametrize("command", [["compare", "mittens", "--lang", "ja", "--system", "reference"],
                                     ["compare", "winomt", "--lang", "de", "--system", "bing"]])
def test_compare_with_a_published_system_checks_the_files_lines_too(command, ja, shared_data, tmp_path, capsys):
    """``compare --system NAME --input FILE``: the file is checked as ``run --input`` checks it (the registry checks
    every --input before any work, whatever else the command names)."""
    if command[1] == "mittens":
        good = [i.reference for i in ja]
    else:
        good = [line.split("|||")[1].strip() for line in
                (shared_data / "mt_gender/translations/google/en-de.txt").read_text("utf-8").splitlines()]
    third = len(good) // 3
    shifted = _write(tmp_path / "shifted.txt", [*good[:third], *good[third + 1:], good[-1]])
    code, _, err = run_cli(capsys, "-q", *command, "--input", shifted)
    assert_one_line_error(code, err, "shifted.txt", "lines shifted")


def test_mittens_out_a_file_of_several_languages_is_read_language_by_language(shared_data, tmp_path, capsys):
    """``--lang de,fr``: one file for both languages' passages (in the CSV's order); German lines on the French
    passages are refused, naming French (the registry's own check reads one language only)."""
    items = load_mittens("mittens-out", ["de", "fr"], str(shared_data))
    german = [i.reference for i in items if i.lang == "de"]
    path = _write(tmp_path / "de-fr.txt", [german[k % len(german)] for k in range(len(items))])
    code, _, err = run_cli(capsys, "-q", "run", "mittens-out", "--lang", "de,fr", "--input", path)
    assert_one_line_error(code, err, "de-fr.txt", "not French")
