"""Atomic file writes and output-path checks.

A write goes to a temporary file in the same folder, then a rename, so a crash, Ctrl-C or a full disk never
leaves half a file where a result, a cache entry or a download should be. The final file gets the mode an
ordinary ``open(path, "w")`` would give it (0666 less the umask, or the mode of the file it replaces), not
``mkstemp``'s 0600.

``check_output`` is called by the CLI right after argument parsing, before any expensive work, so a report can
never replace one of the command's inputs and an unusable path fails in a second, not after an hour's run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from discotest.errors import InputError

_UMASK: int | None = None


def _umask() -> int:
    """The process umask (read once; os.umask can only be read by setting it)."""
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0o022)
        os.umask(_UMASK)
    return _UMASK


def _final_mode(path: Path) -> int:
    """The mode of the file being replaced, else what open() would create under the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _target(path: str | Path) -> Path:
    """Where to write: a symlinked output replaces the file it points to, not the link."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


@contextlib.contextmanager
def _atomic_handle(path: str | Path, mode: str) -> Iterator[IO]:
    path = _target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # a short prefix: the temporary name must fit NAME_MAX even when the final name nearly does
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:32]}.", suffix=".tmp")
    try:
        kwargs = {"encoding": "utf-8"} if "b" not in mode else {}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
        os.chmod(tmp, _final_mode(path))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: str | Path, payload: bytes) -> None:
    """Low-level atomic write (cache entries, downloads): OSError propagates to the caller."""
    with _atomic_handle(path, "wb") as handle:
        handle.write(payload)


@contextlib.contextmanager
def output_file(path: str | Path) -> Iterator[IO[str]]:
    """A text handle for a user-visible output, written atomically; an OSError (disk full, permission denied,
    read-only file system …) becomes one InputError line naming the file, with nothing half-written left."""
    try:
        with _atomic_handle(path, "w") as handle:
            yield handle
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write a user-visible output file atomically (see ``output_file`` for the error contract)."""
    with output_file(path) as handle:
        handle.write(text)


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def _same_file(a: Path, b: Path) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | Path, inputs: Iterable[str | Path | None] = (), *, folder: bool = False) -> None:
    """Refuse an output path that cannot or must not be written, before any work is done.

    ``inputs`` are the files the command reads: the output may not be one of them (compared by resolved path
    and by inode, so hard links and symlinks count). ``folder`` is True for commands writing a directory
    (``mine dip -o DIR``, ``finetune -o DIR``). Raises InputError naming the path.
    """
    raw = str(path)
    if not raw:
        raise InputError("empty output path")
    path = Path(raw)
    what = "output folder" if folder else "output file"
    for other in inputs:
        if other is not None and str(other) and _same_file(path, Path(other)):
            raise InputError(f"the {what} is also an input of this command; refusing to overwrite it", path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise InputError("output path is too long", raw[:80] + "…") from None
        if exc.errno != errno.ENOTDIR:
            raise InputError(f"cannot use as {what}: {exc.strerror}", path) from None
        info = None  # a parent component is a file: reported below
    if info is not None:
        kind = info.st_mode
        if stat.S_ISDIR(kind) and not folder:
            raise InputError("is a directory; give a file name for the output", path)
        if not stat.S_ISDIR(kind) and folder:
            raise InputError("exists and is not a folder", path)
        if stat.S_ISCHR(kind) or stat.S_ISBLK(kind):
            raise InputError("is a device; give a regular file name for the output", path)
        if stat.S_ISFIFO(kind) or stat.S_ISSOCK(kind):
            raise InputError("is a FIFO or socket; give a regular file name for the output", path)
        if stat.S_ISREG(kind) and not os.access(path, os.W_OK):
            raise InputError("cannot write: permission denied", path)
    target = _target(path)
    parent = target.parent
    if not parent.is_dir():
        problem = "does not exist" if not parent.exists() else "is not a folder"
        raise InputError(f"cannot write: its folder {parent} {problem}", path)
    if len(os.fsencode(target.name)) > _name_max(parent):
        raise InputError(f"file name is too long ({len(os.fsencode(target.name))} bytes)", raw[:80] + "…")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"cannot write: permission denied in {parent}", path)
