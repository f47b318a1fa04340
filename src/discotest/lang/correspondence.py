"""Does each line of a translation file translate the suite row it is scored against? A file of the right length whose
lines are shifted (a line deleted and one added at the end), two lines swapped far apart, or translations of other
sentences with the same count is refused before it is scored (``run winomt --input`` scored a file shifted from row
100 on at Acc 34.1 against 56.4, without a word).

The signal is the one the suite's alignment model is trained on: what the published systems wrote for each row. A
line is compared with every published translation of its own row and of other rows, by the cosine of their
character 4-gram sets weighted by rarity (monolingual, any script, no model to load; a few hundred milliseconds for
WinoMT's 3,888 rows). Three tests, each relative to the file itself, so a weak system is judged against its own level:

- **shift**: in ``WINDOW`` consecutive lines, at least ``RUN`` match the row ``d`` (1 to ``MAX_SHIFT``) before or
  after theirs better, by ``MARGIN``, than their own;
- **swap**: two lines more than ``MAX_SHIFT`` apart that both match their own rows no better than unrelated rows
  do, each matching the other's row better than its own by ``MARGIN`` and among the ``TOP`` rows it matches best;
  rows whose English sentences are near copies (WinoMT's pro/anti twins) are not told apart, so swapping them is
  not caught;
- **other sentences**: the file's lines match their own rows on average no better (by ``FOREIGN_MARGIN``) than the
  rows half the file away.

Measured on every published WinoMT output (none refused) and on shifted, swapped and foreign copies of each:
bench/validity/misaligned_input.py; the figures are in docs/your-files.md. A suite without published outputs (BUG)
is judged against its English sentences (``SOURCE_MARGIN``), into Latin-script languages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from discotest.data.translations import Translations

MARGIN = 0.05  # a line "matches another row better" by at least this cosine
WINDOW, RUN = 10, 8  # a shift: RUN of WINDOW consecutive lines match the same other offset better
MAX_SHIFT = 3
FOREIGN_MARGIN = 0.05
SWAP_CANDIDATES = 400  # at most this many poorly matching lines are searched against every row
TOP = 3  # a swap partner is among the rows a line matches best, near copies of it not counted …
LOOK_PAST = 10  # … so up to this many more rows (its near copies) are looked at
TWIN_OVERLAP = 0.6  # English sentences sharing this share of their words are near copies
# a suite without published outputs (BUG) is judged against its English sentences instead, into a Latin-script
# language only (names, numbers and shared words survive translation; the cosines are lower, so the margins are):
# on WinoMT's 18 published de/es/fr/it files judged so, none refused, 49 of 54 shifted copies caught
SOURCE_MARGIN, SOURCE_FOREIGN_MARGIN = 0.02, 0.01
# a file at least this share of whose lines are a reference's (``identical_share``) is that reference, not a system's
# translation: DiP refuses it, the suites with references score it with a warning. A system shares at most 7.3% of
# its lines with a WMT21/22 reference, two WMT references 9.6% (bench/validity/dip_input_check.py), a CTXPRO or
# mZPRT published output 9.9% with its suite's (bench/validity/input_checks.py)
REFERENCE_COPY = 0.5


@dataclass(frozen=True)
class Suspect:
    """The first position (0-based, in the given order) that looks misaligned, and why, in words."""

    position: int
    reason: str


def _vectors(texts: Sequence[Sequence[str | None]]):
    """Rows of L2-normalised, rarity-weighted character 4-gram indicator vectors, one matrix per sequence (a shared
    vocabulary; a missing text is a zero row). The 4-grams are numbered with numpy over one array of code points
    (a code point is kept to its low 16 bits: exact for every script the suites use), not in a Python loop."""
    from scipy import sparse

    padded = [" " + " ".join((text or "").lower().split()) + " " for group in texts for text in group]
    codes = np.frombuffer("".join(padded).encode("utf-32-le"), np.uint32).astype(np.uint64) & 0xFFFF
    lengths = np.fromiter((len(t) for t in padded), np.int64, len(padded))
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    count = lengths - 3  # 4-grams of each text (a padded text has at least 2 characters: 0 for "  ")
    count[count < 0] = 0
    owner = np.repeat(np.arange(len(padded)), count)
    at = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count) + np.repeat(starts, count)
    keys = (codes[at] << 48) | (codes[at + 1] << 32) | (codes[at + 2] << 16) | codes[at + 3]
    _, ids = np.unique(keys, return_inverse=True)
    size = int(ids.max()) + 1 if len(ids) else 1
    matrix = sparse.csr_matrix((np.ones(len(ids)), (owner, ids.ravel())), shape=(len(padded), size))
    matrix.data[:] = 1.0  # a 4-gram counts once per text
    weight = sparse.diags(np.log((len(padded) + 1) / (np.asarray((matrix > 0).sum(0)).ravel() + 1)) + 1.0)
    matrix = matrix @ weight
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(1)).ravel())
    norms[norms == 0] = 1.0
    matrix = sparse.csr_matrix(sparse.diags(1.0 / norms) @ matrix)
    bounds = np.cumsum([0, *(len(group) for group in texts)])
    return [matrix[bounds[k]:bounds[k + 1]] for k in range(len(texts))]


def _row_cosines(lines, refs, offset: int) -> np.ndarray:
    """cos(line i, reference row i + offset), best over the references; -1 past either end."""
    n = lines.shape[0]
    out = np.full(n, -1.0)
    lo, hi = max(0, -offset), min(n, n - offset)
    if lo >= hi:
        return out
    for ref in refs:
        values = np.asarray(lines[lo:hi].multiply(ref[lo + offset:hi + offset]).sum(1)).ravel()
        out[lo:hi] = np.maximum(out[lo:hi], values)
    return out


def _words(text: str) -> set[str]:
    return {w.strip(".,;:!?\"'").lower() for w in text.split()}


def _twins(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    return len(wa & wb) >= TWIN_OVERLAP * max(len(wa | wb), 1)


def find_misalignment(translations: Sequence[str], references: Sequence[Sequence[str | None]],
                      sources: Sequence[str], numbers: Sequence[int] | None = None,
                      margin: float = MARGIN, foreign_margin: float = FOREIGN_MARGIN, swaps: bool = True
                      ) -> Suspect | None:
    """The first line of ``translations`` that does not translate its row, or None. ``references``: published
    translations of the same rows (one sequence per system, None where a system has no translation); ``sources``:
    the rows' source sentences (only to tell near-copies apart); ``numbers``: each position's line in the file (for
    the words of a swap; position + 1 by default). ``swaps=False`` leaves the swap test out: on WMT22 ja-en's short
    dialogue lines it refused a real system (KYB: "I know the Woods!" taken for another row's "I knew a guy"), while
    shifts and foreign files were caught in every pair (``dip.run.given_outputs``; docs/dip.md)."""
    n = len(translations)
    references = [ref for ref in references if sum(r is not None for r in ref) >= n // 2]
    if n < 2 * WINDOW or not references:
        return None
    lines, *refs = _vectors([translations, *references])
    own = _row_cosines(lines, refs, 0)
    half = _row_cosines(lines, refs, n // 2) if n // 2 < n else own
    half = np.where(half < 0, _row_cosines(lines, refs, n // 2 - n), half)  # wrap around
    if own.mean() < half.mean() + foreign_margin:
        first = int(np.argmax(own < np.quantile(half, 0.99)))
        return Suspect(first, f"its lines match the suite's rows no better than unrelated rows (mean similarity "
                              f"{own.mean():.2f} to their own rows' references, {half.mean():.2f} to "
                              f"others'): translations of other sentences?")
    found: list[Suspect] = []
    for d in [k for step in range(1, MAX_SHIFT + 1) for k in (step, -step)]:
        wins = (_row_cosines(lines, refs, d) > own + margin).astype(int)
        counts = np.convolve(wins, np.ones(WINDOW, int), mode="valid")
        if counts.max() >= RUN:
            start = int(np.argmax(counts >= RUN))
            first = start + int(np.argmax(wins[start:start + WINDOW]))
            found.append(Suspect(first, f"this line and the next ones match the row {abs(d)} "
                                        f"{'after' if d > 0 else 'before'} theirs better than their own: lines "
                                        "shifted (one missing or added above)?"))
    swap = _swapped(lines, refs, own, half, sources, numbers or range(1, n + 1), margin) if swaps else None
    if swap is not None:
        found.append(swap)
    return min(found, key=lambda s: s.position) if found else None


def _swapped(lines, refs, own: np.ndarray, half: np.ndarray, sources: Sequence[str], numbers: Sequence[int],
             margin: float = MARGIN) -> Suspect | None:
    """Two lines that each translate the other's row (see the module doc)."""
    poor = np.flatnonzero(own <= np.quantile(half, 0.99))
    if not len(poor):
        return None
    poor = poor[np.argsort(own[poor], kind="stable")][:SWAP_CANDIDATES]
    scores = np.full((len(poor), lines.shape[0]), -1.0)
    for ref in refs:
        scores = np.maximum(scores, (lines[poor] @ ref.T).toarray())
    position = {i: k for k, i in enumerate(poor.tolist())}
    for k, i in enumerate(poor.tolist()):
        scores[k, i] = -1.0  # a line's own row is not its partner

    def among_best(i: int, j: int) -> bool:
        """Whether row ``j`` is among the ``TOP`` rows line ``i`` matches best, near copies of ``j`` (WinoMT repeats
        a sentence with another pronoun or entity, Winogender up to six times) not counted against it."""
        row = scores[position[i]]
        others = 0
        for k in np.argsort(-row, kind="stable").tolist():
            if k == j:
                return True
            if others >= TOP:
                return False
            others += not _twins(sources[k], sources[j])
        return False

    pairs = []
    for i in position:
        for j in np.argsort(-scores[position[i]], kind="stable")[:TOP + LOOK_PAST].tolist():
            # both lines poor, each matching the other's row better than its own, and among each other's best
            if j in position and scores[position[i], j] > own[i] + margin \
                    and scores[position[j], i] > own[j] + margin and abs(i - j) > MAX_SHIFT \
                    and not _twins(sources[i], sources[j]) and among_best(i, j) and among_best(j, i):
                pairs.append((min(i, j), max(i, j)))
                break
    if not pairs:
        return None
    i, j = min(pairs)
    return Suspect(i, f"this line translates the row of line {numbers[j]} and that line this one's: lines swapped?")


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", text.lower()).split())


def identical_share(lines: Sequence[str | None], other: Sequence[str | None]) -> float:
    """The share of ``lines``' non-empty lines equal to ``other``'s line at the same position, case, punctuation
    and spacing aside: how much of a file is a copy of another text."""
    pairs = [(_plain(a or ""), _plain(b or "")) for a, b in zip(lines, other)]
    filled = [(a, b) for a, b in pairs if a]
    return sum(a == b for a, b in filled) / len(filled) if filled else 0.0


def refuse_misaligned(translations: Translations, sources: Mapping[int, str],
                      references: Sequence[Mapping[int, str | None]], against: str, lang: str | None = None,
                      margins: Mapping[str, float] | None = None, swaps: bool = True,
                      reference: str | None = None) -> str | None:
    """Refuse (one line naming the file and its first suspicious line) a translation file whose lines do not
    translate the suite rows they landed on: the one check every family runs on an ``--input`` file before any work
    (``registry.Family.check_lines``). ``sources``: suite row -> source sentence, in suite order; ``references``:
    translations of the same rows to judge against (each a row -> text mapping: a published system's output, the
    suite's references), ``against`` names them in the error. With none, the lines are judged against the sources
    themselves, with the lower margins (``SOURCE_MARGIN``), and only into a Latin-script ``lang``: names, numbers and
    shared words survive translation there. A file matched by its sources (``Translations.by_source``) is not judged
    for swaps: its order does not decide where a line lands, and near-copies of a sentence in the suite (one word
    changed) look swapped; ``swaps=False`` leaves it out for every file (a suite of minimal pairs whose rows differ
    in what is scored: a system that gets it wrong translates the other row). ``reference``: the first of
    ``references`` is the suite's reference translation, named so: a file that is mostly a copy of it
    (``REFERENCE_COPY``) is scored, and the warning returned says its scores are the reference's."""
    from discotest.errors import InputError
    from discotest.lang.identify import script_of

    rows = [row for row in sources if row in translations.by_row]
    if not rows:
        return None
    options = dict(margins or {})
    if references:
        judged = [[ref.get(row) for row in rows] for ref in references]
    elif lang is not None and script_of(lang) == "Latin":
        judged = [[sources[row] for row in rows]]
        options = {"margin": SOURCE_MARGIN, "foreign_margin": SOURCE_FOREIGN_MARGIN, **options}
        against = against or "the suite's sources"
    else:
        return None
    numbers = [translations.lines.get(row, position + 1) for position, row in enumerate(rows)]
    suspect = find_misalignment([translations.by_row[row] for row in rows], judged, [sources[row] for row in rows],
                                numbers, swaps=swaps and not translations.by_source, **options)
    if suspect is not None:
        raise InputError(f"{suspect.reason} (judged against {against}; --skip-language-check scores it anyway)",
                         translations.path, numbers[suspect.position])
    share = identical_share([translations.by_row[row] for row in rows], judged[0]) if reference and references else 0
    if share >= REFERENCE_COPY:
        from discotest.data.readers import system_name

        return (f"warning: {system_name(translations.path)}: {share:.0%} of its lines are {reference}: its scores are "
                "the reference's, not a system's")
    return None
