"""AZPT on the real mZPRT data: one domain with every published system, and a significance test.

One alignment of the full corpus (about 32k sentence pairs, ~30 s) is shared by the tests here
through a session-wide private cache directory.
"""

from __future__ import annotations

import json

import pytest

import discotest
from discotest.report.emit import Report, write_jsonl
from discotest.zero_pronoun.result import rank_agreement, rank_agreement_json, render_azpt_table
from discotest.zero_pronoun.run import run_mzprt

pytestmark = pytest.mark.slow

RELEASED_MS = {
    "base_tgt": 50.1, "cache_tgt": 51.2, "deep_oracle": 86.9, "deep_tgt": 47.4, "large_tgt": 47.4,
    "rec_oracle": 88.2, "rec_tgt": 49.4, "unified_oc_tgt": 53.2, "unified_tgt": 53.5, "zhang_tgt": 48.6,
    "zpr_grounding": 57.0, "zpr_hpy": 49.4,
}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("mzprt-cache")


@pytest.fixture(autouse=True)
def private_cache(cache_dir, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(cache_dir))


@pytest.fixture(scope="module")
def ms_results(shared_data, cache_dir):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DISCOTEST_CACHE", str(cache_dir))
        done = []
        results = run_mzprt(["MS"], "all", data_dir=shared_data, bleu=True, progress=done.append)
    assert sum(done) == len(results)
    return results


def test_every_published_system_of_a_domain(ms_results):
    assert {r.system: round(r.released, 1) for r in ms_results} == RELEASED_MS
    for r in ms_results:
        assert r.domain == "MS" and r.kind == "published" and r.layout == "zp-segments-labelled"
        assert r.n_segments == 382
        # the released .details have 449 rows: the same ZPs are scored
        assert (r.scores.n, r.scores.excluded_un, r.scores.excluded_no_form) == (449, 8, 9)
        assert abs(r.difference) < 8, (r.system, r.scores.accuracy, r.released)
        assert 10 < r.bleu < 60
        if r.system.endswith("oracle"):
            assert r.scores.accuracy > 80
        else:
            assert 30 < r.scores.accuracy < 65
        assert sum(t.n for t in r.scores.by_form.values()) == 449
        assert r.signature.get("domain") == "MS" and "eflomal" in r.signature.get("aligner")
        matched = [v for v in r.verdicts if v.released_correct is not None]
        assert len(matched) > 430  # released verdicts attached to our ZPs


def test_orderings_agree_with_the_released_ones(ms_results):
    tau, n = rank_agreement(ms_results)["MS"]
    assert n == 12 and tau > 0.5


def test_table_json_and_details(ms_results, tmp_path):
    table = render_azpt_table(ms_results)
    main_table, breakdowns = table.split("\nAZPT by ZP form", 1)
    assert main_table.count("\nMS ") == 12 and "Kendall" in table and "BLEU: nrefs:1|case:lc" in table
    # the breakdowns by form (with the codes' legend) and by pronoun, a row per system each, as in the JSON
    assert "S subject, O object, Pa possessive adjective" in breakdowns and breakdowns.count("\nMS ") == 24
    first = ms_results[0].scores.by_form["S"]
    assert f"{first.accuracy:.1f}/{first.n}" in breakdowns.split("\n")[3]
    payload = Report("t", ms_results, aggregates={"kendall_tau": rank_agreement_json(ms_results)}).to_json()
    assert len(payload["results"]) == 12 and payload["aggregates"]["kendall_tau"]["MS"]["systems"] == 12
    details = tmp_path / "ms.jsonl"
    write_jsonl(details, Report("t", ms_results[:2]).detail_rows())
    rows = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 2 * (449 + 8 + 9)
    scored = [r for r in rows if r["correct"] is not None]
    assert all(r["expected"] and r["found_by"] in {"aligned", "neighbours", "left-neighbour", "right-neighbour",
                                                   "none"} for r in scored)


def test_significance_between_two_published_systems(shared_data):
    report = discotest.compare("mzprt", domain="QA", system=["base_tgt", "zpr_tgt"], data_dir=shared_data,
                               bootstrap=300, seed=5, quiet=True)
    azpt, bleu = report.comparisons[0].metrics
    assert azpt.n == 732 and azpt.score_b - azpt.score_a > 15  # ZPR+ restores pronouns: much better AZPT
    assert azpt.sign.p_value < 1e-6 and azpt.bootstrap.p_value < 0.01
    assert bleu.n == 515 and 0 <= bleu.sign.p_value <= 1 and 0 < bleu.bootstrap.p_value <= 1


def test_cli_run_json_and_details(capsys, shared_data, tmp_path):
    from discotest.cli import main

    details = tmp_path / "zps.jsonl"
    code = main(["--data-dir", str(shared_data), "-q", "run", "mzprt", "--domain", "MS",
                 "--system", "base_tgt,zpr_grounding", "--format", "json", "--details", str(details)])
    assert code == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert sorted(r["system"] for r in results) == ["base_tgt", "zpr_grounding"]
    lines = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
    assert {d["system"] for d in lines} == {"base_tgt", "zpr_grounding"}


def test_cli_compare_two_published_systems(capsys, shared_data):
    from discotest.cli import main

    code = main(["--data-dir", str(shared_data), "-q", "compare", "mzprt", "--domain", "MS",
                 "--system", "base_tgt", "--system", "zpr_grounding", "--bootstrap", "200"])
    out = capsys.readouterr().out
    assert code == 0
    assert "A = base_tgt, B = zpr_grounding" in out and "sign p" in out and "bootstrap p" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("run", "mzprt", "--system", "all"), "mzprt needs --domain"),
        (("run", "mzprt", "--domain", "XX", "--system", "all"), "XX"),
        (("run", "mzprt", "--domain", "MS", "--system", "nosuch"), "nosuch"),
        (("compare", "mzprt", "--domain", "MS", "--system", "base_tgt"), "compare needs two systems"),
    ],
)
def test_cli_bad_input_is_one_line(capsys, shared_data, args, fragment):
    from discotest.cli import main

    code = main(["--data-dir", str(shared_data), "-q", *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and fragment in err[0], err


def test_cli_wrong_line_count_names_the_file(capsys, shared_data, tmp_path):
    from discotest.cli import main

    hyp = tmp_path / "hyp.en"
    hyp.write_text("I am here .\n" * 7, encoding="utf-8")
    code = main(["--data-dir", str(shared_data), "-q", "run", "mzprt", "--domain", "MS", "--input", str(hyp)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and str(hyp) in err[0], err


def test_a_segment_scores_the_same_alone_and_inside_its_file(capsys, shared_data, tmp_path):
    """Align once (issue 23): 50 segments given alone (``source ||| hypothesis``) get per-ZP details identical to the
    same segments inside the whole file, because an input is decoded with the background's model, never trained with;
    the signature's alignment text is the background's, as for the published systems."""
    from discotest.cli import main
    from discotest.zero_pronoun.hypotheses import published_hypotheses
    from discotest.zero_pronoun.mzprt import load_mzprt

    suite = load_mzprt("MS", shared_data)
    hyps = published_hypotheses("MS", "zpr_grounding", suite, shared_data).by_segment
    whole = tmp_path / "whole.en"
    whole.write_text("".join(hyps.get(seg.index, "") + "\n" for seg in suite.segments), encoding="utf-8")
    chosen = [seg for seg in suite.zp_segments() if seg.index in hyps][10:60]
    part = tmp_path / "part.en"
    part.write_text("".join(f"{seg.source} ||| {hyps[seg.index]}\n" for seg in chosen), encoding="utf-8")
    details, signatures = {}, {}
    for name, path in (("whole", whole), ("part", part)):
        out = tmp_path / f"{name}.jsonl"
        assert main(["--data-dir", str(shared_data), "-q", "run", "mzprt", "--domain", "MS", "--input", str(path),
                     "--format", "json", "--details", str(out)]) == 0
        signatures[name] = json.loads(capsys.readouterr().out)["results"][0]["signature"]
        details[name] = [{k: v for k, v in json.loads(line).items() if k != "system"}
                         for line in out.read_text(encoding="utf-8").splitlines()]
    wanted = {seg.index for seg in chosen}
    assert details["part"] and details["part"] == [d for d in details["whole"] if d["segment"] in wanted]
    text = {name: next(f for f in s.split("|") if f.startswith("align_text:")) for name, s in signatures.items()}
    assert text["part"] == text["whole"] and "+input" not in text["part"]


def test_a_run_decodes_only_the_blocks_it_evaluates(ms_results, shared_data):
    """With the background's model a run decodes the blocks of the systems it evaluates, in one run, and nothing else
    (not the extra text, the validation sets or other systems: 32,310 pairs for one system's 382 before); a block's
    links are the same decoded alone as in company (a pair's links depend on the pair and the model alone)."""
    from discotest.zero_pronoun.corpus import azpt_aligner, build_corpus
    from discotest.zero_pronoun.run import _align

    def corpus():
        made = build_corpus(azpt_aligner(), shared_data)
        assert made.model is not None
        return made

    alone = corpus()
    links = _align(alone, [("MS", "zpr_grounding")])[("MS", "zpr_grounding")]
    assert list(alone.aligned) == [f"block:{alone.blocks[('MS', 'zpr_grounding')]}"] and len(links) == 382
    together = corpus()
    both = _align(together, [("MS", "base_tgt"), ("MS", "zpr_grounding")])
    assert len(together.aligned) == 2 and both[("MS", "zpr_grounding")] == links
