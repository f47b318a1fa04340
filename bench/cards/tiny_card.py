"""A tiny model's discourse card over en-de + ja-en + zh-en, timed row by row: what the lead quotes for issue 37.

    .venv/bin/python -m bench.cards.tiny_card [--family llama3_1] [--pairs en-de,ja-en,zh-en] [--limit 12]
                                              [--suites jazp,bsd-zp-ja-en-test] [--cache DIR]
                                              [--served [--jobs N] [--json FILE]]

Builds the tiny random model of ``--family`` with its real tokenizer (tests/support/tiny_llm.py; qwen3, llama3_1 or
gemma3), then fills its card as ``discotest card --model PATH --pairs … --limit N`` does (``discotest.cards``: the
same rows, options and cache), in this process with a fresh cache (``--cache``: a folder of your own, e.g. to time a
warm rerun), and prints per row its status, its first number (n, value ± 95% half-width), the wall seconds the row
took, and for a row the model cannot fill, why. ``--limit`` samples every row whose family takes it (all of them since
the card-limit change; docs/card.md lists the strata); the translation rows still dominate: a random model rarely stops
before its 256 new tokens. The table below was measured before the gender, MT-GenEval and MiTTenS rows took --limit.
No timed assertion anywhere: numbers to quote, measured on this machine.

Measured 2026-11-27 (2 CPU cores, load 3-5 beside other work; llama3_1, --limit 12, every row of the three pairs, a
fresh cache; n and value are each row's first line; a random model's numbers mean nothing). The first run, before
the DiP rows took a model: 317 s for the other 14 rows; then the two DiP rows in the same cache:

| row | status | n | value | seconds |
|---|---|---|---|---|
| en-de/winomt | ok | 12 | 0.0 ± 0.0 | 65.7 |
| en-de/winomt-adj | ok | 12 | 8.3 ± 12.5 | 11.6 |
| en-de/bug | ok | 12 | 0.0 ± 0.0 | 41.9 |
| en-de/mt-geneval-counterfactual, -contextual | ok | 0 | – (no translation matched a gendered word) | 0.5, 0.7 |
| en-de/ctxpro-auxiliary-en-de-test | ok | 12 | 0.0 ± 0.0 | 1.6 |
| en-de/ctxpro-formality-en-de-dev | ok | 12 | 0.0 ± 0.0 | 1.1 |
| en-de/mittens-out | ok | 12 | 0.0 ± 0.0 | 9.3 |
| ja-en/jazp | ok | 12 | 41.7 ± 25.0 | 0.6 |
| ja-en/bsd-zp-ja-en-test | ok | 12 | 75.0 ± 25.0 | 1.2 |
| ja-en/mittens | ok | 12 | 0.0 ± 0.0 | 3.6 |
| ja-en/dip | ok | 3 | 0.0 ± 0.0 | 230.5 (mining the pair, then the sampled documents translated) |
| zh-en/mzprt | ok | 12 | 0.0 ± 0.0 | 178.7 (the mZPRT alignment model trained) |
| zh-en/mittens | ok | 12 | 0.0 ± 0.0 | 0.8 |
| zh-en/dip | ok | 5 | 0.0 ± 0.0 | 186.8 |

``--served``: the orchestration goal of issue 37 (the card's wall time ≤ 1.2 × the server's own busy time plus the
scorers' time measured alone). The tiny model is served by llama.cpp's server (the serve-test extra; tests/support:
tiny_gguf.py, served.py) behind the recording proxy, and ``discotest card --endpoint`` runs as a user runs it (a
process of its own, one request at a time, fresh caches):

1. the card, cold: its wall seconds, and the server's busy seconds (the proxy's time over each request);
2. the scorers alone: the same card in a second fresh cache that holds only the first one's model answers
   (translations, candidate scores, the alignment probe): no request, every row's CPU work cold;
3. the server alone: the card's requests sent again, one after the other, with nothing beside them (during the card
   the server shares the cores with the card's CPU work: on 2 shared cores its busy time grows with the overlap);
4. the ratios wall / (busy + scorers alone) and wall / (server alone + scorers alone): a card that fills its rows one
   after the other cannot be faster than the sum; the model lane (a thread that asked the model for the next rows
   while a row's CPU work ran; removed since, as the table shows it gained nothing here) overlapped the two.

Run it once with ``PYTHONPATH=/path/to/an/older/checkout/src`` to time another version of the card.

Measured (llama3_1, ``--served --pairs en-de,ja-en,zh-en --suites winomt,mittens --limit 12``: 36 translations;
2 CPU cores shared by five sessions, load average 7-15; "before" is the card that filled its rows one after the
other, the commit before the model lane, as the card is again now; seconds):

| round | card | load | wall | server busy during / alone | scorers alone | wall/(busy+scorers) | wall/(alone+scorers) |
|---|---|---|---|---|---|---|---|
| 1 | lane | 7-8 | 122.7 | 95.2 / – | 86.4 | 0.68 | – |
| 1 | before | 9-10 | 111.2 | 33.3 / – | 91.4 | 0.89 | – |
| 2 | lane | 9-10 | 167.5 | 142.4 / 47.8 | 92.8 | 0.71 | 1.19 |
| 2 | before | 10-15 | 170.4 | 47.7 / 53.1 | 125.2 | 0.99 | 0.96 |
| 3 | before | 7-9 | 106.8 | 41.7 / 30.0 | 85.9 | 0.84 | 0.92 |
| 3 | lane | 8-9 | 128.0 | 80.6 / 23.5 | 51.5 | 0.97 | 1.71 |

The lane did not make this card faster here (card wall 122.7 / 167.5 / 128.0 s against 111.2 / 170.4 / 106.8 s):
the server (one llama.cpp thread) and the rows' CPU work (the aligner runs in processes of its own) share the same
two loaded cores, so what the overlap saves the server loses (its busy time during the card grew 2-3x). The same code
measured the scorers alone at 51.5 and 92.8 s, so one run's figures move by ±40% with the load: the 1.71 of round 3
is such a figure (against busy time during the card, 0.97). The overlap can pay only where the server has cores (or
a GPU) of its own; this machine cannot show it, and the lane was removed (issue 52: gather every row's requests
first instead).

Measured 2026-11-29 with the rows scored in worker processes (``cards/parallel.py``), same command with
``--skip-language-check``, load average 15-18 on the 2 shared cores (no claim: a loaded machine): 36 requests, card
148.3 s, server busy 44.0 s during the card and 11.8 s alone, scorers alone 66.5 s; wall / (busy + scorers) 1.34,
wall / (alone + scorers) 1.89; the same lines both times. An endpoint's rows were then still scored one after another
in the card's process (the client and each row's first phase live there), so no row of this card went to a worker:
the figure is the sequential card's at this load.

Measured 2026-11-29 after each row's score phase goes to a worker as soon as its answers are in (``registry.packed``,
``models.requests.Settled``: the rows en-de/winomt, ja-en/mittens, zh-en/mittens), one run each, one after the other,
on the 2 cores shared with five other sessions at 1-minute load averages of 13-29 (the load column: at the start and
the end of each run; no claim: a loaded machine, and the server, the card and its workers share the same two cores).
"before" is main's card (``PYTHONPATH`` at its src); ``--json``: the three cold cards' JSON byte for byte the same
(sha256 a1be8096…):

| card | --jobs | load | wall | busy during / alone | scorers alone | wall/(busy+scorers) | wall/(alone+scorers) |
|---|---|---|---|---|---|---|---|
| before (main) | 2 (unused) | 13 / 21 | 110.4 | 26.1 / 26.4 | 103.4 | 0.85 | 0.85 |
| after | 2 | 21 / 21 | 128.6 | 84.8 / 28.8 | 113.3 | 0.65 | 0.91 |
| after | 1 | 21 / 29 | 131.3 | 28.6 / 26.7 | 96.4 | 1.05 | 1.07 |

Here the workers gained nothing measurable either (128.6 against 131.3 s with ``--jobs 1``, 110.4 s before at a lower
load): with two rows scored beside the server's work, the server's busy time during the card tripled (84.8 s against
28.6), as the lane's did. The ≥ 1.3× goal needs a server with cores (or a GPU) of its own; it was not measured here.

``--pin`` (2026-11-29, the coordinator, a quiet machine, load 1.7-2.2): the server and this process on core 0, the card
and everything it starts on core 1. ``--jobs 1``: card 26.3 / 25.6 s, server busy 6.5 / 6.8 s, scorers alone 18.1 /
19.6 s; ``--jobs 2``: card 23.0 / 21.9 s, busy 8.8 / 6.6 s, scorers alone 17.8 / 19.8 s: 1.14× / 1.17×. Why not more:
the German WinoMT row's requests go first, and its score phase (the scorers' time is almost all of it: the German
alignment model trained on the published outputs, 18-19 of the cold card's 21-23 CPU s, DISCOTEST_TIMING) could start
only when they were answered; the server then answered the two MiTTenS rows (~4 s) beside it.

Since then a model's row is prepared in a worker from the card's start (``cards.build._prepare``: the published systems'
runs it is ranked among, which train that alignment model). Measured on the loaded machine (load 13-16; no claim on
time): the alignment model's training began 4.3 s into the card while the server answered requests 1-36 (3.0 to
90.8 s), where it used to begin after the German row's 12 answers; the card's JSON byte for byte the same (a1be8096…);
CPU seconds of the scorers-alone card, two runs each: ``--jobs 1`` 22.2 / 23.1, ``--jobs 2`` 24.3 / 26.4 (the second
worker's start and the German row's score phase loading the alignment model and analyser again in another worker, about
0.5 CPU s of stages). On one core for the card the wall time is about its CPU time, so the expected pinned quiet time is
the scorers-alone time plus that (about 19-20 s against 26 s: 1.3-1.4×). Measured quiet (the coordinator, load
1.3-2.0, the merged tree): ``--jobs 1`` card 26.2 / 26.4 s (busy 6.8 / 6.7, scorers alone 18.6 / 19.7); ``--jobs 2``
card 20.2 / 21.8 s (busy 6.6 / 6.5, scorers alone 19.9 / 21.1): 1.30× / 1.21×, the card as long as its scorers alone.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="llama3_1", choices=("qwen3", "llama3_1", "gemma3"))
    parser.add_argument("--pairs", default="en-de,ja-en,zh-en")
    parser.add_argument("--suites", default=None, help="only these rows (suites or row ids), comma-separated")
    parser.add_argument("--limit", type=int, default=12)
    parser.add_argument("--cache", default=None, help="the cache folder (default: a fresh temporary one)")
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", str(REPO.parent / "shared" / "data")))
    parser.add_argument("--jobs", type=int, default=None, help="--served: the card's --jobs (default: its own, one "
                        "worker per core; 1: every row scored in the card's process)")
    parser.add_argument("--json", default=None, help="--served: write the cold card's JSON, as the card printed it, "
                        "to this file (to compare two versions or --jobs byte for byte)")
    parser.add_argument("--pin", action="store_true", help="--served: the server on core 0 and the card (its workers "
                        "and aligners) on the other cores (taskset): a server with a core of its own, as the issue-52 "
                        "goal's 'a server with cores or a GPU of its own'")
    parser.add_argument("--served", action="store_true", help="the card of the model served by llama.cpp's server "
                        "(--endpoint): wall, server busy and scorers-alone seconds")
    args = parser.parse_args()
    if args.served:
        served(args)
        return

    scratch = tempfile.TemporaryDirectory(prefix="discotest-bench-card-")
    os.environ["DISCOTEST_CACHE"] = args.cache or str(Path(scratch.name) / "cache")
    os.environ.setdefault("DISCOTEST_DATA", args.data_dir)

    from tests.support.tiny_llm import build_tiny_llm

    from discotest.cards import card_settings
    from discotest.cards.build import CardOptions, build_card, resolve
    from discotest.cards.rows import FilledRow

    model = build_tiny_llm(args.family, Path(args.data_dir) / "llm_tokenizers", Path(scratch.name) / args.family)
    settings = card_settings({"model": str(model), "pairs": args.pairs, "suites": args.suites, "limit": args.limit,
                              "quiet": True, "data_dir": args.data_dir})
    system, pairs, rows = resolve(settings)
    print(f"tiny {args.family} card, pairs {','.join(pairs)}, --limit {args.limit} "
          f"(cache {os.environ['DISCOTEST_CACHE']})")
    print(f"{'row':<36} {'status':<9} {'n':>5} {'value':>14} {'seconds':>8}  reason", flush=True)
    started = last = time.perf_counter()

    def on_row(row: FilledRow) -> None:  # printed as each row finishes: a long card shows where it is
        nonlocal last
        now = time.perf_counter()
        line = row.lines[0] if row.lines else None
        value = f"{line.value:.1f} ± {line.ci95:.1f}" if line and line.value is not None and line.ci95 is not None \
            else "–"
        n = str(line.n) if line else "–"
        print(f"{row.key:<36} {row.status:<9} {n:>5} {value:>14} {now - last:8.1f}  {row.reason or ''}", flush=True)
        last = now

    build_card(system, rows, pairs, CardOptions.of(settings), on_row=on_row)
    print(f"{time.perf_counter() - started:.1f} s in all")
    scratch.cleanup()


ANSWERS = ("translations", "candidate-logprobs", "endpoint-alignment")  # the cache's model answers (models/endpoint.py)


def served(args: argparse.Namespace) -> None:
    import json
    import shutil
    import subprocess
    import sys

    from tests.support.served import RecordingProxy, serve_gguf
    from tests.support.tiny_gguf import write_tiny_gguf
    from tests.support.tiny_llm import build_tiny_llm

    pinned: list[str] = []
    if args.pin:  # this process, the proxy and the server it starts on core 0; the card on the others
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) < 2:
            raise SystemExit("--pin needs two cores")
        os.sched_setaffinity(0, {cores[0]})
        pinned = ["taskset", "-c", ",".join(map(str, cores[1:]))]
    scratch = Path(tempfile.mkdtemp(prefix="discotest-bench-served-"))
    model = build_tiny_llm(args.family, Path(args.data_dir) / "llm_tokenizers", scratch / args.family)
    gguf = write_tiny_gguf(model, scratch / "tiny.f32.gguf")

    printed: list[bytes] = []

    def card(url: str, cache: Path) -> tuple[float, dict]:
        command = [*pinned, sys.executable, "-m", "discotest", "card", "--endpoint", url, "--model", "tiny", "--pairs",
                   args.pairs, "--limit", str(args.limit), "--concurrency", "1", "--data-dir", args.data_dir,
                   "--skip-language-check",  # a random model's translations are in no language: its rows still run
                   "--format", "json", "-q", *(["--suites", args.suites] if args.suites else []),
                   *(["--jobs", str(args.jobs)] if args.jobs else [])]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, env={**os.environ, "DISCOTEST_CACHE": str(cache)},
                              check=False)
        seconds = time.perf_counter() - started
        if done.returncode:
            raise SystemExit(done.stderr.decode())
        printed.append(done.stdout)
        return seconds, json.loads(done.stdout)

    with serve_gguf(gguf, "tiny", scratch) as url, RecordingProxy(url) as proxy:
        wall, first = card(proxy.url, scratch / "cold")
        busy, asked = sum(proxy.seconds), len(proxy.forwarded)
        for namespace in ANSWERS:
            if (scratch / "cold" / namespace).is_dir():
                shutil.copytree(scratch / "cold" / namespace, scratch / "answers" / namespace)
        alone, again = card(proxy.url, scratch / "answers")
        if len(proxy.forwarded) != asked:
            raise SystemExit(f"the scorers-alone card sent {len(proxy.forwarded) - asked} requests")
        quiet = server_alone(url, proxy.forwarded)
    if args.json:
        Path(args.json).write_bytes(printed[0])
    for row in first["rows"]:
        print(f"{row['pair'] + '/' + row['id']:<28} {row['status']:<9} {row['reason'] or ''}")
    same = [r["lines"] for r in first["rows"]] == [r["lines"] for r in again["rows"]]
    print(f"served tiny {args.family}, pairs {args.pairs}, suites {args.suites or 'all'}, --limit {args.limit}, "
          f"--jobs {args.jobs or 'default'}{', pinned' if args.pin else ''}, "
          f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}: "
          f"{asked} requests; card {wall:.1f} s, server busy {busy:.1f} s during the card and {quiet:.1f} s with "
          f"nothing beside it, scorers alone {alone:.1f} s; wall / (busy + scorers) = {wall / (busy + alone):.2f}, "
          f"wall / (busy alone + scorers) = {wall / (quiet + alone):.2f}; the same lines both times: {same}")
    shutil.rmtree(scratch, ignore_errors=True)


def server_alone(url: str, bodies: list[bytes]) -> float:
    """The server's seconds over the card's requests sent again one after the other with nothing else running: its
    busy time without the card's CPU work beside it (on a machine of few cores the two share them)."""
    import urllib.request

    started = time.perf_counter()
    for body in bodies:
        path = "/chat/completions" if b'"messages"' in body else "/completions"
        request = urllib.request.Request(url.rstrip("/") + path, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as answer:  # noqa: S310 - 127.0.0.1
            answer.read()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
