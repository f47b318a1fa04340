"""The suite-family registry and the one JSON schema: every family's ``--format json`` (one system and several, run
and compare) validates against ``report/schema.json``; ``discotest.run``/``compare`` take the CLI's option names; a
family registered by a test (docs/contributing/adding-a-suite.md followed for real) works from the CLI and Python with
no other change."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pytest

import discotest
from discotest.errors import InputError
from discotest.registry import Family, Settings, register, unregister
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report
from discotest.report.result import Headline, PairedMetric, Result, Signature, build_signature
from discotest.stats import accuracy_from_sums
from tests.support.cli_helpers import assert_one_line_error, run_cli, valid_report

WINOX = Path(__file__).resolve().parents[1] / "fixtures" / "winox"


# ---------------------------------------------------------------- a family of the test's own


@dataclass
class WordResult(Result):
    """Does each translation line contain the suite line's expected word?"""

    family: ClassVar[str] = "words"
    suite: str
    system: str
    signature: Signature
    verdicts: dict[int, bool] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.verdicts)

    def headline(self) -> Headline:
        return Headline("accuracy", 100.0 * sum(self.verdicts.values()) / self.n if self.n else None)

    def summary(self) -> dict:
        return {"correct": sum(self.verdicts.values())}

    def details(self) -> list[dict]:
        return [{"system": self.system, "row": i, "correct": ok} for i, ok in self.verdicts.items()]

    def paired_metrics(self) -> list[PairedMetric]:
        return [PairedMetric("accuracy", {i: (float(ok), 1.0) for i, ok in self.verdicts.items()}, accuracy_from_sums)]


def _run_words(suite: str, s: Settings) -> Report:
    if not s.input or not s.suite_file:
        raise InputError("words needs --input and --suite-file")
    expected = Path(s.suite_file).read_text("utf-8").split()
    lines = Path(s.input).read_text("utf-8").splitlines()
    verdicts = {i: word in line.split() for i, (word, line) in enumerate(zip(expected, lines))}
    name = Path(s.input).name
    signature = build_signature(suite, "test", name, len(verdicts), settings=(("match", "word"),))
    return Report(f"words · {name}", [WordResult(suite, name, signature, verdicts)])


@pytest.fixture
def words_family(tmp_path):
    family = register(Family(
        name="words", title="words", suites=lambda: {"words-test": []},
        options=(shared.INPUT, shared.SUITE_FILE, *shared.EVERY_FAMILY), run=_run_words,
        compare=lambda suite, s: compare_systems(suite, s, _run_words), compare_options=shared.COMPARE,
        doc="a test-only family",
    ))
    (tmp_path / "suite.txt").write_text("cat\ndog\nbird\nfish\n", "utf-8")
    (tmp_path / "a.txt").write_text("a cat\na dog\na bird\na fish\n", "utf-8")
    (tmp_path / "b.txt").write_text("a cat\nno\nno\na fish\n", "utf-8")
    yield tmp_path
    unregister(family.name)


def test_a_registered_family_runs_from_python_and_the_cli(words_family, capsys):
    folder = words_family
    report = discotest.run("words-test", input=str(folder / "a.txt"), suite_file=str(folder / "suite.txt"))
    assert report[0].headline().value == 100.0 and len(report) == 1
    code, out, _ = run_cli(capsys, "run", "words-test", "--input", str(folder / "b.txt"), "--suite-file",
                           str(folder / "suite.txt"), "--format", "json", "--details", str(folder / "d.jsonl"))
    assert code == 0
    doc = valid_report(out)
    assert doc["results"][0]["headline"]["value"] == 50.0 and doc["results"][0]["family"] == "words"
    assert [json.loads(line)["correct"] for line in (folder / "d.jsonl").read_text().splitlines()] == [
        True, False, False, True]
    code, out, _ = run_cli(capsys, "compare", "words-test", "--input", str(folder / "a.txt"), "--input",
                           str(folder / "b.txt"), "--suite-file", str(folder / "suite.txt"), "--format", "json")
    metric = valid_report(out)["comparisons"][0]["metrics"][0]
    assert (metric["a"], metric["b"], metric["sign_test"]["wins_a"], metric["sign_test"]["wins_b"]) == (100, 50, 2, 0)
    code, out, _ = run_cli(capsys, "suites")
    assert "words-test" in out.splitlines()


def test_an_option_the_family_lacks_is_named(words_family, capsys):
    with pytest.raises(InputError, match="no option 'inptu'"):
        discotest.run("words-test", inptu="x")
    code, _, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--system", "demo", "--domain", "GR")
    assert_one_line_error(code, err, "--domain does not apply to suite 'winomt-demo'")
    code, _, err = run_cli(capsys, "run", "nosuite")
    assert_one_line_error(code, err, "unknown suite 'nosuite'")


# ---------------------------------------------------------------- every built-in family against the schema


def test_gender_json_one_and_several_systems(capsys):
    code, out, _ = run_cli(capsys, "run", "winomt-demo", "--lang", "de", "--system", "demo", "--format", "json", "-q")
    one = valid_report(out)
    assert code == 0 and len(one["results"]) == 1 and one["results"][0]["family"] == "gender"
    code, out, _ = run_cli(capsys, "run", "winomt-demo", "--lang", "all", "--system", "demo", "--measure", "all",
                           "--format", "json", "-q", "-j", "1")
    several = valid_report(out)
    assert [r["lang"] for r in several["results"]] == ["de", "es", "fr"]
    assert several["results"][0]["scores"]["accuracy"] == one["results"][0]["scores"]["accuracy"]


def test_gender_compare_on_real_outputs(shared_data, tmp_path):
    report = discotest.compare("winomt", lang="de", system=["google", "bing"], data_dir=str(shared_data))
    doc = valid_report(json.dumps(report.to_json()))
    (accuracy,) = [m for m in doc["comparisons"][0]["metrics"] if m["metric"] == "accuracy"]
    google, bing = report.results
    assert accuracy["n"] == google.n == bing.n == 3886  # the 2019 outputs lack rows 2120 and 2121
    assert (accuracy["a"], accuracy["b"]) == (round(google.scores.accuracy, 2), round(bing.scores.accuracy, 2))
    rows = report.detail_rows()
    pairs = [r for r in rows if "item" in r]  # the items whose verdict changed, with both sides' evidence
    assert len(pairs) == 914 and {"system_a", "system_b", "a", "b", "change", "item"} <= set(pairs[0])
    assert (pairs[0]["system_a"], pairs[0]["system_b"]) == ("google", "bing")


def test_winox_json_and_compare(tmp_path, capsys):
    other = tmp_path / "other.fr.txt"
    lines = (WINOX / "system.fr.txt").read_text("utf-8").splitlines()
    swapped = [line.replace(" il ", " ELLE ").replace(" elle ", " il ").replace(" ELLE ", " elle ") for line in lines]
    other.write_text("\n".join(swapped) + "\n", "utf-8")
    base = ["--lang", "fr", "--suite-file", str(WINOX / "en_fr_test.jsonl"), "--format", "json"]
    code, out, _ = run_cli(capsys, "run", "winox", "--input", str(WINOX / "system.fr.txt"), *base)
    assert code == 0 and valid_report(out)["results"][0]["family"] == "winox"
    code, out, _ = run_cli(capsys, "compare", "winox", "--input", str(WINOX / "system.fr.txt"), "--input",
                           str(other), *base)
    doc = valid_report(out)
    assert code == 0 and len(doc["results"]) == 2 and doc["comparisons"][0]["metrics"][0]["metric"] == "accuracy"
    metric = doc["comparisons"][0]["metrics"][0]
    assert metric["sign_test"]["wins_a"] + metric["sign_test"]["wins_b"] > 0  # the swapped pronouns change verdicts


def test_contrastive_json_run_compare_and_baselines(shared_data, tmp_path, capsys):
    from discotest.contrastive.suites import load_suite

    items = load_suite("voita-deixis-dev", shared_data)
    lines = [c for item in items for c in item.candidates]
    for name, bias in (("a.txt", 1.0), ("b.txt", -1.0)):
        scores = [bias * (k % 2) + 0.01 * i for i, k in enumerate(range(len(lines)))]
        (tmp_path / name).write_text("".join(f"{s}\n" for s in scores), "utf-8")
    code, out, _ = run_cli(capsys, "run", "voita-deixis-dev", "--scores", str(tmp_path / "a.txt"), "--format", "json")
    doc = valid_report(out)
    assert doc["results"][0]["family"] == "contrastive" and doc["results"][0]["lang"] == "en-ru"
    code, out, _ = run_cli(capsys, "compare", "voita-deixis-dev", "--input", str(tmp_path / "a.txt"), "--input",
                           str(tmp_path / "b.txt"), "--format", "json")
    doc = valid_report(out)
    assert doc["comparisons"][0]["metrics"][0]["n"] == len(items)
    api = discotest.run("voita-deixis-dev", scores=str(tmp_path / "a.txt"), data_dir=str(shared_data))
    assert api.to_json()["results"][0]["scores"] == json.loads(
        run_cli(capsys, "run", "voita-deixis-dev", "--scores", str(tmp_path / "a.txt"), "--format", "json")[1]
    )["results"][0]["scores"]


def test_coref_json_and_details(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "coref", "winomt-demo", "--lang", "de", "--system", "demo", "--format", "json",
                           "--details", str(tmp_path / "d.jsonl"), "-q")
    doc = valid_report(out)
    assert code == 0 and doc["results"][0]["family"] == "coref"
    rows = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    assert len(rows) == sum(r["n"] for r in doc["results"]) == 32 and {"system", "row", "resolution"} <= set(rows[0])
    assert [r["system"] for r in doc["results"]][1] == "demo/de"


# ---------------------------------------------------------------- a language of the test's own


@pytest.fixture
def toy_language():
    from discotest.lang import morph

    morph.register_analyser("xx", "tests.support.toy_language:ArticleAnalyser", cost=0.1, extra="dev")
    yield "xx"
    for table in (morph.ANALYSERS, morph.MEASURED_COST, morph.MEASURED_MEMORY, morph.EXTRAS):
        table.pop("xx", None)
    morph.load_analyser.cache_clear()


def test_a_registered_language_runs_end_to_end(toy_language, tmp_path, capsys):
    """The demo suite's German translations read as language "xx" by the toy analyser: the demo system gets rows 3,
    5 and 11 wrong (bundled ABOUT.md), and an article before the aligned entity decides most of the others; the toy
    also misreads row 6, "dankte der Friseurin", whose dative feminine "der" it takes for masculine."""
    from discotest.data import catalogue

    german = catalogue.locate("winomt-demo-demo-de")
    report = discotest.run("winomt-demo", lang="xx", input=str(german), lexicon="off")
    (result,) = report
    assert result.lang == "xx" and "analyser:toy-articles:toy-articles-1" in result.signature.format()
    # no published output in "xx": the aligner trains on the file, with the per-file settings, and the signature says so
    assert result.signature.get("align_text") == "input" and "-i0.5+" in result.signature.get("aligner")
    assert result.n == 16 and result.scores.unknown < 50
    wrong = {v.index for v in result.verdicts if not v.correct and v.predicted_gender != "unknown"}
    assert wrong == {3, 5, 6, 11}
    code, out, _ = run_cli(capsys, "run", "winomt-demo", "--lang", "xx", "--input", str(german), "--lexicon", "off",
                           "--format", "json", "-q")
    assert code == 0 and valid_report(out)["results"][0]["scores"] == result.summary()


def test_the_analyser_rules_version_reaches_the_signature(toy_language, monkeypatch):
    """An analyser's rules version (``GenderAnalyser.rules``) is named in the WinoMT signature beside its tool's
    version: a rule change that moves a number moves the signature with it (dropped, this fails)."""
    from discotest.data import catalogue
    from tests.support.toy_language import ArticleAnalyser

    monkeypatch.setattr(ArticleAnalyser, "rules", "toy-rules-2")
    report = discotest.run("winomt-demo", lang="xx", input=str(catalogue.locate("winomt-demo-demo-de")), lexicon="off")
    assert report.results[0].signature.get("analyser") == "toy-articles:toy-articles-1+toy-rules-2"


def test_compare_from_python_for_the_file_families(shared_data, tmp_path):
    """``discotest.compare`` with the CLI's option names for Wino-X and a contrastive suite (scores files)."""
    report = discotest.compare("winox", lang="fr", input=[str(WINOX / "system.fr.txt")] * 2,
                               suite_file=str(WINOX / "en_fr_test.jsonl"))
    (metric,) = report.comparisons[0].metrics
    assert metric.score_a == metric.score_b and metric.sign.ties == metric.n == 10
    from discotest.contrastive.suites import load_suite

    n = sum(len(item.candidates) for item in load_suite("jazp"))
    (tmp_path / "s.txt").write_text("".join(f"{i % 3}\n" for i in range(n)), "utf-8")
    report = discotest.compare("jazp", input=[str(tmp_path / "s.txt")] * 2, bootstrap=100, seed=1)
    assert report.comparisons[0].metrics[0].bootstrap.n_samples == 100 and len(report.results) == 2


def test_discotest_suites_stays_the_api_function_after_a_run():
    """No subpackage of ``discotest`` is called ``suites`` (the gender wing's loader is ``discotest.gender.suites``), so
    importing the suite loaders (every run does) leaves ``discotest.suites`` the API function (the README's API example
    calls ``discotest.suites()`` after runs)."""
    import discotest.gender.suites  # noqa: F401  (what a run imports)

    assert not (Path(discotest.__file__).parent / "suites").exists()

    discotest.run("winomt-demo", lang="de", system="demo", quiet=True)
    listed = discotest.suites()
    assert callable(discotest.suites) and listed["winomt-demo"] == ["demo (de es fr)"] and "jazp" in listed


def test_max_length_bootstrap_and_seed_are_declared_once():
    """``--max-length``, ``--bootstrap`` and ``--seed`` are the shared options of ``registry.options`` in every family,
    its compare and the card (only a help may say what the option does there): one default each, which the
    translating backends share too (``models.interface.DEFAULT_MAX_LENGTH``)."""
    import dataclasses
    import inspect

    from discotest import cards, families
    from discotest.models.endpoint import EndpointTranslator
    from discotest.models.interface import DEFAULT_MAX_LENGTH
    from discotest.models.translator import ModelTranslator

    once = {o.name: dataclasses.replace(o, help=None) for o in (shared.MAX_LENGTH, shared.BOOTSTRAP, shared.SEED)}
    declared = [o for f in families.families() for o in (*f.options, *f.compare_options)] + list(cards.OPTIONS)
    seen = [o for o in declared if o.name in once]
    assert {o.name for o in seen} == set(once)
    assert all(dataclasses.replace(o, help=None) == once[o.name] for o in seen), \
        [o for o in seen if dataclasses.replace(o, help=None) != once[o.name]]
    assert shared.MAX_LENGTH.default == DEFAULT_MAX_LENGTH
    for backend in (ModelTranslator, EndpointTranslator):
        assert inspect.signature(backend.__init__).parameters["max_length"].default == DEFAULT_MAX_LENGTH
