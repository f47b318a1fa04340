"""``registry.Settings``: a family reads its checked options as attributes (``s.align_train``). A misspelt name
fails where it is written, naming the owner's options; ``replace`` takes declared names only and checks each value
as the command line would; every family's ``run`` and ``compare`` receive Settings from the registry, and a
compare's per-system runs do too."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

import discotest
import discotest.families  # noqa: F401  (registers the built-in families)
from discotest import registry
from discotest.errors import InputError
from discotest.registry import Family, Option, Settings, checked_settings, family_of, register, settings_for, unregister
from discotest.registry import options as shared
from discotest.registry.two_systems import compare_systems
from discotest.report.emit import Report


def _gender() -> Settings:
    return settings_for(family_of("winomt"), {"lang": "de", "beam": "5"})


def test_a_misspelt_attribute_fails_at_once_naming_the_owner_and_its_options():
    s = _gender()
    assert s.align_train == "suite" and s.beam == 5 and s.lang == "de"  # the default; parsed; as given
    with pytest.raises(AttributeError) as caught:
        s.align_trian  # noqa: B018
    message = str(caught.value)
    assert message.startswith("the gender suites") and "no option 'align_trian'" in message
    assert "did you mean 'align_train'" in message and "its options: " in message
    assert all(name in message.split("its options: ")[1] for name in ("aligner", "beam", "verdict"))


def test_replace_takes_declared_names_only_and_checks_each_value():
    s = _gender()
    changed = s.replace(beam="8", align_train="input")
    assert (changed.beam, changed.align_train) == (8, "input") and (s.beam, s.align_train) == (5, "suite")
    assert isinstance(changed, Settings) and changed.owner == s.owner
    with pytest.raises(InputError, match="no option 'bleu'"):  # mzprt's option, not the gender suites'
        s.replace(bleu=True)
    with pytest.raises(InputError, match="--align-train must be one of suite, input, not 'inptu'"):
        s.replace(align_train="inptu")
    with pytest.raises(InputError, match="argument --beam"):
        s.replace(beam="five")
    with pytest.raises(AttributeError, match="immutable"):
        s.beam = 3
    with pytest.raises(AttributeError, match="no option 'inptu'"):
        s.without("inptu")


def test_settings_stay_a_mapping_for_json_and_keywords():
    s = _gender()
    as_dict = dict(s)
    assert as_dict["align_train"] == "suite" and set(as_dict) == {o.name for o in family_of("winomt").options}
    assert (lambda **kw: kw)(**s) == as_dict and s.get("limit") is None and "bleu" not in s
    copied = pickle.loads(pickle.dumps(s))  # a worker process's copy: the values and the declared names
    assert copied == s and copied.beam == 5 and copied.replace(beam=6).beam == 6
    with pytest.raises(InputError, match="no option 'bleu'"):
        copied.replace(bleu=True)
    assert "beam" not in s.without("beam", "lang") and len(s.without("beam", "lang")) == len(s) - 2


def test_an_option_named_like_a_mapping_method_is_a_declaration_error():
    with pytest.raises(ValueError, match="'items' is a Settings attribute"):
        checked_settings((Option("items", ("--items",), "a clash"),), {}, "test")


def test_every_family_run_receives_settings(monkeypatch):
    """Each registered family's run (or, for a family in two phases, its first phase, and its first stage where it
    has one), called through the registry, gets Settings with attribute access to each of its declared options."""
    from discotest.models.requests import Asked

    seen: dict[str, Settings] = {}
    staged: dict[str, Settings] = {}
    for family in registry.families():
        def record(suite: str, s: Settings, name: str = family.name) -> Report:
            seen[name] = s
            return Report(suite, [])

        def ask(suite: str, s: Settings, stage: Any = None, name: str = family.name,
                has_stage: bool = family.cpu_stage is not None) -> Asked:
            assert stage == (name if has_stage else None)  # the first stage's result, where there is one
            seen[name] = s
            return Asked(())

        def stage(suite: str, s: Settings, name: str = family.name) -> str:
            staged[name] = s
            return name

        phases = dict(requests=ask, score=lambda suite, s, asked, answers: Report(suite, []),
                      cpu_stage=stage if family.cpu_stage else None) if family.requests else {}
        monkeypatch.setitem(registry._FAMILIES, family.name, dataclasses.replace(family, run=record, **phases))
        suite = next(iter(family.suites()))
        registry.run_settings(suite, registry.settings_for(family, {}))
        s = seen[family.name]
        assert isinstance(s, Settings) and all(getattr(s, o.name) == s[o.name] for o in family.options)
        assert staged.get(family.name, s) is s
    assert set(seen) == {f.name for f in registry.families()} and len(seen) >= 7  # the seven built-in ones
    assert "dip" in staged  # DiP parses and mines before it states its requests


@pytest.fixture
def echo_family(tmp_path):
    """A tiny family whose run records what it was given; its compare goes through ``two_systems``."""
    given: list[Settings] = []

    def run(suite: str, s: Settings) -> Report:
        given.append(s)
        assert s.input  # attribute access, as every family reads its settings
        return Report(suite, [])

    family = register(Family(name="echo", title="echo", suites=lambda: {"echo-test": []},
                             options=(shared.INPUT, *shared.EVERY_FAMILY), run=run,
                             compare=lambda suite, s: compare_systems(suite, s, run),
                             compare_options=shared.COMPARE))
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("x\n", "utf-8")
    yield tmp_path, given
    unregister(family.name)


def test_compare_gives_each_system_settings_of_its_own(echo_family):
    folder, given = echo_family
    discotest.run("echo-test", input=str(folder / "a.txt"), quiet=True)
    with pytest.raises(InputError, match="share no language"):  # the tiny family has no results to pair
        discotest.compare("echo-test", input=[str(folder / "a.txt"), str(folder / "b.txt")], quiet=True)
    assert all(isinstance(s, Settings) for s in given) and len(given) == 3
    assert [Path(s.input).name for s in given] == ["a.txt", "a.txt", "b.txt"]
    assert [s.system for s in given[1:]] == [None, None] and given[1].bootstrap == 1000


def test_a_family_declares_its_phases_whole():
    """Requests without score, or a first stage without requests, is a declaration error at registration."""
    run = lambda suite, s: Report(suite, [])  # noqa: E731
    for phases in ({"requests": lambda suite, s: None}, {"cpu_stage": lambda suite, s: None}):
        with pytest.raises(ValueError, match="phases|first stage"):
            register(Family(name="half", title="half", suites=lambda: {"h": []}, options=(), run=run, **phases))
    assert "half" not in {f.name for f in registry.families()}
