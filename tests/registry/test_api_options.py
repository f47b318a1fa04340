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


def _subparser(parser, *path):
    for name in path:
        action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        parser = action.choices[name]
    return parser


def test_each_command_line_flag_is_built_from_the_declaration():
    """The flags of every command are its declared Options (the global ones on every parser), with their defaults:
    ``finetune --revision`` is there because ``FINETUNE_OPTIONS`` names the shared ``REVISION``."""
    from discotest.cli.dispatch import build_parser
    from discotest.gender import commands as gender
    from discotest.registry import commands as other
    from discotest.registry.options import GLOBAL_OPTIONS

    declared = {("translate",): gender.TRANSLATE_OPTIONS, ("augment",): gender.AUGMENT_OPTIONS,
                ("finetune",): gender.FINETUNE_OPTIONS, ("coref",): gender.COREF_OPTIONS,
                ("validate", "sample"): gender.VALIDATE_SAMPLE_OPTIONS,
                ("validate", "score"): gender.VALIDATE_SCORE_OPTIONS, ("data", "fetch"): other.DATA_FETCH_OPTIONS,
                ("data", "prepare"): other.DATA_PREPARE_OPTIONS, ("suites",): other.SUITES_OPTIONS,
                ("make-contrastive",): other.MAKE_CONTRASTIVE_OPTIONS}
    parser = build_parser()
    for path, options in declared.items():
        actions = {a.dest: a for a in _subparser(parser, *path)._actions}
        for option in (*options, *GLOBAL_OPTIONS):
            assert option.name in actions, (path, option.name)
            assert tuple(actions[option.name].option_strings) == option.flags, (path, option.name)
            if option.name not in {o.name for o in GLOBAL_OPTIONS}:
                assert actions[option.name].default == option.default, (path, option.name)
    args = parser.parse_args(["finetune", "-m", "m", "--data", "d", "-o", "out", "--revision", "abc123"])
    assert args.revision == "abc123"


def test_dip_phenomena_are_checked_once_in_their_declared_order(tmp_path, monkeypatch):
    """``--phenomena`` is one declared check (values.subset_option): the API and the wing's own functions refuse an
    unknown name alike, and a subset comes back in DiP's order whichever order it was given in."""
    from discotest.dip.names import CHECK_PHENOMENA

    monkeypatch.chdir(tmp_path)
    assert CHECK_PHENOMENA("anaphora,lexical") == ["lexical", "anaphora"]
    assert CHECK_PHENOMENA.check(["coherence", "lexical"]) == ["lexical", "coherence"]
    with pytest.raises(InputError, match="unknown lexicl"):
        api.mine("dip", output="out", pair="de-en", phenomena="lexicl")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("suite,where,given,known", [("winomt", {"lang": "de"}, "wmt", "auto, none, published"),
                                                     ("mzprt", {"domain": "QA"}, "published", "wmt, none")])
def test_align_extra_takes_each_familys_own_vocabulary(suite, where, given, known):
    """The gender suites and mzprt add different texts to the aligner: each family declares its own choices, so a
    value of the other's is refused by the one check, naming the choices this suite has."""
    with pytest.raises(InputError, match=f"must be one of {known}, not '{given}'"):
        api.run(suite, **where, system="all", align_extra=given)


def test_a_single_value_option_refuses_a_list_as_the_command_line_would(tmp_path, monkeypatch):
    """Issue 40 (6c): ``--input`` takes one file, so ``input=["a.txt"]`` is refused in one line naming the flag
    before any work (it used to pass the list on); options that are lists on the command line keep taking one."""
    import discotest
    from discotest.registry import families, family_of, settings_for

    monkeypatch.chdir(tmp_path)
    for call, flag in ((lambda: discotest.run("winomt", lang="de", input=["a.txt"]), "--input"),
                       (lambda: discotest.run("winomt", lang="de", system="google", aligner=("fast_align",)),
                        "--aligner"),
                       (lambda: discotest.run("mzprt", domain="QA", input="a.txt", window=[2]), "--window"),
                       (lambda: api.translate(["de"], suite="winomt", model="m"), "--lang")):
        with pytest.raises(InputError) as caught:
            call()
        message = caught.value.one_line()
        assert f"{flag} takes one value, not a list" in message and "\n" not in message, message
    assert not list(tmp_path.iterdir())
    gender = family_of("winomt")
    settings = settings_for(gender, {"lang": ["de", "fr"], "system": ["google"], "measure": ["consistency"]})
    assert settings["lang"] == ["de", "fr"] and settings["system"] == ["google"]
    compared = settings_for(gender, {"input": ["a.txt", "b.txt"]}, compare=True)  # compare's --input repeats
    assert compared["input"] == ["a.txt", "b.txt"]
    # every declared option of every family: a list is a value exactly where the command line takes several
    for family in families():
        for option in (*family.options, *family.compare_options):
            if option.action in ("store_true", "store_false"):
                continue
            if option.takes_list:
                option.check([])
            else:
                with pytest.raises(InputError, match="takes one value"):
                    option.check(["x"])
