"""How the check of a user's DiP file (``dip.run.given_outputs``: ``lang.correspondence`` without its swap test,
judged against the pair's WMT outputs) treats real and broken files of the WMT22 X-en pairs the card has DiP rows for.

Each WMT22 system output of de, ja, ru and zh→en is judged as a user's file would be, against the *other* systems of
its pair (its own output never vouches for it):

- as published (a refusal is a false alarm, unless the output is not a translation);
- shifted: line 100 deleted and an empty line added at the end;
- rotated: its lines rotated by a third (translations of other sentences, the same count);

and the pair's reference A, judged against every system. Also how many outputs the swap test, left out, would refuse.

Then the copy check (``dip.run.refuse_copy``) over every WMT21/22 X-en pair: the largest share of identical lines
(``identical_share``) between a system and a reference, two references, and two systems; the thresholds
``COPY_OF_REFERENCE`` and ``COPY_OF_SYSTEM`` must lie above the first two and the last (but for files that are one
file twice, said by their sha256).

Run: python -m bench.validity.dip_input_check [DATA_DIR] (default ../shared/data). Minutes on 2 cores.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
import time

from discotest.data.readers import read_lines
from discotest.dip.documents import _pairs, load_pair, reference_paths, system_paths
from discotest.dip.run import COPY_OF_REFERENCE, COPY_OF_SYSTEM, identical_share
from discotest.lang.correspondence import find_misalignment

PAIRS = ("de-en", "ja-en", "ru-en", "zh-en")


def _refuses(text: list[str], others: list[list[str]], source: list[str], swaps: bool = False) -> bool:
    return find_misalignment(text, others, source, swaps=swaps) is not None


def main(data_dir: str = "../shared/data") -> int:
    for pair in PAIRS:
        loaded = load_pair("wmt22", pair, root=data_dir)
        names, started = list(loaded.systems), time.monotonic()
        refused, shifted, rotated, with_swaps = [], 0, 0, []
        for name in names:
            lines, others = loaded.systems[name], [loaded.systems[o] for o in names if o != name]

            refused += [name] if _refuses(lines, others, loaded.source) else []
            with_swaps += [name] if _refuses(lines, others, loaded.source, swaps=True) else []
            shifted += _refuses([*lines[:100], *lines[101:], ""], others, loaded.source)
            third = len(lines) // 3
            rotated += _refuses([*lines[third:], *lines[:third]], others, loaded.source)
        reference = find_misalignment(loaded.reference, list(loaded.systems.values()), loaded.source, swaps=False)
        print(f"{pair}: {len(names)} systems; as published refused: {', '.join(refused) or 'none'} "
              f"(with the swap test: {', '.join(with_swaps) or 'none'}); shifted refused {shifted}/{len(names)}; "
              f"rotated refused {rotated}/{len(names)}; reference {'refused' if reference else 'accepted'}; "
              f"{time.monotonic() - started:.0f} s", flush=True)
    copies(data_dir)
    return 0


def copies(data_dir: str) -> None:
    """The largest identical-line shares between the texts of every WMT21/22 X-en pair, against the thresholds."""
    worst: dict[str, tuple[float, str]] = {"system~reference": (0.0, ""), "reference~reference": (0.0, ""),
                                           "system~system": (0.0, "")}
    tripped = []
    for data in ("wmt21", "wmt22"):
        for pair in _pairs(data):
            refs = {r: read_lines(p) for r, p in reference_paths(data, pair, data_dir).items()}
            paths = system_paths(data, pair, data_dir)
            systems = {name: read_lines(p) for name, p in paths.items()}
            measured = [("system~reference", f"{data} {pair} {n}~{r}", identical_share(t, rt))
                        for n, t in systems.items() for r, rt in refs.items()]
            measured += [("reference~reference", f"{data} {pair} {a}~{b}", identical_share(refs[a], refs[b]))
                         for a, b in itertools.combinations(refs, 2)]
            for a, b in itertools.combinations(systems, 2):
                share = identical_share(systems[a], systems[b])
                same = hashlib.sha256(paths[a].read_bytes()).digest() == hashlib.sha256(paths[b].read_bytes()).digest()
                if share >= COPY_OF_SYSTEM:
                    tripped.append(f"{data} {pair} {a}~{b} {share:.3f}{' (one file twice)' if same else ''}")
                if not same:
                    measured.append(("system~system", f"{data} {pair} {a}~{b}", share))
            for kind, name, share in measured:
                worst[kind] = max(worst[kind], (share, name))
    for kind, (share, name) in worst.items():
        print(f"largest share {kind}: {share:.3f} ({name})")
    print(f"thresholds: reference {COPY_OF_REFERENCE}, system {COPY_OF_SYSTEM}; system pairs at or above it: "
          f"{'; '.join(tripped) or 'none'}")


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
