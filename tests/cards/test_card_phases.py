"""The card asks before it scores (issue 52): the rows of families that run in two phases (``Family.requests``,
``Family.score``) have their requests stated and sent, in row order, before the first of them is scored; a row of a
family with one phase runs whole in its place (so the model is still asked in row order); a row whose model fails
fails alone. Two test-only families record what happens, in order; the model is a translator object of the test's
own, handed over through the ``Ask``s as a family hands over the door's."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from discotest.cards.build import CardOptions, build_card
from discotest.cards.groups import CardRow
from discotest.cards.system import SystemSpec
from discotest.errors import InputError
from discotest.models.requests import Ask, Asked, TranslateRequest
from discotest.registry import Family, Settings, register, unregister
from discotest.registry import options as common
from discotest.report.emit import Report


class _Recording:
    """A translator that logs each call (``answer <model>: <sources>``) and answers with the sources upper-cased;
    the model named ``broken`` fails as a server error would."""

    backend, context_prompt = "test", False

    def __init__(self, name: str, events: list[str]) -> None:
        self.name, self.events = name, events

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]:
        self.events.append(f"answer {self.name}: {','.join(sources)}")
        if self.name == "broken":
            raise InputError("the server answered 500")
        return [s.upper() for s in sources]


@pytest.fixture
def events(monkeypatch, tmp_path) -> list[str]:
    """The log, and two families: ``phased`` (two phases: it asks for its suite's name, then scores the answer) and
    ``whole`` (one phase: its run asks the same model itself)."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    log: list[str] = []

    def requests(suite: str, s: Settings) -> Asked:
        log.append(f"ask {suite}")
        return Asked((Ask(_Recording(s.model, log), (TranslateRequest(suite),)),), suite)

    def score(suite: str, s: Settings, asked: Asked, answers: list[list[str]]) -> Report:
        log.append(f"score {suite}: {answers[0][0]}")
        return Report(suite, [])

    def whole(suite: str, s: Settings) -> Report:
        log.append(f"run {suite}: {_Recording(s.model, log).translate([suite])[0]}")
        return Report(suite, [])

    options = (common.MODEL, common.ENDPOINT, *common.EVERY_FAMILY)
    register(Family(name="phased", title="phased", suites=lambda: {"p1": [], "p2": [], "p3": []}, options=options,
                    run=lambda suite, s: score(suite, s, requests(suite, s), []), requests=requests, score=score))
    register(Family(name="whole", title="whole", suites=lambda: {"w1": []}, options=options, run=whole))
    yield log
    unregister("phased")
    unregister("whole")


def _rows(*suites: str) -> list[CardRow]:
    return [CardRow("xx-yy", suite, suite, "test", takes=("endpoint",), rank=False) for suite in suites]


def test_every_rows_requests_go_out_in_row_order_before_any_row_is_scored(events):
    """p1 and p2 are asked, answered, then scored; w1 runs whole in its place; p3 after it."""
    system = SystemSpec("endpoint", url="http://127.0.0.1:9/v1", served_model="m")
    card = build_card(system, _rows("p1", "p2", "w1", "p3"), ["xx-yy"], CardOptions(quiet=True, use_cache=False))
    assert [row.status for row in card.rows] == ["ok"] * 4
    assert events == ["ask p1", "ask p2", "answer m: p1", "answer m: p2", "score p1: P1", "score p2: P2",
                      "answer m: w1", "run w1: W1",
                      "ask p3", "answer m: p3", "score p3: P3"]


def test_a_row_whose_model_fails_fails_alone_in_one_line(events):
    """The broken model's row fails with the server's line; it is not asked again when the row is scored."""
    system = SystemSpec("endpoint", url="http://127.0.0.1:9/v1", served_model="broken")
    card = build_card(system, _rows("p1", "p2"), ["xx-yy"], CardOptions(quiet=True, use_cache=False))
    assert [(row.status, row.reason) for row in card.rows] == [
        ("failed", "the server answered 500"), ("failed", "the server answered 500")]
    assert events == ["ask p1", "ask p2", "answer broken: p1", "answer broken: p2"]
