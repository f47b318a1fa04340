"""The part of german-nouns the German analyser reads, compiled once into a small sorted file and searched in place.

Why: ``german_nouns.lookup.Nouns()`` parses its 20 MB CSV and 5 MB index on every start (~3 s, a third of a cold
German run), while a WinoMT run looks up a few thousand word forms, and for each form the analyser needs only the
paradigm cells (genus, case, number, declension) it fills in the common-noun rows, or the cells of a person noun
declined like an adjective. ``compile_lexicon`` computes exactly that for every form german-nouns lists (same
rows, same order, same filters as the analyser read them from ``Nouns``); the result is one line per form, sorted
by its UTF-8 bytes, ``form<TAB>kind cells`` with kind ``A`` (adjectival) or ``N`` and each cell four letters (genus,
case, number, declension ``-`` none, ``s`` stark, ``w`` schwach, ``g`` gemischt)::

    arzt	Nmas-mds-mns-        (masculine accusative, dative, nominative singular)

The file lives in discotest's content-addressed cache (``discotest.cache``), keyed by the sha256 of german-nouns'
CSV, ``COMPILE_VERSION`` and this module's source (a change to these rules recompiles); it is read
through the cache's checked loader and never from the working directory. ``GermanNounLexicon`` loads it on the
first lookup and finds a form by binary search over the bytes: nothing is parsed up front.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Iterator
from itertools import compress
from pathlib import Path

from discotest import cache
from discotest.data import catalogue
from discotest.timing import stage

COMPILE_VERSION = "1"
NAMESPACE = "german-nouns"

_CASE_OF = {"nominativ": "nom", "akkusativ": "acc", "dativ": "dat", "genitiv": "gen"}
# german-nouns rows that are names, not common nouns (Arzt is also a surname)
FORBIDDEN_POS = frozenset({"Vorname", "Nachname", "Familienname", "Eigenname", "Toponym", "Straßenname", "Buchstabe"})
_GENUS_COLUMNS = ("genus", "genus 1", "genus 2", "genus 3", "genus 4")
_DECLENSIONS = ("stark", "schwach", "gemischt")

Cell = tuple[str, str, str, str]  # (genus m/f/n, or p for a plural of both; case; sg/pl; declension or "")


def _adjectival_cells() -> dict[str, frozenset[Cell]]:
    """Ending -> paradigm cells of a person noun declined like an adjective (der/die Angestellte)."""
    table = {
        # (genus, case, number): {declension: ending}; genus "p" for the plural of both genders
        ("m", "nom", "sg"): {"stark": "er", "schwach": "e", "gemischt": "er"},
        ("m", "acc", "sg"): {"stark": "en", "schwach": "en", "gemischt": "en"},
        ("m", "dat", "sg"): {"stark": "em", "schwach": "en", "gemischt": "en"},
        ("m", "gen", "sg"): {"stark": "en", "schwach": "en", "gemischt": "en"},
        ("f", "nom", "sg"): {"stark": "e", "schwach": "e", "gemischt": "e"},
        ("f", "acc", "sg"): {"stark": "e", "schwach": "e", "gemischt": "e"},
        ("f", "dat", "sg"): {"stark": "er", "schwach": "en", "gemischt": "en"},
        ("f", "gen", "sg"): {"stark": "er", "schwach": "en", "gemischt": "en"},
        ("p", "nom", "pl"): {"stark": "e", "schwach": "en", "gemischt": "en"},
        ("p", "acc", "pl"): {"stark": "e", "schwach": "en", "gemischt": "en"},
        ("p", "dat", "pl"): {"stark": "en", "schwach": "en", "gemischt": "en"},
        ("p", "gen", "pl"): {"stark": "er", "schwach": "en", "gemischt": "en"},
    }
    out: dict[str, set[Cell]] = {}
    for (genus, case, number), endings in table.items():
        for declension, ending in endings.items():
            out.setdefault(ending, set()).add((genus, case, number, declension))
    return {ending: frozenset(cells) for ending, cells in out.items()}


ADJECTIVAL_CELLS = _adjectival_cells()
_GENERA = frozenset({"m", "f", "n"})

# four letters per cell in the compiled file
_CASE_CODE = {"nom": "n", "acc": "a", "dat": "d", "gen": "g"}
_NUMBER_CODE = {"sg": "s", "pl": "p"}
_DECLENSION_CODE = {"": "-", "stark": "s", "schwach": "w", "gemischt": "g"}
_DECODE = (
    None,
    {v: k for k, v in _CASE_CODE.items()},
    {v: k for k, v in _NUMBER_CODE.items()},
    {v: k for k, v in _DECLENSION_CODE.items()},
)


def encode_cell(cell: Cell) -> str:
    genus, case, number, declension = cell
    return genus + _CASE_CODE[case] + _NUMBER_CODE[number] + _DECLENSION_CODE[declension]


_ADJECTIVAL_CODES = {ending: "".join(sorted(map(encode_cell, cells))) for ending, cells in ADJECTIVAL_CELLS.items()}


def decode_cells(text: str) -> frozenset[Cell]:
    return frozenset(
        (text[i], _DECODE[1][text[i + 1]], _DECODE[2][text[i + 2]], _DECODE[3][text[i + 3]])
        for i in range(0, len(text), 4)
    )


def _data_file() -> Path:
    """german-nouns' CSV, by absolute path inside the installed package (where ``Nouns`` reads it)."""
    from german_nouns.config import CSV_FILE_PATH  # a namespace package: its config holds its absolute path

    return Path(CSV_FILE_PATH)


def _column_code(column: str) -> tuple[str, str] | None:
    """(case + number + declension letters, numbered genus column or "") of a flexion column, None if it names no
    paradigm cell (the ``Nouns.row_to_dict`` column names the analyser read: "dativ plural", "genitiv singular 2")."""
    parts = column.replace("*", "").split()
    if len(parts) < 2 or parts[0] not in _CASE_OF:
        return None
    extra = parts[2] if len(parts) > 2 else ""
    declension = extra if extra in _DECLENSIONS else ""
    code = _CASE_CODE[_CASE_OF[parts[0]]] + _NUMBER_CODE["sg" if parts[1] == "singular" else "pl"]
    return code + _DECLENSION_CODE[declension], f"genus {extra}" if extra.isdigit() else ""


def compile_lexicon(csv_path: Path) -> bytes:
    """The compiled file (see the module docstring) for german-nouns' ``csv_path``.

    The rows are read as ``Nouns.row_to_dict`` gives them (every non-empty column that is not the lemma, the part of
    speech or a genus is a form) and the common nouns the analyser used are kept. A form's rows are those having it
    as lemma or form, in file order: german-nouns' own index (``create_index``) and its shipped ``index.txt`` for
    every form a token can be (``index.txt`` strips its lines: a few keys with leading blanks differ there)."""
    with open(csv_path, encoding="utf-8") as f:  # as Nouns opens it (universal newlines); one row at a time
        return _compile_rows(csv.reader(f))


def _compile_rows(reader: Iterator[list[str]]) -> bytes:
    header = next(reader)
    lemma_col, pos_col = header.index("lemma"), header.index("pos")
    genus_cols = [(name, i) for i, name in enumerate(header) if name in _GENUS_COLUMNS]
    flexion = [(i, _column_code(name)) for i, name in enumerate(header)
               if name not in ("lemma", "pos", *_GENUS_COLUMNS)]
    flexion_cols = [i for i, _ in flexion]
    codes = [code for _, code in flexion]
    cells: dict[str, set[str]] = {}  # form -> cells it fills in any common-noun row
    adjectival: dict[str, str] = {}  # form -> its ending on the first adjectival row that gives it one
    for row in reader:
        pos = set(row[pos_col].split(",")) if row[pos_col] else set()
        if "Substantiv" not in pos or pos & FORBIDDEN_POS:
            continue
        genera = {name: row[i] for name, i in genus_cols if row[i]}
        every = set(genera.values()) & _GENERA
        values = [row[i] for i in flexion_cols]
        for value, code in zip(compress(values, values), compress(codes, values)):
            if code is not None:
                cell, numbered = code
                own = ({genera[numbered]} & _GENERA) if numbered and numbered in genera else every
                form_cells = cells.get(low := value.lower())
                if form_cells is None:
                    form_cells = cells[low] = set()
                form_cells.update([genus + cell for genus in own])
        if "adjektivische Deklination" in pos:
            # german-nouns often lists only one gender of a nominalised adjective (Sachverständiger);
            # a person noun declined like an adjective has both, with predictable endings
            lemma = row[lemma_col].lower()
            stem = lemma[:-2] if lemma.endswith("er") else lemma[:-1]
            for form in {lemma, *(v.lower() for v in values if v)}:
                ending = form[len(stem) :] if form.startswith(stem) else None
                if ending in ADJECTIVAL_CELLS and form not in adjectival:
                    adjectival[form] = ending
    entries = {form: "N" + "".join(sorted(c)) for form, c in cells.items() if c}
    entries.update({form: "A" + _ADJECTIVAL_CODES[ending] for form, ending in adjectival.items()})
    # a form with leading blanks is no token (german-nouns' index.txt has it without them, as another form)
    lines = [f"{form}\t{entry}\n".encode() for form, entry in entries.items() if form == form.lstrip()]
    lines.sort(key=lambda line: line.split(b"\t", 1)[0])  # by the form's bytes: the order _search relies on
    return b"".join(lines)


def cache_key(csv_path: Path) -> str:
    """What the compiled file depends on: german-nouns' CSV (by content, not version) and these rules."""
    try:
        rules = Path(__file__).read_bytes()
    except OSError:  # installed without sources: the version constant alone
        rules = b""
    return cache.content_key(["german-nouns lexicon", COMPILE_VERSION, hashlib.sha256(rules).hexdigest(),
                              catalogue.sha256_of(csv_path)])


def load_compiled() -> bytes:
    """The compiled lexicon of the installed german-nouns: from the cache, else compiled now and stored."""
    csv_path = _data_file()
    key = cache_key(csv_path)
    data = cache.load_bytes(NAMESPACE, key)
    if data is None:
        data = compile_lexicon(csv_path)
        cache.store_bytes(NAMESPACE, key, data)
    return data


class GermanNounLexicon:
    """Form (lower case) -> (cells, adjectival) from the compiled german-nouns lexicon, loaded on first lookup."""

    def __init__(self, data: bytes | None = None) -> None:
        self._data = data

    def load(self) -> bytes:
        """The compiled lexicon, read (or compiled, on a first run) once."""
        if self._data is None:
            with stage("lexicon load (de)"):
                self._data = load_compiled()
        return self._data

    def lookup(self, form: str) -> tuple[frozenset[Cell], bool] | None:
        """The paradigm cells ``form`` fills and whether it is a person noun declined like an adjective (its cells
        are then the adjectival ending's), or None when german-nouns has no common noun with that form."""
        line = _search(self.load(), form.encode())
        if line is None:
            return None
        kind, cells = line[0], line[1:]
        return decode_cells(cells), kind == "A"


def _search(data: bytes, key: bytes) -> str | None:
    """The text after ``key<TAB>`` on the line of ``data`` (lines sorted by bytes, each ending in a newline)."""
    if b"\t" in key or b"\n" in key:
        return None
    lo, hi = 0, len(data)  # both at line starts; the wanted line, if any, lies in data[lo:hi]
    while lo < hi:
        mid = (lo + hi) // 2
        start = data.rfind(b"\n", lo, mid) + 1 or lo
        end = data.index(b"\n", start)
        tab = data.index(b"\t", start, end)
        found = data[start:tab]
        if found == key:
            return data[tab + 1 : end].decode()
        if found < key:
            lo = end + 1
        else:
            hi = start
    return None
