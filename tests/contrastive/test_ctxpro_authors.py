"""CTXPRO's expected-word score as the authors compute it (issue 24): their ``ctxpro score`` (PyPI ``ctxpro`` 0.0.5,
a dev dependency) run on DeepL's released outputs for the auxiliary en-de test set, beside ``discotest run``: the
same verdict on every one of the 3,180 items and the same printed figure (40.0 with context, 7.8 without; discotest
read 36.38 with context while it cut the last sentence with a regex)."""

from __future__ import annotations

import argparse
import json

import pytest

from discotest.cli import main

ctxpro_score = pytest.importorskip("ctxpro.score")
SUITE = "ctxpro-auxiliary-en-de-test"


def _authors(capsys, translations, evalset, complete: bool = False) -> str:
    ctxpro_score.score(argparse.Namespace(translations=str(translations), eval_set=str(evalset), lang="de",
                                          pretty=False, complete=complete))
    return capsys.readouterr().out


@pytest.mark.parametrize(("kind", "printed"), [("contexts", "40.0"), ("sentences", "7.8")])
def test_discotest_gives_the_authors_figure_and_verdicts(capsys, shared_data, tmp_path, kind, printed):
    from sentence_splitter import SentenceSplitter

    outputs = shared_data / "ctxpro/paper/outputs" / f"deepl.auxiliary.opensubtitles.en-de.test.{kind}"
    evalset = shared_data / "ctxpro/release/evalsets/auxiliary.opensubtitles.en-de.test.json"
    assert _authors(capsys, outputs, evalset).strip() == printed
    details = tmp_path / "d.jsonl"
    assert main(["-q", "run", SUITE, "--data-dir", str(shared_data), "--input", str(outputs), "-f", "json",
                 "--details", str(details)]) == 0
    result = json.loads(capsys.readouterr().out)["results"][0]
    assert f"{result['scores']['overall']['accuracy']:.1f}" == printed
    assert "|split:sentence-splitter-1.4|" in result["signature"]
    # item by item, with the authors' own functions
    splitter = SentenceSplitter(language="de")
    refs = json.loads(evalset.read_text("utf-8"))
    theirs = [ctxpro_score.passes_test(ctxpro_score.get_last(line.strip(), splitter), ref["expected"])
              for line, ref in zip(outputs.read_text("utf-8").splitlines(), refs)]
    ours = [json.loads(line)["correct"] for line in details.read_text("utf-8").splitlines()]
    assert len(ours) == len(theirs) == 3180 and ours == theirs
    # and rule by rule, as their --complete prints it
    rules = {}
    for line in _authors(capsys, outputs, evalset, complete=True).splitlines()[:-1]:
        name, correct, total, _ = line.split("\t")
        rules[name.split(" (")[0]] = (int(correct), int(total))
    by_rule = result["scores"]["by_phenomenon"]
    assert {rule: (round(v["accuracy"] * v["n"] / 100), v["n"]) for rule, v in by_rule.items()} == rules


def test_the_dialogue_segment_is_kept_whole():
    """The case the regex got wrong: a subtitle segment of two turns is one sentence for the authors' splitter."""
    from discotest.contrastive.ctxpro import contains_expected, last_sentence

    segment = "Schmeckt immer besser, wenn's umsonst ist. - Ja, ein bisschen schon."
    assert last_sentence(segment, "de") == segment
    assert contains_expected(segment, "ist", "de")
