"""What Thot's two decode child processes spend that is not decoding, and the links they give (issue 55).

    .venv/bin/python -m bench.speed.thot_child split [--langs de,ru] [--system google] [--repeats 3] [--json FILE]
    .venv/bin/python -m bench.speed.thot_child cold [--langs de,ru] [--system google] [--repeats 3] [--json FILE]
    .venv/bin/python -m bench.speed.thot_child links [--langs ...] --json FILE [--before FILE]

``split``: per language, the system's WinoMT output decoded by the language's alignment model exactly as a cold run
decodes it (``ThotAligner.decode``: two child processes, one per direction), in a process of its own with
``DISCOTEST_TIMING`` set: the CPU of the two children together (rusage), the caller's own CPU in the call, and each
child's split as the child records it (``thot_child``'s stamps: start-up and imports, reading the request, loading the
model, the decode, writing the links), and ``exits``: the children's rusage less all their stamps (their two exits).
Median of ``--repeats``.

``cold``: ``run winomt --lang L --system S`` as a user starts it, in a cache holding only the compiled resources and
the alignment models (``bench_gender_speed.RESOURCE_NAMESPACES``, linked from the prepared cache, a fresh copy per
repeat): the whole process's wall and CPU and its ``alignment`` stage (``DISCOTEST_TIMING``), median of ``--repeats``.
The prepared cache (``$DISCOTEST_CACHE`` or the user cache) gets the language's model first if it lacks it.

``links``: the sha256 of every Pharaoh line Thot's decode gives every published pair (all 33 by default), by pair and
in total; ``--before FILE`` says which pairs' lines differ from that file's. ``links`` measures the sources this
process imports (``PYTHONPATH``); ``split`` and ``cold`` those of ``--src`` (the models are found with this process's
sources: a tree whose aligner code differs only in its child's stamps decodes the same model files).

The figures of 2026-11-29 (main 73cab0a → this change: split, cold and links) are in ``bench/figures/thot_child.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.speed.bench_gender_speed import RESOURCE_NAMESPACES, discotest_cmd, discotest_env, run_process

ROOT = Path(__file__).resolve().parents[2]
DATA = os.environ.get("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data"))
CHILD_PHASES = ("start and imports", "read request", "model load", "decode", "write links")

# run in a process of its own (the sources under test first on the path): decode the pairs with the model at the
# prefix as a cold run does, and say the CPU of the children and of this process, and the links' hash
_DRIVER = """
import hashlib, json, os, sys, time
from discotest.lang.align.thot_aligner import ThotAligner
pairs, settings, prefix = json.load(open(sys.argv[1]))
aligner = ThotAligner(**settings)
before, wall = os.times(), time.perf_counter()
links = aligner.decode(pairs, prefix)()
after, wall = os.times(), time.perf_counter() - wall
text = "\\n".join(" ".join(f"{s}-{t}" for s, t in sorted(lk)) for lk in links)
print(json.dumps({"children": after.children_user + after.children_system - before.children_user
                  - before.children_system, "caller": after.user + after.system - before.user - before.system,
                  "wall": wall, "links": hashlib.sha256(text.encode()).hexdigest()}))
"""


def _user_cache() -> Path:
    from discotest.cache import cache_dir

    return cache_dir()


def _model(lang: str):
    """The language's alignment model (trained now if the cache lacks it) and the run's options."""
    from discotest.gender.run import RunOptions, language_aligner

    options = RunOptions(data_dir=DATA)
    aligner = language_aligner(lang, options)
    return aligner, options


def split(lang: str, system: str, repeats: int, src: Path) -> dict:
    """The decode of ``system``'s output in ``lang`` by two child processes, ``repeats`` times: medians."""
    from discotest.gender.training_text import published_bitext

    aligner, options = _model(lang)
    prefix = str(aligner.folder() / "model")
    pairs = [(list(s), list(t)) for s, t in published_bitext(system, lang, options).pairs]
    runs = []
    with tempfile.TemporaryDirectory(prefix="thot-child-") as tmp:
        request = Path(tmp) / "request.json"
        request.write_text(json.dumps([pairs, aligner.aligner.settings(), prefix]))
        for _ in range(repeats):
            timing = Path(tmp) / "timing.jsonl"
            env = {**discotest_env(src, os.environ.get("DISCOTEST_CACHE") or str(_user_cache())),
                   "DISCOTEST_TIMING": str(timing)}
            out = subprocess.run([sys.executable, "-c", _DRIVER, str(request)], env=env, check=True,
                                 capture_output=True, text=True)
            run = json.loads(out.stdout)
            children = [json.loads(line) for line in timing.read_text().splitlines()] if timing.exists() else []
            timing.unlink(missing_ok=True)
            run["phases"] = [c["cpu"] for c in children if "decode" in c.get("cpu", {})]
            runs.append(run)
    result = {key: statistics.median(r[key] for r in runs) for key in ("children", "caller", "wall")}
    result["links"] = sorted({r["links"] for r in runs})
    if all(len(r["phases"]) == 2 for r in runs):  # per child, the median of each phase
        result["child_phases"] = [{p: statistics.median(r["phases"][c].get(p, 0.0) for r in runs)
                                   for p in CHILD_PHASES} for c in range(2)]
        # what the children's rusage holds beyond their stamps: their two exits (and the stamps' own writing)
        result["exits"] = statistics.median(r["children"] - sum(sum(c.values()) for c in r["phases"]) for r in runs)
    return result


def cold(lang: str, system: str, repeats: int, src: Path) -> dict:
    """``run winomt`` cold (``repeats`` times, a fresh copy of the resources each): medians of the whole process and
    of its alignment stage, wall and CPU."""
    prepared = Path(os.environ.get("DISCOTEST_CACHE") or _user_cache())
    cmd = discotest_cmd(lang, system, DATA)
    run_process(cmd, discotest_env(src, str(prepared)))  # the model trained (or found) in the prepared cache
    runs = []
    for _ in range(repeats):
        cache_dir = Path(tempfile.mkdtemp(prefix="thot-child-cold-"))
        try:
            for name in RESOURCE_NAMESPACES:
                if (prepared / name).is_dir():
                    shutil.copytree(prepared / name, cache_dir / name, copy_function=os.link)
            runs.append(run_process(cmd, discotest_env(src, str(cache_dir)), stages=True))
        finally:
            shutil.rmtree(cache_dir, ignore_errors=True)
    return {"wall": statistics.median(r["wall"] for r in runs), "cpu": statistics.median(r["cpu"] for r in runs),
            "alignment_wall": statistics.median(r["stages"]["wall"].get("alignment", 0.0) for r in runs),
            "alignment_cpu": statistics.median(r["stages"]["cpu"].get("alignment", 0.0) for r in runs)}


def links(lang: str, systems: list[str]) -> dict[str, str]:
    """The sha256 of the Pharaoh lines of every system's output in ``lang``, decoded by the language's model."""
    from discotest.gender.training_text import published_bitext

    aligner, options = _model(lang)
    out = {}
    for system in systems:
        decoded = aligner.align(published_bitext(system, lang, options).pairs)
        text = "\n".join(" ".join(f"{s}-{t}" for s, t in sorted(lk)) for lk in decoded)
        out[f"{lang}/{system}"] = hashlib.sha256(text.encode()).hexdigest()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("split", "cold", "links"))
    parser.add_argument("--langs", default="")
    parser.add_argument("--system", default="google")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--before", help="links: the figures to compare with")
    parser.add_argument("--src", help="split, cold: the discotest sources the runs import (default: this process's)")
    args = parser.parse_args()
    import discotest

    src = Path(args.src or Path(discotest.__file__).resolve().parents[1]).resolve()
    print(f"sources {src}, load average {os.getloadavg()[0]:.2f}", flush=True)
    figures: dict = {}
    if args.what == "links":
        from discotest.gender.run import planned_pairs

        plan = planned_pairs("winomt", [lang for lang in args.langs.split(",") if lang] or "all", "all")
        for lang, systems in plan.items():
            figures.update(links(lang, list(systems)))
            print(f"  {lang}: {len(systems)} pairs", flush=True)
        figures["all"] = hashlib.sha256("".join(f"{k} {v}\n" for k, v in sorted(figures.items())).encode()).hexdigest()
        print(f"all {len(figures) - 1} pairs: {figures['all']}")
        if args.before:
            was = json.loads(Path(args.before).read_text())
            differ = [k for k in figures if k != "all" and was.get(k) != figures[k]]
            print(f"differ from {args.before}: {', '.join(differ) if differ else 'none'}")
    else:
        for lang in [lang for lang in args.langs.split(",") if lang] or ["de"]:
            figures[lang] = (split if args.what == "split" else cold)(lang, args.system, args.repeats, src)
            print(f"  {lang}: " + json.dumps(figures[lang]), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
