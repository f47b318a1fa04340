"""No stale pointers: moving or renaming a file cannot silently break what names it.

Read in README.md, VALIDITY.md, docs/**/*.md and src/**/README.md: every relative Markdown link points to a file
that exists; every path in backticks under ``tests/``, ``bench/`` or ``src/`` exists (a glob matches something);
every module named in backticks (``x.py``, ``dip/run.py``) exists beside the page, in the package or from the
repository root; every ``python -m bench.…`` command names a bench module. And the bundled data files that
bench/release/package_smoke.sh checks in the built wheel exist in ``src/``: the script only runs on a release."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "discotest"


# files of other projects that the pages name (mt_gender's evaluation script, MT-GenEval's metric)
ELSEWHERE = {"src/evaluate.py", "accuracy_metric.py"}


def _found() -> list[Path]:
    return [REPO / "README.md", REPO / "VALIDITY.md", *sorted((REPO / "docs").rglob("*.md")),
            *sorted((REPO / "src").rglob("README.md"))]


def pages() -> list[Path]:
    """Each page once, by its real path (docs/validity.md and docs/src/… are links to pages kept elsewhere)."""
    return sorted({p.resolve() for p in _found() if p.is_file()})


def folders(page: Path) -> set[Path]:
    """Where ``page`` is read from: its own folder, and the docs site's folder for it where the site links to it (a
    relative link must work in one of them: VALIDITY.md's links to the docs pages work on the site)."""
    return {page.parent} | {p.parent for p in _found() if p.is_symlink() and p.resolve() == page}


PACKAGE_MODULES = {p.name for p in PACKAGE.rglob("*.py")}


LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE = re.compile(r"`([^`\n]+)`")
ROOTED = re.compile(r"^(tests|bench|src)/[\w./*-]+$")
MODULE = re.compile(r"^(?:[\w-]+/)*\w+\.py$")
BENCH_COMMAND = re.compile(r"python3? -m (bench(?:\.\w+)+)")


def _exists(path: Path) -> bool:
    return any(path.parent.glob(path.name)) if "*" in path.name else path.exists()


def module_exists(span: str, page: Path) -> bool:
    """A module named by its file name alone is in the package (a page names it in its wing's or floor's section);
    one named with its folder (``dip/run.py``, ``morph/ru.py``) is there from the page, the package, or one of the
    package's folders."""
    if "/" not in span:
        return span in PACKAGE_MODULES or (page.parent / span).exists()
    bases = [page.parent, PACKAGE, REPO / "src", REPO, *(p for p in PACKAGE.iterdir() if p.is_dir())]
    return any((base / span).exists() for base in bases)


def stale_pointers(page: Path, text: str | None = None) -> list[str]:
    """What ``page`` (or ``text`` read as that page) names that does not exist, one ``page: pointer`` line each."""
    text = page.read_text("utf-8") if text is None else text
    prose = FENCE.sub("", text)
    name = page.relative_to(REPO)
    stale = []
    for target in LINK.findall(prose):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        if not any((folder / target.split("#", 1)[0]).exists() for folder in folders(page)):
            stale.append(f"{name}: link {target}")
    for span in CODE.findall(prose):
        span = span.strip()
        if span in ELSEWHERE:
            continue
        if ROOTED.match(span) and not _exists(REPO / span):
            stale.append(f"{name}: path {span}")
        elif MODULE.match(span) and not ROOTED.match(span) and not module_exists(span, page):
            stale.append(f"{name}: module {span}")
    for module in BENCH_COMMAND.findall(text):
        if not (REPO / (module.replace(".", "/") + ".py")).is_file():
            stale.append(f"{name}: command python -m {module}")
    return stale


def test_the_pages_are_found():
    names = {str(p.relative_to(REPO)) for p in pages()}
    assert {"README.md", "VALIDITY.md", "docs/index.md", "docs/contributing/benches.md",
            "src/discotest/dip/README.md"} <= names


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_pointer_of_a_page_exists(page):
    assert stale_pointers(page) == []


def test_a_stale_pointer_is_found():
    """The check can fail: a page naming a moved test, a missing module, a dead link and a bench that is gone."""
    text = ("See [the layout](internals/layout.md) and [gone](internals/gone.md#x), `tests/test_layers.py`, "
            "`tests/house/test_layers.py`, `dip/nothing.py`, `dip/run.py`, `judge.py`, `gone.py`, "
            "`python -m bench.speed.bench_winomt`, `python -m bench.speed.gone`.\n"
            "```text\n`tests/in_a_fence.py`\n```\n")
    page = "docs/stale-example.md"
    assert stale_pointers(REPO / page, text) == [
        f"{page}: link internals/gone.md#x", f"{page}: path tests/test_layers.py", f"{page}: module dip/nothing.py",
        f"{page}: module gone.py", f"{page}: command python -m bench.speed.gone"]


def smoke_needed() -> list[str]:
    script = (REPO / "bench" / "release" / "package_smoke.sh").read_text("utf-8")
    block = re.search(r"^needed=\((.*?)^\)", script, re.M | re.S)
    assert block, "package_smoke.sh no longer lists its needed files as needed=( … )"
    return block.group(1).split()


def test_the_package_smoke_check_names_files_that_exist():
    needed = smoke_needed()
    assert len(needed) >= 5
    assert [n for n in needed if not (REPO / "src" / n).is_file()] == []
