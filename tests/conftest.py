"""Tests read third-party data from ../shared/data (the registry's layout) through DISCOTEST_DATA."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"

if "DISCOTEST_DATA" not in os.environ and SHARED_DATA.is_dir():
    os.environ["DISCOTEST_DATA"] = str(SHARED_DATA)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not beside the repository")
    return SHARED_DATA
