"""How fast a WinoMT gender run is, per language and per stage, against mt_gender or against our last figures.

    .venv/bin/python -m bench.speed.bench_gender_speed [--langs ar,de,es,fr,he,it,ru,uk] [--system google] [--repeats 3]
        [--data-dir ../shared/data] [--skip-all] [--record] [--align-decode fast]
        [--mt-gender PATH/TO/mt_gender --fast-align PATH/TO/fast_align [--mt-gender-python python3]]

Every run is its own process, as a user starts it: ``python -m discotest run winomt --lang L --system S``. Per
language and repeat: *first* with a fresh, empty ``DISCOTEST_CACHE`` (what the first run after installing sees:
the language's alignment model is trained and compiled resources such as the German lexicon are computed); *cold*,
the same cache with only the compiled resources and alignment models kept (``RESOURCE_NAMESPACES``; what a new
translation file sees: it is decoded with the model); then *warm*,
the same cache again (the alignment is cached too). Each run's wall time, CPU time (user + system of the run
and every process it waited for, such as the aligner: ``os.wait4``; it moves less with the load of a shared
machine than wall time) and peak RSS (the largest single process of the run's tree, from the same rusage).
Medians of ``--repeats`` runs are printed.

Against mt_gender (Stanovsky et al. 2019; ``--mt-gender`` a checkout, ``--fast-align`` the fast_align binary or
its root with ``build/``): its per-language pipeline exactly as its ``scripts/evaluate_language.sh`` runs it from
``src/`` — ``fast_align -i translations/S/en-L.txt -d -o -v > forward.en-L.align`` then ``python
load_alignments.py --ds=../data/aggregates/en.txt --bi=… --align=… --lang=L --out=…`` (its Python needs
mt_gender's own requirements) — on the same translation file, interleaved with ours (one mt_gender run after each
cold and after each warm discotest run), and the ratios discotest / mt_gender. Without it, the ratios are to the
last figures recorded in ``bench/figures/gender_speed.json`` (``--record`` writes today's there), and to the
mt_gender figures recorded there (kept until mt_gender is measured again). The "first" column of mt_gender is
empty: it has no cache, so its cold run is its first.

Per-stage split: every run sets ``DISCOTEST_TIMING`` (``discotest.timing``), so the split (imports, the --input file's
language, suite-version and line checks, suite and translations, tokenise, analyser load, alignment, locate,
morphology, scoring, output, and nested loads such as the German lexicon) is printed for every language measured,
cold and warm, as medians of the repeats.

All pairs (``--lang all --system all``, 33 pairs, worker processes), first, cold and warm (``--all-repeats`` times):
wall, CPU of the whole tree, the largest single process, and the peak of the tree's summed RSS (sampled from
/proc every 50 ms). Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "bench" / "figures" / "gender_speed.json"
LANGS = ("ar", "de", "es", "fr", "he", "it", "ru", "uk")
# cache folders that hold compiled third-party resources, the alignment models trained once per language and the
# suite's English "her" roles tagged once per suite, the Arabic readings per word form of the published outputs (not
# results for one input), spaCy French's compiled tokenizer pattern: kept for the "cold" runs. Only ``data prepare``
# makes the Arabic table (a run never does), so the cold runs here see none: bench/speed/ar_word_table.py measures a
# cold run with it, made leaving the measured system out
RESOURCE_NAMESPACES = ("german-nouns", "align-model", "english-roles", "word-readings", "regex-code")
TEMPERATURES = ("first", "cold", "warm")
STAGE_ORDER = ("imports", "language check", "version check", "input check", "suite and translations", "tokenise",
               "analyser load", "alignment", "locate", "morphology", "scoring", "output")


# ------------------------------------------------------------------ running one process


def _tree(root: int) -> list[int]:
    """``root`` and its living descendants, from /proc (empty where /proc is missing)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, ()))
    return out


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class _TreeSampler(threading.Thread):
    """Samples the summed RSS of a process tree until stopped (the peak is what two workers need at once)."""

    def __init__(self, pid: int, every: float = 0.05):
        super().__init__(daemon=True)
        self.pid, self.every, self.peak_kib = pid, every, 0
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.peak_kib = max(self.peak_kib, sum(_rss_kib(p) for p in _tree(self.pid)))
            self._stop_event.wait(self.every)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def run_process(cmd: list[str], env: dict[str, str], cwd: str | None = None, stdout=subprocess.DEVNULL,
                sample_tree: bool = False, stages: bool = False) -> dict:
    """One process: wall and CPU seconds, peak RSS in MiB (largest process of its tree; with ``sample_tree`` also
    the sampled peak of the tree's sum), and with ``stages`` the discotest.timing split of its main process."""
    env = dict(env)
    timing_file = None
    if stages:
        fd, timing_file = tempfile.mkstemp(prefix="discotest-timing-", suffix=".jsonl")
        os.close(fd)
        env["DISCOTEST_TIMING"] = timing_file
    with tempfile.TemporaryFile() as err:
        env["DISCOTEST_TIMING_T0"] = repr(time.time())
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=stdout, stderr=err)
        sampler = _TreeSampler(proc.pid) if sample_tree else None
        if sampler:
            sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if sampler:
            sampler.stop()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err.read().decode(errors='replace')}")
    out = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}
    if sampler:
        out["tree_rss_mb"] = sampler.peak_kib / 1024
    if timing_file:
        lines = [json.loads(line) for line in Path(timing_file).read_text().splitlines() if line.strip()]
        os.unlink(timing_file)
        main = [line for line in lines if line["pid"] == proc.pid]
        out["stages"] = {"wall": main[0]["wall"], "cpu": main[0]["cpu"]} if main else {}
    return out


# ------------------------------------------------------------------ the two tools


def keep_resources_only(cache_dir: Path) -> None:
    """Empty the cache but for the compiled resources (the alignments and every other result go)."""
    for entry in cache_dir.iterdir():
        if entry.name not in RESOURCE_NAMESPACES:
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()


def discotest_cmd(lang: str, system: str, data_dir: str, align_decode: str = "thot") -> list[str]:
    return [sys.executable, "-m", "discotest", "run", "winomt", "--lang", lang, "--system", system,
            "--data-dir", data_dir, "--quiet", *(["--align-decode", align_decode] if align_decode != "thot" else [])]


def discotest_env(src: Path, cache_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["DISCOTEST_CACHE"] = cache_dir
    env.pop("DISCOTEST_MODELS", None)  # the models live in that cache: "first" trains them, "cold" keeps them
    # bytecode written and read as an installed package's is: with PYTHONDONTWRITEBYTECODE set (this machine's shell
    # sets it), every module edited since its .pyc was last written was compiled again in every run (+0.05-0.07 s
    # of CPU on a warm run of /work/main, measured 2026-11-27)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def fast_align_binary(path: str) -> str:
    """The fast_align executable: the path itself, or ``build/fast_align`` under a checkout (FAST_ALIGN_BASE)."""
    p = Path(path)
    return str(p / "build" / "fast_align") if p.is_dir() else str(p)


def run_mt_gender(checkout: Path, fast_align: str, python: str, lang: str, system: str) -> dict:
    """mt_gender's evaluate_language.sh for one language, minus translating: fast_align, then load_alignments.py,
    from its src/ folder, into a temporary folder. Wall and CPU are summed over both steps, RSS is the larger.

    A checkout built by ``../shared/tools/build-anchors DIR`` (``DIR/mt_gender``) brings its dataset
    (``DIR/data/en.txt``, the rows every google output covers) and its compatibility shims (``DIR/shims`` on
    PYTHONPATH): both are used when present, as ``../shared/tools/mt_gender-lang`` uses them."""
    src = checkout / "src"
    bitext = (checkout / "translations" / system / f"en-{lang}.txt").resolve()
    anchors = checkout.resolve().parent
    built = (anchors / "data" / "en.txt").is_file()
    dataset = str(anchors / "data" / "en.txt") if built else "../data/aggregates/en.txt"
    env = dict(os.environ)
    if (anchors / "shims").is_dir():
        env["PYTHONPATH"] = str(anchors / "shims")
    with tempfile.TemporaryDirectory(prefix="mt_gender-bench-") as tmp:
        align_fn = Path(tmp) / f"forward.en-{lang}.align"
        with open(align_fn, "wb") as out:
            first = run_process([fast_align_binary(fast_align), "-i", str(bitext), "-d", "-o", "-v"],
                                dict(os.environ), cwd=str(src), stdout=out)
        second = run_process([python, "load_alignments.py", f"--ds={dataset}", f"--bi={bitext}",
                              f"--align={align_fn}", f"--lang={lang}", f"--out={Path(tmp) / f'{lang}.pred.csv'}"],
                             env, cwd=str(src))
    return {"wall": first["wall"] + second["wall"], "cpu": first["cpu"] + second["cpu"],
            "rss_mb": max(first["rss_mb"], second["rss_mb"])}


# ------------------------------------------------------------------ figures


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def stage_medians(runs: list[dict]) -> dict[str, dict[str, float]]:
    """Median seconds per stage over runs (a stage missing from a run counts 0 there)."""
    out: dict[str, dict[str, float]] = {}
    for clock in ("wall", "cpu"):
        names = [n for n in STAGE_ORDER if any(n in r.get("stages", {}).get(clock, {}) for r in runs)]
        names += sorted({n for r in runs for n in r.get("stages", {}).get(clock, {})} - set(names))
        out[clock] = {n: statistics.median(r.get("stages", {}).get(clock, {}).get(n, 0.0) for r in runs)
                      for n in names}
    return out


def summary(runs: list[dict]) -> dict:
    out = {"wall": median(runs, "wall"), "cpu": median(runs, "cpu"), "rss_mb": median(runs, "rss_mb"),
           "runs": len(runs)}
    if all("tree_rss_mb" in r for r in runs):
        out["tree_rss_mb"] = median(runs, "tree_rss_mb")
    return out


def ratio(a: float, b: float | None) -> str:
    return f"{a / b:5.2f}x" if b else "    - "


def print_table(figures: dict, anchor: dict, anchor_name: str, header: bool = True) -> None:
    if header:
        print(f"\nper language, median of {figures['repeats']}: wall s / CPU s / peak MiB")
        print(f"{'lang':<5}" + "".join(f"{temp:>20}" for temp in TEMPERATURES))
        for lang, f in figures["langs"].items():
            print(f"{lang:<5}" + "".join(f"{f[t]['wall']:>9.2f}{f[t]['cpu']:>6.2f}{f[t]['rss_mb']:>5.0f}"
                                         for t in TEMPERATURES))
    print(f"\nagainst {anchor_name}: its wall s, and the ratios now / {anchor_name} (wall; CPU)")
    print(f"{'lang':<5}" + "".join(f"{t + ' wall':>11}{t + ' ratio':>16}" for t in TEMPERATURES))
    for lang, f in figures["langs"].items():
        a = anchor.get(lang, {})
        cells = []
        for t in TEMPERATURES:
            was = a.get(t, {})
            cells.append(f"{was.get('wall', float('nan')):>11.2f}"
                         f"{ratio(f[t]['wall'], was.get('wall')):>8}{ratio(f[t]['cpu'], was.get('cpu')):>8}")
        print(f"{lang:<5}" + "".join(cells))


def print_stages(figures: dict) -> None:
    langs = list(figures["langs"])
    for temp in TEMPERATURES:
        for clock in ("wall", "cpu"):
            per = {lang: figures["langs"][lang][temp].get("stages", {}).get(clock, {}) for lang in langs}
            names = [n for n in STAGE_ORDER if any(n in p for p in per.values())]
            names += sorted({n for p in per.values() for n in p} - set(names))
            if not names:
                continue
            print(f"\nper-stage split, {temp}, {clock} seconds (median of {figures['repeats']}; a stage nested in "
                  f"another is counted once, under its own name)")
            print(f"{'stage':<24}" + "".join(f"{lang:>7}" for lang in langs))
            for n in names:
                print(f"{n:<24}" + "".join(f"{per[lang].get(n, 0.0):>7.2f}" for lang in langs))
            totals = {lang: figures["langs"][lang][temp][clock] for lang in langs}
            print(f"{'(process total)':<24}" + "".join(f"{totals[lang]:>7.2f}" for lang in langs))


def rounded(value):
    """Figures to the thousandth (seconds, MiB) for the recorded file."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    return value



def runs_by_temperature(cmd: list[str], src: Path, repeats: int, beside=None, **run_kwargs) -> dict[str, list[dict]]:
    """``repeats`` times, in a fresh cache: the first run (empty cache), the cold one (compiled resources kept,
    alignments dropped) and the warm one; ``beside(temp)`` runs after each (mt_gender's interleaved run)."""
    runs: dict[str, list[dict]] = {temp: [] for temp in TEMPERATURES}
    for _ in range(repeats):
        cache_dir = tempfile.mkdtemp(prefix="discotest-speed-")
        try:
            for temp in TEMPERATURES:
                if temp == "cold":
                    keep_resources_only(Path(cache_dir))
                runs[temp].append(run_process(cmd, discotest_env(src, cache_dir), **run_kwargs))
                if beside is not None:
                    beside(temp)
        finally:
            shutil.rmtree(cache_dir, ignore_errors=True)
    return runs

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--system", default="google")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", str(ROOT.parent / "shared" / "data")))
    parser.add_argument("--src", default=str(ROOT / "src"), help="discotest sources to measure (PYTHONPATH)")
    parser.add_argument("--skip-all", action="store_true", help="leave out the all-pairs run")
    parser.add_argument("--all-repeats", type=int, default=1)
    parser.add_argument("--align-decode", default="thot", choices=("thot", "fast"),
                        help="how discotest's alignment models decode (run's --align-decode)")
    parser.add_argument("--mt-gender", help="an mt_gender checkout (gabrielStanovsky/mt_gender)")
    parser.add_argument("--fast-align", help="the fast_align binary, or its checkout with build/fast_align")
    parser.add_argument("--mt-gender-python", default="python3", help="a Python with mt_gender's requirements")
    parser.add_argument("--record", action="store_true", help=f"write today's figures to {FIGURES.relative_to(ROOT)}")
    parser.add_argument("--figures", default=str(FIGURES), help="the recorded figures to compare with / write")
    args = parser.parse_args()
    if bool(args.mt_gender) != bool(args.fast_align):
        parser.error("--mt-gender and --fast-align go together")
    langs = [lang for lang in args.langs.split(",") if lang]
    src = Path(args.src).resolve()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, Python {platform.python_version()}, "
          f"system {args.system}, {args.repeats} repeats, sources {src}")

    figures: dict = {"date": date.today().isoformat(), "system": args.system, "repeats": args.repeats,
                     "cores": os.cpu_count(), "load_average_at_start": os.getloadavg()[0], "langs": {}}
    recorded = json.loads(Path(args.figures).read_text()) if Path(args.figures).exists() else {}
    mt_runs: dict[str, dict[str, list[dict]]] = {}
    for lang in langs:
        def beside(temp: str, lang: str = lang) -> None:  # mt_gender's run interleaved with ours
            if args.mt_gender and temp != "first":
                mt_runs.setdefault(lang, {"cold": [], "warm": []})[temp].append(run_mt_gender(
                    Path(args.mt_gender), args.fast_align, args.mt_gender_python, lang, args.system))

        runs = runs_by_temperature(discotest_cmd(lang, args.system, args.data_dir, args.align_decode), src,
                                   args.repeats, beside, stages=True)
        figures["langs"][lang] = {temp: {**summary(r), "stages": stage_medians(r)} for temp, r in runs.items()}
        f = figures["langs"][lang]
        print(f"  {lang}: " + ", ".join(f"{temp} {f[temp]['wall']:.2f} s (CPU {f[temp]['cpu']:.2f})"
                                        for temp in TEMPERATURES), flush=True)

    if args.mt_gender:
        anchor = {lang: {temp: summary(r) for temp, r in t.items()} for lang, t in mt_runs.items()}
        figures["mt_gender"] = anchor
        anchor_name = "mt_gender"
    else:
        anchor = recorded.get("langs", {})
        anchor_name = f"recorded {recorded.get('date', '(none)')}"
        if recorded.get("mt_gender"):  # mt_gender's recorded figures stay the anchor until it is measured again
            figures["mt_gender"] = recorded["mt_gender"]
    print_table(figures, anchor, anchor_name)
    if not args.mt_gender and recorded.get("mt_gender"):
        print_table(figures, recorded["mt_gender"], f"mt_gender as recorded {recorded.get('date')}", header=False)
    print_stages(figures)

    if not args.skip_all:
        runs = runs_by_temperature(discotest_cmd("all", "all", args.data_dir, args.align_decode), src, args.all_repeats,
                                   sample_tree=True)
        figures["all_pairs"] = {temp: summary(r) for temp, r in runs.items()}
        before = recorded.get("all_pairs", {})
        print(f"\nall pairs (--lang all --system all), median of {args.all_repeats}")
        for temp, f in figures["all_pairs"].items():
            was = before.get(temp, {})
            print(f"  {temp}: wall {f['wall']:.1f} s ({ratio(f['wall'], was.get('wall')).strip()} of recorded), "
                  f"CPU {f['cpu']:.1f} s, largest process {f['rss_mb']:.0f} MiB, "
                  f"tree peak {f.get('tree_rss_mb', 0):.0f} MiB")

    if args.record:
        Path(args.figures).parent.mkdir(parents=True, exist_ok=True)
        Path(args.figures).write_text(json.dumps(rounded(figures), indent=1) + "\n", encoding="utf-8")
        print(f"\nrecorded in {args.figures}")


if __name__ == "__main__":
    main()
