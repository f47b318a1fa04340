"""Verdicts, metrics, the scores file, --compare and the CLI's one-line errors for contrastive suites."""

from __future__ import annotations

import json

import pytest

from discotest.cli import main
from discotest.contrastive.judge import accuracy, judge_scores, score_contrastive
from discotest.contrastive.run import evaluate
from discotest.contrastive.suites import load_suite
from discotest.data.contrastive_item import make_item
from discotest.errors import InputError
from discotest.models.scores_file import read_scores
from discotest.report.comparison import compare_results
from tests.support.cli_helpers import results_of


def _item(i, d, pair="he>she", n=2, correct=0):
    return make_item(i, src="s", candidates=[f"c{j}" for j in range(n)], correct_index=correct, distance=d,
                     pair=pair, phenomenon="zp")


def test_ties_are_not_wins_and_argmax_is_reported():
    item = _item(0, 1, n=3, correct=1)
    assert judge_scores(item, [0.1, 0.5, 0.2]).correct
    assert not judge_scores(item, [0.5, 0.5, 0.2]).correct
    assert judge_scores(item, [0.9, 0.5, 0.2]).chosen == 0


def test_metrics_by_distance_and_pair():
    items = [_item(i, i % 2, pair="he>she" if i < 4 else "it>they") for i in range(8)]
    verdicts = [judge_scores(it, [1, 0] if i in (0, 1, 2, 5) else [0, 1]) for i, it in enumerate(items)]
    scores = score_contrastive(verdicts, n_bootstrap=200)
    assert scores.overall.accuracy == 50.0 and scores.overall.n == 8
    assert {k: v.accuracy for k, v in scores.by_distance.items()} == {"0": 50.0, "1": 50.0}
    assert {k: v.accuracy for k, v in scores.by_pair.items()} == {"he>she": 75.0, "it>they": 25.0}
    assert 0 < scores.overall.ci < 50


def test_bootstrap_ci_shrinks_with_n():
    assert accuracy([True, False] * 500, 300).ci < accuracy([True, False] * 10, 300).ci


def test_compare_uses_paired_tests():
    items = [_item(i, 1) for i in range(40)]
    a = [judge_scores(it, [1, 0]) for it in items]
    b = [judge_scores(it, [1, 0] if i < 10 else [0, 1]) for i, it in enumerate(items)]
    results = [evaluate("test", items, [v.scores for v in verdicts], name, n_bootstrap=300)
               for verdicts, name in ((a, "ctx3"), (b, "ctx0"))]
    c = compare_results(*results, n_bootstrap=300).metrics[0]
    assert (c.score_a, c.score_b, c.sign.wins_a, c.sign.wins_b) == (100.0, 25.0, 30, 0)
    assert c.sign.p_value < 0.001 and c.bootstrap.p_value < 0.01


def test_scores_file_order_losses_and_errors(tmp_path):
    items = [_item(0, 1), _item(1, 2, n=3)]
    path = tmp_path / "s.txt"
    path.write_text("1\n2\n3\n4\n5\n")
    assert read_scores(path, items) == [[1, 2], [3, 4, 5]]
    assert read_scores(path, items, losses=True) == [[-1, -2], [-3, -4, -5]]
    path.write_text("1\n2\n3\n")
    with pytest.raises(InputError, match="3 scores for 5 candidates of 2 items"):
        read_scores(path, items)
    path.write_text("1\nx\n3\n4\n5\n")
    with pytest.raises(InputError) as err:
        read_scores(path, items)
    assert err.value.line == 2
    path.write_text("1\t-0.3 first candidate\n2\n3\n4 4.5\n5\n")  # a second number on a line is not ignored
    with pytest.raises(InputError, match="one number") as err:
        read_scores(path, items)
    assert err.value.line == 4


def test_cli_voita_deixis_with_scores_prints_accuracy_by_distance(shared_data, tmp_path, capsys):
    items = load_suite("voita-deixis", shared_data)
    # a scores file where exactly the d = 2 items are right (losses: lower is better)
    lines = [str(0.0 if (j == it.correct_index) == (it.distance == 2) else 1.0)
             for it in items for j in range(len(it.candidates))]
    scores = tmp_path / "losses.txt"
    scores.write_text("\n".join(lines) + "\n")
    details = tmp_path / "d.jsonl"
    assert main(["run", "voita-deixis", "--scores", str(scores), "--scores-are-losses", "--details", str(details),
                 "--data-dir", str(shared_data)]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines() if line.strip().startswith("d=")}
    assert "accuracy 33.84" in out and rows == {"d=1": "0.00", "d=2": "100.00", "d=3": "0.00"}
    assert "suite:voita-deixis|version:current|lang:en-ru|" in out and "|n:2500|scores:losses|" in out
    first = json.loads(details.read_text().splitlines()[0])
    assert first["row"] == 0 and first["distance"] == 3 and first["correct"] is False
    assert main(["run", "voita-deixis", "--scores", str(scores), "--format", "json",
                 "--data-dir", str(shared_data)]) == 0
    data = results_of(capsys.readouterr().out)
    assert data[0]["scores"]["by_distance"]["2"]["accuracy"] == 0.0  # higher-better reading flips it


def test_cli_compare_two_scores(tmp_path, capsys):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    n = len(load_suite("jazp"))
    a.write_text("1\n0\n" * n)
    b.write_text("0\n1\n" * n)
    assert main(["run", "jazp", "--scores", str(a), "--baseline", "majority", "--train-text", str(a), "-q"]) == 0
    capsys.readouterr()
    (tmp_path / "corpus.en").write_text("she said he was here and she left .\n")
    assert main(["run", "jazp", "--scores", str(a), "--baseline", "majority", "--train-text",
                 str(tmp_path / "corpus.en"), "--compare"]) == 0
    out = capsys.readouterr().out
    assert "bootstrap p" in out and "sign p" in out and "A = a.txt, B = majority" in out


@pytest.mark.parametrize("argv, message", [
    (["run", "voita-deixis"], "give --scores FILE, --model"),
    (["run", "jazp", "--baseline", "majority"], "--baseline needs --train-text"),
    (["run", "voita-deixis", "--system", "x"], "no published system 'x'"),
    (["run", "ctxpro-auxiliary-en-de-test", "--scores", "x"], "give --input"),
    (["run", "winox-mt", "--scores", "x"], "give it with --suite-file"),
])
def test_cli_bad_input_is_one_line(shared_data, capsys, argv, message):
    assert main([*argv, "--data-dir", str(shared_data)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_mismatched_scores(shared_data, tmp_path, capsys):
    path = tmp_path / "short.txt"
    path.write_text("1\n2\n")
    assert main(["run", "bawden-anaphora", "--scores", str(path), "--data-dir", str(shared_data)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: 2 scores for 400 candidates of 200 items" in err and err.count("\n") == 1


def test_cli_ctxpro_expected_word_on_deepl_outputs(shared_data, capsys):
    outputs = shared_data / "ctxpro/paper/outputs"
    accs = []
    for kind in ("sentences", "contexts"):
        assert main(["run", "ctxpro-auxiliary-en-de-test", "--format", "json", "--data-dir", str(shared_data),
                     "--input", str(outputs / f"deepl.auxiliary.opensubtitles.en-de.test.{kind}")]) == 0
        accs.append(results_of(capsys.readouterr().out)[0]["scores"]["overall"]["accuracy"])
    assert accs == [7.83, 40.0]  # context helps DeepL with VP ellipsis; the authors print 7.8 and 40.0
    assert main(["run", "ctxpro-auxiliary-en-de-test", "--system", "deepl-contexts", "--format", "json",
                 "--data-dir", str(shared_data)]) == 0
    assert results_of(capsys.readouterr().out)[0]["scores"]["overall"]["accuracy"] == 40.0
