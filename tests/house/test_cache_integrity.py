"""Cache entries prove they are whole: a damaged entry (truncated, lines rotated or emptied, a garbage token, an
old entry without the header, a whole entry the caller cannot parse) is recomputed with one warning and gives the
same result as a clean run; an unusable cache folder is one warning per process and the run goes on uncached."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from discotest import cache


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_warned_unwritable", False)
    monkeypatch.setattr(cache, "_damage_warnings", 0)
    return tmp_path / "cache"


def _payload_lines(blob: bytes) -> tuple[bytes, list[bytes]]:
    header, _, payload = blob.partition(b"\n")
    return header + b"\n", payload.split(b"\n")


def truncate(blob: bytes) -> bytes:
    return blob[: len(blob) * 2 // 3]


def rotate_lines(blob: bytes) -> bytes:  # the header stays: only the checksum can tell
    header, lines = _payload_lines(blob)
    return header + b"\n".join(lines[1:] + lines[:1])


def empty_lines(blob: bytes) -> bytes:
    header, lines = _payload_lines(blob)
    return header + b"\n".join(b"" if i % 2 else line for i, line in enumerate(lines))


def garbage_token(blob: bytes) -> bytes:
    header, _, payload = blob.partition(b"\n")
    middle = len(payload) // 2
    return header + b"\n" + payload[:middle] + b" @@garbage\xff@@ " + payload[middle:]


def no_header(blob: bytes) -> bytes:  # an entry written by an older discotest
    return blob.partition(b"\n")[2]


def flipped_bit(blob: bytes) -> bytes:
    data = bytearray(blob)
    data[-2] ^= 0x01
    return bytes(data)


DAMAGES = [truncate, rotate_lines, empty_lines, garbage_token, no_header, flipped_bit, lambda blob: b""]


def _only_entry(root: Path) -> Path:
    """The one cache entry under ``root`` (``<namespace>/<2 hex>/<key>``; the data-hash memo beside them is not one)."""
    entries = [p for p in root.glob("*/*/*") if p.is_file()]
    assert len(entries) == 1, entries
    return entries[0]


def _check_recomputed(capsys, compute, entry: Path, damage, clean) -> None:
    blob = entry.read_bytes()
    damaged = damage(blob)
    assert damaged != blob
    entry.write_bytes(damaged)
    capsys.readouterr()
    assert compute() == clean
    warnings = capsys.readouterr().err.strip().splitlines()
    assert warnings == [f"discotest: warning: cache entry {entry} is damaged; recomputing"]
    assert entry.read_bytes() == blob  # the recomputed entry replaced the damaged one
    assert compute() == clean
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------- the header itself

def test_seal_unseal_round_trip_and_rejections():
    payload = b"0-0 1-1\n2-2\n"
    sealed = cache.seal(payload)
    assert cache.unseal(sealed) == payload
    assert cache.unseal(cache.seal(b"")) == b""
    for damage in DAMAGES:
        assert cache.unseal(damage(sealed)) is None, damage
    wrong_version = sealed.replace(b"discotest-cache 1 ", b"discotest-cache 2 ", 1)
    assert cache.unseal(wrong_version) is None


def test_store_load_and_parse_rejection(capsys, private_cache):
    cache.store("ns", "ab12", "hello")
    assert cache.load("ns", "ab12") == "hello"
    assert cache.load("ns", "ab12", parse=str.upper) == "HELLO"

    def reject(text: str) -> str:
        raise ValueError("not what I stored")

    assert cache.load("ns", "ab12", parse=reject) is None
    assert "is damaged; recomputing" in capsys.readouterr().err
    assert cache.load("ns", "ab12") is None  # removed: no second warning either
    assert capsys.readouterr().err == ""


def test_undecodable_text_entry_is_damaged(capsys):
    cache.store_bytes("ns", "cd34", b"\xff\xfe not utf-8")
    assert cache.load("ns", "cd34") is None
    assert capsys.readouterr().err.count("is damaged") == 1


# ---------------------------------------------------------------- real entries of every kind

def _winomt_pairs(shared_data: Path, n: int = 30):
    from discotest.lang.tokenize import tokenize

    lines = (shared_data / "mt_gender/translations/sota/en-de.txt").read_text("utf-8").splitlines()[:n]
    pairs = []
    for line in lines:
        src, tgt = line.split(" ||| ")
        pairs.append((tuple(t.text for t in tokenize(src, "en")), tuple(t.text for t in tokenize(tgt, "de"))))
    return pairs


@pytest.mark.parametrize("damage", DAMAGES)
def test_damaged_alignment_entry_is_recomputed(shared_data, private_cache, capsys, damage):
    from discotest.lang.align import align_cached, make_aligner

    pairs = _winomt_pairs(shared_data)
    aligner = make_aligner()
    clean = align_cached(aligner, pairs)
    _check_recomputed(capsys, lambda: align_cached(aligner, pairs), _only_entry(private_cache), damage, clean)


def test_alignment_entry_with_links_outside_the_sentences_is_not_used(shared_data, private_cache, capsys):
    from discotest.lang.align import align_cached, make_aligner

    pairs = _winomt_pairs(shared_data, 8)
    aligner = make_aligner()
    clean = align_cached(aligner, pairs)
    entry = _only_entry(private_cache)
    wrong = "\n".join(["0-0 99-0"] * len(pairs)).encode()  # well sealed, well formed, impossible
    _check_recomputed(capsys, lambda: align_cached(aligner, pairs), entry, lambda _: cache.seal(wrong), clean)


@pytest.mark.parametrize("damage", [truncate, garbage_token, no_header, lambda b: cache.seal(b'[[["x"], []]]')])
def test_damaged_segmentation_entry_is_recomputed(shared_data, private_cache, capsys, damage, monkeypatch):
    pytest.importorskip("jieba")
    monkeypatch.setenv("DISCOTEST_MODELS", str(private_cache))  # the namespace's own folder (cache.NAMESPACE_ENV)
    from discotest.zero_pronoun.mzprt import load_mzprt
    from discotest.zero_pronoun.segment_zh import segment_cached

    segments = load_mzprt("MS", shared_data).segments[:40]
    texts = [s.labelled for s in segments]
    spans = [[(zp.start, zp.end) for zp in s.zps] for s in segments]
    clean = segment_cached(texts, spans)
    _check_recomputed(capsys, lambda: segment_cached(texts, spans), _only_entry(private_cache), damage, clean)


@pytest.mark.parametrize("damage", [truncate, garbage_token, no_header, flipped_bit])
def test_damaged_parse_entry_is_recomputed(shared_data, private_cache, capsys, damage):
    pytest.importorskip("spacy")
    from discotest.dip.parse import parse
    from discotest.lang.english import english_pipeline

    if english_pipeline(required=False) is None:
        pytest.skip("no English spaCy model")
    ref = shared_data / "wmt22_general/txt/references/generaltest2022.de-en.ref.A.en"
    sentences = ref.read_text("utf-8").splitlines()[:15]
    clean = parse(sentences)
    _check_recomputed(capsys, lambda: parse(sentences), _only_entry(private_cache), damage, clean)


def test_parse_entry_that_does_not_fit_its_sentences_is_not_used(shared_data, private_cache, capsys):
    pytest.importorskip("spacy")
    import json
    from dataclasses import astuple

    from discotest.dip.parse import parse
    from discotest.lang.english import english_pipeline

    if english_pipeline(required=False) is None:
        pytest.skip("no English spaCy model")
    sentences = ["The car was red.", "She washed it."]
    clean = parse(sentences)
    entry = _only_entry(private_cache)
    swapped = json.dumps([[astuple(t) for t in clean[1]], [astuple(t) for t in clean[0]]]).encode()
    _check_recomputed(capsys, lambda: parse(sentences), entry, lambda _: cache.seal(swapped), clean)


def _lm_probe(lm) -> list[float]:
    return [round(lm.logprob(["the", "president", "said"]), 9), round(lm.logprob(["it", "was", "."]), 9)]


@pytest.mark.parametrize("damage", [truncate, garbage_token, no_header, flipped_bit,
                                    lambda b: cache.seal(b"\x1f\x8b not gzip")])
def test_damaged_gzip_lm_blob_is_recomputed(shared_data, private_cache, tmp_path, capsys, damage):
    from discotest.dip.ngram_lm import cached_lm

    text = (shared_data / "wmt22_general/txt/references/generaltest2022.de-en.ref.A.en").read_text("utf-8")
    corpus = tmp_path / "lm.en"
    corpus.write_text("\n".join(text.splitlines()[:300]) + "\n", "utf-8")
    clean = _lm_probe(cached_lm([corpus]))
    _check_recomputed(capsys, lambda: _lm_probe(cached_lm([corpus])), _only_entry(private_cache), damage, clean)


def test_damaged_baseline_scores_are_recomputed(private_cache, tmp_path, capsys):
    from discotest.contrastive.baselines import run_baseline
    from discotest.data.contrastive_item import ContrastiveItem

    train = tmp_path / "train.txt"
    train.write_text("he said it was fine\nshe said he was late\nit was raining\n", "utf-8")
    items = [ContrastiveItem(index=i, src="", candidates=("he was late", "she was late"), correct_index=0)
             for i in range(3)]
    clean = run_baseline("majority", items, train)
    entry = _only_entry(private_cache)
    short = b'{"scores": [[1.0, 0.0]], "fields": [["baseline", "majority"]]}'
    _check_recomputed(capsys, lambda: run_baseline("majority", items, train), entry, lambda _: cache.seal(short),
                      clean)


def test_many_old_entries_warn_a_few_times_then_once(capsys):
    n = cache.MAX_DAMAGE_WARNINGS + 10
    for i in range(n):
        cache.entry_path("ns", f"{i:04d}").parent.mkdir(parents=True, exist_ok=True)
        cache.entry_path("ns", f"{i:04d}").write_text("an entry without the header")
    assert all(cache.load("ns", f"{i:04d}") is None for i in range(n))
    err = capsys.readouterr().err.splitlines()
    assert len(err) == cache.MAX_DAMAGE_WARNINGS + 1
    assert err[-1].startswith("discotest: warning: further damaged cache entries")


# ---------------------------------------------------------------- the cache folder itself

def test_cache_path_that_is_a_file_is_one_warning_and_no_cache(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker))
    for key in ("aa11", "bb22", "cc33"):
        cache.store("ns", key, "value")
        assert cache.load("ns", key) is None
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("discotest: warning: cannot write the cache in")
    assert blocker.read_text() == "x"


def test_unwritable_cache_is_one_warning(monkeypatch, capsys):
    def denied(path, payload):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(cache, "write_bytes_atomic", denied)
    cache.store("ns", "aa11", "one")
    cache.store_bytes("ns", "bb22", b"two", ".json.gz")
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"discotest: warning: cannot write the cache in {cache.cache_dir()} (Permission denied); "
                   f"continuing without it (set {cache.ENV_VAR} to a writable folder)"]


def test_alignment_without_a_usable_cache_gives_the_same_links(shared_data, tmp_path, monkeypatch, capsys):
    from discotest.lang.align import align_cached, make_aligner

    pairs = _winomt_pairs(shared_data, 10)
    clean = align_cached(make_aligner(), pairs)
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker))
    assert align_cached(make_aligner(), pairs) == clean
    assert capsys.readouterr().err.count("cannot write the cache") == 1


def test_concurrent_writers_and_readers_never_see_a_partial_entry(capsys):
    payloads = [f"{i}\n".encode() * (2000 + 100 * i) for i in range(4)]
    seen: list[bytes | None] = []

    def work(payload: bytes) -> None:
        for _ in range(40):
            cache.store_bytes("ns", "ee55", payload)
            seen.append(cache.load_bytes("ns", "ee55"))

    threads = [threading.Thread(target=work, args=(p,)) for p in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen and all(s in payloads for s in seen)
    assert capsys.readouterr().err == ""
    assert not [p for p in cache.entry_path("ns", "ee55").parent.iterdir() if p.name.endswith(".tmp")]
