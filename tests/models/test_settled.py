"""A model whose requests are answered travels to the card's row workers as what its score phase reads of it
(``models.requests.settled``): its plain values and its signature, no weights, no client; asked anything, it says so.
A run travels only where its family's score phase reads nothing but the answers (``registry.packed``)."""

from __future__ import annotations

import pickle
from collections.abc import Sequence

import pytest

from discotest.models.interface import Scorer, ScoreRequest
from discotest.models.language_watch import watched, watching
from discotest.models.requests import Ask, Asked, Settled, TranslateRequest, settled
from discotest.registry import Phased, family_of, packed, settings_for, unpacked


class _Translator:
    """A translator of the interface's calls, with a client that cannot pickle (a served model's has a lock)."""

    name = "org/tiny"
    backend = "endpoint"
    context_prompt = True

    def __init__(self) -> None:
        import threading

        self.client = threading.Lock()
        self.max_length = 16
        self.cut = {"a cut answer"}

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]:
        return [s.upper() for s in sources]

    def translate_in_context(self, sources, contexts, desc=None) -> list[str]:
        return self.translate(sources, desc)

    def signature_fields(self) -> list[tuple[str, str]]:
        return [("model", self.name), ("max_len", str(self.max_length))]


class _Scorer(Scorer):
    name, kind = "org/scorer", "endpoint"

    def signature_fields(self, k: int) -> list[tuple[str, str]]:
        return [("model", self.name), ("context", str(k))]


def test_a_settled_translator_says_what_it_was_and_asks_nothing():
    with watching():
        model = watched(_Translator(), "de")
    stand_in = pickle.loads(pickle.dumps(settled(model)))
    assert isinstance(stand_in, Settled)
    assert (stand_in.name, stand_in.backend, stand_in.context_prompt, stand_in.max_length) == (
        "org/tiny", "endpoint", True, 16)
    assert stand_in.cut == {"a cut answer"} and stand_in.signature_fields() == model.signature_fields()
    with pytest.raises(AttributeError, match="client"):
        stand_in.client  # noqa: B018 - what the score phase was not given
    with pytest.raises(RuntimeError, match="asked after its answers"):
        stand_in.translate(["x"])


def test_a_settled_scorer_keeps_its_signature_at_each_size_asked():
    stand_in = pickle.loads(pickle.dumps(settled(_Scorer(), (0, 2))))
    assert stand_in.signature_fields(2) == [("model", "org/scorer"), ("context", "2")]
    assert [stand_in.system_name(k) for k in (0, 2)] == ["scorer@ctx0", "scorer@ctx2"]
    assert (stand_in.kind, stand_in.normalise, stand_in.takes_context) == ("endpoint", False, True)
    with pytest.raises(RuntimeError, match="asked after its answers"):
        stand_in.score_contexts([ScoreRequest("s", ("a", "b"))], [0])


def test_a_run_travels_with_its_models_stood_in_for_where_its_score_phase_reads_only_answers():
    """A MiTTenS run's first phase (its family a module's FAMILY) travels, the translator in its ask (and wherever its
    state holds it) replaced by one stand-in; DiP's, whose score phase asks its pronoun scorer, does not."""
    translator = _Translator()
    family = family_of("mittens")
    settings = settings_for(family, {"lang": "ja", "endpoint": "http://127.0.0.1:9/v1"})
    run = Phased(family, "mittens", settings, Asked((Ask(translator, (TranslateRequest("x"),)),), (translator, "s")),
                 [], [], [])
    back, answers = unpacked(packed(run, [["X"]]))
    assert back.family is family and answers == [["X"]] and dict(back.settings) == dict(settings)
    assert isinstance(back.asked.asks[0].model, Settled) and back.asked.state[0] is back.asked.asks[0].model
    dip = family_of("dip")
    assert packed(Phased(dip, "dip", settings_for(dip, {}), run.asked, [], [], []), [["X"]]) is None
