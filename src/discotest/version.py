"""discotest's own version, read in one place (signatures, JSON reports, ``--version``, DiP manifests)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("discotest")
except PackageNotFoundError:  # run from a source tree that was never installed: say so rather than guess
    VERSION = "0+unknown"
