"""The card's rows scored in worker processes (``cards.parallel``, ``--jobs``): the card is byte for byte the one a
single process makes, rows in row order, each row filled whole in a worker where it has no model of the card's
process, a model's row scored there from its answers; a worker that dies loses no row."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import discotest
from discotest.cards import parallel
from discotest.cards.build import make_card


def _card_json(tmp_path: Path, monkeypatch, name: str, jobs: int, **options) -> tuple[str, list[int]]:
    """The card in a cache of its own (``name``) with ``jobs`` workers, and the rows it handed to a worker."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / f"cache-{name}"))
    submitted: list[int] = []
    real = parallel.RowPool.submit
    monkeypatch.setattr(parallel.RowPool, "submit",
                        lambda self, index, *a: submitted.append(index) or real(self, index, *a))
    try:
        card = discotest.card(jobs=jobs, quiet=True, **options)
    finally:
        monkeypatch.setattr(parallel.RowPool, "submit", real)
    return json.dumps(card.to_json(), ensure_ascii=False, sort_keys=True), submitted


@pytest.fixture
def google_folder(shared_data, tmp_path) -> Path:
    """Google's published en-de WinoMT and WinoMT-adj translations as an outputs folder of a system named mine."""
    folder = tmp_path / "outputs"
    folder.mkdir()
    translations = shared_data / "mt_gender" / "translations" / "google"
    shutil.copy(translations / "en-de.txt", folder / "winomt.de.txt")
    shutil.copy(translations / "adj.en-de.txt", folder / "adj.de.txt")
    (folder / "manifest.json").write_text(json.dumps(
        {"system": "mine", "files": {"en-de/winomt": "winomt.de.txt", "en-de/winomt-adj": "adj.de.txt"}}))
    return folder


@pytest.mark.parametrize("system", ["published", "outputs"])
def test_the_card_is_the_same_with_one_worker_and_two(shared_data, tmp_path, monkeypatch, google_folder, system):
    """Real rows that need no model, each run in a fresh cache: one process, then two workers (the rows' runs and
    rankings in the workers): the same JSON, byte for byte. A folder's rows run whole in the workers; a published
    system's rows run their languages together first (``_run_together``), then rank in the workers."""
    given = {"system": "google"} if system == "published" else {"outputs": str(google_folder)}
    options = {**given, "pairs": "en-de", "suites": "winomt,winomt-adj", "limit": 40}
    alone, none = _card_json(tmp_path, monkeypatch, "one", 1, **options)
    beside, rows = _card_json(tmp_path, monkeypatch, "two", 2, **options)
    assert none == [] and rows == [0, 1]  # one job: no pool; two: both rows in the workers
    assert beside == alone
    card = json.loads(beside)
    assert [row["status"] for row in card["rows"]] == ["ok", "ok"]
    assert [row["id"] for row in card["rows"]] == ["winomt", "winomt-adj"]
    again, rows = _card_json(tmp_path, monkeypatch, "two", 2, **options)
    assert again == alone and rows == []  # a finished card is read back here: no worker is started for it
    # the HTML card keeps each row's own report (its rows are run, not read back): a worker hands it back whole
    pages = [{key: report.render("text") for key, report in
              make_card(keep_reports=True, jobs=jobs, quiet=True, **options).reports.items()} for jobs in (1, 2)]
    assert list(pages[0]) == ["en-de/winomt", "en-de/winomt-adj"] and pages[1] == pages[0]


def _dies_in_a_worker(parent: int) -> int:
    if os.getpid() != parent:
        os._exit(1)
    return os.getpid()


def test_a_worker_that_dies_loses_no_row():
    """A worker killed under its row (for memory, say) breaks the pool: the row, and every other still to take, is
    then run in the card's process instead of being lost."""
    with parallel.row_pool(2, quiet=True) as pool:
        assert pool is not None
        for index in range(3):
            pool.submit(index, _dies_in_a_worker, os.getpid())
        assert [pool.take(index).value for index in range(3)] == [os.getpid()] * 3


def test_one_job_or_one_row_starts_no_pool():
    assert parallel.workers(None, 1) == 1 and parallel.workers(1, 9) == 1 and parallel.workers(4, 2) == 2
    assert parallel.workers(None, 64) == (os.cpu_count() or 1)
    with parallel.row_pool(1, quiet=True) as pool:
        assert pool is None


def test_a_local_models_rows_are_scored_in_the_workers_from_their_answers(shared_data, tmp_path, monkeypatch,
                                                                          tiny_llms):
    """A local model's two contrastive rows (its candidates' log-probabilities, a quick look of 4 items each), each
    card in a fresh cache: the model scores every candidate in the card's process, in row order; with two jobs each
    row's score phase then goes to a worker, the scorer stood in for by its name and signature at each context size
    (``models.requests.Settled``): the same JSON as one process makes, byte for byte."""
    options = {"model": str(tiny_llms["llama3_1"]), "pairs": "ja-en", "suites": "jazp,bsd-zp-ja-en-test", "limit": 4}
    alone, none = _card_json(tmp_path, monkeypatch, "one", 1, **options)
    beside, rows = _card_json(tmp_path, monkeypatch, "two", 2, **options)
    assert none == [] and rows == [0, 1]
    assert beside == alone
    assert [row["status"] for row in json.loads(beside)["rows"]] == ["ok", "ok"]


def _fails(value: int) -> int:
    if value < 0:
        raise ValueError(value)
    return value


def test_a_rows_work_ahead_is_taken_once_or_left_to_its_own_task():
    """``RowPool.ahead``: a row's work started before its own task; ``readied`` waits for its value, once. Where it
    failed, its worker died, or none was started, ``readied`` gives None (the row's own task does that work and says
    why it fails): a row is never lost to its preparation."""
    with parallel.row_pool(2, quiet=True) as pool:
        assert pool is not None
        pool.ahead(0, _fails, 5)
        pool.ahead(1, _fails, -1)
        assert pool.readied(0) == 5 and pool.readied(0) is None  # taken once
        assert pool.readied(1) is None and pool.readied(2) is None
        assert not pool.getting_ready(0) and not pool.getting_ready(2)
        pool.ahead(3, _dies_in_a_worker, os.getpid())
        assert pool.readied(3) is None
        pool.submit(3, _fails, 7)
        assert pool.take(3).value == 7  # the broken pool's row runs here
