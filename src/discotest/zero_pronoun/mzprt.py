"""mZPRT (Xu, Wang et al. 2022): Chinese→English test sets with human zero-pronoun annotations.

Each domain is a pair of raw files, ``<name>.zh`` and ``<name>.en``, line-aligned, documents separated
by a ``[doc]`` line on both sides. The Chinese side marks every dropped pronoun inline:
``<我们>_S`` (subject), ``_O`` (object), ``_Pa`` (possessive adjective), ``_P`` (possessive pronoun),
``_R`` (reflexive), ``_UN`` (no English counterpart expected).

Numbering. A *segment* is a non-``[doc]`` line; ``Segment.index`` counts segments from 0 (the
numbering of the processed files and of hypothesis files without ``[doc]`` lines) and ``Segment.line``
is the 1-based line in the raw file (what error messages and details show).

Conventions for what the annotation leaves open, applied to every file:

- a pronoun in brackets without a form (``<他>``, 40 tags in the test and validation sets) is a ZP
  whose form was never annotated: it is dropped from the source like any ZP, restored in the
  labelled source, and left out of AZPT (counted, like ``_UN``);
- brackets around anything that is not a pronoun (``《<玉台新咏>与南朝文学》``) are ordinary text;
- a handful of tags in the published snapshot are malformed (``_Pq``, ``__S``, an unclosed ``<它的_Pa``):
  ``mzprt_errata.tsv`` corrects them, each by file, line and exact text, with the reason. Any other
  malformed tag is an InputError naming file and line.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.errors import InputError, did_you_mean
from discotest.zero_pronoun.pronouns import PronounTable, load_zh_en

DOC_MARK = "[doc]"
ZP_FORMS = ("S", "O", "P", "Pa", "R", "UN")
FORM_NAMES = {"S": "subject", "O": "object", "Pa": "possessive adjective", "P": "possessive pronoun",
              "R": "reflexive", "UN": "unlabelled (not scored)"}  # the legend wherever a form code is shown

# domain code -> file name stem in 1_testset_mzprt/raw/ (paper names in DOMAIN_NAMES)
TEST_FILES = {
    "QA": "Baidu_knows",
    "GR": "Government_Report",
    "MS": "Movie_Subtitle_test",
    "PP": "Personal_Profile",
    "WF": "Web_Fiction_test",
}
VALID_FILES = {"MS-valid": "Movie_Subtitle_valid", "WF-valid": "Web_Fiction_valid"}
DOMAINS = tuple(TEST_FILES)
DOMAIN_NAMES = {
    "QA": "Q&A forum",
    "GR": "government reports",
    "MS": "movie subtitles",
    "PP": "personal profiles",
    "WF": "web fiction",
    "MS-valid": "movie subtitles (validation)",
    "WF-valid": "web fiction (validation)",
}
# the folder of the published outputs (2_metric_azpt/aZPT_output/<folder>) differs for MS only
OUTPUT_FOLDERS = {"QA": "QA", "GR": "GR", "MS": "M.S", "PP": "PP", "WF": "WF"}

_BRACKETS = re.compile(r"<([^<>]*)>(_+[A-Za-z]*)?")
# a form label after a Chinese character, not after a closing bracket: "<它的_Pa" or "他_S"
_LOOSE_FORM = re.compile(r"(?<=[\u4e00-\u9fff])_+(?:S|O|Pa|P|R|UN)(?![A-Za-z])")


@dataclass(frozen=True)
class ZeroPronoun:
    """One annotated dropped pronoun: where it is and what the annotators restored."""

    segment: int  # 0-based segment index in its domain
    line: int  # 1-based line in the raw .zh file
    ordinal: int  # 0-based among the segment's ZPs
    pronoun: str  # as written in the tag: 我, 我的, 他自己 …
    form: str | None  # S O P Pa R UN; None when the tag has no form
    start: int  # character offsets of the pronoun in Segment.labelled
    end: int

    @property
    def scored(self) -> bool:
        """AZPT scores ZPs with an English counterpart: not ``_UN``, not unannotated."""
        return self.form is not None and self.form != "UN"

    @property
    def tag(self) -> str:
        return f"<{self.pronoun}>" + (f"_{self.form}" if self.form else "")


@dataclass(frozen=True)
class Segment:
    """One sentence pair of a domain."""

    index: int
    line: int
    doc: int  # 0-based document
    source: str  # the Chinese a system translates: ZPs left out, as written by the authors
    labelled: str  # ZPs restored as plain pronouns
    reference: str
    zps: tuple[ZeroPronoun, ...]


@dataclass(frozen=True)
class MZPRTSuite:
    """A domain's test (or validation) set."""

    domain: str
    zh_path: str
    en_path: str
    n_lines: int  # lines of the raw file, [doc] lines included
    segments: tuple[Segment, ...]

    @property
    def zps(self) -> list[ZeroPronoun]:
        return [zp for seg in self.segments for zp in seg.zps]

    def zp_segments(self, rule: str = "any") -> list[Segment]:
        """Segments with a ZP tag (``any``), or with one that is not ``_UN`` (``labelled``).

        The published outputs hold exactly these segments in order: ``any`` for QA, GR, PP, WF;
        ``labelled`` for MS, whose outputs were made before its 13 ``_UN``-only lines were tagged.
        """
        if rule == "any":
            return [s for s in self.segments if s.zps]
        if rule == "labelled":
            return [s for s in self.segments if any(zp.form != "UN" for zp in s.zps)]
        raise ValueError(rule)


@cache
def _errata() -> dict[tuple[str, int], list[tuple[str, str]]]:
    text = resources.files("discotest.zero_pronoun").joinpath("mzprt_errata.tsv").read_text("utf-8")
    out: dict[tuple[str, int], list[tuple[str, str]]] = {}
    for row in csv.DictReader(text.splitlines(), delimiter="\t"):
        out.setdefault((row["file"], int(row["line"])), []).append((row["found"], row["replacement"]))
    return out


def apply_errata(file_name: str, line: int, text: str) -> str:
    """The line with the listed corrections applied (each only where its exact text occurs once)."""
    for found, replacement in _errata().get((file_name, line), ()):
        if text.count(found) == 1:
            text = text.replace(found, replacement)
    return text


def parse_tagged(
    text: str, path: str | Path = "<text>", line: int | None = None, table: PronounTable | None = None
) -> tuple[str, str, list[tuple[str, str | None, int, int]]]:
    """Split a tagged Chinese line into (source, labelled, [(pronoun, form, start, end)]).

    ``source`` leaves the ZPs out, ``labelled`` restores them; offsets are into ``labelled``.
    Malformed tags raise InputError naming ``path`` and ``line``.
    """
    table = table or load_zh_en()
    loose = _LOOSE_FORM.search(_BRACKETS.sub(lambda m: "\x00" * len(m.group()), text))
    if loose:
        raise InputError(f"ZP form {loose.group()!r} without a closed <pronoun> tag before it", path, line)
    source, labelled, zps = [], [], []
    at = 0
    length = 0  # of labelled so far
    for match in _BRACKETS.finditer(text):
        inside, suffix = match.group(1), match.group(2)
        before = text[at : match.start()]
        source.append(before)
        labelled.append(before)
        length += len(before)
        at = match.end()
        is_pronoun = table.stem(inside) is not None
        if not is_pronoun:
            if suffix:
                raise InputError(f"ZP tag {match.group()!r}: {inside!r} is not a pronoun of the table", path, line)
            if re.search(r"_+[A-Za-z]+$", inside) and table.stem(re.sub(r"_+[A-Za-z]+$", "", inside)):
                raise InputError(f"ZP tag {match.group()!r}: the form goes after the bracket", path, line)
            source.append(match.group())  # ordinary text in angle brackets (a title, a name)
            labelled.append(match.group())
            length += len(match.group())
            continue
        form: str | None = None
        if suffix:
            form = suffix[1:]
            if suffix.startswith("__") or form not in ZP_FORMS:
                raise InputError(
                    f"ZP tag {match.group()!r}: form must be one of {', '.join(ZP_FORMS)}", path, line
                )
            if form != "UN" and not table.expected(inside, form):
                raise InputError(f"ZP tag {match.group()!r}: the table has no {form} form of {inside}", path, line)
        zps.append((inside, form, length, length + len(inside)))
        labelled.append(inside)
        length += len(inside)
    source.append(text[at:])
    labelled.append(text[at:])
    return "".join(source), "".join(labelled), zps


def read_suite_files(zh_path: str | Path, en_path: str | Path, domain: str = "?") -> MZPRTSuite:
    """Parse a raw mZPRT file pair (any file in this format: the errata apply by file name and line)."""
    zh_path, en_path = Path(zh_path), Path(en_path)
    zh, en = read_lines(zh_path), read_lines(en_path)
    if len(zh) != len(en):
        raise InputError(
            f"{len(en)} lines, but {zh_path.name} has {len(zh)}; the files must be line-aligned",
            en_path,
            min(len(zh), len(en)) + 1,
        )
    table = load_zh_en()
    segments = []
    doc = -1
    for number, (zh_line, en_line) in enumerate(zip(zh, en), start=1):
        zh_is_doc, en_is_doc = zh_line.strip() == DOC_MARK, en_line.strip() == DOC_MARK
        if zh_is_doc != en_is_doc:
            raise InputError(f"{DOC_MARK} on one side only ({zh_path.name} vs {en_path.name})", en_path, number)
        if zh_is_doc:
            doc += 1
            continue
        text = apply_errata(zh_path.name, number, zh_line)
        source, labelled, tags = parse_tagged(text, zh_path, number, table)
        index = len(segments)
        zps = tuple(
            ZeroPronoun(index, number, k, pronoun, form, start, end)
            for k, (pronoun, form, start, end) in enumerate(tags)
        )
        segments.append(Segment(index, number, max(doc, 0), source, labelled, en_line, zps))
    if not segments:
        raise InputError("no sentences", zh_path)
    return MZPRTSuite(domain, str(zh_path), str(en_path), len(zh), tuple(segments))


def check_domain(domain: str, allow_valid: bool = True) -> str:
    known = (*DOMAINS, *VALID_FILES) if allow_valid else DOMAINS
    if domain not in known:
        raise InputError(f"unknown mZPRT domain {domain!r}{did_you_mean(domain, known)}; choose from "
                         f"{', '.join(known)} or 'all'")
    return domain


def source_name(domain: str, lang: str) -> str:
    """Registry name of a domain's raw file: ``mzprt-QA-zh``, ``mzprt-MS-valid-en``."""
    return f"mzprt-{domain}-{lang}"


@cache
def _load(domain: str, zh: Path, en: Path) -> MZPRTSuite:
    return read_suite_files(zh, en, domain)


def load_mzprt(domain: str, root: str | Path | None = None) -> MZPRTSuite:
    """The parsed test set of ``domain`` (QA GR MS PP WF) or a validation set (MS-valid, WF-valid).

    The files are located (and checked against their checksums) on every call, outside the parse cache, so each
    run's data record sees them."""
    check_domain(domain)
    zh = catalogue.locate(source_name(domain, "zh"), root or None)
    en = catalogue.locate(source_name(domain, "en"), root or None)
    return _load(domain, zh, en)
