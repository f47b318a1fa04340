"""The published mZPRT system outputs (``2_metric_azpt/aZPT_output/<domain>/<system>.*``).

``.tagged`` files hold one tokenised, lower-cased hypothesis per line with the original metric's marks
``<…>`` around the words it looked at. They cover only the ZP sentences, in test-set order; which
sentences count as ZP sentences differs by domain, and the line count tells which (checked against
the ``.details`` files and the references on every domain, tests/zero_pronoun/test_mzprt_outputs.py):

- one line per segment (QA deep_tgt: 1171 lines);
- one per segment with any ZP tag (QA, GR, PP, WF);
- one per segment with a tag other than ``_UN`` (MS: the outputs predate the 13 ``_UN``-only lines).

``.score`` ends with the released AZPT; ``.details`` has the released verdict of every ZP
(``Sent`` = line of the ``.tagged`` file). Both are read only to set our figures beside theirs.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import finite_number, is_whole_number, read_lines
from discotest.errors import InputError
from discotest.zero_pronoun.mzprt import DOMAINS, MZPRTSuite

LAYOUTS = ("all-segments", "zp-segments", "zp-segments-labelled")
_FINAL = re.compile(r"Finally Correct entities:\s*([0-9]+)\s+Incorrect:\s*([0-9]+)\s+Score:\s*(\S+)")


@dataclass(frozen=True)
class ReleasedVerdict:
    """One row of a ``.details`` file: the original metric's verdict on one ZP."""

    correct: bool
    reference_word: str | None  # None: the original found no counterpart in the reference (``_n`` rows)
    target: str  # the words it looked at, as printed (only the matched word when correct)
    target_position: str = ""  # their position(s) in the .tagged line's space-split words, as printed


@dataclass
class PublishedOutput:
    domain: str
    system: str
    path: str
    layout: str
    hypotheses: dict[int, str]  # segment index -> hypothesis, marks removed
    released: float | None = None  # released AZPT, percent
    released_counts: tuple[int, int] | None = None  # (correct, incorrect) of the .score file
    released_details_counts: tuple[int, int] | None = None  # the same counted in the .details rows
    released_verdicts: dict[tuple[int, int], ReleasedVerdict] = field(default_factory=dict, repr=False)


def strip_marks(line: str) -> str:
    """A ``.tagged`` line without the metric's marks: ``do <you> have`` -> ``do you have``."""
    words = []
    for word in line.split():
        while len(word) > 2 and word.startswith("<") and word.endswith(">"):
            word = word[1:-1]
        words.append(word)
    return " ".join(words)


def published_systems(domain: str) -> list[str]:
    """Systems with a published output for ``domain``, in the registry's order."""
    return [
        s.system
        for s in catalogue.SOURCES.values()
        if s.kind == "system-output" and s.suite == "mzprt" and s.subset == domain and s.name.endswith("-tagged")
    ]


def check_system(domain: str, system: str) -> None:
    systems = published_systems(domain)
    if system not in systems:
        raise InputError(f"no published mZPRT output {system!r} for {domain}; there are: {', '.join(systems)}")


def segment_map(n_lines: int, suite: MZPRTSuite, path: str | Path) -> tuple[list[int], str]:
    """Segment index of each line of a published output, and the layout it follows."""
    candidates = {
        "all-segments": suite.segments,
        "zp-segments": suite.zp_segments("any"),
        "zp-segments-labelled": suite.zp_segments("labelled"),
    }
    for layout, segments in candidates.items():
        if n_lines == len(segments):
            return [s.index for s in segments], layout
    expected = sorted({len(s) for s in candidates.values()})
    raise InputError(
        f"{n_lines} lines fit no layout of the {suite.domain} test set "
        f"(expected {' or '.join(map(str, expected))}: ZP sentences, or every sentence)",
        path,
    )


def read_score(path: str | Path) -> tuple[float, int, int]:
    """(AZPT percent, correct, incorrect) from the final line of a ``.score`` file."""
    for number, line in reversed(list(enumerate(read_lines(path), start=1))):
        if line.startswith("Finally"):
            match = _FINAL.search(line)
            if not match:
                raise InputError("cannot read the final score line", path, number)
            return (100.0 * finite_number(match.group(3), "score", path, number), int(match.group(1)),
                    int(match.group(2)))
    raise InputError("no 'Finally Correct entities' line", path)


def read_details(path: str | Path) -> list[tuple[int, str, ReleasedVerdict]]:
    """(tagged line, ZP tag without ``_n``, verdict) per row of a ``.details`` file."""
    rows = []
    for number, line in enumerate(read_lines(path), start=1):
        if number == 1 and line.startswith("Sent"):
            continue
        cols = line.split("\t")
        if len(cols) != 7 or not is_whole_number(cols[0]) or cols[6] not in ("1", "-1"):
            raise InputError("expected 7 tab-separated columns: Sent, positions, ZP, reference, target, Case", path,
                             number)
        tag = cols[2]
        missing = tag.endswith("_n")
        rows.append(
            (int(cols[0]), tag[:-2] if missing else tag,
             ReleasedVerdict(cols[6] == "1", None if missing or cols[3] == "None" else cols[3], cols[5], cols[4]))
        )
    return rows


def _match_released(
    rows: list[tuple[int, str, ReleasedVerdict]], line_to_segment: list[int], suite: MZPRTSuite
) -> dict[tuple[int, int], ReleasedVerdict]:
    """Attach released rows to our ZPs: same sentence, same tag, in order (the annotation changed a
    little after the outputs were scored, so a few rows find no partner and are left out)."""
    by_line: dict[int, list[tuple[str, ReleasedVerdict]]] = {}
    for line, tag, verdict in rows:
        by_line.setdefault(line, []).append((tag, verdict))
    out = {}
    for line, released in by_line.items():
        if line >= len(line_to_segment):
            continue
        segment = suite.segments[line_to_segment[line]]
        ours = [zp for zp in segment.zps if zp.scored]
        matcher = difflib.SequenceMatcher(None, [zp.tag for zp in ours], [tag for tag, _ in released], autojunk=False)
        for block in matcher.get_matching_blocks():
            for k in range(block.size):
                zp = ours[block.a + k]
                out[(zp.segment, zp.ordinal)] = released[block.b + k][1]
    return out


def output_source(domain: str, system: str, ext: str) -> str:
    return f"mzprt-{domain}-{system}-{ext}"


def read_published(
    domain: str, system: str, suite: MZPRTSuite, root: str | Path | None = None, released: bool = True
) -> PublishedOutput:
    """A published output as hypotheses keyed by segment, with the released score and verdicts."""
    if domain not in DOMAINS:
        raise InputError(f"published mZPRT outputs exist for the test domains only ({', '.join(DOMAINS)})")
    check_system(domain, system)
    path = catalogue.locate(output_source(domain, system, "tagged"), root)
    lines = read_lines(path)
    segments, layout = segment_map(len(lines), suite, path)
    output = PublishedOutput(
        domain, system, str(path), layout, {seg: strip_marks(line) for seg, line in zip(segments, lines)}
    )
    if released:
        score, correct, incorrect = read_score(catalogue.locate(output_source(domain, system, "score"), root))
        output.released, output.released_counts = score, (correct, incorrect)
        try:
            details = catalogue.locate(output_source(domain, system, "details"), root)
        except catalogue.MissingDataError:
            return output  # the verdicts only explain differences; the score is what the table needs
        rows = read_details(details)
        right = sum(v.correct for _, _, v in rows)
        output.released_details_counts = (right, len(rows) - right)
        output.released_verdicts = _match_released(rows, segments, suite)
    return output
