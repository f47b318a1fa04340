"""Is a translation file in the language it is scored as? A file in another language or script is refused before it
is scored (``run winomt --lang de --input <the French output>`` scored 0.1% with 99.7% unreadable, without a word).

Two checks over an evenly spaced sample of the file's translations (``SAMPLE`` lines, so the cost does not grow with
the file): the **script** of its letters (Latin, Cyrillic, Arabic, Hebrew, Han …; no model, exact), then the
**language** of each sampled line by py3langid (BSD-3-Clause; a naive Bayes model over byte n-grams for 97
languages that ships inside the wheel, 4.5 MB, no download). A file is refused when most of its letters are in
another script, or when most of its sampled lines are identified as one other language and few as the expected one
(``REFUSE_OTHER``, ``KEEP_EXPECTED``; measured on the suites' published outputs by bench/validity/bench_langid.py: see
the docs/your-files.md). ``--skip-language-check`` turns the check off; the signature then says ``langcheck:off``.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.errors import InputError

SAMPLE = 200  # lines looked at, evenly spaced over the file
REFUSE_OTHER = 0.5  # refused when one other language has at least this share of the sampled lines …
KEEP_EXPECTED = 0.2  # … and the expected language less than this share
# … among at least this many sampled lines: one or two short lines are too little to name a language ("one line" reads
# as Sotho); such a file meets the family's own checks (its length, its rows) instead
MIN_LINES_TO_REFUSE = 3
# a file not refused but with fewer of its sampled lines in the expected language than this is scored with a warning
# (a large share of garbage or other-language lines); the published outputs read 0.815 (mZPRT's short, lower-cased
# subtitles) to 1.0 (WinoMT, MT-GenEval): measured over 101 files, see tests/cli/test_input_plausibility.py
WARN_EXPECTED = 0.7
NAMES = {"ar": "Arabic", "de": "German", "en": "English", "es": "Spanish", "fr": "French", "he": "Hebrew",
         "it": "Italian", "ru": "Russian", "uk": "Ukrainian", "zh": "Chinese", "ja": "Japanese", "nl": "Dutch",
         "pt": "Portuguese", "pl": "Polish", "cs": "Czech", "tr": "Turkish", "ko": "Korean", "hr": "Croatian",
         "is": "Icelandic", "ha": "Hausa", "bn": "Bengali", "hi": "Hindi", "km": "Khmer", "ps": "Pashto",
         "ta": "Tamil", "xh": "Xhosa", "zu": "Zulu", "lt": "Lithuanian", "et": "Estonian", "fi": "Finnish",
         "kk": "Kazakh", "gu": "Gujarati", "lv": "Latvian", "ro": "Romanian", "sv": "Swedish", "da": "Danish",
         "no": "Norwegian", "hu": "Hungarian", "el": "Greek", "bg": "Bulgarian", "sr": "Serbian", "ca": "Catalan"}
# the script a language is written in, when it is not Latin
SCRIPTS = {"ar": "Arabic", "fa": "Arabic", "ps": "Arabic", "ur": "Arabic", "he": "Hebrew", "yi": "Hebrew",
           "ru": "Cyrillic", "uk": "Cyrillic", "bg": "Cyrillic", "kk": "Cyrillic", "sr": "Cyrillic",
           "zh": "Han", "ja": "Japanese", "ko": "Hangul", "el": "Greek", "hi": "Devanagari", "bn": "Bengali",
           "gu": "Gujarati", "ta": "Tamil", "km": "Khmer"}
_SCRIPT_PREFIXES = {"LATIN": "Latin", "CYRILLIC": "Cyrillic", "ARABIC": "Arabic", "HEBREW": "Hebrew", "CJK": "Han",
                    "HIRAGANA": "Japanese", "KATAKANA": "Japanese", "HANGUL": "Hangul", "GREEK": "Greek",
                    "DEVANAGARI": "Devanagari", "BENGALI": "Bengali", "GUJARATI": "Gujarati", "TAMIL": "Tamil",
                    "KHMER": "Khmer"}


def language_name(code: str) -> str:
    return NAMES.get(code, code)


def script_of(lang: str) -> str:
    """The script ``lang`` is written in (Latin unless listed)."""
    return SCRIPTS.get(lang, "Latin")


def letter_scripts(text: str) -> Counter[str]:
    """How many letters of ``text`` are in each script (``Other`` for scripts not named here)."""
    out: Counter[str] = Counter()
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            out[_SCRIPT_PREFIXES.get(name.split(" ", 1)[0], "Other")] += 1
    return out


def sample(lines: Sequence[str], size: int = SAMPLE) -> list[str]:
    """At most ``size`` lines, evenly spaced (the same lines every run)."""
    if len(lines) <= size:
        return list(lines)
    return [lines[i * len(lines) // size] for i in range(size)]


_identifier = None


def knows(lang: str) -> bool:
    """Whether the check can judge a file in ``lang``: py3langid identifies it, or its script is distinctive."""
    _classify("")  # loads the model
    return lang in _identifier.labels or lang in SCRIPTS


def _classify(text: str) -> str:
    """The language py3langid identifies for ``text`` (its model loads once per process)."""
    global _identifier
    if _identifier is None:
        _identifier = _load_identifier()
    return _identifier.classify(text)[0]


MODEL_NAMESPACE = "langid-model"


def prepare_model() -> str:
    """``data prepare``: the language check's model unpacked into the cache now; one line."""
    global _identifier
    _identifier = _load_identifier()
    return f"language check: py3langid model ready ({len(_identifier.nb_classes)} languages)"


def _load_identifier():
    """py3langid's identifier. Its model ships LZMA-compressed (4.6 MB, 68 MB unpacked), and unpacking it took
    1.4 s of every ``--input`` run (measured); the unpacked arrays are kept in the cache by the model file's
    sha256, so later processes read them back in a fraction of that. Built from the same arrays either way
    (tested: identical classifications)."""
    try:
        from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
        from py3langid.modelio import load_model
    except ImportError:
        raise InputError("the language check needs py3langid (pip install py3langid), or give "
                         "--skip-language-check") from None
    import hashlib

    from discotest import cache

    path = Path(MODEL_DIR) / MODEL_FILE
    key = cache.content_key([MODEL_NAMESPACE, hashlib.sha256(path.read_bytes()).hexdigest()])
    parts = cache.load_bytes(MODEL_NAMESPACE, key, ".npz", _model_from_npz)
    if parts is None:
        parts = load_model(path)
        cache.store_bytes(MODEL_NAMESPACE, key, _model_to_npz(parts), ".npz")
    ptc, pc, classes, nextmove, row, output = parts
    return LanguageIdentifier(ptc, pc, classes, nextmove, output, tk_row=row)


def _model_to_npz(parts: tuple) -> bytes:
    """py3langid's unpacked model (``modelio.load_model``'s tuple) as one uncompressed npz."""
    import io

    import numpy as np

    ptc, pc, classes, nextmove, row, output = parts
    buffer = io.BytesIO()
    np.savez(buffer, ptc=ptc, pc=pc, classes=np.array(classes), nextmove=np.frombuffer(nextmove, nextmove.typecode),
             row=np.frombuffer(row, row.typecode), output=np.asarray(output, dtype=np.int64))
    return buffer.getvalue()


def _model_from_npz(payload: bytes) -> tuple:
    """The inverse of ``_model_to_npz``: the tuple ``LanguageIdentifier`` is built from."""
    from array import array

    import numpy as np

    def as_array(values: np.ndarray) -> array:
        out = array({2: "H", 4: "I", 8: "L"}[values.dtype.itemsize])
        out.frombytes(values.tobytes())
        return out

    data = _npz_views(payload)
    # the 39 MB transition table stays a numpy array (copying it into an ``array`` took 0.4 s of a 1.6 s load;
    # py3langid only indexes it, so the decisions are the same, tested); the row offsets must be Python ints
    return (data["ptc"], data["pc"], data["classes"].tolist(), data["nextmove"], as_array(data["row"]),
            data["output"].tolist())


def _npz_views(payload: bytes) -> dict:
    """The arrays of an uncompressed npz (``np.savez``) as read-only views into ``payload``: ``np.load`` copied the
    68 MB and checked each member's CRC, 0.1 s of CPU of every ``--input`` run; the cache's own sha256 has checked
    the whole payload already. ValueError for anything but stored members of plain arrays."""
    import io
    import struct
    import zipfile

    import numpy as np

    out = {}
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        for info in archive.infolist():
            if info.compress_type != zipfile.ZIP_STORED or not info.filename.endswith(".npy"):
                raise ValueError(f"not a stored array: {info.filename}")
            name_len, extra_len = struct.unpack("<HH", payload[info.header_offset + 26:info.header_offset + 30])
            start = info.header_offset + 30 + name_len + extra_len
            header = io.BytesIO(payload[start:start + 4096])
            version = np.lib.format.read_magic(header)
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
                np.lib.format.read_array_header_2_0
            shape, fortran, dtype = read_header(header)
            if fortran or dtype.hasobject:
                raise ValueError(f"not a plain array: {info.filename}")
            count = int(np.prod(shape, dtype=np.int64))
            if start + header.tell() + count * dtype.itemsize > start + info.file_size:
                raise ValueError(f"truncated array: {info.filename}")
            view = np.frombuffer(payload, dtype, count, start + header.tell()).reshape(shape)
            out[info.filename[:-4]] = view
    return out


@dataclass(frozen=True)
class LanguageReading:
    """What a sample of a file's translations is: its dominant script and its share of the letters, the share of
    sampled lines identified as the expected language, and the commonest other language with its share."""

    expected: str
    lines: int
    script: str
    script_share: float
    expected_share: float
    other: str | None
    other_share: float

    def problem(self) -> str | None:
        """Why the file is not in the expected language, or None when it plausibly is."""
        want = script_of(self.expected)
        name = language_name(self.expected)
        if self.script != want and self.script_share >= 0.5:
            return (f"is mostly in {self.script} script ({self.script_share:.0%} of its letters), not in the "
                    f"{want} script of {name} ({self.expected})")
        if self.other and self.lines >= MIN_LINES_TO_REFUSE and self.other_share >= REFUSE_OTHER \
                and self.expected_share < KEEP_EXPECTED:
            return (f"is mostly {language_name(self.other)} ({self.other}: {self.other_share:.0%} of "
                    f"{self.lines} sampled lines), not {name} ({self.expected}: {self.expected_share:.0%})")
        return None

    def doubt(self) -> str | None:
        """The warning for a file that is not refused but whose sampled lines are often not in the expected
        language (garbage, another language mixed in, lines that cannot be read): it is scored, but its scores say
        little. The one such warning of every family that reads a translation file (``registry``)."""
        if self.problem() or not self.lines or self.expected_share >= WARN_EXPECTED:
            return None
        name = language_name(self.expected)
        other = f"; the commonest other: {self.other} {self.other_share:.0%}" if self.other else ""
        return (f"only {self.expected_share:.0%} of {self.lines} sampled lines read as {name} ({self.expected}"
                f"{other}): the rest are another language or cannot be read (above {1 - WARN_EXPECTED:.0%}); its "
                f"scores say little: is every line a translation into {name}?")


@dataclass(frozen=True)
class Observed:
    """A sample's letters by script and its lines by identified language (read once, judged against any language)."""

    scripts: Counter[str]
    languages: Counter[str]
    lines: int

    def reading(self, expected: str) -> LanguageReading:
        scripts = self.scripts
        if script_of(expected) == "Japanese":  # Japanese is written in kana and kanji: Han letters are its own too
            scripts = Counter({k: v for k, v in scripts.items() if k != "Han"})
            scripts["Japanese"] += self.scripts["Han"]
        letters = sum(scripts.values())
        script, count = scripts.most_common(1)[0] if +scripts else (script_of(expected), 0)
        n = max(self.lines, 1)
        others = [(lang, c) for lang, c in self.languages.most_common() if lang != expected]
        other, other_count = others[0] if others else (None, 0)
        return LanguageReading(expected, self.lines, script, count / max(letters, 1),
                               self.languages[expected] / n, other, other_count / n)


def observe(texts: Sequence[str], size: int = SAMPLE) -> Observed:
    """Script and language of an evenly spaced sample of ``size`` of ``texts``."""
    chosen = [t for t in sample(texts, size) if t.strip()]
    return Observed(letter_scripts(" ".join(chosen)), Counter(_classify(t) for t in chosen), len(chosen))


def read_language(texts: Sequence[str], expected: str, size: int = SAMPLE) -> LanguageReading:
    """The script and language reading of ``texts`` (a sample of ``size`` lines) against ``expected``."""
    return observe(texts, size).reading(expected)


def check_language(path: str | Path, texts: Sequence[str], expected: str) -> LanguageReading:
    """Refuse (InputError naming the file, both languages or scripts, and the flag) a file of translations that is
    not in ``expected``; the reading otherwise."""
    reading = read_language(texts, expected)
    problem = reading.problem()
    if problem:
        raise InputError(f"{problem}; is this the right file or --lang? (--skip-language-check scores it anyway)",
                         path)
    return reading
