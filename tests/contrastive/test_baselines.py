"""MAJORITY and CO-OCCUR (gensim CBOW) on a training text written here."""

from __future__ import annotations

import random

import pytest

from discotest.contrastive.baselines import run_baseline
from discotest.contrastive.baselines.majority import Majority
from discotest.contrastive.baselines.text import differing_words, read_training_text, tokens
from discotest.data.contrastive_item import make_item
from discotest.errors import InputError


def test_tokens_and_differing_words():
    assert tokens("She's here, 母は") == ["she's", "here", "母", "は"]
    assert differing_words("They were tired .", ["He was tired ."]) == ["they", "were"]


def test_majority_prefers_the_frequent_pronoun():
    model = Majority.train(["he came . he left .", "she stayed ."])
    assert model.score(["She left .", "He left ."]) == [1.0, 2.0]


def test_majority_on_items(tmp_path):
    text = tmp_path / "corpus.en"
    text.write_text("he said hello\nhe left\nshe came\n")
    items = [make_item(0, src="s", correct="He left .", incorrect=["She left ."]),
             make_item(1, src="s", correct="She came .", incorrect=["He came ."])]
    scores, fields = run_baseline("majority", items, text)
    assert scores == [[2.0, 1.0], [1.0, 2.0]] and ("baseline", "majority") in fields


def test_cooccur_learns_pronoun_context(tmp_path):
    pytest.importorskip("gensim")
    from discotest.contrastive.baselines.cooccur import CoOccur

    rng = random.Random(0)
    fem, mas = ["dress", "skirt", "necklace", "handbag"], ["engine", "truck", "beard", "hammer"]
    verbs = ["wore", "bought", "liked", "found", "cleaned", "lost"]
    lines = [line for _ in range(400) for line in (f"she {rng.choice(verbs)} her {rng.choice(fem)}",
                                                   f"he {rng.choice(verbs)} his {rng.choice(mas)}")]
    model = CoOccur.train([("", line) for line in lines], epochs=50)
    items = [make_item(0, src="s", correct="She wore a dress .", incorrect=["He wore a dress ."]),
             make_item(1, src="s", correct="He fixed the engine .", incorrect=["She fixed the engine ."]),
             make_item(2, src="s", correct="He lost the hammer .", incorrect=["She lost the hammer ."])]
    assert all(s[0] > s[1] for s in model.score_items(items))
    assert model.describe() == "dim100-win5-ep50-seed1"
    text = tmp_path / "corpus.en"
    text.write_text("\n".join(lines) + "\n")
    _, fields = run_baseline("cooccur", items, text)  # the CLI path, default epochs
    assert ("baseline", "cooccur") in fields


def test_cooccur_source_and_target(tmp_path):
    pytest.importorskip("gensim")
    from discotest.contrastive.baselines.cooccur import CoOccur

    rng = random.Random(1)
    verbs = [("来た", "came"), ("寝た", "slept"), ("笑った", "laughed"), ("泣いた", "cried")]
    lines = []
    for _ in range(300):
        (ja, en), (ja2, en2) = rng.choice(verbs), rng.choice(verbs)
        lines += [f"母 は {ja} ||| she {en}", f"父 は {ja2} ||| he {en2}"]
    text = tmp_path / "corpus.ja-en"
    text.write_text("\n".join(lines) + "\n")
    pairs = read_training_text(text)
    assert pairs[0][0] == "母 は " + pairs[0][0].split()[-1] and pairs[0][1].startswith("she")
    model = CoOccur.train(pairs, with_source=True, epochs=100)
    # only the source tells the pronoun here: 母 (mother) goes with "she", 父 (father) with "he"
    items = [make_item(0, src="母", correct="She .", incorrect=["He ."]),
             make_item(1, src="父", correct="He .", incorrect=["She ."])]
    assert all(s[0] > s[1] for s in model.score_items(items))
    target_only = CoOccur.train(pairs, epochs=100)
    assert target_only.score_items(items) == [[0.0, 0.0], [0.0, 0.0]]  # no target word to go by


def test_baseline_errors(tmp_path):
    items = [make_item(0, src="s", correct="a", incorrect=["b"])]
    with pytest.raises(InputError, match="needs --train-text"):
        run_baseline("majority", items, None)
    empty = tmp_path / "e.txt"
    empty.write_text("\n")
    with pytest.raises(InputError, match="training text is empty"):
        run_baseline("majority", items, empty)


def test_baseline_scores_are_cached(tmp_path, monkeypatch):
    """A rerun on the same text and suite trains nothing; a changed text trains again."""
    pytest.importorskip("gensim")
    from discotest.contrastive.baselines import cooccur

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    text = tmp_path / "corpus.en"
    text.write_text("she wore her dress\nhe fixed his engine\n" * 20)
    items = [make_item(0, src="s", correct="She wore a dress .", incorrect=["He wore a dress ."])]
    trained = []
    real_train = cooccur.CoOccur.train.__func__

    def counting_train(cls, *args, **kwargs):
        trained.append(1)
        return real_train(cls, *args, **kwargs)

    monkeypatch.setattr(cooccur.CoOccur, "train", classmethod(counting_train))
    first = run_baseline("cooccur", items, text)
    second = run_baseline("cooccur", items, text)
    assert first == second and len(trained) == 1
    run_baseline("cooccur", items, text, use_cache=False)
    assert len(trained) == 2
    text.write_text("she wore her dress\n" * 20)
    run_baseline("cooccur", items, text)
    assert len(trained) == 3
