"""The models floor's one door: ``open_scorer``/``open_translator`` choose the backend from the user's options and give
it only the options it takes; the wings name no backend class; a scores file is a backend like the others."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from discotest.errors import InputError
from discotest.models.door import open_scorer
from discotest.models.interface import ScoreRequest
from discotest.models.scores_file import read_scores
from discotest.models.spec import ModelSpec

SRC = Path(__file__).resolve().parents[2] / "src" / "discotest"
WINGS = ("gender", "zero_pronoun", "contrastive", "winox", "dip")
BACKENDS = {"HFScorer", "CausalScorer", "CT2Scorer", "EndpointScorer", "ScoresFileScorer", "ModelTranslator",
            "CausalTranslator", "CT2Translator", "EndpointTranslator", "make_translator", "scorer_class"}
REQUESTS = [ScoreRequest("They are new.", ("Ils sont neufs .", "Elles sont neuves ."), ("The buildings are tall .",),
                         ("Les bâtiments sont hauts .",)),
            ScoreRequest("You came.", ("Ты пришла .", "Вы пришли .", "Вы"))]


def test_no_wing_names_a_backend():
    found = []
    for wing in WINGS:
        for path in (SRC / wing).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("discotest.models"):
                    found += [f"{path.relative_to(SRC)}: {a.name}" for a in node.names if a.name in BACKENDS]
    assert not found, found


def test_a_scores_file_is_a_backend(tmp_path):
    path = tmp_path / "scores.txt"
    path.write_text("-1.5\n-2\n0.25\n-0.5\n3\n", "utf-8")
    scorer = open_scorer(scores=path, losses=True)
    assert (scorer.kind, scorer.logprob_scores, scorer.takes_context) == ("scores-file", False, False)
    assert scorer.system_name(3) == "scores.txt" and scorer.signature_fields(0) == [("scores", "losses")]
    assert scorer.score_contexts(REQUESTS, [0, 2]) == [read_scores(path, REQUESTS, losses=True)] * 2
    assert scorer.score_items(REQUESTS) == [[1.5, 2.0], [-0.25, 0.5, -3.0]]
    assert len(scorer.fingerprint()) == 64
    with pytest.raises(InputError, match="one scorer at a time"):
        open_scorer(ModelSpec.of(model="some-model"), scores=path)
    with pytest.raises(InputError, match="give --scores FILE, --model"):
        open_scorer()
    with pytest.raises(InputError, match="cannot score plain continuations"):
        scorer.continuation_logprobs([[]], ["text"])


def test_the_door_chooses_the_backend_and_its_options(tiny_llms, tiny_llms_loaded, tmp_path, monkeypatch):
    """A decoder-only LLM folder opens the causal scorer (its config says so), given only the options it takes: a
    seq2seq ``separator`` and CTranslate2's ``compute_type`` are left out instead of failing; ``kind`` forces a
    backend. Through the door its scores are the backend's own."""
    pytest.importorskip("transformers")
    from discotest.models.causal_scorer import CausalScorer

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    model, tok = tiny_llms_loaded["qwen3"]
    spec = ModelSpec.of(model=str(tiny_llms["qwen3"]), src_lang="en", tgt_lang="fr", batch_size=2, use_cache=False,
                        quiet=True)
    scorer = open_scorer(spec, loaded=(model, tok), separator=" <sep> ", compute_type="int8")
    assert isinstance(scorer, CausalScorer) and scorer.kind == "causal" and scorer.batch_size == 2
    assert scorer.cannot_score() is None and scorer.logprob_scores
    direct = CausalScorer(str(tiny_llms["qwen3"]), model=model, tokenizer=tok, src_lang="en", tgt_lang="fr",
                          batch_size=2, use_cache=False, quiet=True)
    logprobs = scorer.logprobs(REQUESTS, [0, 1])
    assert logprobs == direct.logprobs(REQUESTS, [0, 1])
    assert [[n for _, n in row] for row in logprobs[0]] == [[len(c) for c in e.candidates] for e in
                                                          (direct.encode(direct.item_prompt(r, 0), r.candidates)
                                                           for r in REQUESTS)]
    mean = open_scorer(spec, loaded=(model, tok), normalise=True).score_items(REQUESTS, 1)
    assert mean == [[s / n for s, n in row] for row in logprobs[1]]
    with pytest.raises(InputError, match="unknown scorer kind"):
        open_scorer(spec, kind="bert")


def test_a_scores_file_through_the_door_answers_as_itself(tmp_path):
    """``open_scorer(scores=FILE)``: the file's scorer, its scores per candidate in order; a file of too few scores
    is one line naming it."""
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text("1\n2\n3\n4\n5\n")
    bad.write_text("1\n")
    scorer = open_scorer(scores=good)
    assert scorer.kind == "scores-file" and scorer.name == str(good) and not scorer.takes_context
    assert scorer.score_contexts(REQUESTS, [0]) == [[[1.0, 2.0], [3.0, 4.0, 5.0]]]
    assert open_scorer(scores=good).score_items(REQUESTS) == [[1.0, 2.0], [3.0, 4.0, 5.0]]
    with pytest.raises(InputError, match="1 scores for 5 candidates"):
        open_scorer(scores=bad).logprobs(REQUESTS, [0])


def test_the_door_takes_a_model_one_way_its_spec():
    """A model is named to the door by its ``ModelSpec`` only: a name instead of the spec, or a model option as a
    keyword beside it (the door's old keyword form), is a TypeError saying how to write it, before anything loads."""
    from discotest.models.door import open_translator

    with pytest.raises(TypeError, match=r"takes the run's ModelSpec, not str 'some-model': write "
                                        r"open_translator\(ModelSpec.of\(model='some-model'"):
        open_translator("some-model", "de")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"open_scorer: give batch_size, src_lang in the ModelSpec"):
        open_scorer(ModelSpec.of(model="some-model"), batch_size=2, src_lang="en")
    with pytest.raises(TypeError, match=r"open_translator: give beam, runner in the ModelSpec"):
        open_translator(ModelSpec.of(model="some-model"), "de", beam=5, runner="ray")
