"""The typical costs the card's ``--dry-run`` ships (src/discotest/cards/costs.json), measured per row kind (suite ×
system kind) and language pair: CPU seconds per item of a row whose alignment models are trained (``trained``), of the
same row again with its verdicts in the cache (``again``), and the CPU seconds of training each model a first run
trains (``models``, by the model's name: the line a first run prints says it, lang/training.json).

    .venv/bin/python -m bench.cards.card_costs --card google:en-de,en-fr --card reference:ja-en [--write]
    .venv/bin/python -m bench.cards.card_costs --card folder:en-de,ja-en       # the newcomer's walk folder

Each row runs alone in a subprocess, ``discotest card … --pairs P --suites ROW``, in the card's row order: phase
``first`` in a fresh cache and models folder (the pair's rows share them, as in one card: a model trained by one row
is there for the next), ``trained`` in a fresh cache with those models kept, ``again`` in that cache with the card's
rows removed (verdicts and links kept). Per row: the subprocess tree's CPU seconds (``resource.getrusage`` of the
children, the aligner's processes included) and its wall seconds. CPU, not wall: the machine these figures were taken
on is shared and loaded, and a row runs one process at a time except the aligner's training (two processes, one per
direction), so a quiet machine's wall is about a row's CPU, and about half its training's. ``folder:`` is an outputs
folder filled as the newcomer's walk of docs/card.md (``fill_walk_folder``: published outputs, the language check
off). ``--write`` merges the figures into costs.json (the rows measured replace theirs; the others stay) and the
training seconds into lang/training.json. No timed assertion anywhere: numbers to quote, from the machine it
runs on.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from discotest.atomic import write_text_atomic

ROOT = Path(__file__).resolve().parents[2]
COSTS = ROOT / "src/discotest/cards/costs.json"
TRAINING = ROOT / "src/discotest/lang/training.json"
PHASES = ("first", "trained", "again")
TRAINS = re.compile(r"training the alignment model (\S+) \(")


def fill_walk_folder(folder: Path, data_dir: str) -> dict:
    """An outputs folder ``card --outputs DIR --init --pairs en-de,ja-en,zh-en`` wrote, each row's file put beside the
    manifest and named in it: published translations copied whole (google's WinoMT and WinoMT-adj, DeepL's CTXPRO
    auxiliary; MT-GenEval's and MiTTenS's references; mZPRT's deep_tgt, one file per domain, a line per line of the
    domain's sources, empty where deep_tgt released no sentence), scores of a baseline (shorter is better) for the
    contrastive rows, the sources themselves for the rows with no published translation (BUG, CTXPRO formality), and
    for DiP's rows the whole WMT22 source translated by two WMT systems, a document each in turn (Online-A's, then
    Online-B's: DiP refuses a file that copies a system it mines from, and this one is neither). Returns the manifest
    written."""
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
    for key in ("ja-en/dip", "zh-en/dip"):
        pair = key.split("/")[0]
        outputs = [(Path(data_dir) / f"wmt22_general/txt/system-outputs/generaltest2022.{pair}.hyp.{system}.en")
                   .read_text("utf-8").splitlines() for system in ("Online-A", "Online-B")]
        docids = (folder / f"{pair}.dip.docids.txt").read_text("utf-8").splitlines()
        turn = {doc: n % 2 for n, doc in enumerate(dict.fromkeys(docids))}  # the documents in order: A, B, A …
        name = f"{pair}.dip.mine.en"
        (folder / name).write_text("".join(f"{outputs[turn[doc]][i]}\n" for i, doc in enumerate(docids)), "utf-8")
        manifest["files"][key] = name
    for domain in manifest["sources"]["zh-en/mzprt"]:
        suite = load_mzprt(domain, data_dir)
        released = read_published(domain, "deep_tgt", suite, data_dir).hypotheses
        name = f"deep_tgt.{domain}.en.txt"
        (folder / name).write_text("".join(released.get(seg.index, "") + "\n" for seg in suite.segments), "utf-8")
        manifest["files"]["zh-en/mzprt"][domain] = name
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1))
    return manifest


def _system_args(system: str, folder: Path) -> list[str]:
    """The card's options for ``system``: a published name, or ``folder`` (the walk's outputs folder)."""
    return ["--outputs", str(folder), "--skip-language-check"] if system == "folder" else ["--system", system]


def _rows(args: list[str], pair: str) -> list[dict]:
    """The rows of the card ``args`` over ``pair`` that its plan runs (not the unfillable ones): key, id, suite, the
    system's kind, items."""
    from discotest.cards import card_settings
    from discotest.cards.build import CardOptions, plan, resolve

    options = {"outputs": args[1], "skip_language_check": True} if args[0] == "--outputs" else {"system": args[1]}
    s = card_settings({**options, "pairs": pair})
    system, _, rows = resolve(s)
    steps = {p["row"]: p for p in plan(system, rows, CardOptions.of(s))}
    return [{"row": r.key, "id": r.id, "suite": r.suite, "pair": r.pair, "kind": system.kind,
             "items": steps[r.key]["items"]} for r in rows if steps[r.key]["status"] != "unfilled"]


def _run_row(args: list[str], row: dict, cache_dir: Path, models: Path, data_dir: str, out: Path) -> dict:
    """One row's card in a subprocess: its tree's CPU seconds, its wall seconds, the models it trained (by name)."""
    env = {**os.environ, "DISCOTEST_CACHE": str(cache_dir), "DISCOTEST_MODELS": str(models),
           "DISCOTEST_DATA": data_dir}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "discotest", "card", *args, "--pairs", row["pair"], "--suites",
                           row["id"], "--format", "json", "-o", str(out)], env=env, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"cpu": round(cpu, 2), "wall": round(wall, 2), "load": round(os.getloadavg()[0], 1),
            "trained": sorted(set(TRAINS.findall(done.stderr))), "rc": done.returncode}


def measure(root: Path, data_dir: str, cards: list[tuple[str, list[str]]], phases: tuple[str, ...],
            log: Path | None = None) -> list[dict]:
    """Every row of every (system, pairs) card, each phase in turn; a record per row and phase (each written to
    ``log`` as it comes: a long measurement stopped keeps what it measured)."""
    from discotest import api

    folder = root / "folder"
    if any(system == "folder" for system, _ in cards):
        api.card_init(outputs=str(folder), pairs="en-de,ja-en,zh-en")
        fill_walk_folder(folder, data_dir)
    records = []
    for system, pairs in cards:
        args = _system_args(system, folder)
        for pair in pairs:
            rows = _rows(args, pair)
            base = root / f"{system}-{pair}"
            for phase in phases:
                cache_dir = base / ("cache-first" if phase == "first" else "cache-trained")
                if phase == "again":
                    shutil.rmtree(cache_dir / "card-rows", ignore_errors=True)  # the rows, not their verdicts
                for row in rows:
                    got = _run_row(args, row, cache_dir, base / "models", data_dir, root / "card.json")
                    records.append({**row, "system": system, "phase": phase, **got})
                    if log is not None:
                        write_text_atomic(log, json.dumps(records, indent=1) + "\n")
                    print(f"{system} {row['row']} {phase}: {got['cpu']:.1f} s CPU, {got['wall']:.1f} s wall "
                          f"(load {got['load']}){' trained ' + ','.join(got['trained']) if got['trained'] else ''}"
                          f"{'' if got['rc'] == 0 else ' exit ' + str(got['rc'])}", file=sys.stderr, flush=True)
    return records


def costs(records: list[dict]) -> tuple[dict, dict]:
    """From the records: per suite, system kind and pair, CPU seconds per item ``trained`` and ``again`` (per row,
    ``per: row``, where the row's items are unknown before it runs: DiP's are mined), and the models its first run
    trained; and per model, its training's CPU seconds: the first run's CPU less the trained run's (what else a first
    run fills once, the langid model, German's noun tables, is counted with the training it comes with)."""
    by = {(r["row"], r["system"], r["phase"]): r for r in records if r["rc"] == 0}
    figures: dict[str, dict[str, dict[str, dict]]] = {}
    training: dict[str, float] = {}
    for (row, system, phase), r in sorted(by.items()):
        # a row whose first run trained no alignment model (DiP keeps its parses and models in the cache) costs the
        # same in a fresh cache with the models kept: its first run stands for a trained one where there is none
        if phase != "trained" and not (phase == "first" and not r["trained"] and (row, system, "trained") not in by):
            continue
        items = r["items"] or 1
        entry: dict = {"trained": round(r["cpu"] / items, 6)}
        if not r["items"]:
            entry["per"] = "row"
        again = by.get((row, system, "again"))
        if again is not None:
            entry["again"] = round(again["cpu"] / items, 6)
        first = by.get((row, system, "first"))
        if first is not None and first["trained"]:
            entry["models"] = first["trained"]
            seconds = max(0.0, first["cpu"] - r["cpu"]) / len(first["trained"])
            training.update({name: round(seconds, 1) for name in first["trained"]})
        figures.setdefault(r["suite"], {}).setdefault(r["kind"], {})[r["pair"]] = entry
    return figures, training


def write(figures: dict, training: dict, records: list[dict]) -> None:
    """Merge into costs.json (each measured suite/kind/pair replaced, the rest kept; ``measured``: each record's CPU,
    wall and load) and lang/training.json."""
    shipped = json.loads(COSTS.read_text("utf-8"))
    for suite, kinds in figures.items():
        for kind, pairs in kinds.items():
            shipped["costs"].setdefault(suite, {}).setdefault(kind, {}).update(pairs)
    shares = [f["again"] / f["trained"] for kinds in shipped["costs"].values() for pairs in kinds.values()
              for f in pairs.values() if f.get("again") is not None and f["trained"]]
    if shares:  # for a row kind with no "again" of its own
        shipped["again"] = round(statistics.median(shares), 2)
    shipped.setdefault("measured", {}).update({f"{r['system']} {r['row']} {r['phase']}": {
        k: r[k] for k in ("items", "cpu", "wall", "load")} for r in records if r["rc"] == 0})
    write_text_atomic(COSTS, json.dumps(shipped, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    models = json.loads(TRAINING.read_text("utf-8"))
    models["seconds"].update(training)
    models["seconds"] = dict(sorted(models["seconds"].items()))
    write_text_atomic(TRAINING, json.dumps(models, ensure_ascii=False, indent=1) + "\n")


def _card(text: str) -> tuple[str, list[str]]:
    system, _, pairs = text.partition(":")
    if not system or not pairs:
        raise argparse.ArgumentTypeError(f"{text!r}: SYSTEM:PAIR[,PAIR…] (a published name or 'folder')")
    return system, pairs.split(",")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--card", type=_card, action="append", default=[], metavar="SYSTEM:PAIRS",
                        help="a published system's (or 'folder': the walk's outputs folder) rows of these pairs")
    parser.add_argument("--phases", default=",".join(PHASES), help=f"of {', '.join(PHASES)} (in this order)")
    parser.add_argument("--write", action="store_true", help="merge the figures into costs.json and training.json")
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", "data"))
    parser.add_argument("--keep", help="measure in this folder (kept) instead of a temporary one")
    parser.add_argument("--records", help="also write every row's record (JSON) here")
    parser.add_argument("--from-records", nargs="+", metavar="FILE",
                        help="measure nothing: the figures of these --records files (runs made apart)")
    args = parser.parse_args()
    if args.from_records:
        records = [r for name in args.from_records for r in json.loads(Path(name).read_text("utf-8"))]
        figures, training = costs(records)
        print(json.dumps({"costs": figures, "training": training}, indent=1))
        if args.write:
            write(figures, training, records)
        return
    if not args.card:
        parser.error("--card SYSTEM:PAIRS (or --from-records)")
    phases = tuple(p for p in PHASES if p in args.phases.split(","))
    root = Path(args.keep or tempfile.mkdtemp(prefix="discotest-card-costs-"))
    root.mkdir(parents=True, exist_ok=True)
    records = measure(root, args.data_dir, args.card, phases, Path(args.records) if args.records else None)
    figures, training = costs(records)
    print(json.dumps({"costs": figures, "training": training}, indent=1))
    if args.write:
        write(figures, training, records)
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
