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
from tests.support.wmt_fakes import fake_pair


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


# ---------------------------------------------------------------------------------------------------------------
# out-of-sample checks (coherence_eval) and the order model, on hand-made documents


def test_order_free_features_do_not_move_under_any_shuffle():
    """ORDER_SENSITIVE lists every feature that can change with the sentence order: all others must be equal for
    all 24 orders of a four-sentence document (the LM feature included), and the order-sensitive ones must move.
    "Equal" up to float rounding: the LM feature sums per-sentence log-probabilities in document order, so its last
    bits move (the evaluation counts score differences within 1e-12 as ties)."""
    from itertools import permutations

    from discotest.dip.coherence import ALL_FEATURES, ORDER_SENSITIVE
    from discotest.dip.ngram_lm import KneserNeyLM, normalise

    doc = ["Storm hits coast", "The storm destroyed a house.", "Its owner, a farmer, was not hurt.",
           "However, a house nearby also lost its roof."]
    lm = KneserNeyLM().fit(normalise(s) for s in doc[:2])
    rows = features_of_documents([[doc[i] for i in order] for order in permutations(range(4))], lm=lm)
    assert rows[0]["lm_per_token"] != 0
    moved = {name for name in ALL_FEATURES if any(not math.isclose(row[name], rows[0][name], rel_tol=1e-12)
                                                  for row in rows)}
    assert moved <= set(ORDER_SENSITIVE)
    assert {"adjacent_gain_content", "headline_first", "connective_first", "pronoun_first", "continuity"} <= moved


def test_feature_groups_partition_the_features():
    from discotest.dip.coherence import ALL_FEATURES, FEATURE_GROUPS

    names = [n for group in FEATURE_GROUPS.values() for n in group]
    assert sorted(names) == sorted(ALL_FEATURES) and len(names) == len(set(names))


def _one_feature_model(name: str, coef: float) -> CoherenceModel:
    return CoherenceModel([name], [1.0], [coef])


def test_shuffled_document_evaluation(tmp_path, monkeypatch):
    from discotest.dip import coherence_eval as ev

    # d1 opens with a headline; its 5 other orders are all drawn (shuffles=5). A model that only rewards a headline
    # in first place beats 4 of them and ties with [0, 2, 1], which keeps the headline first. d2 (2 lines) is too
    # short to shuffle and gives no pair.
    docs = [("d1", ["Storm hits coast", "The winds were strong.", "Thousands fled."]),
            ("d2", ["Prices rose.", "They fell later."])]
    _fake_collection(monkeypatch, tmp_path, "wmt22", "de-en", docs, {"X": ["a."] * 5})
    pf = pair_features(load_pair("wmt22", "de-en", root=tmp_path), shuffles=5, seed=0)
    assert [len(s) for s in pf.shuffled] == [5, 0]
    pairs = ev.shuffle_pairs(pf)
    assert len(pairs) == 5 and all(better is pf.reference[0] for better, _ in pairs)
    assert ev.tally(_one_feature_model("headline_first", 1.0), pairs) == ev.Tally(5, 4, 1)
    # a model of order-free features only cannot tell a document from its shuffles: all ties
    assert ev.tally(_one_feature_model("len_mean_log", 1.0), pairs) == ev.Tally(5, 0, 5)
    # the DiP task pairs: the reference against system X, once per document
    assert [(b, w) for b, w in ev.reference_pairs(pf)] == list(zip(pf.reference, pf.systems["X"]))


def _write_da(path, scores: dict[str, dict[int, float]]) -> None:
    rows = ["SYS SID RAW.SCR Z.SCR N "] + [f"{system}.{k} {line + 1} 50 {z} 1 " for k, (system, by_line)
                                           in enumerate(scores.items()) for line, z in by_line.items()]
    path.write_text("\n".join(rows) + "\n", "utf-8")


def test_mt_vs_mt_pairs_follow_the_human_scores(tmp_path, monkeypatch):
    from discotest.dip import coherence_eval as ev

    docs = [("d1", ["Anna met Tom.", "She liked him.", "They married."]), ("d2", ["Prices rose."]),
            ("d3", ["It rained.", "Roads flooded."])]
    systems = {"A": ["Anna met Tom.", "She liked him.", "They married.", "Prices rose.", "It rained.",
                     "Roads flooded."],
               "B": ["Anna met Tom.", "", "They married.", "", "It rained.", "Roads flooded."],
               "C": ["", "", "They married.", "Prices rose.", "", "Roads flooded."]}
    _fake_collection(monkeypatch, tmp_path, "wmt22", "de-en", docs, systems)
    data = load_pair("wmt22", "de-en", root=tmp_path)
    pf = pair_features(data)
    # z-scored DA per 0-based line (lines 0-2 d1, 3 d2, 4-5 d3); B has no score for line 5; HUMAN-B is no system
    _write_da(tmp_path / "da.csv", {"A": {0: 0.5, 1: 0.5, 2: 0.5, 3: 1.0, 4: 0.0, 5: 0.0},
                                    "B": {0: 0.0, 1: -1.0, 2: 0.0, 3: -2.0, 4: 0.2},
                                    "C": {0: -0.5, 1: 0.0, 2: 3.0, 3: 0.0, 4: -1.0, 5: -1.0},
                                    "HUMAN-B": {0: 1.0}})
    da = ev.read_da_scores(tmp_path / "da.csv")
    assert set(da) == {"A", "B", "C", "HUMAN-B"} and da["B"] == {0: 0.0, 1: -1.0, 2: 0.0, 3: -2.0, 4: 0.2}
    pairs = ev.human_pairs(pf, data.documents, da, margin=0.5)
    # d1 means: A 0.5, B -1/3, C 5/6 → A > B (0.83) and C > B (1.17); A vs C differ by 1/3 < 0.5: no pair.
    # d2 has one line: no coherence to compare, although A and B differ by 3.
    # d3: A and B share only line 4 (< 2 segments), B and C too; A (0) > C (-1) over lines 4-5.
    sys = pf.systems
    assert pairs == [(sys["A"][0], sys["B"][0]), (sys["C"][0], sys["B"][0]), (sys["A"][2], sys["C"][2])]
    # a model that penalises empty lines (B 1/3, C 2/3 of d1; C 1/2 of d3) agrees on A>B (d1) and A>C (d3), and
    # disagrees on C>B (d1), where people preferred C for its one good line
    model = _one_feature_model("empty_rate", -1.0)
    assert ev.tally(model, pairs) == ev.Tally(3, 2, 0)
    # margin 0 adds C > A on d1 (1/3 apart), which the model gets wrong (A has no empty line): 4 pairs, 2 wins
    assert ev.tally(model, ev.human_pairs(pf, data.documents, da, margin=0.0)) == ev.Tally(4, 2, 0)
    # systems over d1 and d3: model means A 0 > B -1/6 > C -7/12; DA means A 0.3 > C 0.1 > B -0.2 → τ_b = (2-1)/3
    tau, n = ev.system_tau(model, pf, data.documents, da)
    assert n == 3 and tau == pytest.approx(1 / 3)


def test_da_segment_ids_follow_documents_sorted_by_id(tmp_path):
    from discotest.dip.coherence_eval import read_da_scores, sid_lines

    # lines 0-1 are document "b", line 2 "a", line 3 "c": sorted by id, SID 1 is line 2, SIDs 2-3 lines 0-1,
    # SID 4 line 3
    lines = sid_lines(["b", "b", "a", "c"])
    assert lines == [2, 0, 1, 3]
    (tmp_path / "da.csv").write_text("SYS SID RAW.SCR Z.SCR N\nA.1 1 50 0.1 1\nA.1 4 50 0.4 1\n", "utf-8")
    assert read_da_scores(tmp_path / "da.csv", lines) == {"A": {2: 0.1, 3: 0.4}}
    (tmp_path / "da.csv").write_text("SYS SID RAW.SCR Z.SCR N\nA.1 5 50 0.1 1\n", "utf-8")
    with pytest.raises(InputError, match=r"segment id 5 outside 1\.\.4"):
        read_da_scores(tmp_path / "da.csv", lines)


def test_da_reader_rejects_bad_rows(tmp_path):
    from discotest.dip.coherence_eval import read_da_scores

    bad = tmp_path / "da.csv"
    bad.write_text("SYS SID RAW.SCR Z.SCR N\nA.1 2 50 0.1 1\nA.1 x 50 0.1 1\n", "utf-8")
    with pytest.raises(InputError, match="malformed DA row") as info:
        read_da_scores(bad)
    assert info.value.line == 3
    bad.write_text("SYS SID RAW.SCR Z.SCR N\nA.1 2 50 0.1 1\nA.2 2 50 0.3 1\n", "utf-8")
    with pytest.raises(InputError, match="second score for A segment 2"):
        read_da_scores(bad)
    bad.write_text("system score\n", "utf-8")
    with pytest.raises(InputError, match="not a WMT DA segment score file"):
        read_da_scores(bad)


def test_decompose_by_feature_group():
    from discotest.dip.coherence_eval import decompose, tally

    # score = 2·length − 1·lm; Δ = score(better) − score(worse) per pair, split into its length and LM terms:
    # p1 (2, 0), p2 (0, +1), p3 (−2, −1) → Δ = 2, 1, −3; Σ Δ² = 14; length share (4 + 0 + 6)/14, LM (0 + 1 + 3)/14
    model = CoherenceModel(["len_mean_log", "lm_per_token"], [1.0, 1.0], [2.0, -1.0])
    row = lambda length, lm: {"len_mean_log": length, "lm_per_token": lm}  # noqa: E731
    pairs = [(row(1, 0), row(0, 0)), (row(0, 0), row(0, 1)), (row(0, 1), row(1, 0))]
    parts = decompose(model, pairs)
    assert set(parts) == {"length", "lm"}  # groups the model does not use are left out
    assert parts["length"]["share"] == pytest.approx(10 / 14) and parts["lm"]["share"] == pytest.approx(4 / 14)
    # restricted to one group, each side wins one pair of three (p1 by length, p2 by LM); the whole model two
    assert parts["length"]["accuracy"] == parts["lm"]["accuracy"] == pytest.approx(1 / 3)
    assert tally(model, pairs).accuracy == pytest.approx(2 / 3)


def test_order_model_trains_on_shuffles_alone(tmp_path, monkeypatch):
    """The order model on a hand-made WMT21: only reference-vs-shuffle pairs, only order-sensitive features, its own
    signature and cache entry, and a JSON round trip that keeps which model it is."""
    docs = [("d1", ["Storm hits coast", "The storm destroyed a house.", "Its owner was not hurt.",
                    "However, the house nearby lost its roof."]),
            ("d2", ["Markets fell", "Stocks dropped in Tokyo.", "Then they recovered.", "Analysts were surprised."])]
    lines = [line for _, doc in docs for line in doc]
    for pair in PAIRS["wmt21"]:
        _fake_collection(monkeypatch, tmp_path, "wmt21", pair, docs, {"X": lines[::-1]})
    model = load_coherence_model(tmp_path, kind="order")
    assert model.feature_names == coherence.ORDER_FEATURES and model.signature().startswith("coherence-order-v1@")
    assert model.info["train_pairs"] == 0 and model.info["shuffle_pairs"] > 0
    # both documents open with a headline, which most shuffles move away: the model learns to reward it, and its
    # training accuracy is measured on the shuffles it trained on
    assert model.coef[model.feature_names.index("headline_first")] > 0
    assert all(acc > 0.5 for acc in model.info["train_accuracy"].values())
    assert "references-only" in coherence._files_key(tmp_path, "wmt21", None, "order")  # not the egrid's entry
    again = CoherenceModel.from_json(model.to_json())
    assert again.version == "coherence-order-v1" and again.signature() == model.signature()
    with pytest.raises(InputError, match="unknown coherence model 'grid'"):
        load_coherence_model(tmp_path, kind="grid")
    with pytest.raises(InputError, match="coherence model version 'v9' is not one of"):
        CoherenceModel.from_json('{"version": "v9", "feature_names": [], "scale": [], "coef": []}')


def test_coherence_model_option_reaches_the_loader(monkeypatch):
    from discotest.dip import family as family
    from discotest.dip import run as dip
    from discotest.registry import checked_settings
    from discotest.registry.options import DATA_DIR, QUIET

    seen = []
    monkeypatch.setattr(dip, "load_coherence", lambda data_dir, use_cache, kind: seen.append(kind))
    settings = checked_settings((*family.MINE_OPTIONS, DATA_DIR, QUIET), {"coherence_model": "order", "quiet": True},
                                "mine dip")  # what ``discotest.mine`` gives the family
    family.load_models(settings, ["coherence"], pronoun=False)
    assert seen == ["order"] and family.COHERENCE_MODEL in family.MINE_OPTIONS
    assert tuple(coherence.MODELS) == family.COHERENCE_MODELS
