"""A content-addressed on-disk cache for expensive steps (alignments, model outputs).

Entries are text files named by the sha256 of everything that determines them, written atomically,
so an interrupted run never leaves a broken entry and a rerun picks up what was finished.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from discotest.atomic import write_bytes_atomic

ENV_VAR = "DISCOTEST_CACHE"


def cache_dir() -> Path:
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("discotest"))


def content_key(parts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


def entry_path(namespace: str, key: str) -> Path:
    return cache_dir() / namespace / key[:2] / f"{key}.txt"


def load(namespace: str, key: str) -> str | None:
    path = entry_path(namespace, key)
    try:
        return path.read_text("utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def store(namespace: str, key: str, text: str) -> None:
    with contextlib.suppress(OSError):  # a read-only cache dir costs speed, never a result
        write_bytes_atomic(entry_path(namespace, key), text.encode("utf-8"))
