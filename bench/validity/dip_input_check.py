"""How the check of a user's DiP file (``dip.run.given_outputs``: ``lang.correspondence`` without its swap test,
judged against the pair's WMT outputs) treats real and broken files of the WMT22 X-en pairs the card has DiP rows for.

Each WMT22 system output of de, ja, ru and zh→en is judged as a user's file would be, against the *other* systems of
its pair (its own output never vouches for it):

- as published (a refusal is a false alarm, unless the output is not a translation);
- shifted: line 100 deleted and an empty line added at the end;
- rotated: its lines rotated by a third (translations of other sentences, the same count);

and the pair's reference A, judged against every system. Also how many outputs the swap test, left out, would refuse.

Run: python -m bench.validity.dip_input_check [DATA_DIR] (default ../shared/data). Minutes on 2 cores.
"""

from __future__ import annotations

import sys
import time

from discotest.dip.documents import load_pair
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
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
