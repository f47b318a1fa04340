"""The Python API: the same operations as the CLI, with the same option names, returning a Report.

    >>> import discotest
    >>> report = discotest.run("winomt", lang="de", system="google")
    >>> report[0].scores.accuracy, report[0].signature.format()
    >>> discotest.run("mzprt", domain="GR", input="hyp.en").to_json()
    >>> discotest.run("voita-deixis", scores="scores.txt")
    >>> discotest.compare("winomt", lang="de", system=["google", "bing"])

Every suite a user can name on the command line works here: ``discotest.run(suite, **options)`` takes the options of
the suite's family (``discotest run --help``, spelled with underscores: ``--input-format`` is ``input_format=``) and
dispatches through the family registry (``discotest.families``); ``compare`` takes two systems (``system=[A, B]``,
``input=[A, B]`` or one of each) and adds ``bootstrap=`` and ``seed=``.
"""

from __future__ import annotations

from typing import Any

from discotest import families
from discotest.report.emit import Report
from discotest.version import VERSION


def run(suite: str, **options: Any) -> Report:
    """Evaluate on ``suite``: a Report of one Result per system (and language or domain), with per-item details."""
    return families.run(suite, **options)


def compare(suite: str, **options: Any) -> Report:
    """Two systems on the same items of ``suite``: both results and, per language or domain, every metric's paired
    bootstrap and sign test."""
    return families.compare(suite, **options)


def suites() -> dict[str, list[str]]:
    """Every suite name a user can run, with the published systems it has (what ``discotest suites`` prints)."""
    out: dict[str, list[str]] = {}
    for family in families.families():
        out.update(family.suites())
    return dict(sorted(out.items()))


def suite_facts(data_dir: str | None = None) -> list[dict[str, Any]]:
    """What ``discotest suites --format json`` prints: per suite its family, size (a number, null where it is not
    counted), its unit, the size per language, a note (what the number cannot say: mZPRT's domains, the file to
    fetch), languages, licence and published systems (null for a family that cannot describe its suites)."""
    out = []
    for family in families.families():
        for suite, systems in sorted(family.suites().items()):
            facts = family.describe(suite, data_dir) if family.describe is not None else None
            size = facts.size.to_json() if facts else {"size": None, "unit": None, "size_by_lang": None,
                                                       "size_note": None}
            out.append({"suite": suite, "family": family.name, **size,
                        "langs": facts.langs if facts else None, "licence": (facts.licence or None) if facts else None,
                        "systems": list(systems)})
    return out


__all__ = ["VERSION", "Report", "compare", "run", "suite_facts", "suites"]
