"""``run dip --pair PAIR --model PATH``: a tiny Marian model the session builds translates a narrow slice of the real
WMT22 de-en source; its result is named after the model, scored exactly as the same translations given with
``--input`` are, translated once (a second run finds every line in the cache), and with ``--limit`` only the sampled
items' documents are translated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import discotest
from discotest.dip.documents import load_pair
from discotest.dip.model import document_lines
from discotest.dip.run import mine_tests, sampled_tests
from tests.support.cli_helpers import run_cli

pytest.importorskip("spacy")

SLICE = {"pair": "de-en", "data": "wmt22", "max_docs": 3, "system": "LT22,Online-B",
         "phenomena": "lexical,connectives"}
MODEL = {"max_length": 12, "beam": 1}


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def _model_result(results, tiny_marian: Path):
    own = [r for r in results if r.system == f"{tiny_marian.name}@ctx0"]
    assert len(own) == 1 and own[0].holdout
    return own[0]


@pytest.mark.parametrize("limit", [None, 5])
def test_a_models_row_is_the_run_of_its_translations(tiny_marian, shared_data, tmp_path, monkeypatch, limit):
    from discotest.models.translator import ModelTranslator

    calls = []
    generate = ModelTranslator.generate
    monkeypatch.setattr(ModelTranslator, "generate", lambda self, batch: calls.append(len(batch)) or generate(
        self, batch))
    results = discotest.run("dip", model=str(tiny_marian), limit=limit, quiet=True, **SLICE, **MODEL).results
    model = _model_result(results, tiny_marian)
    assert [r.system for r in results if not r.holdout] == ["LT22", "Online-B"]
    signature = model.signature.format()
    assert "|model:" in signature and "|model_hash:" in signature and "|beam:1|max_len:12|context:0" in signature
    lines = list(model.texts.system)
    pair = load_pair("wmt22", "de-en", "A", str(shared_data), systems=["LT22", "Online-B"], max_docs=3)
    translated = [i for i, line in enumerate(lines) if line]
    if limit:  # only the documents of the sampled items: the rest of the slice is left empty, and has no BLEU
        tests, _ = mine_tests(pair, phenomena=["lexical", "connectives"])
        needed = document_lines(pair, sampled_tests(tests, limit))
        assert set(translated) <= set(needed) and sum(calls) == len(needed) < sum(len(d.lines) for d in pair.documents)
        assert model.bleu is None and f"|limit:{limit}|" in signature
    else:
        assert sum(calls) == sum(len(d.lines) for d in pair.documents) and model.bleu is not None
    assert translated and all(lines[i] for i in translated)
    from discotest.models.door import open_translator  # each line is its own source's translation (by the cache)
    from discotest.models.spec import ModelSpec
    translator = open_translator(ModelSpec.of(model=str(tiny_marian), quiet=True, **MODEL), "en", src_lang="de")
    assert translator.translate([pair.source[i] for i in translated[-3:]]) == [lines[i] for i in translated[-3:]]
    # the same translations as a file, given with --input: the same items, the same numbers
    mine = tmp_path / "mine.en"
    mine.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    given = discotest.run("dip", input=str(mine), limit=limit, skip_language_check=True, quiet=True,
                          **SLICE).results
    as_file = next(r for r in given if r.system == "mine.en")
    assert {p: s.value for p, s in as_file.scores.items()} == {p: s.value for p, s in model.scores.items()}
    assert [s.stats for s in as_file.scores.values()] == [s.stats for s in model.scores.values()]
    # a second run translates nothing: every line is in the translation cache
    calls.clear()
    again = discotest.run("dip", model=str(tiny_marian), limit=limit, quiet=True, **SLICE, **MODEL).results
    assert not calls and _model_result(again, tiny_marian).signature == model.signature
    assert {p: s.value for p, s in _model_result(again, tiny_marian).scores.items()} == \
        {p: s.value for p, s in model.scores.items()}


def test_model_with_input_or_tests_is_refused_in_one_line(tiny_marian, tmp_path, capsys):
    hyp = tmp_path / "h.en"
    hyp.write_text("x\n", encoding="utf-8")
    for extra in (["--pair", "de-en", "--input", str(hyp)], ["--tests", str(tmp_path)]):
        code, out, err = run_cli(capsys, "run", "dip", "--model", str(tiny_marian), *extra, "-q")
        assert code == 2 and len(err.strip().splitlines()) == 1 and "--model" in err, err
        assert "Traceback" not in err


def test_json_names_the_models_result(tiny_marian, capsys):
    code, out, _ = run_cli(capsys, "run", "dip", "--pair", "de-en", "--max-docs", "2", "--systems", "LT22",
                           "--phenomena", "lexical", "--model", str(tiny_marian), "--max-length", "12", "--beam", "1",
                           "--format", "json", "-q")
    assert code == 0
    systems = [r["system"] for r in json.loads(out)["results"]]
    assert systems.count(f"{tiny_marian.name}@ctx0") == 1 and "LT22" in systems


def test_the_model_is_asked_once_the_items_are_mined_and_before_any_is_scored(tiny_marian, shared_data,
                                                                               monkeypatch):
    """``run dip --model`` in its phases (``Family.cpu_stage``, ``requests``, ``score``): parsing and mining ask the
    model nothing; its requests are the sampled items' documents' lines, in line order, each source with its
    context (none for a seq2seq model); the phases run apart give the run's results."""
    from discotest import families
    from discotest.models.requests import TranslateRequest
    from discotest.models.translator import ModelTranslator
    from discotest.registry import family_of, settings_for

    calls = []
    generate = ModelTranslator.generate
    monkeypatch.setattr(ModelTranslator, "generate", lambda self, batch: calls.append(len(batch)) or generate(
        self, batch))
    assert families.has_phases("dip")
    phased = families.ask("dip", settings_for(family_of("dip"), dict(model=str(tiny_marian), limit=5, quiet=True,
                                                                     **SLICE, **MODEL)))
    assert not calls
    pair = load_pair("wmt22", "de-en", "A", str(shared_data), systems=["LT22", "Online-B"], max_docs=3)
    tests, _ = mine_tests(pair, phenomena=["lexical", "connectives"])
    needed = document_lines(pair, sampled_tests(tests, 5))
    (ask,) = phased.asked.asks
    assert ask.requests == tuple(TranslateRequest(pair.source[i], (), "en") for i in needed)
    report = families.scored(phased, families.answered(phased))
    assert sum(calls) == len(needed)
    whole = discotest.run("dip", model=str(tiny_marian), limit=5, quiet=True, **SLICE, **MODEL).results
    assert sum(calls) == len(needed)  # the second run's translations all come from the cache
    assert [r.signature for r in report.results] == [r.signature for r in whole]
    assert [[s.stats for s in r.scores.values()] for r in report.results] == \
        [[s.stats for s in r.scores.values()] for r in whole]
