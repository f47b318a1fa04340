"""Malformed files for every reader of user and suite files: each either reads normally or raises an InputError whose
message is one line and names the file. Any other exception (KeyError, TypeError, IndexError, …) is a bug: the CLI
would print a traceback instead of ``discotest: error: FILE:LINE: message``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from discotest.errors import InputError

FUZZ = settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# JSON values of every shape, NaN and infinities included (json.dumps writes them as NaN/Infinity)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10, max_value=10) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def mutate_row(row: dict, data: st.DataObject) -> dict:
    """A valid row with one field (maybe nested one level) deleted or replaced by a JSON value of any type."""
    row = json.loads(json.dumps(row))
    target = row
    keys = list(target)
    key = data.draw(st.sampled_from(keys))
    if isinstance(target[key], dict) and target[key] and data.draw(st.booleans()):
        target, key = target[key], data.draw(st.sampled_from(list(target[key])))
    elif isinstance(target[key], list) and target[key] and data.draw(st.booleans()):
        inner = target[key]
        index = data.draw(st.integers(0, len(inner) - 1))
        if isinstance(inner[index], dict) and inner[index]:
            target, key = inner[index], data.draw(st.sampled_from(list(inner[index])))
        else:
            inner[index] = data.draw(json_values)
            return row
    if data.draw(st.booleans()):
        del target[key]
    else:
        target[key] = data.draw(json_values)
    return row


def corrupt(text: bytes, data: st.DataObject) -> bytes:
    """Byte-level damage: truncation, a NUL, an undecodable byte, a huge field, a stray quote or brace."""
    kind = data.draw(st.sampled_from(["truncate", "nul", "badbyte", "huge", "quote", "random"]))
    at = data.draw(st.integers(0, len(text)))
    if kind == "truncate":
        return text[:at]
    if kind == "random":
        return data.draw(st.binary(max_size=200))
    insert = {"nul": b"\0", "badbyte": b"\xff\xfe", "huge": b"x" * 200_000, "quote": b'"{['}[kind]
    return text[:at] + insert + text[at:]


def check(read, path: Path, names: str | None = None) -> None:
    """The contract: a normal return, or an InputError on one line naming the file."""
    try:
        read(path)
    except InputError as exc:
        message = exc.one_line()
        assert len(message.splitlines()) == 1, message
        assert (names or str(path)) in message, message


def jsonl(rows: list) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def damaged_jsonl(valid: list[dict], data: st.DataObject) -> bytes:
    """Valid rows, one of them with a wrong type or missing field, the whole maybe byte-damaged too."""
    rows = list(valid)
    k = data.draw(st.integers(0, len(rows) - 1))
    rows[k] = data.draw(st.one_of(st.just(mutate_row(rows[k], data)), json_values))
    raw = jsonl(rows)
    return corrupt(raw, data) if data.draw(st.booleans()) else raw


# --- shared readers -------------------------------------------------------------------------------------------

@FUZZ
@given(raw=st.binary(max_size=300))
def test_read_lines_random_bytes(tmp_path, raw):
    from discotest.data.readers import read_lines

    path = tmp_path / "f.txt"
    path.write_bytes(raw)
    check(read_lines, path)


@FUZZ
@given(value=json_values)
def test_json_readers_any_value(tmp_path, value):
    from discotest.data.readers import json_objects, read_json

    path = tmp_path / "f.json"
    path.write_text(json.dumps(value), "utf-8")
    check(read_json, path)
    check(lambda p: list(json_objects(p)), path)


# --- contrastive suites ----------------------------------------------------------------------------------------

JSONL_ROW = {"id": "a", "context": ["c1", "c2"], "source": "s", "target_context": ["t"], "correct": "He came.",
             "incorrect": ["She came."], "distance": 1, "phenomenon": "zp", "pronoun": "he",
             "incorrect_pronoun": ["she"], "meta": {"k": 1}}


@FUZZ
@given(data=st.data())
def test_contrastive_jsonl(tmp_path, data):
    from discotest.contrastive.jsonl import load_jsonl

    path = tmp_path / "suite.jsonl"
    path.write_bytes(damaged_jsonl([JSONL_ROW, JSONL_ROW], data))
    check(load_jsonl, path)


BUILD_ROW = {"target": "He said he was late .", "chain": [0, {"token": 2, "case": "subj"}], "source": "s"}


@FUZZ
@given(data=st.data())
def test_make_contrastive_input(tmp_path, data):
    from discotest.contrastive.build import build_file

    path = tmp_path / "chains.jsonl"
    path.write_bytes(damaged_jsonl([BUILD_ROW, BUILD_ROW], data))
    check(lambda p: build_file(p, tmp_path / "out.jsonl"), path)


VOITA = [{"src": "a _eos b", "dst": ["x _eos y", "x _eos z"], "true_ind": 1, "ctx_dist": 1}]
BAWDEN_ANAPHORA = {"1": {"src": ["c", "s"], "trg": [{"correct": ["c", "il"], "incorrect": ["c", "elle"],
                                                      "type": "t"}]}}
BAWDEN_LEXICAL = {"1": {"type": "repet", "examples": [{"src": ["c", "s"], "trg": {"correct": ["c", "a"],
                                                                                  "incorrect": ["c", "b"]}}]}}
CTXPRO = [{"src segment": "s", "ref segment": "r", "expected": "e", "rule": "gender", "ante distance": 1,
           "document id": "d", "segment id": 1}]
CONTRAPRO = [{"src segment": "s", "ref segment": "r", "errors": [{"contrastive": "x", "replacement": "sie"}],
              "src pronoun": "it", "ref pronoun": "er", "ante distance": 1, "document id": "d", "segment id": 1}]


def _published(kind: str):
    from discotest.contrastive import ctxpro, jsonl, published

    return {
        "voita": (VOITA, lambda p: published.load_voita(p, "deixis")),
        "bawden-anaphora": (BAWDEN_ANAPHORA, published.load_bawden_anaphora),
        "bawden-lexical": (BAWDEN_LEXICAL, published.load_bawden_lexical),
        "ctxpro": (CTXPRO, ctxpro.load_ctxpro),
        "contrapro": (CONTRAPRO, jsonl.load_contrapro),
    }[kind]


@pytest.mark.parametrize("kind", ["voita", "bawden-anaphora", "bawden-lexical", "ctxpro", "contrapro"])
@FUZZ
@given(data=st.data())
def test_published_json_suites(tmp_path, kind, data):
    valid, load = _published(kind)
    if isinstance(valid, list):
        value = [mutate_row(valid[0], data)] + valid
    else:
        key = next(iter(valid))
        value = {**valid, "2": mutate_row(valid[key], data)}
    value = data.draw(st.one_of(st.just(value), json_values))
    raw = json.dumps(value).encode("utf-8")
    path = tmp_path / "suite.json"
    path.write_bytes(corrupt(raw, data) if data.draw(st.booleans()) else raw)
    check(load, path)


@FUZZ
@given(data=st.data())
def test_contrapro_context_files(tmp_path, data):
    from discotest.contrastive.jsonl import load_contrapro

    suite = tmp_path / "contrapro.json"
    suite.write_text(json.dumps(CONTRAPRO), "utf-8")
    src, tgt = tmp_path / "ctx.en", tmp_path / "ctx.de"
    src.write_bytes(corrupt(b"a\nb\n", data))
    tgt.write_bytes(b"a\nb\n")
    check(lambda p: load_contrapro(suite, (p, tgt), 2), src)


@FUZZ
@given(data=st.data())
def test_scat_folder(tmp_path, data):
    from discotest.contrastive.published import load_scat

    names = [f"highlighted.test.{s}" for s in ("en", "fr", "context.en", "context.fr")]
    for name in names:
        (tmp_path / name).write_bytes(b"It came .\n<p>Il</p> est venu .\n")
    damaged = tmp_path / data.draw(st.sampled_from(names))
    damaged.write_bytes(corrupt(damaged.read_bytes(), data))
    check(load_scat, tmp_path)


WINOX_ROW = {"qID": "q1", "sentence": "The cup did not fit in the bag because it was big.", "translation1": "A er",
             "translation2": "A sie", "answer": 1, "pronoun1": "er", "pronoun2": "sie", "referent1_en": "cup",
             "referent2_en": "bag"}


@FUZZ
@given(data=st.data())
def test_winox(tmp_path, data):
    from discotest.contrastive.jsonl import load_winox_mt
    from discotest.data.winox import read_winox

    path = tmp_path / "winox.jsonl"
    path.write_bytes(damaged_jsonl([WINOX_ROW, WINOX_ROW], data))
    check(read_winox, path)
    check(load_winox_mt, path)


@FUZZ
@given(data=st.data(), numbers=st.lists(st.floats() | st.integers() | st.text(max_size=6), min_size=3, max_size=5))
def test_scores_file(tmp_path, data, numbers):
    from discotest.data.contrastive_item import make_item
    from discotest.models.scores_file import read_scores

    items = [make_item(i, src="s", correct="a", incorrect=["b"]) for i in range(2)]
    raw = "".join(f"{n}\n" for n in numbers).encode("utf-8")
    path = tmp_path / "scores.txt"
    path.write_bytes(corrupt(raw, data) if data.draw(st.booleans()) else raw)
    try:
        scores = read_scores(path, items, losses=data.draw(st.booleans()))
    except InputError as exc:
        assert len(exc.one_line().splitlines()) == 1 and str(path) in exc.one_line()
    else:
        assert all(abs(v) < float("inf") for item in scores for v in item)  # never NaN or infinite


@FUZZ
@given(data=st.data())
def test_train_text(tmp_path, data):
    from discotest.contrastive.baselines.text import read_training_text

    path = tmp_path / "train.txt"
    path.write_bytes(corrupt(b"src ||| he came\nshe left\n", data))
    check(read_training_text, path)


# --- mZPRT, WinoMT, BUG -------------------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_mzprt_suite_files(tmp_path, data):
    from discotest.zero_pronoun.mzprt import read_suite_files

    zh, en = tmp_path / "x.zh", tmp_path / "x.en"
    zh.write_bytes("[doc]\n手动还是自动，<你>_S确定离合掌握好了？\n".encode())
    en.write_bytes(b"[doc]\nIs it manual? Are you sure?\n")
    damaged = data.draw(st.sampled_from([zh, en]))
    damaged.write_bytes(corrupt(damaged.read_bytes(), data))
    check(lambda _: read_suite_files(zh, en), damaged, names=str(tmp_path))


@FUZZ
@given(data=st.data())
def test_gender_suite_files(tmp_path, data):
    from discotest.gender.bug import read_stereotypes
    from discotest.gender.winomt import read_gender_tsv

    tsv = tmp_path / "en.txt"
    tsv.write_bytes(corrupt(b"female\t1\tThe nurse said she came.\tnurse\n", data))
    check(read_gender_tsv, tsv)
    csv_file = tmp_path / "bug.csv"
    csv_file.write_bytes(corrupt(b'sentence_text,profession,stereotype\n"The nurse came.",nurse,1\n', data))
    check(read_stereotypes, csv_file)


# --- DiP ------------------------------------------------------------------------------------------------------

MANIFEST = {"data": "wmt22", "pair": "de-en", "ref": "A", "pair_lines": 10,
            "counts": {"lexical": 1, "connectives": 1, "anaphora": 1, "coherence": 1}}
DIP_ITEMS = {
    "lexical": {"id": "lexical-00000", "sentences": [0, 1], "lemma": "house", "ref_count": 2},
    "connectives": {"id": "connectives-00000", "sentences": [2], "token": 0, "connective": "but", "sense": "c"},
    "anaphora": {"id": "anaphora-00000", "sentences": [1, 2], "token": 3, "pronoun": "he"},
    "coherence": {"id": "coherence-00000", "sentences": [0, 1, 2]},
}


@FUZZ
@given(data=st.data())
def test_dip_test_folder(tmp_path, data):
    from discotest.dip.run import read_tests

    folder = tmp_path / "tests"
    folder.mkdir(exist_ok=True)
    which = data.draw(st.sampled_from(["manifest", *DIP_ITEMS]))
    manifest = mutate_row(MANIFEST, data) if which == "manifest" else MANIFEST
    (folder / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    for phenomenon, item in DIP_ITEMS.items():
        rows = [mutate_row(item, data) if phenomenon == which else item]
        (folder / f"{phenomenon}.jsonl").write_bytes(jsonl(rows))
    if data.draw(st.booleans()):
        name = "manifest.json" if which == "manifest" else f"{which}.jsonl"
        (folder / name).write_bytes(corrupt((folder / name).read_bytes(), data))
    check(read_tests, folder)


EVAL_ANAPHORA = {"reference_context": ["a", ".", "he", "came"], "noisy_context": ["x"],
                 "reference_sentence": ["he", "came"], "noisy_sentence": ["she", "came"], "origin": "o", "sample_id": 1}


@FUZZ
@given(data=st.data())
def test_eval_anaphora(tmp_path, data):
    from discotest.dip.eval_anaphora import read_pairs

    path = tmp_path / "test_data_german.jsonl"
    path.write_bytes(damaged_jsonl([EVAL_ANAPHORA, EVAL_ANAPHORA], data))
    check(read_pairs, path)


# --- validate, augment, finetune ------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_validate_csv(tmp_path, data):
    from discotest.gender.validate import COLUMNS, read_filled

    row = {c: "x" for c in COLUMNS} | {"aligned_word_correct": "yes", "gender_correct": "no", "verdict": "wrong",
                                       "lang": "de"}
    text = ",".join(COLUMNS) + "\n" + ",".join(row[c] for c in COLUMNS) + "\n"
    path = tmp_path / "filled.csv"
    path.write_bytes(corrupt(text.encode("utf-8"), data))
    check(read_filled, path)


@FUZZ
@given(data=st.data())
def test_augment_corpus(tmp_path, data):
    from discotest.gender.augment import _pairs, check_corpus

    src, tgt, tsv = tmp_path / "c.en", tmp_path / "c.de", tmp_path / "c.tsv"
    src.write_bytes(corrupt(b"He came.\nShe left.\n", data))
    tgt.write_bytes(b"Er kam.\nSie ging.\n")
    tsv.write_bytes(corrupt(b"He came.\tEr kam.\n", data))
    check(lambda p: (check_corpus(p, tgt), list(_pairs(p, tgt))), src)
    check(lambda p: (check_corpus(p), list(_pairs(p, None))), tsv)


@FUZZ
@given(data=st.data())
def test_finetune_data(tmp_path, data):
    from discotest.gender.finetune import read_jsonl

    path = tmp_path / "train.jsonl"
    path.write_bytes(damaged_jsonl([{"src": "a", "tgt": "b"}, {"src": "c", "tgt": "d"}], data))
    check(read_jsonl, path)


# --- files that cannot be read at all ------------------------------------------------------------------------------

def test_directories_and_unreadable_files(tmp_path, monkeypatch):
    """A folder where a file belongs, and a file the user may not read (simulated: the tests may run as root)."""
    from discotest.contrastive.jsonl import load_jsonl
    from discotest.data.readers import read_json, read_lines
    from discotest.gender.augment import check_corpus

    for read in (read_lines, read_json, load_jsonl, check_corpus):
        with pytest.raises(InputError, match="is a directory"):
            read(tmp_path)
    path = tmp_path / "secret.jsonl"
    path.write_text("{}\n")
    real_open = open

    def refuse(file, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", lambda self: refuse(self, "rb").read())
    monkeypatch.setattr("builtins.open", refuse)
    for read in (read_lines, read_json, load_jsonl, check_corpus):
        with pytest.raises(InputError, match=r"secret.jsonl: cannot read file \(Permission denied\)"):
            read(path)


@FUZZ
@given(body=st.lists(st.sampled_from([b"a", b" ", b"\n", b"\r", b"\r\n", b"\x00", b"\xff", b"\xc3", b"\xc3\xa9",
                                      b"\xe6\x97\xa5", b"\xef\xbb\xbf", "\u2028".encode()]), max_size=40),
       block=st.sampled_from([1, 5, 1 << 16]))
def test_streamed_lines_are_the_read_lines_whatever_the_block(tmp_path, monkeypatch, body, block):
    """``stream_lines`` (corpora: blocks of whole lines decoded at once, a block with a problem line by line) gives
    ``read_lines``' lines, or its error at the same line, for any bytes after a first line; a block of one line at a
    time, a few, or the default 64 KB."""
    from discotest.data import readers

    path = tmp_path / "corpus.txt"
    path.write_bytes(b"first\n" + b"".join(body))
    monkeypatch.setattr(readers, "STREAM_BLOCK", block)
    try:
        expected: object = list(enumerate(readers.read_lines(path), start=1))
    except InputError as exc:
        expected = str(exc)
    try:
        streamed: object = list(readers.stream_lines(path))
    except InputError as exc:
        streamed = str(exc)
    assert streamed == expected
