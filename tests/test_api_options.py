"""Every command's options are declared once (``Option``s): the API refuses an unknown or ill-typed keyword as the
command line refuses the flag, in one line naming it, before any work (no file is read, no model loaded)."""

from __future__ import annotations

import pytest

from discotest import api
from discotest.errors import InputError

# command -> (its API call with the given keywords, a keyword of the command that must be a positive whole number)
CALLS = {
    "coref": (lambda **kw: api.coref("winomt", **kw), "jobs"),
    "translate": (lambda **kw: api.translate("de", suite="winomt", model="m", **kw), "beam"),
    "augment": (lambda **kw: api.augment("in.txt", "out.jsonl", **kw), "chunk_size"),
    "finetune": (lambda **kw: api.finetune("m", "d.jsonl", "out", **kw), "steps"),
    "validate sample": (lambda **kw: api.validate_sample("winomt", "de", "s.csv", system="google", **kw), "n"),
    "validate score": (lambda **kw: api.validate_score("s.csv", **kw), "n_samples"),
    "make-contrastive": (lambda **kw: api.make_contrastive("rows.jsonl", **kw), None),
    "data fetch": (lambda **kw: api.data_fetch(["mzprt-QA-src"], **kw), None),
    "mine dip": (lambda **kw: api.mine("dip", output="out", **kw), "max_docs"),
}


@pytest.mark.parametrize("command", sorted(CALLS))
def test_an_unknown_keyword_is_refused_in_one_line(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written: the refusal comes first
    call, _ = CALLS[command]
    with pytest.raises(InputError) as caught:
        call(bogus_option=1)
    message = caught.value.one_line()
    assert "\n" not in message and "'bogus_option'" in message and "--bogus-option" in message, message
    assert message.startswith(command), message
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command", sorted(c for c, (_, number) in CALLS.items() if number))
def test_an_ill_typed_keyword_is_refused_as_on_the_command_line(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    call, number = CALLS[command]
    flag = "-n" if number == "n" else f"--{number.replace('_', '-')}"
    with pytest.raises(InputError, match=f"argument {flag}: expected a whole number"):
        call(**{number: "many"})
    with pytest.raises(InputError, match=f"{flag} must be between"):
        call(**{number: -3})
    assert not list(tmp_path.iterdir())


def test_a_choice_outside_the_declared_ones_is_refused():
    with pytest.raises(InputError, match=r"--select must be one of coref, gender, not 'genre'"):
        api.augment("in.txt", "out.jsonl", select="genre")
    with pytest.raises(InputError, match=r"--resolver must be one of"):
        api.coref("winomt", resolver=["rule"])
