"""Every example of the README and of the docs pages (docs/, in mkdocs.yml's order) still parses: each ``discotest``
command line is accepted by the CLI's parser, names a suite that exists and options of that suite's family, and each
Python block compiles and calls ``discotest.run``/``compare`` with options the family has. That the examples also
*run* as written, in a fresh clone, is bench/release/readme_examples.py (minutes: it mines and ranks DiP); its last
figures are in the closing note of issue 13. The README stays a short front page that starts with scoring one's own
file."""

from __future__ import annotations

import ast

import pytest

from discotest import cli, registry
from discotest.cli.parsers import compare_options, family_options
from tests.support.readme_examples import README, discotest_argv, examples, shown_outputs

EXAMPLES = examples()
SHELL = [e for e in EXAMPLES if e.kind == "shell" and discotest_argv(e.text) is not None]
PYTHON = [e for e in EXAMPLES if e.kind == "python"]


def test_the_readme_is_a_short_page_that_scores_your_own_file_on_its_first_screen():
    """Issue 26: a newcomer took 5-10 minutes to find how to score their own file in a 1,040-line README."""
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move the detail into a docs/ page"
    own = [e for e in SHELL if e.path == "README.md" and "--input" in (discotest_argv(e.text) or [])]
    assert own and own[0].line <= 45, "the README's first command that scores a file of one's own comes too late"


def test_the_examples_come_from_the_readme_and_the_docs_pages():
    paths = {e.path for e in EXAMPLES}
    assert "README.md" in paths and {"docs/gender.md", "docs/zero-pronouns.md", "docs/dip.md"} <= paths


def test_the_readme_has_examples_of_every_family_and_few_that_need_a_network():
    suites = {argv[argv.index(c) + 1] for e in SHELL if (argv := discotest_argv(e.text))
              for c in ("run", "compare") if c in argv}
    assert {registry.family_of(s).name for s in suites} == {f.name for f in registry.families()}
    offline = [e for e in SHELL if e.runnable]
    # '# your model' lines (Evaluating an LLM) need the user's LLM, not a network: they are checked to parse only
    needy = [e.text for e in SHELL if not e.runnable and not e.user_model]
    assert len(offline) >= 40 and len(needy) <= 8, needy


@pytest.mark.parametrize("example", SHELL, ids=lambda e: e.where)
def test_command_parses_with_options_of_its_family(example):
    argv = discotest_argv(example.text)
    try:
        args = cli.build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse's own error
        pytest.fail(f"{example.where}: the parser refuses {argv} (exit {exc.code})")
    if args.command in ("run", "compare"):
        family = registry.family_of(args.suite)
        options = family.options if args.command == "run" else compare_options(family)
        family_options(args, options)  # an option of another family raises InputError


def _calls(tree: ast.AST):
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "discotest"
                and node.func.attr in ("run", "compare") and node.args and isinstance(node.args[0], ast.Constant)):
            yield node.func.attr, node.args[0].value, [k.arg for k in node.keywords if k.arg]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and isinstance(node.func.value, ast.Name) and node.func.value.id == "discotest"
              and node.func.attr == "card"):
            yield "card", None, [k.arg for k in node.keywords if k.arg]


@pytest.mark.parametrize("example", PYTHON, ids=lambda e: e.where)
def test_python_block_calls_the_api_with_options_of_each_family(example):
    tree = ast.parse(example.text)
    calls = list(_calls(tree))
    assert calls, "a Python example that calls none of discotest.run, discotest.compare and discotest.card"
    for what, suite, keywords in calls:
        if what == "card":
            from discotest.cards import card_settings

            card_settings(dict.fromkeys(keywords))  # an option the card does not take raises InputError
            continue
        family = registry.family_of(suite)
        registry.settings_for(family, dict.fromkeys(keywords), compare=what == "compare")


@pytest.mark.parametrize("shown", shown_outputs(), ids=lambda s: f"README.md:{s[0]}")
def test_the_readme_example_prints_what_the_readme_shows(shown, shared_data, tmp_path, monkeypatch, capsys):
    """Issue 40: the first example printed another n than the README showed, and warned about the suite version.
    Its commands run as written (files under /tmp go to the test's folder instead), from the checkout: their stdout
    begins with the README's lines, and stderr warns of nothing."""
    import shlex
    import subprocess

    from tests.support.cli_helpers import run_cli

    _, commands, expected = shown
    monkeypatch.chdir(README.parent)
    out = err = ""
    for command in commands:
        command = command.split("   #", 1)[0].replace("/tmp/", f"{tmp_path}/")
        if command.startswith("discotest "):
            code, out, err = run_cli(capsys, *shlex.split(command)[1:])
            assert code == 0, err
        else:
            subprocess.run(command, shell=True, check=True, cwd=README.parent)
    assert out.splitlines()[:len(expected)] == expected, out
    assert "warning" not in err, err
