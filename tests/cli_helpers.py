"""Running the CLI in-process and checking its one-line errors: shared by the CLI error and output tests."""

from __future__ import annotations

from discotest.cli import main


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``discotest ARGS``; an argparse error ends with its status, as on a shell."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Exit status 2 and exactly one stderr line, ``discotest: error: …``, holding every fragment."""
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("discotest: error: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def results_of(text: str) -> list[dict]:
    """The results of a ``--format json`` report (the one schema: ``{"discotest", "results": [...], …}``)."""
    import json

    return json.loads(text)["results"]


def one_result(text: str) -> dict:
    """The only result of a ``--format json`` report."""
    (result,) = results_of(text)
    return result


def valid_report(report: str | dict) -> dict:
    """A ``--format json`` report (text or parsed), checked against the one schema (``report/schema.json``)."""
    import json
    from importlib import resources

    import jsonschema

    doc = json.loads(report) if isinstance(report, str) else report
    jsonschema.validate(doc, json.loads(resources.files("discotest.report").joinpath("schema.json").read_text("utf-8")))
    for result in doc["results"]:  # each field once: a component must not repeat what the base adds
        keys = [field.split(":", 1)[0] for field in result["signature"].split("|")]
        assert len(keys) == len(set(keys)), result["signature"]
    return doc
