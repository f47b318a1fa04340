"""The fine-tuning recipe: a few steps on a tiny Marian model with the markers added to its vocabulary, then the
fine-tuned model evaluated with gold markers on the bundled demo suite."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

from discotest.cli import main  # noqa: E402
from discotest.errors import InputError  # noqa: E402
from discotest.gender.augment import augment  # noqa: E402
from discotest.gender.coref.markers import MARKER_TOKENS  # noqa: E402
from discotest.gender.finetune import finetune, read_jsonl  # noqa: E402
from discotest.models.hf_models import load_seq2seq  # noqa: E402
from tests.support.cli_helpers import one_result
from tests.support.tiny_marian import build_tiny_marian  # noqa: E402

EN = ["The developer argued with the designer because she did not like the design .",
      "The mechanic gave the clerk a present because he won the lottery .",
      "The book is old and its cover is torn .", "It is raining ."]
DE = ["Die Entwicklerin stritt mit dem Designer , weil sie das Design nicht mochte .",
      "Der Mechaniker gab dem Angestellten ein Geschenk , weil er im Lotto gewonnen hatte .",
      "Das Buch ist alt und sein Einband ist zerrissen .", "Es regnet ."]


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_finetune_three_steps_then_evaluate_with_gold_markers(tmp_path, capsys):
    tiny = build_tiny_marian(tmp_path / "tiny", corpus_lines=(EN + DE) * 3)
    (tmp_path / "c.en").write_text("\n".join(EN) + "\n")
    (tmp_path / "c.de").write_text("\n".join(DE) + "\n")
    data = tmp_path / "train.jsonl"
    assert augment(tmp_path / "c.en", data, tmp_path / "c.de", markers=True, quiet=True).written == 3
    assert main(["finetune", "--model", str(tiny), "--data", str(data), "-o", str(tmp_path / "ft"), "--steps", "3",
                 "--batch-size", "2", "--lr", "1e-3", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["steps"] == 3 and report["added_tokens"] == len(MARKER_TOKENS) == 18
    assert report["first_loss"] > 0 and report["last_loss"] == report["last_loss"] < float("inf")
    model, tok = load_seq2seq(str(tmp_path / "ft"))
    vocab = tok.get_vocab()
    assert all(m in vocab for m in MARKER_TOKENS)
    assert model.get_input_embeddings().weight.shape[0] == len(tok)
    pieces = tok.tokenize("the <ENT1> book </ENT1> is old")
    assert "<ENT1>" in pieces and "</ENT1>" in pieces  # one token each, never split
    assert main(["run", "winomt-demo", "--lang", "de", "--model", str(tmp_path / "ft"), "--markers", "gold",
                 "--max-length", "24", "-q", "--format", "json"]) == 0
    result = one_result(capsys.readouterr().out)
    assert result["scores"]["n"] == 16 and "|markers:gold|" in result["signature"]


def test_finetune_bad_data(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"src": "a"}\n')
    with pytest.raises(InputError, match="bad.jsonl:1: missing field 'tgt'"):
        read_jsonl(bad)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(InputError, match="no training pairs"):
        finetune("unused", empty, tmp_path / "out")
