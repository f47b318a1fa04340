"""``discotest.version.package_version`` reads a distribution's version without importing importlib.metadata: it must
give what importlib.metadata gives, for every installed distribution and for the cases it leaves to it."""

from __future__ import annotations

import importlib.metadata
import zipfile

import pytest

from discotest import version as v


@pytest.fixture
def fresh():
    """The per-process memos emptied before and after (a test changes sys.path)."""
    v._quick_version.cache_clear()
    v._children.cache_clear()
    yield
    v._quick_version.cache_clear()
    v._children.cache_clear()


def official(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def test_every_installed_distribution_has_importlib_metadatas_version(fresh):
    names = {d.metadata["Name"] for d in importlib.metadata.distributions() if d.metadata["Name"]}
    assert len(names) > 50  # the test environment's packages
    quick = 0
    for name in sorted(names):
        for spelling in {name, name.lower(), name.replace("-", "_"), name.replace("_", "-").upper()}:
            assert v.package_version(spelling) == official(spelling), spelling
        try:
            v._quick_version(name)
            quick += 1
        except v._Unsure:
            pass
    assert quick == len(names)  # none of them needed importlib.metadata here


def test_the_first_on_the_path_wins_and_a_missing_one_is_none(fresh, tmp_path, monkeypatch):
    shadow = tmp_path / "shadow"
    (shadow / "Pytest-0.0.1.dist-info").mkdir(parents=True)  # a name spelt differently still matches
    (shadow / "Pytest-0.0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: pytest\n"
                                                                "Summary: x\n  folded\nVersion:  0.0.1 \n\nbody\n")
    (shadow / "old_tool-1.0.egg-info").write_text("Metadata-Version: 1.0\nName: old-tool\nVersion: 1.0b1\n")
    monkeypatch.syspath_prepend(str(shadow))
    assert v.package_version("pytest") == official("pytest") == "0.0.1 "
    assert v.package_version("old-tool") == official("old-tool") == "1.0b1"
    assert v.package_version("no-such-package-here") is None is official("no-such-package-here")


@pytest.mark.parametrize("case", ["zip", "egg", "folded version", "no version"])
def test_what_the_quick_way_cannot_read_is_left_to_importlib_metadata(fresh, tmp_path, monkeypatch, case):
    metadata = "Metadata-Version: 2.1\nName: odd-one\nVersion: 2.0\n"
    if case == "zip":
        where = tmp_path / "odd.zip"
        with zipfile.ZipFile(where, "w") as z:
            z.writestr("odd_one-2.0.dist-info/METADATA", metadata)
    else:
        where = tmp_path / ("odd_one-2.0.egg" if case == "egg" else "site")
        info = where / ("EGG-INFO" if case == "egg" else "odd_one-2.0.dist-info")
        info.mkdir(parents=True)
        if case == "folded version":
            metadata = metadata.replace("Version: 2.0\n", "Version: 2.0\n  .post1\n")
        elif case == "no version":
            metadata = metadata.replace("Version: 2.0\n", "")
        (info / ("PKG-INFO" if case == "egg" else "METADATA")).write_text(metadata)
    monkeypatch.syspath_prepend(str(where))
    with pytest.raises(v._Unsure):
        v._quick_version("odd-one")
    assert v.package_version("odd-one") == official("odd-one")
