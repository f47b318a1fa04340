"""The real LLM's card over ja-en and en-de on both cores: two lanes of ``bench.llm.real_card`` side by side.

    .venv/bin/python -m bench.llm.real_card_lanes [--limit 200] [--out DIR] [--max-length 48] [--timeout 600]

llama-cpp-python's server answers one request at a time and a second llama.cpp thread cost more CPU than it saved
here (docs/models.md), so the card's rows are split into two lanes, each a ``bench.llm.real_card`` process with its
own one-thread server: ja-en's three rows (jazp, BSD, MiTTenS) and en-de's rows. Both share one DISCOTEST_CACHE (the
one in the environment, as a user's would be). Each lane writes its own folder (``DIR/ja-en``, ``DIR/en-de``: its log,
``card.json`` and ``rows.json``); this prints the two lanes' row tables as one, each lane's wall seconds and the
whole run's, and writes ``DIR/lanes.json`` (the figure docs/models.md quotes). A lane that fails is reported with its
exit status and its log's last line; the other lane's rows are kept.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

# (pair, rows): ja-en's DiP row is left out (with a fresh cache its run first parses every WMT22 system's output)
LANES = (("ja-en", "jazp,bsd-zp-ja-en-test,mittens"), ("en-de", None))


def lane_command(pair: str, suites: str | None, args: argparse.Namespace) -> list[str]:
    """The ``bench.llm.real_card`` command of one lane."""
    command = [sys.executable, "-m", "bench.llm.real_card", "--pairs", pair, "--limit", str(args.limit),
               "--max-length", str(args.max_length), "--timeout", str(args.timeout), "--out", str(args.out / pair)]
    return command + (["--suites", suites] if suites else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--max-length", type=int, default=48)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--out", type=Path, default=Path("/tmp/discotest-real-card-lanes"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    running = {}
    for pair, suites in LANES:
        (args.out / pair).mkdir(exist_ok=True)
        log = (args.out / pair / "lane.log").open("w", encoding="utf-8")
        running[pair] = (subprocess.Popen(lane_command(pair, suites, args), stdout=log, stderr=subprocess.STDOUT,
                                          env=os.environ.copy()), log)
    ended: dict[str, float] = {}
    while len(ended) < len(running):  # each lane's own end, whichever ends first
        for pair, (process, log) in running.items():
            if pair not in ended and process.poll() is not None:
                ended[pair] = time.monotonic() - started
                log.close()
        time.sleep(0.5)
    lanes = {}
    for pair, (process, _log) in running.items():
        status = process.returncode
        rows_file = args.out / pair / "rows.json"
        rows = json.loads(rows_file.read_text("utf-8")) if status == 0 and rows_file.is_file() else []
        last = (args.out / pair / "lane.log").read_text("utf-8", errors="replace").strip().splitlines()[-1:]
        lanes[pair] = {"exit": status, "wall_s": round(ended[pair], 1), "rows": rows,
                       **({} if status == 0 else {"last_line": last[0] if last else ""})}
    whole = round(time.monotonic() - started, 1)
    figure = {"limit": args.limit, "max_length": args.max_length, "wall_s": whole,
              "load_at_end": round(os.getloadavg()[0], 1), "lanes": lanes}
    (args.out / "lanes.json").write_text(json.dumps(figure, ensure_ascii=False, indent=1), "utf-8")

    print("| row | status | numbers | s | CPU s (server + suite) | requests | checks | = run |")
    print("|---|---|---|---|---|---|---|---|")
    for lane in lanes.values():
        for s in lane["rows"]:
            checks = ", ".join(f"{k} {v}" for k, v in s["answers"].items() if v) or "-"
            print(f"| {s['row']} | {s['status']} | {s['numbers'] if s['status'] == 'ok' else s['reason']} | "
                  f"{s['seconds']:.0f} | {s['cpu_server']:.0f} + {s['cpu_suite']:.0f} | {s['requests']} | {checks} | "
                  f"{s['same_as_run']} |")
    for pair, lane in lanes.items():
        failed = f" (exit {lane['exit']}: {lane['last_line']})" if lane["exit"] else ""
        print(f"lane {pair}: done at {lane['wall_s']:.0f} s{failed}")
    print(f"the card, both lanes: {whole:.0f} s wall ({whole / 60:.1f} min); {args.out / 'lanes.json'}")
    if any(lane["exit"] for lane in lanes.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
