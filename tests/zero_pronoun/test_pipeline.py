"""The AZPT pipeline end to end on a tiny hand-made mZPRT with a dictionary aligner (known links),
the input layouts, the renderers, and the bad-input cases."""

from __future__ import annotations

import json

import pytest

import discotest
from discotest.data import catalogue
from discotest.errors import InputError
from discotest.lang.align.base import WordAligner
from discotest.report.emit import Report, write_jsonl
from discotest.zero_pronoun.hypotheses import english_words
from discotest.zero_pronoun.mzprt import DOMAINS
from discotest.zero_pronoun.result import rank_agreement, rank_agreement_json, render_azpt_table
from discotest.zero_pronoun.run import run_mzprt
from tests.support.cli_helpers import valid_report

LEXICON = {
    "我": "i", "你": "you", "他": "he", "它": "it", "觉得": "think", "很": "very", "好": "good", "喜欢": "like",
    "猫": "cats", "说": "said", "来": "come", "吗": "?", "我的": "my", "书": "book",
}


class DictionaryAligner(WordAligner):
    """Links a source word to the first free target word its dictionary entry names: known links."""

    name = "dictionary"

    def __init__(self):
        self.calls = 0

    def signature(self) -> str:
        return "dictionary-1"

    def align(self, pairs):
        self.calls += 1
        out = []
        for src, tgt in pairs:
            used, links = set(), set()
            for i, word in enumerate(src):
                j = next((j for j, t in enumerate(tgt) if j not in used and t.lower() == LEXICON.get(word)), None)
                if j is not None:
                    used.add(j)
                    links.add((i, j))
            out.append(frozenset(links))
        return out


QA_ZH = "[doc]\n<我>_S觉得它很好\n我喜欢猫\n[doc]\n<他>_S说<你>_O很好\n<它>_UN好\n"
QA_EN = "[doc]\nI think it is very good\nI like cats\n[doc]\nHe said you are very good\nGood\n"
OTHER_ZH = "[doc]\n<我>_S来\n"
OTHER_EN = "[doc]\nI come\n"


@pytest.fixture()
def tiny(tmp_path, monkeypatch):
    """A data dir with the registry's layout: QA as above, the other domains one sentence each (hand-made files at
    pinned paths, so modified data is allowed)."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv(catalogue.ALLOW_MODIFIED_ENV, "1")
    root = tmp_path / "data"
    for domain in DOMAINS:
        texts = (QA_ZH, QA_EN) if domain == "QA" else (OTHER_ZH, OTHER_EN)
        for lang, text in zip(("zh", "en"), texts):
            path = root / catalogue.get_source(f"mzprt-{domain}-{lang}").path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return root


def _hyp(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = ["I think it very good", "I like cats", "He said you are very good", "Good"]
DROPPED = ["think it very good", "I like cats", "said very good you", "Good"]


def run(root, inputs, **kw):
    return run_mzprt(["QA"], inputs=inputs, data_dir=root, extra="none", aligner=DictionaryAligner(), **kw)


def test_scores_and_details_on_known_links(tiny, tmp_path):
    good, dropped = run(tiny, [_hyp(tmp_path, "good.en", GOOD), _hyp(tmp_path, "dropped.en", DROPPED)])
    assert (good.scores.n, good.scores.correct, good.scores.excluded_un) == (3, 3, 1)
    assert good.scores.accuracy == pytest.approx(100.0)
    assert good.scores.found_by == {"aligned": 3}
    # dropped: 我 unaligned at the start -> its right neighbour 觉得 ("think", 0) ± 1 has no "i";
    # 他 unaligned -> right neighbour 说 ("said", 0) ± 1: no "he"; 你 aligned to "you" (3) -> correct
    assert (dropped.scores.n, dropped.scores.correct) == (3, 1)
    by_zp = {v.pronoun: v for v in dropped.verdicts}
    assert by_zp["我"].found_by == "right-neighbour" and by_zp["我"].candidates == ["think", "it"]
    assert by_zp["他"].correct is False and by_zp["你"].matched == "you"
    assert by_zp["它"].correct is None and by_zp["它"].excluded == "UN"
    assert by_zp["我"].line == 2 and by_zp["他"].line == 5 and by_zp["他"].segment == 2
    assert by_zp["我"].labelled_source == ["我", "觉得", "它", "很", "好"] and by_zp["我"].zp_word == 0
    assert dropped.scores.by_form["S"].n == 2 and dropped.scores.by_pronoun["你"].correct == 1
    assert good.signature.get("domain") == "QA" and good.signature.get("aligner") == "dictionary-1"
    assert good.signature.get("window") == "1" and good.signature.get("system") == "good.en"


def test_the_window_widens_the_span(tiny, tmp_path, monkeypatch):
    monkeypatch.delitem(LEXICON, "我")  # 我 never aligned: its span comes from the right neighbour 觉得
    hyp = _hyp(tmp_path, "late.en", ["think very good it , i", "I like cats", "He said you are very good", "Good"])
    (narrow,) = run(tiny, [hyp], window=1)
    (wide,) = run(tiny, [hyp], window=5)
    first = [v for v in narrow.verdicts if v.pronoun == "我"][0]
    assert first.correct is False and first.span == [0, 1]
    assert [v for v in wide.verdicts if v.pronoun == "我"][0].correct is True


def test_reach_credits_an_unclaimed_pronoun_and_zero_turns_it_off(tiny, tmp_path, monkeypatch):
    monkeypatch.delitem(LEXICON, "我")
    hyp = _hyp(tmp_path, "r.en", ["think it , i very good", "I like cats", "He said you are very good", "Good"])
    (strict,) = run(tiny, [hyp])  # the default is the paper's rule
    (reaching,) = run(tiny, [hyp], reach=3)
    first = [v for v in reaching.verdicts if v.pronoun == "我"][0]
    assert [v for v in strict.verdicts if v.pronoun == "我"][0].correct is False
    assert first.correct and first.matched_by == "unclaimed" and first.matched_at == 3
    assert reaching.signature.get("reach") == "3" and strict.signature.get("reach") == "0"
    assert reaching.scores.matched_by == {"unclaimed": 1, "window": 2}


def test_raw_layout_with_doc_lines_gives_the_same_result(tiny, tmp_path):
    (plain,) = run(tiny, [_hyp(tmp_path, "a.en", GOOD)])
    raw_lines = ["[doc]", GOOD[0], GOOD[1], "whatever", GOOD[2], GOOD[3]]
    (raw,) = run(tiny, [_hyp(tmp_path, "b.en", raw_lines)])
    assert raw.layout == "raw-lines" and plain.layout == "all-segments"
    assert [v.correct for v in raw.verdicts] == [v.correct for v in plain.verdicts]


def test_empty_hypothesis_lines_are_allowed(tiny, tmp_path):
    (result,) = run(tiny, [_hyp(tmp_path, "e.en", ["", "I like cats", "", "Good"])])
    assert result.scores.correct == 0 and result.scores.found_by == {"none": 3}


def test_alignment_is_cached(tiny, tmp_path):
    aligner = DictionaryAligner()
    hyp = _hyp(tmp_path, "a.en", GOOD)
    run_mzprt(["QA"], inputs=[hyp], data_dir=tiny, extra="none", aligner=aligner)
    run_mzprt(["QA"], inputs=[hyp], data_dir=tiny, extra="none", aligner=aligner)
    assert aligner.calls == 1
    run_mzprt(["QA"], inputs=[hyp], data_dir=tiny, extra="none", aligner=aligner, use_cache=False)
    assert aligner.calls == 2


def test_the_datas_segmentation_is_kept_beside_the_models(tiny, tmp_path, monkeypatch):
    """jieba's segmentation of the suites' Chinese and the background (the same for everyone with the data) lives in
    ``$DISCOTEST_MODELS`` (cache.NAMESPACE_ENV): a run with a cache of its own segments nothing a run before it
    segmented there, and gives the same result; a fresh models folder segments again."""
    from discotest.zero_pronoun import segment_zh

    hyp = _hyp(tmp_path, "a.en", GOOD)
    segmented: list[str] = []
    real = segment_zh.segment_with_spans
    monkeypatch.setattr(segment_zh, "segment_with_spans", lambda text, spans: segmented.append(text)
                        or real(text, spans))
    results = []
    for cache_dir, models in (("one", "models"), ("two", "models"), ("three", "other-models")):
        monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / cache_dir))
        monkeypatch.setenv("DISCOTEST_MODELS", str(tmp_path / models))
        segmented.clear()
        results.append(run(tiny, [hyp])[0])
        assert bool(segmented) == (cache_dir != "two"), cache_dir
    assert (tmp_path / "models" / segment_zh.NAMESPACE).is_dir()
    assert not (tmp_path / "two" / segment_zh.NAMESPACE).exists()
    assert len({json.dumps(r.to_json(), sort_keys=True) for r in results}) == 1


def test_bleu_and_the_reference_as_a_system(tiny, tmp_path):
    results = run_mzprt(["QA"], systems=["reference"], inputs=[_hyp(tmp_path, "a.en", GOOD)], data_dir=tiny,
                        extra="none", aligner=DictionaryAligner(), bleu=True)
    reference, hyp = results
    assert reference.system == "reference" and reference.scores.accuracy == pytest.approx(100.0)
    assert reference.n_segments == 3  # the ZP sentences
    assert reference.bleu == pytest.approx(100.0) and 0 < hyp.bleu < 100
    assert "nrefs:1" in hyp.bleu_signature and hyp.bleu_signature.endswith("|sents:4")


def test_compare_two_inputs(tiny, tmp_path):
    report = discotest.compare("mzprt", domain="QA", input=[_hyp(tmp_path, "good.en", GOOD),
                               _hyp(tmp_path, "dropped.en", DROPPED)], data_dir=tiny, align_extra="none",
                               aligner=DictionaryAligner(), bootstrap=200, seed=1, quiet=True)
    (comparison,) = report.comparisons
    azpt, bleu = comparison.metrics
    assert (azpt.metric, azpt.n, azpt.score_a, azpt.score_b) == ("AZPT", 3, 100.0, pytest.approx(100 / 3))
    assert (azpt.sign.wins_a, azpt.sign.wins_b, azpt.sign.ties) == (2, 0, 1)
    assert azpt.sign.p_value == pytest.approx(0.5)  # 2 of 2 untied pairs: 2 · (1/2)^2
    assert bleu.metric == "BLEU" and bleu.n == 4 and bleu.score_a > bleu.score_b
    assert 0 < azpt.bootstrap.p_value <= 1 and azpt.bootstrap.seed == 1
    text = report.render("text")
    assert "A = good.en, B = dropped.en" in text and "AZPT" in text and "BLEU" in text
    doc = valid_report(report.render("json"))  # two results and their comparison, in the one schema
    assert doc["comparisons"][0]["metrics"][0]["sign_test"]["p"] == pytest.approx(0.5) and len(doc["results"]) == 2


def test_renderers(tiny, tmp_path):
    results = run(tiny, [_hyp(tmp_path, "good.en", GOOD), _hyp(tmp_path, "dropped.en", DROPPED)])
    results[0].released, results[1].released = 90.0, 40.0
    table = render_azpt_table(results)
    assert "good.en" in table and "+10.0" in table and "Kendall" in table
    assert rank_agreement(results)["QA"] == (pytest.approx(1.0), 2)
    report = Report("t", results, aggregates={"kendall_tau": rank_agreement_json(results)}, text=render_azpt_table)
    payload = valid_report(report.render("json"))
    assert payload["results"][1]["headline"]["value"] == pytest.approx(33.3333)
    assert payload["aggregates"]["kendall_tau"]["QA"]["tau"] == 1.0
    details = tmp_path / "zps.jsonl"
    write_jsonl(details, report.detail_rows())
    rows = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 8  # 4 ZPs (one _UN) × 2 systems
    assert {"domain", "system", "segment", "line", "pronoun", "form", "expected", "candidates", "correct",
            "found_by", "span", "hypothesis"} <= set(rows[0])


def test_english_words():
    assert english_words("I'm sure you'll see it’s Tony's") == ["I", "'m", "sure", "you", "'ll", "see", "it", "'s",
                                                               "Tony", "'s"]
    assert english_words("i 'm sure don 't") == ["i", "'m", "sure", "don", "'t"]
    assert english_words("'Hello,' he said") == ["'", "Hello", ",", "'", "he", "said"]
    assert english_words("Olympia @-@ Rat") == ["Olympia-Rat"]


# ---------------------------------------------------------------- bad input


def test_wrong_line_count_names_file_and_line(tiny, tmp_path):
    hyp = _hyp(tmp_path, "short.en", GOOD[:3])
    with pytest.raises(InputError, match=r"expected 4 lines .* or 6 \(with the \[doc\] lines\), found 3") as err:
        run(tiny, [hyp])
    assert err.value.one_line().startswith(f"{hyp}:4: ")


def test_missing_and_undecodable_input(tiny, tmp_path):
    with pytest.raises(InputError, match="file not found"):
        run(tiny, [tmp_path / "nope.en"])
    bad = tmp_path / "bad.en"
    bad.write_bytes(b"ok\n\xff\xfe\nok\nok\n")
    with pytest.raises(InputError, match="not valid UTF-8") as err:
        run(tiny, [bad])
    assert err.value.line == 2


def test_malformed_tag_in_the_suite(tiny, tmp_path):
    path = tiny / catalogue.get_source("mzprt-QA-zh").path
    path.write_text(QA_ZH.replace("<他>_S", "<他>_Q"), encoding="utf-8")
    with pytest.raises(InputError, match="form must be one of") as err:
        run(tiny, [_hyp(tmp_path, "a.en", GOOD)])
    assert err.value.one_line().startswith(f"{path}:5: ")


def test_bad_requests(tiny, tmp_path):
    hyp = _hyp(tmp_path, "a.en", GOOD)
    with pytest.raises(InputError, match="unknown mZPRT domain 'XX'"):
        run_mzprt(["XX"], inputs=[hyp], data_dir=tiny)
    with pytest.raises(InputError, match="one file per --domain"):
        run_mzprt("all", inputs=[hyp], data_dir=tiny)  # five domains, one file
    with pytest.raises(InputError, match="one file per --domain"):
        run_mzprt(["QA", "GR"], inputs=[hyp], data_dir=tiny)
    with pytest.raises(InputError, match=r"give --system \(published outputs"):
        run_mzprt(["QA"], data_dir=tiny)
    with pytest.raises(InputError, match="unknown mZPRT system 'nope'"):
        run_mzprt(["QA"], systems=["nope"], data_dir=tiny)
    # --window and --reach are checked once, by their declared options (the registry), before any work
    import discotest

    with pytest.raises(InputError, match="--window"):
        discotest.run("mzprt", domain="QA", input=str(hyp), data_dir=str(tiny), window=-1)
    with pytest.raises(InputError, match="--reach"):
        discotest.run("mzprt", domain="QA", input=str(hyp), data_dir=str(tiny), reach=-1)
    with pytest.raises(InputError, match="unknown extra alignment text"):
        run_mzprt(["QA"], inputs=[hyp], data_dir=tiny, extra="lots", aligner=DictionaryAligner())
    with pytest.raises(InputError, match="compare needs one --domain"):
        discotest.compare("mzprt", domain="all", input=[hyp, hyp], data_dir=tiny)


def test_a_published_system_whose_file_is_missing(tiny):
    with pytest.raises(InputError, match="discotest data fetch mzprt-QA-base_tgt-tagged"):
        run_mzprt(["QA"], systems=["base_tgt"], data_dir=tiny, extra="none", aligner=DictionaryAligner())


def test_missing_extra_text_is_a_clear_error(tiny, tmp_path):
    with pytest.raises(InputError, match="discotest data fetch wmt21-zh-en-src"):
        run_mzprt(["QA"], inputs=[_hyp(tmp_path, "a.en", GOOD)], data_dir=tiny, aligner=DictionaryAligner())
