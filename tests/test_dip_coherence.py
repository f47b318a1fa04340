"""The DiP coherence model: entity-grid features on hand-written documents, reading its pairs through
``documents.load_pair``, training on a small subset, JSON save/load, and on real WMT22 references against their own
shuffled versions."""

from __future__ import annotations

import math
import random

import pytest

from discotest.dip import coherence
from discotest.dip.coherence import (
    DEFAULT_FEATURES,
    PAIRS,
    CoherenceModel,
    entity_grid,
    features_of_documents,
    grid_transitions,
    load_coherence_model,
    pair_features,
    shuffled_orders,
)
from discotest.dip.documents import DATASETS, Document, load_pair
from discotest.dip.parse import parse
from discotest.errors import InputError
from tests.wmt_fakes import fake_pair


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_entity_grid_roles_and_transitions():
    doc = ["John bought a car.", "John drove the car to Paris.", "The car broke down."]
    grid = entity_grid(parse(doc))
    # John is the subject of sentences 1-2 and absent from 3; the car is the object of 1-2 and the subject of 3;
    # Paris is only an object of a preposition (X) in sentence 2
    assert grid == {"john": ["S", "S", "-"], "car": ["O", "O", "S"], "paris": ["-", "X", "-"]}
    salient = {k: v for k, v in grid_transitions(grid, salient=True).items() if v}
    # salient (>= 2 mentions): john gives SS and S-, car gives OO and OS → 4 transitions of length 2, ¼ each;
    # of length 3 john gives SS-, car OOS → ½ each
    assert salient == {"SS": 0.25, "S-": 0.25, "OO": 0.25, "OS": 0.25, "SS-": 0.5, "OOS": 0.5}
    other = {k: v for k, v in grid_transitions(grid, salient=False).items() if v}
    assert other == {"-X": 0.5, "X-": 0.5, "-X-": 1.0}  # Paris alone


def test_order_features_see_the_order():
    # the same four sentences: in the original the two cat sentences and the two stock sentences are adjacent;
    # interleaved, every adjacent pair changes topic, so the adjacent-overlap gain must drop
    original = ["The cat slept on the sofa.", "The cat woke up on the sofa.", "Stocks fell sharply in Tokyo.",
                "Stocks rose again in Tokyo."]
    interleaved = [original[0], original[2], original[1], original[3]]
    a, b = features_of_documents([original, interleaved])
    assert a["adjacent_gain_nouns"] > 0 > b["adjacent_gain_nouns"]
    assert a["adjacent_gain_content"] > b["adjacent_gain_content"]
    assert a["len_mean_log"] == b["len_mean_log"]  # order-free features do not move
    # a headline (no final punctuation) opening the document; a connective opening it
    c, d = features_of_documents([["Storm hits coast", "Winds reached 100 km/h."], ["However, it rained.", "Ok."]])
    assert (c["headline_first"], d["headline_first"]) == (1.0, 0.0)
    assert (c["connective_first"], d["connective_first"]) == (0.0, 1.0)


def test_pairs_are_known_collections():
    assert set(PAIRS) <= set(DATASETS) and all(pair.endswith("-en") for pairs in PAIRS.values() for pair in pairs)


def test_shuffles():
    orders = shuffled_orders(4, 3, random.Random(0))
    assert len(orders) == 3 and len({tuple(o) for o in orders}) == 3
    assert all(sorted(o) == [0, 1, 2, 3] and o != [0, 1, 2, 3] for o in orders)
    assert shuffled_orders(2, 3, random.Random(0)) == []  # too short to shuffle meaningfully


def _fake_collection(monkeypatch, root, data, pair, docs, systems):
    """A hand-made pair as ``documents.load_pair`` finds it: files in ``root``, registered for the test."""
    ids = [doc for doc, lines in docs for _ in lines]
    fake_pair(monkeypatch, root, data, pair, [line for _, lines in docs for line in lines], ids, systems,
              source=[f"source of {doc}" for doc in ids])


def test_pairs_read_through_load_pair_keep_empty_lines_and_documents(tmp_path, monkeypatch):
    docs = [("d1", ["Anna met Tom.", "She liked him.", "They married."]), ("d2", ["Prices rose.", "They fell later."])]
    _fake_collection(monkeypatch, tmp_path, "wmt22", "de-en", docs,
                     {"X": ["Anna met Tom.", "", "They married.", "Prices rose.", "It fell."]})
    data = load_pair("wmt22", "de-en", root=tmp_path)
    assert data.documents == [Document("d1", 0, 3), Document("d2", 3, 5)]
    assert data.systems["X"][1] == ""  # an empty output line is a valid empty sentence
    # the features are cut per document, the empty line counts as a sentence of the system's first document
    pf = pair_features(data)
    assert pf.doc_ids == ["d1", "d2"] and len(pf.reference) == len(pf.systems["X"]) == 2
    assert pf.reference[0]["n_sentences_log"] == pf.systems["X"][0]["n_sentences_log"] == math.log1p(3)
    assert pf.systems["X"][0]["empty_rate"] == pytest.approx(1 / 3) and pf.reference[0]["empty_rate"] == 0
    # max_docs keeps the first documents only, and the features stop with them
    one = pair_features(load_pair("wmt22", "de-en", root=tmp_path, max_docs=1), shuffles=2)
    assert one.doc_ids == ["d1"] and len(one.systems["X"]) == 1 and one.systems["X"][0] == pf.systems["X"][0]
    assert len(one.shuffled) == 1 and len(one.shuffled[0]) == 2  # two other orders of d1's three sentences


def test_misaligned_or_missing_system_outputs_are_input_errors(tmp_path, monkeypatch):
    docs = [("d1", ["Anna met Tom.", "She liked him."]), ("d2", ["Prices rose.", "They fell later."])]
    _fake_collection(monkeypatch, tmp_path, "wmt21", "ru-en", docs, {})
    _fake_collection(monkeypatch, tmp_path, "wmt21", "ja-en", docs, {"X": ["a", "b", "c", "d"]})
    with pytest.raises(InputError, match=r"system-outputs: no system outputs for this pair"):
        load_coherence_model(tmp_path)  # ru-en has none: nothing to rank the reference against
    _fake_collection(monkeypatch, tmp_path, "wmt21", "ru-en", docs, {"Y": ["one line"]})
    with pytest.raises(InputError, match=r"hyp\.Y\.en: 1 lines, but the source .* has 4"):
        load_coherence_model(tmp_path)


def test_missing_data_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match=r"wmt21_news/.*missing data file for 'wmt21-ru-en-src'.*data fetch"):
        load_coherence_model(tmp_path)
    with pytest.raises(InputError, match="coherence model file not found"):
        CoherenceModel.load(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text('{"feature_names": ["a"]}', "utf-8")
    with pytest.raises(InputError, match="not a coherence model file"):
        CoherenceModel.load(tmp_path / "bad.json")


@pytest.fixture(scope="module")
def small_model(shared_data, tmp_path_factory):
    """Trained on the first 4 documents of each WMT21 pair, with its own empty cache (parses included)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("DISCOTEST_CACHE", str(tmp_path_factory.mktemp("cache")))
    model = load_coherence_model(shared_data, max_docs=4)
    yield model
    mp.undo()


def test_small_training_is_cached(small_model, shared_data, monkeypatch, tmp_path):
    model = small_model
    assert model.feature_names == DEFAULT_FEATURES and all(math.isfinite(c) for c in model.coef)
    assert model.info["train_pairs"] > 0 and model.info["max_docs"] == 4
    # the same training files and settings come from the model cache, not from a new training
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    coherence.disk_cache.store(coherence.CACHE_NAMESPACE, coherence.disk_cache.content_key(
        coherence._files_key(shared_data, "wmt21", 4)), model.to_json())

    def boom(*_args, **_kwargs):
        raise AssertionError("must come from the cache")

    monkeypatch.setattr(coherence, "train_model", boom)
    assert load_coherence_model(shared_data, max_docs=4).coef == model.coef


def test_training_again_from_a_fresh_cache_gives_the_same_model(small_model, shared_data, monkeypatch, tmp_path):
    """Parses, shuffles, LM and logistic regression all recomputed: the model must be byte-identical (issue 11)."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "fresh"))
    assert load_coherence_model(shared_data, max_docs=4).to_json() == small_model.to_json()


def test_save_load_round_trip(small_model, shared_data, tmp_path):
    model = small_model
    path = tmp_path / "coherence.json"
    model.save(path)
    again = CoherenceModel.load(path, data_dir=shared_data)
    assert again.signature() == model.signature() and again.signature().startswith("coherence-egrid-v1@")
    docs = [["Anna met Tom.", "She liked him.", "They married."], ["It rained.", "", "Stocks fell."]]
    assert again.score_documents(docs) == model.score_documents(docs)
    assert "pickle" not in path.read_text("utf-8") and path.read_text("utf-8").lstrip().startswith("{")
    # the LM feature's n-gram model is not saved: it is rebuilt from the data dir, so a dir without WMT text fails
    with pytest.raises(InputError, match="LM feature needs WMT21/WMT22 English text"):
        CoherenceModel.load(path, data_dir=tmp_path).score_documents(docs)


# Measured with the full model: these 40 documents give 39/40. Over all WMT22 news-domain references with >= 4
# sentences one shuffled copy scores lower in 95% (de-en) and 99% (ru-en) of documents, but only in 36-90% of the
# conversation, social and e-commerce documents, whose first sentence is no headline.


def test_references_beat_their_shuffled_versions(shared_data, monkeypatch):
    monkeypatch.delenv("DISCOTEST_CACHE")  # reuse the user cache: the full model trains in ~20 s once parsed
    model = load_coherence_model(shared_data)
    rows = (shared_data / DATASETS["wmt22"][0] / "docids" / "documents.tsv").read_text("utf-8").splitlines()
    news = {tuple(r.split("\t")[:2]) for r in rows if r.split("\t")[2:3] == ["news"]}  # (pair, doc id)
    wins = total = 0
    rng = random.Random(0)
    for pair in ("de-en", "ru-en"):
        data = load_pair("wmt22", pair, root=shared_data)
        docs = [data.reference[d.start:d.end] for d in data.documents if (pair, d.doc_id) in news]
        docs = [d for d in docs if len(d) >= 4][:20]
        shuffled = [[d[i] for i in shuffled_orders(len(d), 1, rng)[0]] for d in docs]
        ref, shuf = model.score_documents(docs), model.score_documents(shuffled)
        wins += sum(r > s for r, s in zip(ref, shuf))
        total += len(docs)
    assert total == 40
    assert wins / total >= 0.85
