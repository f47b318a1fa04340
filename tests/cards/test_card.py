"""The discourse card (``discotest card``): every number equals the suite's own run, a published system and the same
files as an outputs folder give the same lines, a finished card is served from the cache without running a suite, a
failing row says why while the others finish, the validity badges quote VALIDITY.md, and a tiny model fills the rows
it can (and the card says why it cannot fill the others)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import discotest
from discotest.cards import build as card_build
from discotest.cards.groups import rows_of, validity_badges
from discotest.cards.rows import CardLine
from discotest.cards.system import SystemSpec, Unfilled
from discotest.dip.documents import pair_paths
from tests.support.cli_helpers import assert_one_line_error, run_cli

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def _card_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("card-cache")


@pytest.fixture
def own_cache(_card_cache, tmp_path, monkeypatch):
    """One cache for this module's cards (a suite's verdicts computed once here, as a user's cache keeps them); each
    test's own files in ``tmp_path``."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(_card_cache))
    return tmp_path


@pytest.fixture
def google_outputs(shared_data, tmp_path) -> Path:
    folder = tmp_path / "outputs"
    folder.mkdir()
    shutil.copy(shared_data / "mt_gender/translations/google/en-de.txt", folder / "winomt.de.txt")
    (folder / "manifest.json").write_text(json.dumps({"system": "google", "files": {"en-de/winomt": "winomt.de.txt"}}))
    return folder


def _lines(card) -> list[CardLine]:
    return [line for row in card.rows for line in row.lines]


def test_card_numbers_are_the_suites_own_and_placed_among_published(shared_data, own_cache):
    card = discotest.card(system="google", pairs="en-de", suites="winomt", quiet=True)
    scores = discotest.run("winomt", lang="de", system="google", quiet=True)[0].scores
    by_metric = {line.metric: line for line in _lines(card)}
    assert by_metric["accuracy"].value == round(scores.accuracy, 4)
    assert by_metric["delta_g"].value == round(scores.delta_g, 4)
    assert by_metric["delta_s"].value == round(scores.delta_s, 4)
    assert by_metric["accuracy"].n == 3886
    # bing 73.4 > aws 58.8 > google 55.0 > systran 45.8 > sota 38.4 (README, VALIDITY)
    acc = by_metric["accuracy"]
    assert (acc.rank, acc.of) == (3, 5)
    assert acc.above.system == "aws" and acc.below.system == "systran"
    assert acc.above.p < 0.01 and 0 < acc.ci95 < 3
    assert by_metric["delta_g"].better == "nearer 0"
    row = card.rows[0]
    assert row.validity.figure == "94.7%" and row.validity.sample == "in"
    assert "system:google" in row.signature


def test_outputs_folder_gives_the_published_systems_lines(shared_data, own_cache, google_outputs):
    published = discotest.card(system="google", pairs="en-de", suites="winomt", quiet=True)
    outputs = discotest.card(outputs=str(google_outputs), pairs="en-de", suites="winomt", quiet=True)
    assert _lines(outputs) == _lines(published)
    assert outputs.system == "google" and outputs.kind == "outputs"


def test_a_finished_card_runs_no_suite_again_and_is_byte_identical(shared_data, own_cache, google_outputs,
                                                                     monkeypatch, capsys):
    args = ("card", "--outputs", str(google_outputs), "--pairs", "en-de", "--suites", "winomt,winomt-adj",
            "--format", "json", "-q")
    code, first, err = run_cli(capsys, *args)
    assert code == 0, err
    calls = []
    real = card_build.run_settings  # every row's run (and every published system's beside it) goes through it
    monkeypatch.setattr(card_build, "run_settings", lambda *a, **k: calls.append(a) or real(*a, **k))
    code, second, err = run_cli(capsys, *args)
    assert code == 0 and second == first and calls == []  # every row from the card's cache
    rows = json.loads(first)["rows"]
    assert [r["status"] for r in rows] == ["ok", "unfilled"]
    assert "no file for en-de/winomt-adj" in rows[1]["reason"]
    code, plan, _ = run_cli(capsys, "card", "--outputs", str(google_outputs), "--pairs", "en-de", "--suites",
                            "winomt,winomt-adj", "--dry-run")
    assert code == 0 and re.search(r"en-de/winomt\s+winomt\s+cached\s+3888", plan), plan
    assert "0 rows to run, 1 done, 1 not fillable" in plan


def test_a_failing_row_says_why_and_the_others_finish(shared_data, own_cache, google_outputs, capsys):
    manifest = json.loads((google_outputs / "manifest.json").read_text())
    manifest["files"]["en-de/winomt-adj"] = "winomt.de.txt"  # 3,888 lines for a 1,584-row suite
    (google_outputs / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = run_cli(capsys, "card", "--outputs", str(google_outputs), "--pairs", "en-de", "--suites",
                             "winomt,winomt-adj", "--format", "json", "-q")
    assert code == 1  # some row failed
    rows = json.loads(out)["rows"]
    assert rows[0]["status"] == "ok" and rows[1]["status"] == "failed"
    assert "winomt.de.txt" in rows[1]["reason"] and "\n" not in rows[1]["reason"]
    assert "en-de/winomt-adj" in err


def test_bad_card_requests_end_in_one_line(shared_data, own_cache, capsys):
    assert_one_line_error(*run_cli(capsys, "card", "--system", "google", "--pairs", "en-xx")[::2], "en-xx")
    assert_one_line_error(*run_cli(capsys, "card", "--pairs", "en-de")[::2], "name one system")
    assert_one_line_error(*run_cli(capsys, "card", "--system", "google", "--pairs", "en-de", "--suites",
                                   "jazp")[::2], "jazp")
    assert_one_line_error(*run_cli(capsys, "card", "--outputs", str(own_cache), "--pairs", "en-de")[::2],
                          "manifest.json")


def test_init_writes_the_sources_and_a_manifest_template(shared_data, tmp_path, capsys):
    folder = tmp_path / "mine"
    code, out, err = run_cli(capsys, "card", "--outputs", str(folder), "--init", "--pairs", "en-de,ja-en")
    assert code == 0, err
    manifest = json.loads((folder / "manifest.json").read_text())
    assert set(manifest["files"]) == {r.key for r in rows_of(["en-de", "ja-en"]) if "outputs" in r.takes}
    sources = (folder / manifest["sources"]["en-de/winomt"]).read_text().splitlines()
    assert len(sources) == 3888 and sources[0].startswith("The developer argued with the designer")
    assert "one line per line of the candidates file" in manifest["what_each_file_holds"]["ja-en/jazp"]
    assert manifest["sources"]["ja-en/jazp"] == "ja-en.jazp.candidates.jsonl"
    # DiP: the WMT22 source whole, in its order, and each line's document beside it
    wmt = pair_paths("wmt22", "ja-en", root=str(shared_data))
    dip = (folder / manifest["sources"]["ja-en/dip"]).read_text("utf-8").splitlines()
    docids = (folder / "ja-en.dip.docids.txt").read_text("utf-8").splitlines()
    assert dip == wmt["source"].read_text("utf-8").splitlines() and len(dip) == len(docids) == 2008
    assert docids == [d.strip() for d in wmt["docids"].read_text("utf-8").splitlines()]
    assert manifest["files"]["ja-en/dip"] is None and "document by document" in manifest["what_each_file_holds"][
        "ja-en/dip"]
    assert f"2008 lines of {len(set(docids))} generaltest2022.ja-en.src.ja documents" in out


def test_validity_badges_quote_validity_md():
    text = (REPO / "VALIDITY.md").read_text("utf-8")
    sections = {line[3:].strip(): None for line in text.splitlines() if line.startswith("## ")}
    for name, badge in validity_badges().items():
        assert badge["section"] in sections, name
        body = text.split("## " + badge["section"], 1)[1].split("\n## ", 1)[0]
        quoted = re.findall(r"\d+(?:\.\d+)?%?", badge["text"] + " " + badge.get("headline", ""))
        assert all(q.rstrip("%") in body for q in quoted), (name, quoted)  # every figure of its text is there
        for lang, figure in badge["by_lang"].items():
            assert f"{lang} {figure}" in " ".join(body.split()), (name, lang, figure)
    declared = {r.validity for r in rows_of(list(json.loads(
        (REPO / "src/discotest/cards/groups.json").read_text())["pairs"]))}
    assert declared <= set(validity_badges())


def test_tiny_model_fills_the_rows_it_can(shared_data, own_cache, tiny_llms):
    model = str(tiny_llms["llama3_1"])
    card = discotest.card(model=model, pairs="ja-en", suites="jazp", quiet=True)
    jazp, = card.rows
    assert jazp.status == "ok"
    # the DiP row is the model's too (translating the whole WMT22 ja-en source: tests/cards/test_card_equality.py
    # fills it on a slice), a published system's only for the suites that have one
    dip, = rows_of(["ja-en"], ["dip"])
    assert SystemSpec("model", path=model).options_for(dip) == {"model": model}
    with pytest.raises(Unfilled, match="jazp has no published system outputs"):
        SystemSpec("published", published="Online-B").options_for(next(iter(rows_of(["ja-en"], ["jazp"]))))
    own = discotest.run("jazp", model=model, context=[1], quiet=True)[0]
    line = jazp.lines[0]
    assert line.value == round(own.scores.overall.accuracy, 4) and line.n == 44
    assert line.scope == "ctx1" and line.rank is None
    assert set(line.by_distance) == set(own.summary()["by_distance"])


def test_an_endpoint_that_does_not_answer_fails_its_rows_in_one_line(shared_data, own_cache):
    from tests.support.cli_helpers import free_port

    """Each row fails with the client's one line; ``timeout`` reaches the rows' client (a request then gives up after
    2 s, its retries and waits included: the default 120 s waited 1 + 2 + 4 + 8 s between 5 refused attempts)."""
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    card = discotest.card(endpoint=url, model="tiny", pairs="ja-en", suites="jazp,dip", timeout=1, quiet=True)
    jazp, dip = card.rows
    for row in (jazp, dip):
        assert row.status == "failed" and "\n" not in row.reason and "127.0.0.1" in row.reason, row
        assert "--timeout 1 s per attempt, 2 s per request" in row.reason, row.reason


def test_the_timeout_is_not_part_of_the_cards_cache_key():
    """How long an endpoint is waited for changes no answer: a card cached with one ``--timeout`` is found with
    another (its other model options still name it)."""
    row = rows_of(["ja-en"], ["jazp"])[0]

    def key(**options):
        return SystemSpec("endpoint", url="http://127.0.0.1:1/v1", served_model="m",
                          model_options=options).fingerprint(row)

    assert key(timeout=1.0, concurrency=2) == key(timeout=120.0, concurrency=2) == key(concurrency=2)
    assert key(timeout=1.0, concurrency=2) != key(timeout=1.0, concurrency=4)


def test_decoding_options_reach_the_rows_a_model_translates_only(shared_data):
    """``--beam`` and ``--max-length`` go to a row whose suite the model translates (they are in its run's options),
    not to a contrastive row (a scored candidate is not decoded); a served model decodes greedily, so ``--beam`` is
    not part of an endpoint's options (nor of its card's cache key)."""
    from discotest.cards import card_settings
    from discotest.cards.build import model_options_for, system_of

    decoding = {"beam": 2, "max_length": 64, "batch_size": 8}
    translated, scored = rows_of(["en-de"], ["winomt"])[0], rows_of(["ja-en"], ["jazp"])[0]
    spec = SystemSpec("model", path="tiny", model_options=decoding)
    assert {**spec.options_for(translated), **model_options_for(spec, translated)} == {"model": "tiny", **decoding}
    assert {**spec.options_for(scored), **model_options_for(spec, scored)} == {"model": "tiny", "batch_size": 8,
                                                                             "context": [1]}
    served = system_of(card_settings({"endpoint": "http://127.0.0.1:1/v1", "model": "m", "beam": 2,
                                      "max_length": 64}))
    assert "beam" not in served.model_options and served.model_options["max_length"] == 64
    local = system_of(card_settings({"model": "tiny", "beam": 2}))
    assert (local.model_options["beam"], local.model_options["max_length"]) == (2, 256)


def test_compare_ranks_every_published_system_and_your_file_among_them(shared_data, own_cache, google_outputs):
    """``compare --system all [--input FILE]``: one ranking per metric with the paired test against the next system
    down; ΔG and ΔS ranked by their distance to 0 (sota's ΔS −7.2 is nearer 0 than systran's 13.2, not below it);
    a file with google's translations ties with google."""
    report = discotest.compare("winomt", lang="de", system="all", input=str(google_outputs / "winomt.de.txt"),
                               quiet=True)
    tables = {t["metric"]: t["systems"] for t in report.aggregates["ranking"]}
    acc = tables["accuracy"]
    assert [s["system"] for s in acc][:2] == ["bing", "aws"] and acc[-1]["system"] == "sota"
    assert acc[0]["p_next"] < 0.01 and acc[-1]["p_next"] is None
    tied = [s for s in acc if s["system"] in ("google", "winomt.de.txt")]
    assert [s["rank"] for s in tied] == [3, 3] and tied[0]["value"] == tied[1]["value"]
    assert [s["system"] for s in tables["delta_s"]][:2] == ["sota", "systran"]
    assert tables["delta_s"][0]["p_next"] < 0.05  # |−7.2| against |13.2| (issue 51's noun definition)
    assert tables["delta_s"][1]["p_next"] > 0.05  # systran |13.2| against bing |15.8|: no difference
    assert "rank  system" in report.render("text")


def test_two_systems_cards_compared_row_by_row(shared_data, own_cache, capsys):
    """``card --versus``: both values of every number (each the suite's own), the paired test, the rows that
    differ, and the rows neither can fill said once."""
    code, out, err = run_cli(capsys, "card", "--system", "google", "--versus", "bing", "--pairs", "en-de", "--suites",
                             "winomt,bug", "--format", "json", "-q")
    assert code == 0, err
    lines = json.loads(out)["lines"]
    acc = next(line for line in lines if line["metric"] == "accuracy")
    assert (round(acc["a"], 1), round(acc["b"], 1)) == (55.0, 73.4) and acc["p"] < 0.01 and acc["differs"]
    bug = next(line for line in lines if line["row"] == "en-de/bug")
    assert bug["metric"] is None and "no published output" in bug["note"]
    code, text, _ = run_cli(capsys, "card", "--system", "google", "--versus", "bing", "--pairs", "en-de", "--suites",
                            "winomt", "-q")
    assert code == 0 and "3 of 3 numbers differ" in text


@pytest.mark.parametrize("family", ["qwen3", "gemma3"])
def test_a_quick_look_samples_the_contrastive_rows(shared_data, own_cache, tiny_llms, family):
    """``--limit N``: the contrastive rows score a deterministic stratified sample of N items (each number the one
    ``run --limit N`` gives, signed limit:N), for the tiny models of the other two tokenizer families."""
    model = str(tiny_llms[family])
    card = discotest.card(model=model, pairs="ja-en", suites="jazp", limit=12, quiet=True)
    line = card.rows[0].lines[0]
    own = discotest.run("jazp", model=model, context=[1], limit=12, quiet=True)[0]
    assert line.n == 12 and line.value == round(own.scores.overall.accuracy, 4)
    assert "limit:12" in card.rows[0].signature and "limit:12" in card.signature()
    again = discotest.run("jazp", model=model, context=[1], limit=12, quiet=True)[0]
    assert [v.index for v in again.verdicts] == [v.index for v in own.verdicts]  # the same sample every time
    distances = {v.distance for v in own.verdicts}
    assert len(distances) > 1  # stratified: not the suite's first rows


def test_the_html_card_links_each_row_to_its_suites_own_page(shared_data, own_cache, capsys):
    out = own_cache / "card.html"
    code, _, err = run_cli(capsys, "card", "--system", "google", "--pairs", "en-de", "--suites", "winomt,bug",
                           "--format", "html", "-o", str(out), "-q")
    assert code == 0, err
    page = own_cache / "card.html.d" / "en-de_winomt.html"
    html = out.read_text("utf-8")
    assert page.is_file() and 'href="card.html.d/en-de_winomt.html"' in html
    assert "google has no published output for bug" in html  # the row it cannot fill says why
    assert "discotest:0.1.0|suite:winomt" in page.read_text("utf-8")  # the suite's own report, with its evidence


class _Unscored:
    """A result whose one metric scored no item (a random model's translations match no gendered word)."""

    system, lang, scope = "tiny", "de", None

    def summary(self) -> dict:
        return {}

    def ranked_metrics(self) -> list:
        from discotest.report.result import PairedMetric

        return [PairedMetric("accuracy", {}, lambda sums: float(sums[0] / sums[1]))]


def test_a_line_that_scored_no_item_has_no_number_and_no_place():
    """n 0 is no number (not 0.0 ± 0.0) and no rank among the published systems, in the JSON and the text card."""
    from discotest.cards.build import _lines
    from discotest.cards.render import _cells
    from discotest.report.result import PairedMetric

    peer = _Unscored()
    peer.system = "google"
    peer.ranked_metrics = lambda: [PairedMetric("accuracy", {1: (1.0, 1.0)}, lambda s: float(s[0] / s[1]))]
    (line,) = _lines([_Unscored()], [peer], 100, 1)
    assert (line.value, line.ci95, line.n, line.rank, line.of) == (None, None, 0, None, None)
    assert _cells({**line.to_json(), "pair": "en-de", "phenomenon": "x", "validity": "", "note": ""})[3] == "–"
