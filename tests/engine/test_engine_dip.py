"""DiP on the ray engine: shard parsing and coherence scoring as Ray tasks give the local engine's bytes.

One local Ray instance with 2 CPUs serves the module. The pair is a real slice of WMT22 de-en (12 documents, 3
systems) with shards narrowed to 30 lines (``documents.SHARD_LINES``), so each stage has several shards to spread;
the coherence model is a real ``CoherenceModel`` with hand-set weights on parse features (no training, no LM), so its
workers parse and compute features as the trained one's do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the ray engine needs Ray (pip install 'discotest[ray]'; CI installs it)")
pytest.importorskip("spacy")

from discotest import cache as disk_cache  # noqa: E402 - after the skips
from discotest.dip import documents  # noqa: E402
from discotest.dip import run as dip  # noqa: E402
from discotest.dip.coherence import CoherenceModel  # noqa: E402
from discotest.dip.documents import load_pair, shard_documents  # noqa: E402
from discotest.dip.parse import parse  # noqa: E402
from discotest.dip.shards import line_shards  # noqa: E402
from discotest.engine import ENGINES, RayEngine  # noqa: E402
from tests.support.cli_helpers import assert_one_line_error, results_of, run_cli  # noqa: E402
from tests.support.ray_helpers import local_ray, spy  # noqa: E402

SYSTEMS = ["LT22", "Online-A", "PROMT"]
MAX_DOCS = 12
SHARD = 30  # lines per shard here (400 in use): the 12 documents' 90 lines make 3 shards
PAIR = ["--pair", "de-en", "--max-docs", str(MAX_DOCS), "--systems", ",".join(SYSTEMS), "--phenomena",
        "lexical,connectives,anaphora,coherence", "-q"]
FEATURES = ["overlap_adjacent", "pronoun_rate", "connective_rate", "adjacent_gain_content", "type_token"]


@pytest.fixture(scope="module")
def ray_instance():
    yield from local_ray()


@pytest.fixture(autouse=True)
def _narrow_shards(monkeypatch, shared_data):
    monkeypatch.setattr(documents, "SHARD_LINES", SHARD)
    # a real model class, hand-set weights: coherence scoring parses and computes features in the workers
    model = CoherenceModel(FEATURES, [1.0] * len(FEATURES), [0.5, -1.0, 2.0, 1.5, -0.25], version="test")
    monkeypatch.setattr(dip, "load_coherence", lambda *args, **kwargs: model)


def _spy(monkeypatch) -> list:
    """(function name, number of tasks) of every RayEngine.map_ordered call (still running them): what Ray ran."""
    return spy(monkeypatch, RayEngine, "map_ordered",
               record=lambda self, fn, args_list, *args, **kwargs: (fn.__name__, len(args_list)))


def _slice(shared_data: Path):
    return load_pair("wmt22", "de-en", "A", shared_data, systems=SYSTEMS, max_docs=MAX_DOCS)


def test_shard_parses_are_the_whole_parse(shared_data):
    # the claim sharding rests on: spaCy parses a sentence the same whatever else is in its call. The first 60
    # documents of the WMT22 de-en reference, parsed whole and in shards of 100 lines (one shard alone is a single
    # spaCy batch of 256 or less, the whole a different batching), compared token by token; no cache either way
    pair = load_pair("wmt22", "de-en", "A", shared_data, systems=[], max_docs=60)
    wanted = [i for doc in pair.documents for i in doc.lines]
    whole = parse([pair.reference[i] for i in wanted], use_cache=False)
    shards = line_shards(wanted, pair.documents, size=100)
    assert len(shards) >= 4 and [i for shard in shards for i in shard] == wanted
    sharded = [s for shard in shards for s in parse([pair.reference[i] for i in shard], use_cache=False)]
    assert sharded == whole
    assert sum(len(s) for s in whole) > 5000  # a real parse: thousands of tokens


def test_shards_are_whole_documents_in_order(shared_data):
    # documents of 3, 5 and 4 lines with shards of 4: the first closes at 8 lines (3 + 5), the last has what is left
    docs = [documents.Document("a", 0, 3), documents.Document("b", 3, 8), documents.Document("c", 8, 12)]
    assert [[d.doc_id for d in s] for s in shard_documents(docs, 4)] == [["a", "b"], ["c"]]
    # a --max-docs prefix keeps the whole pair's shards but its last (so their cache entries are shared)
    whole_pair = load_pair("wmt22", "de-en", "A", shared_data, systems=[]).documents
    prefix = [[d.doc_id for d in s] for s in shard_documents(_slice(shared_data).documents)]
    assert len(prefix) == 3
    assert prefix[:-1] == [[d.doc_id for d in s] for s in shard_documents(whole_pair)[:len(prefix) - 1]]


def test_rank_dip_gives_the_same_json_on_both_engines(ray_instance, shared_data, tmp_path, monkeypatch, capsys):
    calls = _spy(monkeypatch)
    outputs = {}
    for engine in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / engine))
        code, outputs[engine], err = run_cli(capsys, "--data-dir", str(shared_data), "rank", "dip", *PAIR,
                                             "--format", "json", "--engine", engine)
        assert code == 0, err
    assert outputs["ray"] == outputs["local"]
    # what Ray ran (the local run calls no map_ordered): a parse task per text (reference + 3 systems) and shard, a
    # coherence task per text and shard of documents of 2 lines or more (mining stays in the driver)
    pair = _slice(shared_data)
    shards = shard_documents(pair.documents)
    coherent = [s for s in shards if any(d.end - d.start >= 2 for d in s)]
    assert len(shards) == 3
    assert calls == [("parse", 4 * len(shards)), ("_score_documents", 4 * len(coherent))]
    # a real ranking: every phenomenon scored for the 3 systems, with items
    results = results_of(outputs["ray"])
    assert [r["system"] for r in results] == SYSTEMS
    assert all(r["scores"][p]["n"] > 0 for r in results for p in ("lexical", "connectives", "coherence"))


def test_mine_dip_writes_the_same_files_on_both_engines(ray_instance, shared_data, tmp_path, monkeypatch, capsys):
    calls = _spy(monkeypatch)
    for engine in ENGINES:
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{engine}"))
        code, _, err = run_cli(capsys, "--data-dir", str(shared_data), "mine", "dip", *PAIR, "-o",
                               str(tmp_path / engine), "--engine", engine)
        assert code == 0, err
    files = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert files == ["anaphora.jsonl", "coherence.jsonl", "connectives.jsonl", "lexical.jsonl", "manifest.json"]
    for name in files:
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name
    counts = json.loads((tmp_path / "local" / "manifest.json").read_text())["counts"]
    assert counts["lexical"] > 0 and counts["connectives"] > 0 and counts["coherence"] > 0
    # mining parses the reference (3 shards), then the systems (3 × 3), then scores coherence (4 texts × 3 shards)
    assert calls == [("parse", 3), ("parse", 9), ("_score_documents", 12)]


def test_shards_parsed_by_ray_workers_are_cache_hits_locally(ray_instance, shared_data, tmp_path, monkeypatch, capsys):
    # one cache for both runs: the local run after the ray run stores no parse (the workers wrote the same keys)
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    args = ["--data-dir", str(shared_data), "rank", "dip", *PAIR[:-3], "--phenomena", "lexical", "-q", "--format",
            "json"]
    code, on_ray, err = run_cli(capsys, *args, "--engine", "ray")
    assert code == 0, err
    stored: list[str] = []
    original = disk_cache.store

    def store(namespace, key, text):
        stored.append(namespace)
        return original(namespace, key, text)

    monkeypatch.setattr(disk_cache, "store", store)
    code, local, err = run_cli(capsys, *args, "--engine", "local")
    assert code == 0, err
    assert local == on_ray
    assert "english-parse" not in stored
    # and a warm ray run reads the parses in the driver: no task goes to Ray
    calls = _spy(monkeypatch)
    code, again, err = run_cli(capsys, *args, "--engine", "ray")
    assert code == 0, err
    assert again == on_ray and calls == []


def test_jobs_without_ray_is_an_input_error(shared_data, capsys):
    code, _, err = run_cli(capsys, "--data-dir", str(shared_data), "rank", "dip", *PAIR, "--jobs", "2")
    assert_one_line_error(code, err, "--jobs applies to dip with --engine ray only")
