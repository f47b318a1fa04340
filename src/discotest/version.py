"""discotest's own version, read in one place (signatures, JSON reports, ``--version``, DiP manifests), and
``package_version``: the installed version of any distribution, for the signatures that name a tool's version."""

from __future__ import annotations

import os
import re
import sys
from functools import cache


class _Unsure(Exception):
    """The quick lookup cannot tell what importlib.metadata would find: ask it."""


def package_version(name: str) -> str | None:
    """The version ``importlib.metadata.version(name)`` gives, or None where ``name`` is not installed.

    Read the way importlib.metadata finds it (the first ``NAME-VERSION.dist-info`` or ``.egg-info`` on ``sys.path``
    whose normalised name matches, its METADATA's ``Version`` header) without importing importlib.metadata: that
    import (email, zipfile, csv, …) took 45 ms of CPU, a sixth of a warm run. Where the quick way cannot be sure (a
    zip or an egg on the path, another finder of distributions, an unusual METADATA), importlib.metadata answers
    (tests/house/test_package_version.py compares the two on every installed distribution)."""
    try:
        return _quick_version(name)
    except _Unsure:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version(name)
        except PackageNotFoundError:
            return None


@cache
def _quick_version(name: str) -> str | None:
    from importlib.machinery import PathFinder

    if not name or any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        raise _Unsure
    wanted = _normalised(name)
    for entry in sys.path:
        root = entry or "."
        children = _children(root)
        if children is None:  # not a folder: a zip file on the path is searched by importlib.metadata
            if os.path.isfile(root):
                raise _Unsure
            continue
        if os.path.basename(root).lower().endswith(".egg"):
            raise _Unsure
        for child in children:  # in the folder's order, as importlib.metadata takes them
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")) and \
                    _normalised(low.rpartition(".")[0].partition("-")[0]) == wanted:
                return _metadata_version(os.path.join(root, child))
    return None


@cache
def _children(root: str) -> tuple[str, ...] | None:
    try:
        return tuple(os.listdir(root))
    except OSError:
        return None


def _normalised(name: str) -> str:
    """importlib.metadata's ``Prepared.normalize``: PEP 503, with underscores."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _metadata_version(path: str) -> str:
    """The ``Version`` header of a distribution's metadata (METADATA, else PKG-INFO, else an egg-info file itself)."""
    for candidate in (os.path.join(path, "METADATA"), os.path.join(path, "PKG-INFO"), path):
        try:
            with open(candidate, encoding="utf-8", newline="") as f:
                text = f.read()
        except (IsADirectoryError, NotADirectoryError, FileNotFoundError, PermissionError):
            continue
        except UnicodeDecodeError:
            raise _Unsure from None
        if text:
            break
    else:
        raise _Unsure
    lines = re.split(r"\r\n|\r|\n", text)
    for number, line in enumerate(lines):
        if not line:
            break
        if line[0] in " \t":
            continue  # the rest of a folded header (Description, in old metadata)
        head, colon, value = line.partition(":")
        if not colon:
            raise _Unsure  # not a header: the email parser's own reading decides
        if head.lower() == "version":
            if lines[number + 1:number + 2] and lines[number + 1][:1] in (" ", "\t"):
                raise _Unsure  # a folded version
            return value.lstrip(" \t")
    raise _Unsure


VERSION = package_version("discotest") or "0+unknown"  # from a source tree never installed: say so, not guess
