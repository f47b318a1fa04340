"""The data catalogue: each named third-party source (``sources.json``), where its file comes from, its checksum, and
where it lives locally.

The data directory is ``--data-dir``, else ``$DISCOTEST_DATA``, else the user cache dir. Its folder
layout is the catalogue's layout (``mt_gender/…``, ``bug/…``), the same as ``../shared/data``.
Nothing here touches the network unless ``fetch`` is called.

Integrity: every file ``locate`` (or ``check_file``) hands out is held to its pinned sha256 (the catalogue's, or the
one pinned on first download). A file that differs is never used silently: ``locate`` raises an InputError
naming it, unless modified data is allowed for the process (``allow_modified()``, the CLI's
``--allow-modified-data``, or ``$DISCOTEST_ALLOW_MODIFIED_DATA=1``; an environment variable, so worker processes
inherit it). Hashes are remembered by (path, size, mtime, ctime) in ``<cache dir>/data-sha256.json``, so a rerun does
not hash 100 MB again. ``tracking()`` records the files a run read and ``data_field`` turns them into the
signature field (``files:<hash of the files>``, plus ``modified=…``/``unpinned=…`` when not all are pristine).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from discotest.atomic import write_bytes_atomic
from discotest.cache import cache_dir
from discotest.errors import InputError
from discotest.values import is_whole_number

ENV_VAR = "DISCOTEST_DATA"
ALLOW_MODIFIED_ENV = "DISCOTEST_ALLOW_MODIFIED_DATA"
FETCH_SILENCE = 60.0  # seconds without data before a download gives up (``data fetch --silence``)
FETCH_DEADLINE = 1800.0  # seconds a whole download may take (a server trickling one byte a second never ends)
# bytes a second a download must average once ``silence`` seconds have passed: a server trickling one byte a second
# is never silent long enough for that limit, and held a fetch for the whole deadline (30 minutes; days before it)
FETCH_MIN_RATE = 1000.0
FETCH_MAX_SIZE = 250_000_000  # bytes a download without a known size may have (the largest source is 4 MB)
_CHUNK = 2**20


class MissingDataError(InputError):
    """A catalogue file is not in the data directory (probes catch this one; a modified file is never skipped)."""


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
    size: int | None = None  # bytes of the download, when its sha256 is pinned: a bigger body is refused early
    # a contrastive suite's file: how it is read (a format of discotest.contrastive.suites.FORMATS), its language
    # pair ("en-ru") and the phenomenon its items test, when the file does not say
    format: str | None = None
    pair: str | None = None
    phenomenon: str | None = None

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


# The licence of each data folder, from its PROVENANCE.md in ../shared/data (one line; the file says more).
LICENCES = {
    "bawden_discourse": "CC BY-SA 4.0",
    "bsd": "CC BY-NC-SA 4.0 (© 2020 The University of Tokyo; non-commercial, share alike)",
    "bug": "MIT",
    "ctxpro": "Apache-2.0 (examples from OpenSubtitles, whose terms also apply)",
    "eval_anaphora": "none stated (research only)",
    "mt_gender": "MIT (outputs of commercial systems redistributed under it)",
    "mt_geneval": "CC BY-SA 3.0 (text from Wikipedia)",
    "mittens": "CC BY 4.0 (© Google; keep the canary line: benchmark data never goes into training corpora)",
    "mzprt": "research use only (repository LICENSE)",
    "scat": "none stated (built on OpenSubtitles2018)",
    "voita_consistency": "none stated (from OpenSubtitles2018)",
    "wino_x": "MIT",
    "wmt21_news": "research use only (no LICENSE file)",
    "wmt22_general": "research use only (no LICENSE file)",
}
BUNDLED_LICENCE = "MIT (written by the discotest authors, shipped with it)"


def licence(source: Source) -> str:
    """The licence of a source's data, one line (``LICENCES`` by its top folder)."""
    if source.bundled:
        return BUNDLED_LICENCE
    return LICENCES.get(source.path.split("/", 1)[0], "see the source's PROVENANCE.md")


def suite_licence(suite: str) -> str | None:
    """The licence(s) of a registered suite's files, or None for a suite the catalogue does not hold."""
    found = sorted({licence(s) for s in SOURCES.values() if s.suite == suite and s.kind == "suite"})
    return "; ".join(found) if found else None


def size_text(size: int) -> str:
    """A byte count for people: 1.2 MB, 340 kB, 12 B."""
    for unit, factor in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= factor:
            return f"{size / factor:.1f} {unit}"
    return f"{size} B"


def data_dir_origin(explicit: str | Path | None = None) -> str:
    """Where the data directory came from, in the words of an error message."""
    if explicit:
        return "from --data-dir"
    return f"from ${ENV_VAR}" if os.environ.get(ENV_VAR) else f"the default; set --data-dir or ${ENV_VAR}"


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
    base = data_dir(root)
    path = base / source.usable_path
    if not path.is_file():
        if base.exists() and not base.is_dir():
            raise InputError(f"the data directory ({data_dir_origin(root)}) is not a folder but a file", base)
        if path.is_dir():
            raise InputError(f"is a folder where the data file of {name!r} should be", path)
        raise MissingDataError(
            f"missing data file for {name!r} in the data directory {data_dir(root)} ({data_dir_origin(root)}): "
            f"run `discotest data fetch {name}` online, put {source.url} at this path, or point --data-dir or "
            f"${ENV_VAR} at a directory holding it",
            path,
        )
    _admit(name, path, _expected(source, data_dir(root)))
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


def _hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


MEMO_NAME = "data-sha256.json"
_memo: dict[str, list] | None = None  # absolute path -> [size, mtime_ns, ctime_ns, sha256]


def _memo_path() -> Path:
    return cache_dir() / MEMO_NAME


def _read_memo() -> dict[str, list]:
    try:
        raw = json.loads(_memo_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in raw.items() if isinstance(v, list) and len(v) == 4} if isinstance(raw, dict) else {}


def _save_memo(path: str, entry: list) -> None:
    """Merge with what other processes wrote meanwhile, then replace the file atomically; a read-only cache dir
    costs speed only."""
    merged = _read_memo()
    merged[path] = entry
    with contextlib.suppress(OSError):
        write_bytes_atomic(_memo_path(), json.dumps(merged, sort_keys=True).encode("utf-8"))


def sha256_of(path: Path) -> str:
    """The file's sha256, from the memo when its size, mtime and ctime are unchanged (ctime cannot be set back by
    hand, so an edited file whose mtime was restored is still rehashed)."""
    global _memo
    if _memo is None:
        _memo = _read_memo()
    key = str(Path(path).resolve())
    stat = os.stat(key)
    stamp = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]
    hit = _memo.get(key)
    if hit and hit[:3] == stamp:
        return hit[3]
    digest = _hash_file(Path(key))
    _memo[key] = [*stamp, digest]
    _save_memo(key, _memo[key])
    return digest


PIN_SUFFIX = ".sha256"


def pinned_sha256(source: Source, base: Path) -> str:
    """The checksum a file must have: the catalogue's, else the one recorded at its first download."""
    if source.sha256:
        return source.sha256
    pin = base / (source.path + PIN_SUFFIX)
    return pin.read_text("utf-8").strip() if pin.is_file() else ""


def _expected(source: Source, base: Path) -> str:
    """The checksum the usable file (the extracted member for archives) must have; empty when nothing pins it."""
    return source.extract.sha256 if source.extract else pinned_sha256(source, base)


# -- integrity policy and the record of what a run read ---------------------------------------------------------


def allow_modified(allowed: bool = True) -> None:
    """Let runs use files that differ from their pinned checksum (their signature says so). Set for the whole
    process and, through the environment, for the worker processes it starts."""
    if allowed:
        os.environ[ALLOW_MODIFIED_ENV] = "1"
    else:
        os.environ.pop(ALLOW_MODIFIED_ENV, None)


@contextlib.contextmanager
def modified_allowed_while(allowed: bool) -> Iterator[None]:
    """Allow modified data inside the block when ``allowed`` (the CLI flag), then restore the previous setting."""
    previous = os.environ.get(ALLOW_MODIFIED_ENV)
    if allowed:
        allow_modified()
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(ALLOW_MODIFIED_ENV, None)
        else:
            os.environ[ALLOW_MODIFIED_ENV] = previous


def modified_allowed() -> bool:
    return os.environ.get(ALLOW_MODIFIED_ENV, "").strip().lower() not in ("", "0", "false", "no")


@dataclass(frozen=True)
class FileCheck:
    """One data file a run read: its catalogue name (or path relative to the data dir), sha256 and status
    (ok: matches its pin; modified: differs, used because allowed; unpinned: nothing to compare with)."""

    name: str
    sha256: str
    status: str


# per thread: a file another thread reads (a caller running two suites at once, each in a thread of its own) is not
# part of this run's signature
_tracking = threading.local()


def _trackers() -> list[dict[str, FileCheck]]:
    if not hasattr(_tracking, "open"):
        _tracking.open = []
    return _tracking.open


@contextlib.contextmanager
def tracking() -> Iterator[dict[str, FileCheck]]:
    """Record every data file handed out inside the block (name -> FileCheck), in this thread, for the run's
    signature."""
    seen: dict[str, FileCheck] = {}
    _trackers().append(seen)
    try:
        yield seen
    finally:  # by identity: two trackers that saw the same files are equal dicts (the card's around a run's own)
        trackers = _trackers()
        del trackers[next(i for i, t in enumerate(trackers) if t is seen)]


def _admit(name: str, path: Path, expected: str) -> None:
    """Hash ``path``, refuse it when it differs from ``expected`` (unless allowed), and record it."""
    got = sha256_of(path)
    status = "unpinned" if not expected else "ok" if got == expected else "modified"
    if status == "modified" and not modified_allowed():
        raise InputError(
            f"data file {name!r} differs from its pinned sha256 ({expected[:12]}…, this file {got[:12]}…); "
            "run `discotest data verify` and fetch it again, or pass --allow-modified-data to use it anyway",
            path,
        )
    for seen in _trackers():
        seen[name] = FileCheck(name, got, status)


def user_file_version(path: str | Path, root: str | Path | None = None) -> str | None:
    """The signature's ``version`` of a suite read from the user's own file: ``file@<first 8 hex of its sha256>``
    (``file`` for standard input, read once); None for a file inside the data directory, which ``check_file`` holds
    to its pin and ``files:`` names."""
    from discotest.data.readers import is_stdin

    if is_stdin(path):
        return "file"
    try:
        Path(os.path.abspath(path)).relative_to(os.path.abspath(data_dir(root)))
        return None
    except ValueError:
        return f"file@{_hash_file(Path(path))[:8]}"


def check_file(path: str | Path, root: str | Path | None = None) -> Path:
    """The same check as ``locate`` for a file found by path (DiP's WMT folders, a published output handed over
    by path): a catalogue file is held to its pin, another file inside the data dir to ``<file>.sha256`` if there
    is one, else recorded as unpinned; a file outside the data dir (the user's own) is returned unchecked."""
    path = Path(path)
    base = data_dir(root)
    try:  # absolute, not resolved: a data dir of symlinks into another is still this data dir
        relative = Path(os.path.abspath(path)).relative_to(os.path.abspath(base)).as_posix()
    except ValueError:
        return path
    source = _by_usable_path().get(relative)
    if source is not None:
        _admit(source.name, path, _expected(source, base))
    else:
        pin = path.with_name(path.name + PIN_SUFFIX)
        _admit(relative, path, pin.read_text("utf-8").strip() if pin.is_file() else "")
    return path


_usable_paths: dict[str, Source] = {}


def _by_usable_path() -> dict[str, Source]:
    """The source of each data-dir path. A path two sources share (WinoMT 2019's en_anti.txt is also winomt-adj's) is
    named after the first: the file given by path is checked under the name loading its suite records."""
    if not _usable_paths:
        for source in SOURCES.values():
            if not source.bundled:
                _usable_paths.setdefault(source.usable_path, source)
    return _usable_paths


def data_field(seen: dict[str, FileCheck] | Iterable[FileCheck]) -> tuple[str, str]:
    """The signature field for the files a run read: ``files:<8 hex>`` (sha256 over their names and hashes), then
    ``,modified=<name>@<sha8>…`` and ``,unpinned=…`` (names up to three, else a count); ``files:none`` when the run
    read no data-dir file. (``files``, not ``data``: DiP's signatures already name their WMT set ``data:``.)"""
    checks = sorted(seen.values() if isinstance(seen, dict) else seen, key=lambda c: c.name)
    if not checks:
        return ("files", "none")
    value = hashlib.sha256("".join(f"{c.name}\t{c.sha256}\n" for c in checks).encode()).hexdigest()[:8]
    for status in ("modified", "unpinned"):
        odd = [c for c in checks if c.status == status]
        if odd and (status == "modified" or len(odd) <= 3):
            value += f",{status}=" + "+".join(f"{c.name}@{c.sha256[:8]}" for c in odd)
        elif odd:
            value += f",{status}={len(odd)}files"
    return ("files", value)


def verify(name: str, root: str | Path | None = None) -> tuple[str, str]:
    """Check one source on disk: returns (status, path) with status ok / missing / mismatch, or unpinned for a
    file without a published checksum that was put in place by hand (nothing to compare it with)."""
    source = get_source(name)
    if source.bundled:
        return "ok", str(locate(name))
    base = data_dir(root)
    usable = base / source.usable_path
    expected = _expected(source, base)
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


def _check_no_links(target: Path, base: Path) -> None:
    """Refuse when a folder between the data directory and ``target`` is a symbolic link: a write there would land
    outside the data directory. (The file itself may be a link: it is replaced, not written through.)"""
    try:
        parts = target.parent.relative_to(base).parts
    except ValueError:
        parts = ()
    folder = base
    for part in parts:
        folder = folder / part
        if folder.is_symlink():
            raise InputError(f"is a symbolic link (to {os.readlink(folder)}); data fetch writes only inside the data "
                             "directory: remove the link or fetch into another --data-dir", folder)


def _replace(target: Path, payload: bytes) -> None:
    """Write ``payload`` to a temporary file in ``target``'s folder and rename it over ``target``: a symbolic link
    there is replaced by the file, never written through (``atomic.write_bytes_atomic`` follows links, as an
    output should)."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:32]}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@dataclass(frozen=True)
class Limits:
    """How long and how big a download may be: ``silence`` seconds without data, ``deadline`` seconds in all, at
    least ``min_rate`` bytes a second on average once ``silence`` seconds have passed, ``max_size`` bytes (a source's
    known size replaces it)."""

    silence: float = FETCH_SILENCE
    deadline: float = FETCH_DEADLINE
    max_size: int = FETCH_MAX_SIZE
    min_rate: float = FETCH_MIN_RATE


def _download(url: str, target: Path, opener: Callable, limits: Limits, size: int | None = None) -> tuple[Path, str]:
    """Stream the body of ``url`` into a temporary file beside ``target`` (never the whole body in memory), hashing
    as it comes; returns (temporary file, sha256). A one-line InputError instead: unreachable, HTTP error, silent
    for ``limits.silence`` s, still running after ``limits.deadline`` s, bigger than ``size`` (the catalogue's) or
    ``limits.max_size``, or shorter than its Content-Length (a dropped connection must not pass for a file)."""
    import http.client  # the network modules load for a download, not with every command
    import urllib.error

    hint = "; try again, or put the file here by hand"
    cap = size if size is not None else limits.max_size
    why = "the registry's size of this file" if size is not None else "the limit; raise it with --max-size"
    started = time.monotonic()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:32]}.", suffix=".part")
    digest, got = hashlib.sha256(), 0
    try:
        with os.fdopen(fd, "wb") as out:
            try:
                with opener(url, timeout=limits.silence) as response:
                    headers = getattr(response, "headers", None)
                    length = headers.get("Content-Length") if headers else None
                    announced = int(length) if length is not None and is_whole_number(length) else None
                    if announced is not None and announced > cap:
                        raise InputError(f"{url} announces {size_text(announced)}, more than {size_text(cap)} "
                                         f"({why})", target)
                    read = getattr(response, "read1", None) or response.read  # read1: what has arrived, no waiting
                    while chunk := read(_CHUNK):
                        got += len(chunk)
                        if got > cap:
                            raise InputError(f"download of {url} passed {size_text(cap)} ({why}); stopped", target)
                        elapsed = time.monotonic() - started
                        if elapsed > limits.deadline:
                            raise InputError(f"download of {url} still running after {limits.deadline:g} s (got "
                                             f"{size_text(got)}); raise --deadline{hint}", target)
                        if elapsed > limits.silence and got < limits.min_rate * elapsed:
                            raise InputError(f"download of {url} is too slow: {size_text(got)} in {elapsed:.0f} s, "
                                             f"under {size_text(int(limits.min_rate))}/s; lower --min-rate{hint}",
                                             target)
                        digest.update(chunk)
                        out.write(chunk)
            except urllib.error.HTTPError as exc:
                raise InputError(f"cannot download {url}: HTTP {exc.code} {exc.reason}{hint}", target) from None
            except http.client.IncompleteRead as exc:
                raise InputError(f"download of {url} was cut off after {got + len(exc.partial)} bytes{hint}",
                                 target) from None
            except TimeoutError:
                raise InputError(f"download of {url} timed out (no data for {limits.silence:g} s){hint}",
                                 target) from None
            except InputError:
                raise
            except (OSError, http.client.HTTPException) as exc:
                if isinstance(getattr(exc, "reason", None), TimeoutError):  # urllib wraps a connect timeout
                    raise InputError(f"download of {url} timed out (no answer in {limits.silence:g} s){hint}",
                                     target) from None
                raise InputError(f"cannot download {url} ({exc}){hint}", target) from None
        if announced is not None and announced != got:
            raise InputError(f"download of {url} was cut off: {got} of {announced} bytes{hint}", target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp), digest.hexdigest()


def fetch(name: str, root: str | Path | None = None, opener: Callable | None = None,
          silence: float = FETCH_SILENCE, limits: Limits | None = None) -> Path:
    """Download a source, check its sha256, put it in place atomically, and unpack its member if any.

    A source without a published checksum is pinned on first download: its sha256 is written beside it
    (``<file>.sha256``), and later fetches and ``verify`` hold the file to it (trust on first use).
    ``limits`` (default: ``silence`` seconds without data, ``FETCH_DEADLINE``, ``FETCH_MAX_SIZE``) bound the download.
    Nothing is written through a symbolic link: a link at a file's place is replaced, a linked folder refused."""
    import urllib.request

    limits = limits or Limits(silence=silence)
    source = get_source(name)
    if source.bundled:
        return locate(name)
    base = data_dir(root)
    target = base / source.path
    _check_no_links(target, base)
    target.parent.mkdir(parents=True, exist_ok=True)
    expected = pinned_sha256(source, base)
    if not (target.is_file() and not target.is_symlink() and expected and sha256_of(target) == expected):
        part, got = _download(source.url, target, opener or urllib.request.urlopen, limits,
                              source.size if source.sha256 else None)
        try:
            if expected and got != expected:
                raise InputError(f"checksum mismatch for {source.url}: expected {expected}, got {got}", target)
            if source.extract and not zipfile.is_zipfile(part):
                raise InputError(f"{source.url} is not a zip archive (expected one holding "
                                 f"{source.extract.member})", target)
            os.chmod(part, 0o666 & ~_umask())
            os.replace(part, target)  # over a link, not through it
        finally:
            part.unlink(missing_ok=True)
        if not expected:
            pin = base / (source.path + PIN_SUFFIX)
            _replace(pin, f"{got}\n".encode())
    if source.extract:
        member_path = base / source.extract.path
        _check_no_links(member_path, base)
        member_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with zipfile.ZipFile(target) as archive:
                info = archive.getinfo(source.extract.member)
                if info.file_size > limits.max_size:
                    raise InputError(f"{source.extract.member} unpacks to {size_text(info.file_size)}, more than "
                                     f"{size_text(limits.max_size)}", target)
                member = archive.read(info)
        except (zipfile.BadZipFile, KeyError) as exc:
            raise InputError(f"cannot unpack {source.extract.member} ({exc})", target) from None
        _replace(member_path, member)
    return base / source.usable_path


# How `data list` names the state of a source (``verify``'s status).
STATUS_NAMES = {"ok": "verified", "mismatch": "MODIFIED", "missing": "missing", "unpinned": "unpinned"}


def sources_named(names: list[str]) -> list[Source]:
    """The sources of the named suites or sources, in catalogue order (all without names); an unknown name is an
    error."""
    if not names:
        return list(SOURCES.values())
    for name in names:
        if name not in SOURCES and not any(s.suite == name for s in SOURCES.values()):
            raise InputError(f"no data source or suite {name!r}; `discotest data list` shows them")
    return [s for s in SOURCES.values() if s.name in names or s.suite in names]


def status(names: list[str], root: str | Path | None = None) -> list[dict]:
    """Each source of ``names`` (``sources_named``) as ``data list`` shows it: suite, name, status (bundled,
    verified, unpinned, MODIFIED, missing), path, size on disk (text), origin URL and licence."""
    rows = []
    for source in sources_named(names):
        state, path = verify(source.name, root)
        rows.append({"suite": source.suite, "name": source.name,
                     "status": "bundled" if source.bundled else STATUS_NAMES.get(state, state), "path": path,
                     "size": size_text(Path(path).stat().st_size) if Path(path).is_file() else "-",
                     "url": source.url or "(ships with discotest)", "licence": licence(source)})
    return rows


def fetch_all(names: list[str], root: str | Path | None = None, limits: Limits | None = None
              ) -> list[tuple[str, Path, str]]:
    """``fetch`` each named source (``["all"]``: every one): its name, path and, for a source with no published
    checksum, the sha256 pinned at its first download ("" otherwise)."""
    out = []
    for name in list(SOURCES) if names == ["all"] else names:
        path = fetch(name, root, limits=limits)
        source = get_source(name)
        pin = "" if source.sha256 or source.bundled else pinned_sha256(source, data_dir(root))
        out.append((name, path, pin))
    return out
