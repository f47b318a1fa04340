"""The typical costs the card's ``--dry-run`` ships (src/discotest/cards/costs.json), measured: seconds per item of each
row kind (suite × system kind) on a first run (fresh cache, alignment models trained) and on a run whose models are
trained (fresh cache, the models kept), row by row from the card's own record of each row's time.

    .venv/bin/python -m bench.cards.card_costs [--write]      # --write: the figures into cards/costs.json

Three cards: ``--system google --pairs en-de`` and ``--system base_tgt --pairs zh-en`` (published), and a folder of
outputs over en-de, ja-en and zh-en (``fill_walk_folder``: the newcomer's walk of docs/card.md, filled from published
outputs; the language check off). Each runs in a subprocess, ``discotest card … -q``, its cache and models folders
fresh for the first run; no timed assertion anywhere: numbers to quote, from the machine it runs on.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from discotest.atomic import write_text_atomic

CARDS = {
    "google en-de": ["--system", "google", "--pairs", "en-de"],
    "base_tgt zh-en": ["--system", "base_tgt", "--pairs", "zh-en"],
    "a folder en-de,ja-en,zh-en": ["--outputs", "{folder}", "--skip-language-check"],
}


def fill_walk_folder(folder: Path, data_dir: str) -> dict:
    """An outputs folder ``card --outputs DIR --init --pairs en-de,ja-en,zh-en`` wrote, each row's file put beside the
    manifest and named in it: published translations copied whole (google's WinoMT and WinoMT-adj, DeepL's CTXPRO
    auxiliary; MT-GenEval's and MiTTenS's references; mZPRT's deep_tgt, one file per domain, a line per line of the
    domain's sources, empty where deep_tgt released no sentence), scores of a baseline (shorter is better) for the
    contrastive rows, and the sources themselves for the rows with no published translation (BUG, CTXPRO
    formality). DiP's rows stay empty. Returns the manifest written."""
    from discotest.data import catalogue
    from discotest.gender.mittens.suite import load_mittens
    from discotest.gender.mt_geneval.suite import load_mt_geneval
    from discotest.zero_pronoun.mzprt import load_mzprt
    from discotest.zero_pronoun.outputs import read_published

    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))

    def put(key: str, lines: list[str]) -> None:
        name = key.replace("/", ".") + ".mine.txt"
        (folder / name).write_text("".join(" ".join(line.splitlines()) + "\n" for line in lines), "utf-8")
        manifest["files"][key] = name

    def sources(key: str) -> list[str]:
        text = (folder / manifest["sources"][key]).read_text("utf-8").splitlines()
        return [json.loads(line)["src"] for line in text] if manifest["sources"][key].endswith(".jsonl") else text

    for suite in ("winomt", "winomt-adj"):
        shutil.copy(catalogue.locate(catalogue.system_outputs(suite)[("google", "de")], data_dir),
                    folder / f"{suite}.de.txt")
        manifest["files"][f"en-de/{suite}"] = f"{suite}.de.txt"
    shutil.copy(Path(data_dir) / "ctxpro/paper/outputs/deepl.auxiliary.opensubtitles.en-de.test.contexts",
                folder / "ctxpro-auxiliary.de.txt")
    manifest["files"]["en-de/ctxpro-auxiliary-en-de-test"] = "ctxpro-auxiliary.de.txt"
    for subset in ("counterfactual", "contextual"):
        put(f"en-de/mt-geneval-{subset}", [i.reference for i in load_mt_geneval(subset, "de", "test", data_dir)])
    put("en-de/mittens-out", [i.reference for i in load_mittens("mittens-out", ["de"], data_dir)])
    for lang in ("ja", "zh"):
        put(f"{lang}-en/mittens", [i.reference for i in load_mittens("mittens", [lang], data_dir)])
    for key in ("en-de/bug", "en-de/ctxpro-formality-en-de-dev"):
        put(key, sources(key))
    for key in ("ja-en/jazp", "ja-en/bsd-zp-ja-en-test"):
        candidates = (folder / manifest["sources"][key]).read_text("utf-8").splitlines()
        (folder / f"{key.split('/')[1]}.scores").write_text(
            "".join(f"{-len(json.loads(line)['text'])}\n" for line in candidates))
        manifest["files"][key] = f"{key.split('/')[1]}.scores"
    for domain in manifest["sources"]["zh-en/mzprt"]:
        suite = load_mzprt(domain, data_dir)
        released = read_published(domain, "deep_tgt", suite, data_dir).hypotheses
        name = f"deep_tgt.{domain}.en.txt"
        (folder / name).write_text("".join(released.get(seg.index, "") + "\n" for seg in suite.segments), "utf-8")
        manifest["files"]["zh-en/mzprt"][domain] = name
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1))
    return manifest


def _row_times(args: list[str], cache_dir: Path) -> list[dict]:
    """Each row of the card ``args`` names: its suite, the system's kind, its items, and what the card recorded of
    its run in ``cache_dir`` (seconds less training; each model's training seconds)."""
    os.environ["DISCOTEST_CACHE"] = str(cache_dir)
    from discotest.cards import card_settings, common_options, resolve
    from discotest.cards.build import _measured, plan

    options = {a[2:].replace("-", "_"): b for a, b in zip(args[::2], args[1::2])} if "--outputs" not in args else \
        {"outputs": args[1], "skip_language_check": True}
    s = card_settings(options)
    system, _, rows = resolve(s)
    items = {p["row"]: p["items"] for p in plan(system, rows, common_options(s))}
    out = []
    for row in rows:
        measured = _measured(system, row)
        if measured is not None:
            out.append({"row": row.key, "suite": row.suite, "kind": system.kind, "items": items[row.key],
                        "seconds": measured["seconds"], "training": sum(measured["models"].values())})
    return out


def measure(root: Path, data_dir: str) -> dict:
    """Every card twice (first run, then models trained), its wall seconds and its rows' records."""
    from discotest import api

    folder = root / "folder"
    api.card_init(outputs=str(folder), pairs="en-de,ja-en,zh-en")
    fill_walk_folder(folder, data_dir)
    out = {}
    for index, (name, template) in enumerate(CARDS.items()):
        args = [a.replace("{folder}", str(folder)) for a in template]
        models = root / f"models-{index}"
        for phase in ("first", "trained"):
            cache_dir = root / f"cache-{index}-{phase}"
            env = {**os.environ, "DISCOTEST_CACHE": str(cache_dir), "DISCOTEST_MODELS": str(models),
                   "DISCOTEST_DATA": data_dir}
            started = time.monotonic()
            subprocess.run([sys.executable, "-m", "discotest", "card", *args, "-q", "--format", "json", "-o",
                            str(root / "card.json")], env=env, check=False)
            wall = time.monotonic() - started
            out[f"{name} {phase}"] = {"wall": round(wall, 1), "load": os.getloadavg()[0],
                                      "rows": _row_times(args, cache_dir)}
            print(f"{name} {phase}: {wall:.1f} s", file=sys.stderr, flush=True)
    return out


def costs(measured: dict) -> dict:
    """Seconds per item per suite and system kind: ``first`` (the row's time with its training) and ``trained``
    (the second run's), each the sum over the suite's rows of that kind over their items."""
    sums: dict[tuple[str, str, str], list[float]] = {}
    for name, run in measured.items():
        phase = name.rsplit(" ", 1)[1]
        for row in run["rows"]:
            if not row["items"]:
                continue
            seconds = row["seconds"] + (row["training"] if phase == "first" else 0.0)
            total = sums.setdefault((row["suite"], row["kind"], phase), [0.0, 0])
            total[0] += seconds
            total[1] += row["items"]
    out: dict[str, dict[str, dict[str, float]]] = {}
    for (suite, kind, phase), (seconds, items) in sorted(sums.items()):
        out.setdefault(suite, {}).setdefault(kind, {})[phase] = round(seconds / items, 6)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the figures into src/discotest/cards/costs.json")
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", "data"))
    parser.add_argument("--keep", help="measure in this folder (kept) instead of a temporary one")
    args = parser.parse_args()
    root = Path(args.keep or tempfile.mkdtemp(prefix="discotest-card-costs-"))
    root.mkdir(parents=True, exist_ok=True)
    measured = measure(root, args.data_dir)
    print(json.dumps(measured, indent=1))
    figures = costs(measured)
    print(json.dumps(figures, indent=1))
    if args.write:
        path = Path(__file__).resolve().parents[2] / "src/discotest/cards/costs.json"
        shipped = json.loads(path.read_text("utf-8")) if path.is_file() else {}
        write_text_atomic(path, json.dumps({"about": shipped.get("about", ""), "again": shipped.get("again", 1.0),
                                            "costs": figures, "measured": {
            k: {"wall": v["wall"], "load": round(v["load"], 1)} for k, v in measured.items()}}, indent=1) + "\n")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
