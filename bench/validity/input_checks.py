"""The input checks of the suites with references (issue 53). First, how the check of a MiTTenS ``--input`` file
(``mittens`` family ``check_lines``: ``lang.correspondence`` judged against the suite's references) treats right and
broken files, for every language of both suites.

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

Then the reference-copy warning (``lang.correspondence.REFERENCE_COPY``, 50% of lines identical to the suite's
reference): the largest share of its lines a real system output shares with the reference, over CTXPRO's published
outputs and every mZPRT domain's (far below it, as the WMT systems' 7.3% with theirs: dip_input_check.py).

Run: python -m bench.validity.input_checks [DATA_DIR] (default ../shared/data). About a minute on 2 cores.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from discotest.data.translations import Translations
from discotest.errors import InputError
from discotest.gender.mittens.english import swap_gender
from discotest.gender.mittens.suite import SUITE, SUITE_OUT, MittensItem, languages, load_mittens
from discotest.lang.correspondence import REFERENCE_COPY, identical_share, refuse_misaligned


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
    reference_shares(data_dir)
    return 0


def reference_shares(data_dir: str) -> None:
    """The largest share of lines a published system output shares with its suite's reference."""
    from discotest.contrastive.suites import contrastive_suites, is_expected_word, load_suite
    from discotest.data import catalogue
    from discotest.data.readers import read_lines
    from discotest.zero_pronoun.mzprt import DOMAINS, load_mzprt
    from discotest.zero_pronoun.outputs import published_systems, read_published

    shares = []
    for suite in [s for s in contrastive_suites() if is_expected_word(s)]:
        outputs = catalogue.system_outputs(suite)
        if outputs:
            correct = [item.correct for item in load_suite(suite, data_dir)]
            shares += [(identical_share(read_lines(catalogue.locate(name, data_dir)), correct), f"{suite} {system}")
                       for (system, _), name in outputs.items()]
    for domain in DOMAINS:
        test_set = load_mzprt(domain, data_dir)
        reference = {seg.index: seg.reference for seg in test_set.segments}
        for system in published_systems(domain):
            hypotheses = read_published(domain, system, test_set, data_dir).hypotheses
            rows = sorted(hypotheses)
            shares.append((identical_share([hypotheses[r] for r in rows], [reference[r] for r in rows]),
                           f"mzprt {domain} {system}"))
    share, name = max(shares)
    print(f"reference copies: {len(shares)} published outputs (CTXPRO, mZPRT); the largest share of lines identical "
          f"to the reference {share:.3f} ({name}); warned from {REFERENCE_COPY}")


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
