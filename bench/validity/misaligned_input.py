"""How well the misaligned-input check (discotest.lang.correspondence) tells an aligned translation file from a
misaligned one of the right length, on every published WinoMT output, and what it costs.

Files: the 33 published WinoMT outputs (mt_gender/translations/<system>/en-<lang>.txt, languages ar de es fr he it ru
uk), matched to the current suite's rows as ``run --input`` matches them. Each is judged as a new system would be:
against the published outputs of the *other* systems of its language (so its own file never vouches for it). For
each file:

- aligned: the file as published (a refusal is a false alarm);
- shifted: a line deleted at row k and a line added at the end, k = 100, 1000, 3000;
- swapped: two lines at least 500 rows apart exchanged, three seeded pairs;
- foreign: translations of other sentences, the same count (the file's lines in a seeded random order).

Run: python -m bench.validity.misaligned_input [DATA_DIR] (default ../shared/data).
"""

from __future__ import annotations

import random
import sys
import time
from collections import defaultdict
from pathlib import Path

from discotest.gender.published import available_published, published_translations
from discotest.gender.winomt import load_winomt
from discotest.lang.correspondence import find_misalignment

SHIFT_ROWS = (100, 1000, 3000)
SWAPS = 3


def corrupted(texts: list[str], seed: int) -> list[tuple[str, list[str]]]:
    """(kind, lines) for every corruption of ``texts``."""
    rng = random.Random(seed)
    out = []
    for k in SHIFT_ROWS:
        out.append(("shifted", texts[:k] + texts[k + 1:] + ["Das ist eine Zeile."]))
    for _ in range(SWAPS):
        i = rng.randrange(len(texts) - 500)
        j = rng.randrange(i + 500, len(texts))
        swapped = list(texts)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        out.append(("swapped", swapped))
    shuffled = list(texts)
    rng.shuffle(shuffled)
    out.append(("foreign", shuffled))
    return out


def main(data: Path) -> None:
    items = load_winomt("current", data)
    rows = [item.index for item in items]
    sources = [item.sentence for item in items]
    paths = sorted((data / "mt_gender/translations").glob("*/en-*.txt"))
    langs = sorted({p.stem.split("-")[1] for p in paths if p.stem.split("-")[1] in ("ar", "de", "es", "fr", "he", "it",
                                                                                      "ru", "uk")})
    flagged, checked = 0, 0
    caught: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    false_alarms, misses = [], []
    cost = []
    for lang in langs:
        systems = available_published(lang, data)
        by_row = {s: published_translations(s, lang, items, data).by_row for s in systems}
        for system in systems:
            texts = [by_row[system].get(r, "") for r in rows]
            refs = [[by_row[o].get(r) for r in rows] for o in systems if o != system]
            started = time.perf_counter()
            suspect = find_misalignment(texts, refs, sources)
            cost.append(time.perf_counter() - started)
            checked += 1
            if suspect:
                flagged += 1
                false_alarms.append(f"{system}/en-{lang}: line {suspect.position + 1}: {suspect.reason}")
            for n, (kind, lines) in enumerate(corrupted(texts, seed=len(lang) * 31 + n_seed(system + lang))):
                hit = find_misalignment(lines, refs, sources) is not None
                caught[(kind, lang)][0] += hit
                caught[(kind, lang)][1] += 1
                if not hit:
                    misses.append(f"{system}/en-{lang} {kind} #{n}")
    print(f"aligned files flagged: {flagged}/{checked}")
    for line in false_alarms:
        print(f"  false alarm: {line}")
    for kind in ("shifted", "swapped", "foreign"):
        per = [f"{lang} {caught[(kind, lang)][0]}/{caught[(kind, lang)][1]}" for lang in langs]
        total = sum(caught[(kind, lang)][0] for lang in langs), sum(caught[(kind, lang)][1] for lang in langs)
        print(f"{kind} caught: {total[0]}/{total[1]} ({', '.join(per)})")
    for line in misses:
        print(f"  missed: {line}")
    cost.sort()
    print(f"cost per file: median {1000 * cost[len(cost) // 2]:.0f} ms, max {1000 * cost[-1]:.0f} ms "
          f"({len(rows)} rows, 2-4 reference outputs)")


def n_seed(text: str) -> int:
    """A seed from a name that is the same in every process (``hash`` is not)."""
    return sum(ord(c) * (k + 1) for k, c in enumerate(text))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/data"))
