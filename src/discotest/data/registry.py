"""Named third-party sources: where each file comes from, its checksum, and where it lives locally.

The data directory is ``--data-dir``, else ``$DISCOTEST_DATA``, else the user cache dir. Its folder
layout is the registry's layout (``mt_gender/…``, ``bug/…``), the same as ``../shared/data``.
Nothing here touches the network unless ``fetch`` is called.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.request
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from discotest.atomic import write_bytes_atomic
from discotest.errors import InputError

ENV_VAR = "DISCOTEST_DATA"


@dataclass(frozen=True)
class Extract:
    """A member unpacked from a downloaded archive, with its own checksum."""

    member: str
    path: str
    sha256: str


@dataclass(frozen=True)
class Source:
    """One file: a suite file (``kind="suite"``) or a published system output (``kind="system-output"``)."""

    name: str
    kind: str
    suite: str
    description: str
    url: str  # empty for files the package ships (``bundled``)
    sha256: str  # empty when the publisher gives none: the first download is pinned (see ``fetch``)
    path: str  # relative to the data directory, or to discotest/data/bundled when bundled
    version: str = "current"
    subset: str = "all"  # all / pro / anti for WinoMT-style suites
    system: str | None = None
    lang: str | None = None
    extract: Extract | None = None
    bundled: bool = False

    @property
    def usable_path(self) -> str:
        """The file readers open: the extracted member for archives, else the download itself."""
        return self.extract.path if self.extract else self.path


def _load_sources() -> dict[str, Source]:
    raw = json.loads(resources.files("discotest.data").joinpath("sources.json").read_text("utf-8"))
    out = {}
    for row in raw:
        extract = Extract(**row.pop("extract")) if "extract" in row else None
        out[row["name"]] = Source(**row, extract=extract)
    return out


SOURCES: dict[str, Source] = _load_sources()


def data_dir(explicit: str | Path | None = None) -> Path:
    """Resolve the data directory: explicit argument, then ``$DISCOTEST_DATA``, then the user cache."""
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("discotest")) / "data"


def get_source(name: str) -> Source:
    try:
        return SOURCES[name]
    except KeyError:
        raise InputError(f"unknown data source {name!r}; `discotest data list` shows the names") from None


def locate(name: str, root: str | Path | None = None) -> Path:
    """Path of a source's usable file, or a one-line error saying what to put where."""
    source = get_source(name)
    if source.bundled:
        return Path(str(resources.files("discotest.data").joinpath("bundled", source.path)))
    path = data_dir(root) / source.usable_path
    if not path.is_file():
        raise InputError(
            f"missing data file for {name!r}: run `discotest data fetch {name}` online, "
            f"or put {source.url} at this path",
            path,
        )
    return path


def suite_file(suite: str, version: str = "current", subset: str = "all") -> str:
    """Name of the source holding ``suite`` (its ``version`` and ``subset``)."""
    for source in SOURCES.values():
        if (source.kind, source.suite, source.version, source.subset) == ("suite", suite, version, subset):
            return source.name
    versions = sorted({s.version for s in SOURCES.values() if s.kind == "suite" and s.suite == suite})
    if not versions:
        raise InputError(f"unknown suite {suite!r}; available: {', '.join(suites())}")
    raise InputError(f"suite {suite!r} has no version {version!r} ({subset}); available: {', '.join(versions)}")


def suites() -> list[str]:
    return sorted({s.suite for s in SOURCES.values() if s.kind == "suite"})


def system_outputs(suite: str) -> dict[tuple[str, str], str]:
    """(system, language) -> source name of every published output of the whole of ``suite``
    (outputs of one part, such as an mZPRT domain, have their own lookup)."""
    return {
        (s.system, s.lang): s.name
        for s in SOURCES.values()
        if s.kind == "system-output" and s.suite == suite and s.system and s.lang and s.subset == "all"
    }


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


PIN_SUFFIX = ".sha256"


def pinned_sha256(source: Source, base: Path) -> str:
    """The checksum a file must have: the registry's, else the one recorded at its first download."""
    if source.sha256:
        return source.sha256
    pin = base / (source.path + PIN_SUFFIX)
    return pin.read_text("utf-8").strip() if pin.is_file() else ""


def verify(name: str, root: str | Path | None = None) -> tuple[str, str]:
    """Check one source on disk: returns (status, path) with status ok / missing / mismatch, or unpinned for a
    file without a published checksum that was put in place by hand (nothing to compare it with)."""
    source = get_source(name)
    if source.bundled:
        return "ok", str(locate(name))
    base = data_dir(root)
    usable = base / source.usable_path
    expected = source.extract.sha256 if source.extract else pinned_sha256(source, base)
    if not usable.is_file():
        return "missing", str(usable)
    if not expected:
        return "unpinned", str(usable)
    if sha256_of(usable) != expected:
        return "mismatch", str(usable)
    archive = base / source.path
    if source.extract and archive.is_file() and sha256_of(archive) != source.sha256:
        return "mismatch", str(archive)  # the archive may be deleted once unpacked, not altered
    return "ok", str(usable)


def fetch(name: str, root: str | Path | None = None, opener=urllib.request.urlopen) -> Path:
    """Download a source, check its sha256, write it atomically, and unpack its member if any.

    A source without a published checksum is pinned on first download: its sha256 is written beside it
    (``<file>.sha256``), and later fetches and ``verify`` hold the file to it (trust on first use)."""
    source = get_source(name)
    if source.bundled:
        return locate(name)
    base = data_dir(root)
    target = base / source.path
    target.parent.mkdir(parents=True, exist_ok=True)
    expected = pinned_sha256(source, base)
    if not (target.is_file() and expected and sha256_of(target) == expected):
        try:
            with opener(source.url) as response:
                payload = response.read()
        except OSError as exc:
            raise InputError(f"cannot download {source.url} ({exc}); put the file here by hand", target) from None
        got = hashlib.sha256(payload).hexdigest()
        if expected and got != expected:
            raise InputError(f"checksum mismatch for {source.url}: expected {expected}, got {got}", target)
        write_bytes_atomic(target, payload)
        if not expected:
            write_bytes_atomic(base / (source.path + PIN_SUFFIX), f"{got}\n".encode())
    if source.extract:
        with zipfile.ZipFile(target) as archive:
            write_bytes_atomic(base / source.extract.path, archive.read(source.extract.member))
    return base / source.usable_path
