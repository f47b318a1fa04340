"""The documentation site builds: ``mkdocs build --strict`` on mkdocs.yml and docs/ fails on a broken link or anchor,
a menu entry without a page and a page left out of the menu (issue 26: "built into a site by MkDocs in CI with
strict checking"). The README's own links into docs/ are checked here too, since MkDocs does not read the README.
About 2 s: two builds of a small site."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, timeout=120)


def _nav_pages() -> list[str]:
    nav = (ROOT / "mkdocs.yml").read_text("utf-8").split("\nnav:", 1)[1]
    return re.findall(r"([\w./-]+\.md)\s*$", nav, re.M)


def test_the_site_builds_strictly_with_every_page_of_the_menu(tmp_path):
    built = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stderr[-3000:]
    for page in _nav_pages():
        html = "index.html" if page == "index.md" else page.removesuffix(".md").removesuffix("README") + "/index.html"
        assert (tmp_path / "site" / html.replace("//", "/")).is_file(), page


def test_a_broken_link_fails_the_build(tmp_path):
    """The strict settings are what make the first test mean something: a copy of the site with one dead link and one
    dead anchor must not build."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")  # symlinked pages are copied as files
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "winox.md"
    page.write_text(page.read_text("utf-8") + "\n[gone](no-such-page.md) [nowhere](gender.md#no-such-anchor)\n",
                    "utf-8")
    built = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0
    assert "no-such-page.md" in built.stderr and "no-such-anchor" in built.stderr, built.stderr[-2000:]


def test_the_readme_links_to_files_that_exist():
    readme = (ROOT / "README.md").read_text("utf-8")
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", readme) if "://" not in t]
    assert any(t.startswith("docs/") for t in targets)
    missing = [t for t in targets if t and not (ROOT / t).exists()]
    assert not missing, missing
    pages = {f"docs/{p}" for p in _nav_pages()}
    assert not [t for t in targets if t.startswith("docs/") and t not in pages], "a README link to a page off the menu"
