"""Very long regular expressions compiled once per machine, not once per process.

spaCy's French language data (``spacy.lang.fr.tokenizer_exceptions``) joins its tokenizer's exception patterns into
one regular expression of 1.45 million characters and compiles it when imported: 2.4 s of CPU in every process that
loads a French pipeline, more than the rest of the model's load (cold French run 6.7 s). Inside ``compiled_once()``,
``re`` takes the compiled program of a pattern that long from the content-hash cache (namespace ``regex-code``):
what CPython's own compiler handed its regular-expression engine the first time, keyed by the pattern, its flags and
the engine (``_sre.MAGIC``, its code size, the interpreter, the byte order). Built from it, the pattern object is equal
to a fresh compile — CPython compares two patterns by their compiled program (tests/lang/test_compiled_regex.py) —
so every token is the same, in 6 ms instead of 2.4 s. Where the interpreter has no such compiler (not CPython 3.11 or
newer) or an entry is damaged, the pattern is compiled as usual.
"""

from __future__ import annotations

import array
import contextlib
import json
import re
import sys
import threading
import zlib
from collections.abc import Callable, Iterator

from discotest import cache

NAMESPACE = "regex-code"
LONG = 100_000  # characters: spaCy's other tokenizer patterns (a few thousand each) compile in milliseconds
_patching = threading.RLock()


def _engine():
    """CPython's regular-expression engine module, or None where ``re`` does not compile through it."""
    try:
        import _sre
    except ImportError:
        return None
    compiler = getattr(re, "_compiler", None)  # Python 3.11 and newer
    if compiler is None or not hasattr(compiler, "compile") or not hasattr(_sre, "compile"):
        return None
    return _sre


@contextlib.contextmanager
def compiled_once() -> Iterator[None]:
    """Patterns of ``LONG`` characters or more that ``re`` compiles inside the block come from the cache (compiled and
    stored the first time); shorter ones, and every other thread's, compile as usual."""
    sre = _engine()
    if sre is None:
        yield
        return
    compiler = re._compiler  # type: ignore[attr-defined]
    with _patching:
        original = compiler.compile
        compiler.compile = lambda pattern, flags=0: _compile(sre, original, pattern, flags)
        try:
            yield
        finally:
            compiler.compile = original


def _compile(sre, original: Callable, pattern, flags: int):
    """``re._compiler.compile`` for a long string pattern through the cache; anything else to ``original``."""
    if not isinstance(pattern, str) or len(pattern) < LONG or flags & re.DEBUG:
        return original(pattern, flags)
    key = entry_key(sre, pattern, flags)
    found = cache.load_bytes(NAMESPACE, key, ".bin", parse=lambda payload: _rebuilt(sre, pattern, payload))
    if found is not None:
        return found
    compiled, program = _compiled_keeping_program(sre, original, pattern, flags)
    if program is not None:
        cache.store_bytes(NAMESPACE, key, program, ".bin")
    return compiled


def entry_key(sre, pattern: str, flags: int) -> str:
    """The cache key of a pattern's program: the pattern, the flags it is compiled with, and the engine."""
    engine = f"{sys.implementation.cache_tag}-sre{sre.MAGIC}-{sre.CODESIZE}-{sys.byteorder}"
    return cache.content_key([NAMESPACE, engine, str(flags), pattern])


def _compiled_keeping_program(sre, original: Callable, pattern: str, flags: int):
    """``original(pattern, flags)``, and what it handed ``_sre.compile`` for it as an entry's payload (None if it did
    not: then nothing is stored)."""
    engine_compile = sre.compile
    handed: list[tuple] = []

    def recording(*args):
        if args and args[0] is pattern:
            handed.append(args)
        return engine_compile(*args)

    sre.compile = recording
    try:
        compiled = original(pattern, flags)
    finally:
        sre.compile = engine_compile
    if len(handed) != 1 or len(handed[0]) != 6:  # another engine's call: compiled as usual, nothing stored
        return compiled, None
    _, all_flags, code, groups, groupindex, indexgroup = handed[0]
    header = json.dumps({"flags": all_flags, "groups": groups, "groupindex": dict(groupindex),
                         "indexgroup": list(indexgroup)}, sort_keys=True).encode()
    return compiled, header + b"\n" + zlib.compress(array.array(_typecode(sre), code).tobytes(), 1)


def _rebuilt(sre, pattern: str, payload: bytes):
    """The pattern object from a stored program; ``_sre.compile`` checks the program and refuses a malformed one."""
    header, _, packed = payload.partition(b"\n")
    program = json.loads(header)
    code = array.array(_typecode(sre))
    code.frombytes(zlib.decompress(packed))
    try:
        return sre.compile(pattern, program["flags"], code.tolist(), program["groups"], program["groupindex"],
                           tuple(program["indexgroup"]))
    except (RuntimeError, TypeError) as exc:  # "invalid SRE code", another engine: recompute (the cache says so)
        raise ValueError(str(exc)) from None


def _typecode(sre) -> str:
    """The array type of the engine's code words (``_sre.CODESIZE`` bytes each)."""
    return next(t for t in ("I", "L", "H") if array.array(t).itemsize == sre.CODESIZE)
