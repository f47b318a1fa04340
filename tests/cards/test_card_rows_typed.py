"""What the card hands each row, typed (issue 52): the published systems a row is ranked against come from each
family's declared list (``Family.published``), not from parsing the words of ``discotest suites``; a row's run gets
its family's checked Settings, built once (``cards.build.row_settings``), ``--limit`` and ``--max-length`` by those
names."""

from __future__ import annotations

import pytest

from discotest import families
from discotest.cards.build import CardOptions, row_settings
from discotest.cards.groups import rows_of
from discotest.cards.system import SystemSpec, published_names
from discotest.errors import InputError
from discotest.models.interface import DEFAULT_MAX_LENGTH


def _row(key: str):
    return next(row for row in rows_of([key.split("/")[0]]) if row.key == key)


def test_published_names_are_the_families_declared_systems_for_the_pair():
    assert published_names(_row("en-uk/winomt")) == ["google", "bing", "systran"]  # aws has no Ukrainian output
    assert published_names(_row("en-de/winomt")) == ["google", "bing", "aws", "systran", "sota"]
    assert published_names(_row("en-de/ctxpro-auxiliary-en-de-test")) == ["deepl-sentences", "deepl-contexts"]
    assert published_names(_row("ja-en/jazp")) == []
    # every domain's systems, each once, in the registry's order (mZPRT's pair is its only one)
    mzprt = published_names(_row("zh-en/mzprt"))
    assert mzprt[:3] == ["base_tgt", "deep_oracle", "deep_tgt"] and len(mzprt) == len(set(mzprt)) == 13
    # the words ``reference, reference-swapped`` name two systems (parsing them made one name of both)
    assert published_names(_row("ja-en/mittens")) == ["reference", "reference-swapped"]


def test_every_declared_name_is_one_the_suites_words_show():
    """``published`` and ``suites`` say the same: every declared name stands in the suite's line of
    ``discotest suites``."""
    for family in families.families():
        if family.published is None:
            continue
        for suite, words in family.suites().items():
            for name in family.published(suite):
                assert any(name in line for line in words), (suite, name)


def test_a_rows_run_gets_its_familys_settings_with_the_cards_limit_and_max_length():
    model = SystemSpec("model", path="some/model", model_options={"max_length": 64, "beam": 2, "context": [0]})
    settings = row_settings(model, _row("en-de/winomt"), CardOptions(limit=5, quiet=True))
    assert (settings.model, settings.max_length, settings.beam, settings.limit) == ("some/model", 64, 2, 5)
    assert settings.owner == families.family_of("winomt").title
    # a contrastive row scores candidates: no decoding option reaches it, its context sizes do
    scored = row_settings(model, _row("ja-en/jazp"), CardOptions(limit=5, quiet=True))
    assert scored.max_length == DEFAULT_MAX_LENGTH != 64
    assert scored.context == [0] and scored.limit == 5
    with pytest.raises(InputError, match="limit"):
        row_settings(model, _row("en-de/winomt"), CardOptions(limit=-1, quiet=True))


def test_a_filled_row_is_typed_and_its_json_is_the_cards_key_for_key():
    """A card row is a frozen ``FilledRow`` (its lines ``CardLine``s): ``to_json`` gives docs/card.md's keys (an
    ``ok`` row's four more), ``from_json`` reads back an equal row (the cache), and a field cannot be set."""
    import dataclasses
    import json

    from discotest.cards.groups import validity_badge
    from discotest.cards.rows import CardLine, FilledRow, Neighbour

    row = _row("en-de/winomt")
    badge = validity_badge(row, "de")
    line = CardLine("", "de", "accuracy", "%", "higher", 55.0, 1.5, 3886, 3, 5, Neighbour("aws", 58.8, 0.0001),
                    None, {"0": 0.5, "1": 0.75})
    ok = FilledRow(row.pair, row.id, row.suite, row.phenomenon, badge, "ok", None, (line,), "sig", "google",
                   ("a warning",), {"winomt": "0" * 64}, ())
    unfilled = FilledRow(row.pair, row.id, row.suite, row.phenomenon, badge, "unfilled", "no output")
    base = {"pair", "id", "suite", "phenomenon", "validity", "status", "reason", "lines", "signature"}
    assert set(unfilled.to_json()) == base
    assert set(ok.to_json()) == base | {"system", "warnings", "data_files", "not_ranked_against"}
    assert set(ok.to_json()["lines"][0]) == {"scope", "lang", "metric", "unit", "better", "value", "ci95", "n",
                                             "rank", "of", "above", "below", "by_distance"}
    assert "by_distance" not in dataclasses.replace(line, by_distance=None).to_json()
    for each in (ok, unfilled, dataclasses.replace(ok, signature=("a", "b"))):
        assert FilledRow.from_json(json.loads(json.dumps(each.to_json()))) == each
    assert ok.to_json()["validity"] == {"sample": "in", "text": badge.text, "figure": "94.7%", "hand_check": None,
                                        "headline": badge.headline, "section": badge.section}
    with pytest.raises(dataclasses.FrozenInstanceError):
        ok.status = "failed"  # type: ignore[misc]


class _Scored:
    """A result of a fake run: one accuracy over four items, ``own`` as its run marks it."""

    suite, lang, scope = "jazp", None, None

    def __init__(self, system: str, right: int, own: bool) -> None:
        self.system, self.right, self.own = system, right, own
        self.signature = None

    def summary(self) -> dict:
        return {}

    def details(self) -> list[dict]:
        return [{"item": i, "ok": i < self.right} for i in range(4)]

    def ranked_metrics(self) -> list:
        from discotest.report.result import PairedMetric

        rows = {i: (float(i < self.right), 1.0) for i in range(4)}
        return [PairedMetric("accuracy", rows, lambda sums: float(100 * sums[0] / sums[1]))]


@pytest.mark.parametrize("named", [{"kind": "outputs", "folder": "/some/where"}, {"kind": "model", "path": "/a/model"}])
def test_a_row_is_filled_with_the_results_its_run_marks_own(monkeypatch, named):
    """``fill_row`` reads which results are the system's from the run (``Result.own``), whatever they are named: the
    own one fills the row, those the run ranks it among are its ranking, and a published system whose outputs equal
    the system's is left out of it (said on the row)."""
    from discotest.cards import build as card_build
    from discotest.report.emit import Report

    results = [_Scored("WMT-A", 3, False), _Scored("any name at all", 2, True), _Scored("WMT-B", 1, False),
               _Scored("WMT-C", 2, False)]
    monkeypatch.setattr(card_build, "_own_run", lambda row, settings, gathered: Report("fake", results))
    monkeypatch.setattr(card_build, "row_settings", lambda *a, **k: None)
    row = _row("ja-en/jazp")
    system = SystemSpec(**named, files={row.key: "x.scores"}, label="mine")
    _, mine, (line,), equal = card_build._compute(system, row, {}, CardOptions(bootstrap=100, seed=1))
    assert [r.system for r in mine] == ["any name at all"]
    assert (line.value, line.rank, line.of, line.above.system, line.below.system) == (50.0, 2, 3, "WMT-A", "WMT-B")
    assert equal == ["WMT-C: its outputs equal this system's"]


def test_a_system_is_named_by_its_kinds_one_field():
    """``SystemSpec``: a published name, a folder, a model's path or a URL, each in a field of its own, and only the
    one of its kind (no field that holds any of the four depending on the kind)."""
    assert SystemSpec("published", published="google").given == "google"
    assert SystemSpec("outputs", folder="/x/mine/").name == "mine"
    assert SystemSpec("endpoint", url="http://127.0.0.1:9/v1", served_model="m").name == "m"
    with pytest.raises(ValueError, match="named by folder alone"):
        SystemSpec("outputs", path="/x/mine")
    with pytest.raises(ValueError, match="named by url alone"):
        SystemSpec("endpoint", url="http://127.0.0.1:9/v1", published="google")


@pytest.mark.parametrize(("key", "one_run"), [("en-de/winomt", True), ("en-de/ctxpro-auxiliary-en-de-test", False)])
def test_the_published_systems_beside_a_row_are_what_their_runs_mark_own(monkeypatch, key, one_run):
    """``_published_results``: one run of ``--system all`` where the row's family's ``--system`` takes a list, one run
    per published system where it takes one name (``runs_all``: the family's declaration, not a flag of the row), and
    of each run only what it marks the system's (``Result.own``), a one-name run's under the name it was asked by."""
    from discotest.cards import build as card_build
    from discotest.cards.system import runs_all
    from discotest.report.emit import Report

    asked = []

    def run(suite, settings):
        asked.append(settings.system)
        named = "google" if settings.system == "all" else f"{settings.system}.file.de"
        return Report("fake", [_Scored(named, 2, True), _Scored("ranked beside it", 1, False)])

    monkeypatch.setattr(card_build, "run_settings", run)
    row = _row(key)
    assert runs_all(row) is one_run
    got = card_build._published_results(row, CardOptions(), exclude="")
    names = published_names(row)
    assert asked == (["all"] if one_run else names) and len(names) >= 2
    assert [r.system for r in got] == (["google"] if one_run else names)
    with pytest.raises(InputError, match="takes one value, not a list"):  # a CTXPRO run takes one system
        families.settings_for(families.family_of("ctxpro-auxiliary-en-de-test"), {"system": names})
