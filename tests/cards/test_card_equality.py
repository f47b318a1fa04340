"""Every number on the card is the one the suite's own ``run`` gives on the same system, family by family (WinoMT and
the contrastive suites: ``test_card.py``): MT-GenEval and MiTTenS from an outputs folder of real files (the suites'
references as the system's translations), mZPRT and DiP for a published system on the card's own row narrowed to a
small real part (one mZPRT domain; six WMT22 documents, two systems, the phenomena without a model), whole and as a
``--limit`` sample."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import discotest
from discotest import api
from discotest.cards.build import CardOptions, fill_row, where_of
from discotest.cards.groups import rows_of
from discotest.cards.rows import FilledRow
from discotest.cards.system import SystemSpec
from discotest.gender.mittens.suite import load_mittens
from discotest.gender.mt_geneval.suite import load_mt_geneval
from discotest.report.ranking import value_and_interval
from discotest.report.result import lang_of


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def assert_row_is_the_runs(row: FilledRow, results, system: str | None = None) -> None:
    """Each line of the row equals the run's own number, its interval and its n, for the result of the same part."""
    assert row.status == "ok", row.reason
    mine = [r for r in results if system is None or r.system == system]
    assert mine and len(row.lines) == sum(len(r.ranked_metrics()) for r in mine)
    for line in row.lines:
        result = next(r for r in mine if (where_of(r), lang_of(r)) == (line.scope, line.lang))
        metric = next(m for m in result.ranked_metrics() if m.name == line.metric)
        value, ci, n = value_and_interval(metric)
        assert (line.value, line.ci95, line.n) == (round(value, 4), round(ci, 4), n)
        if line.metric in ("accuracy", "AZPT"):
            assert line.value == pytest.approx(result.summary()["accuracy"], abs=0.006)  # the run's own table
            assert n == result.summary().get("decided", result.summary()["n"])  # MT-GenEval: the decided items
        # the same settings; the files read may differ (a row of a published system reads every published file)
        sigs = [row.signature] if isinstance(row.signature, str) else row.signature
        assert _settings(result.signature.format()) in {_settings(sig) for sig in sigs}


def _settings(signature: str) -> str:
    return signature.rsplit("|files:", 1)[0]


@pytest.fixture
def reference_outputs(shared_data: Path, tmp_path: Path) -> Path:
    """An outputs folder whose files are the suites' own references (real text, one line per item in suite order)."""
    folder = tmp_path / "outputs"
    folder.mkdir()
    files = {
        "en-de/mt-geneval-counterfactual": [i.reference for i in load_mt_geneval("counterfactual", "de", "test",
                                                                                 str(shared_data))],
        "en-de/mt-geneval-contextual": [i.reference for i in load_mt_geneval("contextual", "de", "test",
                                                                             str(shared_data))],
        "de-en/mittens": [i.reference for i in load_mittens("mittens", ["de"], str(shared_data))],
        "en-de/mittens-out": [i.reference for i in load_mittens("mittens-out", ["de"], str(shared_data))],
    }
    manifest = {}
    for key, lines in files.items():
        name = key.replace("/", ".") + ".txt"
        (folder / name).write_text("".join(line.replace("\n", " ") + "\n" for line in lines), "utf-8")
        manifest[key] = name
    (folder / "manifest.json").write_text(json.dumps({"system": "refs", "files": manifest}))
    return folder


@pytest.mark.parametrize("limit", [None, 24])
def test_mt_geneval_and_mittens_rows_are_their_runs(shared_data, reference_outputs, limit):
    card = discotest.card(outputs=str(reference_outputs), pairs="en-de,de-en",
                          suites="mt-geneval,mittens,mittens-out", limit=limit, quiet=True)
    runs = {
        "en-de/mt-geneval-counterfactual": ("mt-geneval", {"lang": "de", "subset": "counterfactual"}),
        "en-de/mt-geneval-contextual": ("mt-geneval", {"lang": "de", "subset": "contextual"}),
        "de-en/mittens": ("mittens", {"lang": "de"}),
        "en-de/mittens-out": ("mittens-out", {"lang": "de"}),
    }
    assert sorted(f"{r.pair}/{r.id}" for r in card.rows) == sorted(runs)
    for key, (suite, options) in runs.items():
        path = reference_outputs / (key.replace("/", ".") + ".txt")
        own = discotest.run(suite, input=str(path), limit=limit, quiet=True, **options).results
        row = card.row(key)
        assert_row_is_the_runs(row, own)
        if limit:
            assert f"limit:{limit}" in row.signature and all(line.n == limit for line in row.lines
                                                                if line.metric == "accuracy")
    # --dry-run counts the items each MiTTenS row scores: one language's passages (mittens-out's de: 118, not the 708
    # of its six readable languages)
    plan = {entry["row"]: entry["items"] for entry in api.card_plan(
        outputs=str(reference_outputs), pairs="en-de,de-en", suites="mittens,mittens-out", limit=limit)}
    for key in ("de-en/mittens", "en-de/mittens-out"):
        assert plan[key] == sum(line.n for line in card.row(key).lines if line.metric == "accuracy")
    assert plan["en-de/mittens-out"] == (limit or len(load_mittens("mittens-out", ["de"], str(shared_data))))


def _narrowed(pair: str, suite: str, **options):
    """The card's own row of ``suite`` for ``pair``, its options narrowed to a small real part."""
    row = next(r for r in rows_of([pair], [suite]))
    return type(row)(**{**row.__dict__, "options": {**row.options, **options}})


@pytest.fixture(scope="module")
def mzprt_cache(tmp_path_factory) -> Path:
    """One cache for the mZPRT row's two runs: a ``--limit`` run still segments and aligns every sentence (only the
    judging is sampled), so the second finds the first's alignments (keyed by content) instead of decoding WF's
    three systems again; what is compared, the card's line and the run's own, is computed in each test."""
    return tmp_path_factory.mktemp("mzprt-cache")


@pytest.mark.slow  # the mZPRT background's alignment model, shared by the session's mZPRT tests
@pytest.mark.parametrize("limit", [None, 40])
def test_mzprt_row_is_its_run(shared_data, limit, mzprt_cache, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(mzprt_cache))
    row = _narrowed("zh-en", "mzprt", domain="WF")
    filled = fill_row(SystemSpec("published", published="base_tgt"), row, CardOptions(limit=limit, quiet=True))
    own = discotest.run("mzprt", domain="WF", system="base_tgt", limit=limit, quiet=True).results
    assert_row_is_the_runs(filled, own)
    line = filled.lines[0]
    assert line.scope == "WF" and line.of == 3  # placed among WF's three published systems
    if limit:
        assert line.n == limit and f"limit:{limit}" in filled.signature


@pytest.mark.slow  # the mZPRT background's alignment model, shared by the session's mZPRT tests
def test_ctxpro_and_mzprt_rows_of_a_model_are_its_runs(shared_data, tiny_marian, monkeypatch):
    """A local model fills the CTXPRO and mZPRT rows by translating their sources with the card's ``--beam`` and
    ``--max-length``; the suite's own run with the same options then finds every translation in the cache (it
    translates nothing: the options are in the translations' key) and gives the row's numbers. The two rows load the
    model once (``hf_models.LOADED_MODELS``)."""
    from discotest.models import hf_models
    from discotest.models.translator import ModelTranslator

    decoding = {"beam": 2, "max_length": 64}
    system = SystemSpec("model", path=str(tiny_marian), model_options=decoding)
    rows = {"ctxpro-auxiliary-en-de-test": (_narrowed("en-de", "ctxpro-auxiliary-en-de-test"), {}),
            "mzprt": (_narrowed("zh-en", "mzprt", domain="WF"), {"domain": "WF"})}
    hf_models.LOADED_MODELS.clear()  # the session's tiny Marian may be kept from an earlier test
    loads = []
    monkeypatch.setattr(hf_models, "load_model", lambda *a, real=hf_models.load_model: loads.append(a) or real(*a))
    unchecked = {"limit": 6, "quiet": True, "skip_language_check": True}  # a random model's output is no language
    filled = {suite: fill_row(system, row, CardOptions(**unchecked)) for suite, (row, _) in rows.items()}
    assert len(loads) == 1
    monkeypatch.setattr(ModelTranslator, "generate", lambda self, batch: pytest.fail("translated again"))
    own = {suite: discotest.run(suite, model=str(tiny_marian), **unchecked, **decoding, **options).results
           for suite, (_, options) in rows.items()}
    assert_row_is_the_runs(filled["mzprt"], own["mzprt"])
    ctxpro, = own["ctxpro-auxiliary-en-de-test"]
    line = filled["ctxpro-auxiliary-en-de-test"].lines[0]
    assert (line.value, line.scope) == (round(ctxpro.scores.overall.accuracy, 4), "ctx0")
    assert filled["ctxpro-auxiliary-en-de-test"].signature == ctxpro.signature.format()
    assert all(row.lines[0].n == 6 and "limit:6" in row.signature for row in filled.values())
    assert all("|beam:2|max_len:64|" in row.signature for row in filled.values())
    assert filled["ctxpro-auxiliary-en-de-test"].lines[0].of == 3  # among DeepL with and without context
    assert filled["mzprt"].lines[0].of == 4  # among WF's three published systems


@pytest.mark.parametrize("limit", [None, 9])
def test_dip_row_is_its_run(shared_data, limit):
    pytest.importorskip("spacy")
    slice_ = {"max_docs": 6, "system": "LT22,Online-B", "phenomena": "lexical,connectives"}
    row = _narrowed("de-en", "dip", **slice_)
    filled = fill_row(SystemSpec("published", published="Online-B"), row, CardOptions(limit=limit, quiet=True))
    own = discotest.run("dip", pair="de-en", data="wmt22", limit=limit, quiet=True, **slice_).results
    assert_row_is_the_runs(filled, own, system="Online-B")
    lines = {line.metric: line for line in filled.lines}
    assert set(lines) == {"lexical consistency %", "connectives accuracy %"}
    assert all(line.of == 2 for line in lines.values())  # placed among the slice's two WMT systems
    if limit:  # 9 items over both phenomena, each present
        assert f"limit:{limit}" in filled.signature and sum(line.n for line in lines.values()) == limit


def test_the_plan_counts_each_rows_items_with_a_limit(shared_data):
    """``--dry-run``: a row's items are those its run scores, each result capped at ``--limit`` (mZPRT's row has one
    result per domain; MT-GenEval's and MiTTenS's one language and subset, not the whole suite)."""
    from discotest.zero_pronoun.mzprt import DOMAINS, load_mzprt

    def items(limit):
        plan = api.card_plan(system="base_tgt", pairs="zh-en,en-de,de-en", limit=limit,
                             suites="mzprt,mt-geneval,mittens,mittens-out")
        return {entry["row"]: entry["items"] for entry in plan}

    whole, limited = items(None), items(50)
    scored = [sum(zp.scored for zp in load_mzprt(d, str(shared_data)).zps) for d in DOMAINS]
    assert whole["zh-en/mzprt"] == sum(scored) and limited["zh-en/mzprt"] == 50 * len(DOMAINS)
    counterfactual = len(load_mt_geneval("counterfactual", "de", "test", str(shared_data)))
    assert whole["en-de/mt-geneval-counterfactual"] == counterfactual
    assert whole["de-en/mittens"] == len(load_mittens("mittens", ["de"], str(shared_data)))
    assert whole["en-de/mittens-out"] == len(load_mittens("mittens-out", ["de"], str(shared_data))) == 118
    assert all(limited[row] == 50 for row in limited if row != "zh-en/mzprt")


@pytest.mark.parametrize("limit", [None, 9])
def test_dip_row_of_your_own_translation_is_its_run(shared_data, tmp_path, limit):
    """``--outputs``: your translation of the WMT22 source fills the DiP row. It is scored on the items mined from the
    WMT systems alone (never from it, as the paper scores a new system; marked held out) and placed among them: the
    number ``run dip --pair --input`` gives, and the WMT systems' own numbers are those of the ranking without it.
    The file is a real WMT22 output the slice does not mine from (PROMT's), renamed."""
    pytest.importorskip("spacy")
    slice_ = {"max_docs": 6, "system": "LT22,Online-B", "phenomena": "lexical,connectives"}
    mine = tmp_path / "my-system.en"
    shutil.copy(shared_data / "wmt22_general/txt/system-outputs/generaltest2022.de-en.hyp.PROMT.en", mine)
    row = _narrowed("de-en", "dip", **slice_)
    assert "outputs" in row.takes
    system = SystemSpec("outputs", folder=str(tmp_path), files={row.key: str(mine)}, label="my-system")
    filled = fill_row(system, row, CardOptions(limit=limit, quiet=True))
    own = discotest.run("dip", pair="de-en", data="wmt22", input=str(mine), limit=limit, quiet=True, **slice_).results
    assert_row_is_the_runs(filled, own, system="my-system.en")
    assert filled.system == "my-system.en" and all(line.of == 3 for line in filled.lines)
    given = next(r for r in own if r.system == "my-system.en")
    assert given.holdout and given.manifest["systems_mined"] == ["LT22", "Online-B"] and not given.manifest["holdout"]
    # the run says which result it was asked for (``Result.own``): the card reads that, not the file's name
    assert [r.system for r in own if r.own] == ["my-system.en"]
    assert "mined_from:2" in filled.signature
    without = {r.system: r.scores for r in discotest.run("dip", pair="de-en", data="wmt22", limit=limit, quiet=True,
                                                          **slice_).results}
    assert {r.system: r.scores for r in own if r.system != "my-system.en"} == without  # the same items, unchanged


def test_dip_row_of_a_model_is_its_run(shared_data, tiny_marian, monkeypatch):
    """A local model fills the DiP row by translating the pair's WMT22 source (the slice's documents), scored on the
    items mined from the WMT systems alone and placed among them; ``run dip --pair --model`` then translates nothing
    (the cache) and gives the row's numbers."""
    pytest.importorskip("spacy")
    from discotest.models.translator import ModelTranslator

    slice_ = {"max_docs": 3, "system": "LT22,Online-B", "phenomena": "lexical,connectives"}
    row = _narrowed("de-en", "dip", **slice_)
    system = SystemSpec("model", path=str(tiny_marian))
    # the tiny random model writes no English: its row fails in one line (models/language_watch.py) …
    refused = fill_row(system, row, CardOptions(limit=5, quiet=True))
    assert refused.status == "failed" and "not English (en" in refused.reason, refused
    # … and is filled from the translations it cached when the check is skipped, as its run is
    filled = fill_row(system, row, CardOptions(limit=5, quiet=True, skip_language_check=True))
    assert filled.status == "ok" and "langcheck:off" in filled.signature
    monkeypatch.setattr(ModelTranslator, "generate", lambda self, batch: pytest.fail("translated again"))
    own = discotest.run("dip", pair="de-en", data="wmt22", model=str(tiny_marian), limit=5, quiet=True,
                        skip_language_check=True, **slice_).results
    name = f"{tiny_marian.name}@ctx0"
    assert [r.system for r in own if r.own] == [name]  # the model's result, marked by its run
    assert filled.system == name and all(line.of == 3 for line in filled.lines)
    assert_row_is_the_runs(filled, own, system=name)
    assert filled.signature == next(r for r in own if r.system == name).signature.format()


def test_a_dip_row_of_a_model_is_asked_with_the_other_rows_before_any_is_scored(shared_data, tiny_marian,
                                                                                monkeypatch):
    """DiP runs in phases (``Family.cpu_stage``, ``requests``, ``score``): in a model's card its row is parsed and
    mined and its requests stated, the next two-phase row's too, both rows' requests sent, and only then both scored
    (``cards.build._gather``); the row's numbers are those its own run gives."""
    pytest.importorskip("spacy")
    from discotest.cards import build as card_build

    events: list[str] = []
    for name in ("ask", "answered", "scored"):
        real = getattr(card_build.families, name)
        monkeypatch.setattr(card_build.families, name, lambda *a, real=real, name=name, **k: events.append(
            f"{name} {(a[0] if name == 'ask' else a[0].suite)}") or real(*a, **k))
    slice_ = {"max_docs": 3, "system": "LT22,Online-B", "phenomena": "lexical,connectives"}
    rows = [_narrowed("de-en", "dip", **slice_), _narrowed("en-de", "ctxpro-auxiliary-en-de-test")]
    unchecked = {"limit": 5, "quiet": True, "skip_language_check": True}  # a random model's output is no language
    # one job: every phase in this process, where the events are recorded (with workers the CTXPRO row is prepared
    # and scored in one, tests/cards/test_card_jobs.py)
    card = card_build.build_card(SystemSpec("model", path=str(tiny_marian)), rows, ["de-en", "en-de"],
                                 CardOptions(**unchecked, jobs=1))
    assert [row.status for row in card.rows] == ["ok", "ok"], card.rows
    assert events == ["ask dip", "ask ctxpro-auxiliary-en-de-test", "answered dip",
                      "answered ctxpro-auxiliary-en-de-test", "scored dip", "scored ctxpro-auxiliary-en-de-test"]
    own = discotest.run("dip", pair="de-en", data="wmt22", model=str(tiny_marian), **unchecked, **slice_).results
    assert_row_is_the_runs(card.rows[0], own, system=f"{tiny_marian.name}@ctx0")


def test_a_published_systems_gender_rows_of_several_pairs_are_one_run_and_each_its_own(shared_data, tmp_path,
                                                                                        monkeypatch):
    """A published system's WinoMT rows of two pairs run as one run over both languages (languages in parallel worker
    processes); each row's own run then only reads its verdicts back, and its numbers are those of the language's own
    run computed afresh in another cache (one language, in this process), line for line."""
    from discotest.cards import build as card_build
    from discotest.gender import run as gender_run

    real_run, real_evaluate = card_build.run_settings, gender_run._evaluate_language
    langs = []

    def counted(suite, settings):
        langs.append(settings.lang)
        if len(langs) == 2:  # the rows' own runs: every verdict is in the cache, nothing is aligned or read again
            monkeypatch.setattr(gender_run, "_evaluate_language", lambda *a, **k: pytest.fail("computed again"))
        return real_run(suite, settings)

    monkeypatch.setattr(card_build, "run_settings", counted)
    # the rows' own runs in this process, where `counted` sees them (in worker processes: tests/cards/test_card_jobs.py)
    monkeypatch.setattr(card_build.parallel, "workers", lambda jobs, tasks: 1)
    card = discotest.card(system="google", pairs="en-de,en-es", suites="winomt", limit=40, quiet=True)
    assert langs == [["de", "es"], "de", "es"]
    monkeypatch.setattr(card_build, "run_settings", real_run)
    monkeypatch.setattr(gender_run, "_evaluate_language", real_evaluate)
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "afresh"))
    for lang in ("de", "es"):
        own = discotest.run("winomt", lang=lang, system="all", limit=40, quiet=True).results
        assert_row_is_the_runs(card.row(f"en-{lang}/winomt"), own, system="google")
        assert card.row(f"en-{lang}/winomt").lines[0].of == len(own)  # placed among the language's systems
