"""How the check of a MiTTenS ``--input`` file (``mittens`` family ``check_lines``: ``lang.correspondence`` judged
against the suite's references) treats right and broken files, for every language of both suites.

MiTTenS publishes no system outputs, so the files judged are made from its references:

- the references (a refusal is a false alarm);
- the references with every gendered word swapped (into English only: ``reference-swapped``; a refusal is a false
  alarm: the check must not read gender);
- shifted: the line at a third of the file deleted and the last line repeated at the end (must be refused);
- swapped: two lines half the file apart exchanged (the family leaves the swap test out: MiTTenS's rows come in
  pairs that differ in the person's gender alone, and a translation with the gender wrong reads as the other
  row's; with it, the gender-swapped references were refused in 9 of 26 languages);
- rotated: the lines rotated by a third (translations of other passages, the same count; must be refused).

A real system's translation differs from the reference more than any of these; the check is relative to the file
itself (its own rows against its neighbours' and against rows half the file away), as it is for WinoMT.

Run: python -m bench.validity.mittens_input_check [DATA_DIR] (default ../shared/data). About a minute on 2 cores.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from discotest.data.translations import Translations
from discotest.errors import InputError
from discotest.gender.mittens.english import swap_gender
from discotest.gender.mittens.suite import SUITE, SUITE_OUT, MittensItem, languages, load_mittens
from discotest.lang.correspondence import refuse_misaligned


def _refused(items: Sequence[MittensItem], lines: Sequence[str]) -> bool:
    translations = Translations("bench", {i.index: t for i, t in zip(items, lines)},
                                lines={i.index: n for n, i in enumerate(items, start=1)})
    try:
        refuse_misaligned(translations, {i.index: i.source for i in items}, [{i.index: i.reference for i in items}],
                          "the references", swaps=False)
    except InputError:
        return True
    return False


def main(data_dir: str = "../shared/data") -> int:
    for suite in (SUITE, SUITE_OUT):
        counts = {"references": 0, "swapped gender": 0, "shifted": 0, "swapped lines": 0, "rotated": 0}
        alarms: list[str] = []
        langs = languages(suite)
        for lang in langs:
            items = load_mittens(suite, [lang], data_dir)
            refs = [i.reference for i in items]
            third, half = len(refs) // 3, len(refs) // 2
            if _refused(items, refs):
                counts["references"] += 1
                alarms.append(f"{lang} references")
            if suite == SUITE and _refused(items, [swap_gender(r) for r in refs]):
                counts["swapped gender"] += 1
                alarms.append(f"{lang} swapped")
            counts["shifted"] += _refused(items, [*refs[:third], *refs[third + 1:], refs[-1]])
            crossed = list(refs)
            crossed[third], crossed[third + half] = crossed[third + half], crossed[third]
            counts["swapped lines"] += _refused(items, crossed)
            counts["rotated"] += _refused(items, [*refs[third:], *refs[:third]])
        print(f"{suite}: {len(langs)} languages; refused: " + ", ".join(f"{k} {v}/{len(langs)}"
                                                                         for k, v in counts.items()
                                                                         if k != "swapped gender" or suite == SUITE)
              + f"; false alarms: {', '.join(alarms) or 'none'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
