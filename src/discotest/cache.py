"""A content-addressed on-disk cache for expensive steps (alignments, parses, model outputs, trained LMs).

Entries are files named by the sha256 of everything that determines them, written atomically (unique temporary
name, then a rename), so an interrupted run never leaves a broken entry and two runs sharing a cache never read
each other's half-written files. Every entry proves it is whole: a one-line header ``discotest-cache 1 <payload
length> <payload sha256>`` precedes the payload and is checked on load. A damaged entry (bad header, wrong
length or checksum, or a payload the caller cannot parse) is never used: it costs one warning line and a
recomputation. An unusable cache folder costs speed (one warning per process), never a result or a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import json
import os
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from discotest.atomic import write_bytes_atomic
from discotest.errors import InputError

ENV_VAR = "DISCOTEST_CACHE"
# Namespaces whose entries may be kept in a folder of their own ($DISCOTEST_MODELS): what is slow to make and the same
# for everyone who has the same data and discotest (keyed by content): trained alignment and language-identification
# models, the compiled german-nouns lexicon (7 s), the roles learned from a suite's English sources (4 s), the Arabic
# readings per word form of a suite's published outputs (20 s), spaCy French's compiled tokenizer pattern (2.4 s), the
# jieba segmentation of mZPRT's Chinese sources and background text (2 s of a 4.4 s run; only the data's fixed
# Chinese is segmented, never a user's file). A team, an offline machine prepared beforehand, or a test session can
# share one folder of them while each keeps its own cache.
NAMESPACE_ENV = {"align-model": "DISCOTEST_MODELS", "langid-model": "DISCOTEST_MODELS",  # + the unpacked langid model
                 "german-nouns": "DISCOTEST_MODELS", "english-roles": "DISCOTEST_MODELS",
                 "word-readings": "DISCOTEST_MODELS", "regex-code": "DISCOTEST_MODELS",
                 "segment-zh": "DISCOTEST_MODELS"}
MAGIC = b"discotest-cache"
FORMAT_VERSION = 1

T = TypeVar("T")

# What a caller's parse function may raise on a damaged payload (json errors are ValueErrors, gzip's are OSError
# or EOFError or zlib.error). Anything else is a bug and should surface.
PARSE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, EOFError, OSError, zlib.error,
                InputError)

_warned_unwritable = False
# Entries written before the header existed all look damaged: after this many warnings a process says once that
# it goes on recomputing the rest without a message, instead of one line per cached sentence.
MAX_DAMAGE_WARNINGS = 5
_damage_warnings = 0


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


@functools.cache
def code_key(*parts: str) -> str:
    """sha256 of every file of the installed discotest package (sources and the tables shipped with them), in path
    order: part of the key of entries that our own rules compute (analyser readings), so an edited rule or word list
    never serves a result cached before the edit. Computed once per process (2 MB, about 8 ms here).

    ``parts`` (paths relative to the package, files or folders: ``"lang/align"``, ``"lang/tokenize.py"``): only those
    files, for an entry that only they shape (a trained alignment model), so an edit elsewhere does not remake it."""
    root = Path(__file__).resolve().parent
    wanted = [root / part for part in parts] or [root]
    digest = hashlib.sha256()
    files = {p for base in wanted for p in ([base] if base.is_file() else base.rglob("*"))}
    if parts and not all(base.exists() for base in wanted):
        raise FileNotFoundError(f"code_key: no {[p for p, b in zip(parts, wanted) if not b.exists()]} in discotest")
    for path in sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\x00" + path.read_bytes() + b"\x00")
    return digest.hexdigest()


def entry_path(namespace: str, key: str, suffix: str = ".txt") -> Path:
    env = NAMESPACE_ENV.get(namespace)
    base = Path(os.environ[env]).expanduser() if env and os.environ.get(env) else cache_dir()
    return base / namespace / key[:2] / f"{key}{suffix}"


def _warn(message: str) -> None:
    if sys.stderr is not None:
        print(f"discotest: warning: {message}", file=sys.stderr)


def seal(payload: bytes) -> bytes:
    """The payload behind its header line (format version, length, sha256)."""
    header = b"%s %d %d %s\n" % (MAGIC, FORMAT_VERSION, len(payload), hashlib.sha256(payload).hexdigest().encode())
    return header + payload


def unseal(blob: bytes) -> bytes | None:
    """The payload if the header proves it whole, else None (damaged, truncated, or written by an older format)."""
    header, newline, payload = blob.partition(b"\n")
    fields = header.split(b" ")
    if not newline or len(fields) != 4 or fields[0] != MAGIC or fields[1] != str(FORMAT_VERSION).encode():
        return None
    if not fields[2].isdigit() or int(fields[2]) != len(payload):
        return None
    if hashlib.sha256(payload).hexdigest().encode() != fields[3]:
        return None
    return payload


def load_bytes(namespace: str, key: str, suffix: str = ".txt",
               parse: Callable[[bytes], T] | None = None) -> bytes | T | None:
    """A checked entry's payload (run through ``parse`` when given), or None when absent or damaged.

    A damaged entry, or one whose payload ``parse`` rejects by raising one of PARSE_ERRORS, is reported on
    stderr once and removed, and None tells the caller to recompute (and store the fresh result).
    """
    path = entry_path(namespace, key, suffix)
    try:
        blob = path.read_bytes()
    except OSError:  # absent, or an unreadable/misplaced cache folder: a miss
        return None
    payload = unseal(blob)
    if payload is not None and parse is None:
        return payload
    if payload is not None:
        try:
            with gc_paused():
                return parse(payload)
        except PARSE_ERRORS:
            pass
    global _damage_warnings
    _damage_warnings += 1
    if _damage_warnings <= MAX_DAMAGE_WARNINGS:
        _warn(f"cache entry {path} is damaged; recomputing")
    if _damage_warnings == MAX_DAMAGE_WARNINGS:
        _warn("further damaged cache entries (or entries of an older discotest) are recomputed without a message")
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
    return None


@contextlib.contextmanager
def gc_paused():
    """The cyclic garbage collector off inside the block: decoding a large entry (a run's verdicts: 1.6 MB of JSON,
    130,000 lists and strings) makes only acyclic objects, yet the allocations set off collection passes over the
    whole heap, which took three quarters of the decoding time (all WinoMT pairs warm: 1.0 s of 1.3 s)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def load(namespace: str, key: str, parse: Callable[[str], T] | None = None) -> str | T | None:
    """A text entry (see ``load_bytes``); ``parse`` turns it into the caller's value or raises if it cannot."""

    def decode(payload: bytes):
        text = payload.decode("utf-8")
        return parse(text) if parse is not None else text

    return load_bytes(namespace, key, ".txt", decode)


def json_rows(n: int, row: Callable[..., T]) -> Callable[[str], list[T]]:
    """A ``parse`` for entries holding a JSON list of exactly ``n`` rows, each given to ``row`` as arguments
    (e.g. ``json_rows(len(pairs), lambda s, k: (float(s), int(k)))`` for cached model scores)."""

    def parse(text: str) -> list[T]:
        rows = json.loads(text)
        if not isinstance(rows, list) or len(rows) != n:
            raise ValueError(f"expected {n} rows")
        return [row(*r) for r in rows]

    return parse


def store_bytes(namespace: str, key: str, payload: bytes, suffix: str = ".txt") -> None:
    """Store an entry atomically; a cache folder that cannot be written is one warning per process."""
    global _warned_unwritable
    try:
        write_bytes_atomic(entry_path(namespace, key, suffix), seal(payload))
    except OSError as exc:
        if not _warned_unwritable:
            _warned_unwritable = True
            _warn(f"cannot write the cache in {cache_dir()} ({exc.strerror or exc}); continuing without it "
                  f"(set {ENV_VAR} to a writable folder)")


def store(namespace: str, key: str, text: str) -> None:
    store_bytes(namespace, key, text.encode("utf-8"))


@contextlib.contextmanager
def making(namespace: str, key: str, suffix: str = ".txt"):
    """Held while one process makes an entry that is slow to make (a trained model): another process about to make
    the same entry waits here, then finds it stored (the caller loads again inside). An advisory lock on a file beside
    the entry; where it cannot be taken (no ``fcntl``, an unwritable folder) both make it, as before: the entries are
    the same bytes and written atomically."""
    path = entry_path(namespace, key, suffix)
    if path in _making:  # this process holds it already (a lock taken twice by one process would wait on itself)
        yield
        return
    try:
        import fcntl

        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_name(path.name + ".lock"), "a+b")  # noqa: SIM115 - closed below
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        _making.add(path)
        yield
    finally:
        _making.discard(path)
        handle.close()  # releases the lock


_making: set[Path] = set()  # the entries this process holds the lock of
