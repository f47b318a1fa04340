"""How well the input language check (discotest.lang.identify) reads the suites' real outputs, and what it costs.

Files: the published WinoMT outputs (mt_gender/translations/<system>/en-<lang>.txt, the translation after ``|||``),
mZPRT's released hypotheses (2_metric_azpt/aZPT_output/<domain>/*_tgt.tagged, marks stripped; English) and the
WMT21/22 system outputs (txt/system-outputs, the language from the file name). For each file, the same sample the
check takes (``SAMPLE`` lines):

- sentence level: the share of sampled lines py3langid identifies as the file's language;
- file level: whether the check accepts the file under its own language (a refusal is a false alarm), and whether
  it refuses the same file scored as each other language of its collection (a miss scores a wrong-language file);
- cost: the model's load once, then milliseconds per file.

Run: python -m bench.validity.bench_langid [DATA_DIR] (default ../shared/data).
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from discotest.lang import identify
from discotest.zero_pronoun.outputs import strip_marks


def files(data: Path) -> dict[str, list[tuple[Path, str, list[str]]]]:
    """collection -> [(file, language, translations)]."""
    out: dict[str, list[tuple[Path, str, list[str]]]] = defaultdict(list)
    for path in sorted((data / "mt_gender/translations").glob("*/en-??.txt")):
        lines = path.read_text("utf-8").splitlines()
        out["winomt"].append((path, path.stem.split("-")[1], [line.split("|||", 1)[-1].strip() for line in lines]))
    for path in sorted((data / "mzprt/2_metric_azpt/aZPT_output").glob("*/*_tgt.tagged")):
        out["mzprt"].append((path, "en", [strip_marks(line) for line in path.read_text("utf-8").splitlines()]))
    for wmt in ("wmt21_news", "wmt22_general"):
        for path in sorted((data / wmt / "txt/system-outputs").glob("*")):
            out["wmt"].append((path, path.suffix[1:], path.read_text("utf-8").splitlines()))
    return out


def main(data: Path) -> None:
    started = time.perf_counter()
    identify._classify("warm up")
    print(f"model load: {time.perf_counter() - started:.2f} s")
    collections = files(data)
    every = sorted({lang for group in collections.values() for _, lang, _ in group})
    print(f"languages: {', '.join(every)}; each file is also judged as every other of them")
    for collection, group in collections.items():
        langs = sorted({lang for _, lang, _ in group})
        sentence_hits = sentence_n = 0
        false_alarms, misses, mismatched = [], [], 0
        cost = 0.0
        worst = (1.0, "")
        for path, lang, texts in group:
            t = time.perf_counter()
            observed = identify.observe(texts)
            reading = observed.reading(lang)
            reading.problem()
            cost += time.perf_counter() - t
            sentence_hits += observed.languages[lang]
            sentence_n += observed.lines
            worst = min(worst, (reading.expected_share, f"{path.parent.name}/{path.name}"))
            if reading.problem():
                false_alarms.append(f"{path.name}: {reading.problem()}")
            for other in every:
                if other == lang:
                    continue
                mismatched += 1
                if observed.reading(other).problem() is None:
                    misses.append(f"{path.parent.name}/{path.name} as {other}")
        print(f"\n{collection}: {len(group)} files, languages {', '.join(langs)}")
        print(f"  sentence level: {sentence_hits}/{sentence_n} sampled lines identified as the file's language "
              f"({sentence_hits / sentence_n:.1%}); lowest file {worst[0]:.1%} ({worst[1]})")
        print(f"  file level: {len(group) - len(false_alarms)}/{len(group)} accepted under their own language; "
              f"{mismatched - len(misses)}/{mismatched} refused under another language")
        for line in false_alarms[:5]:
            print(f"    false alarm: {line}")
        for line in misses[:10]:
            print(f"    missed: {line}")
        print(f"  cost: {1000 * cost / len(group):.1f} ms per file (sample of {identify.SAMPLE} lines)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3] / "shared" / "data")
