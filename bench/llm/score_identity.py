"""Does a change to the served model's path change a score or a translation? Rows of the real model's card (by
default the scoring rows, jazp and BSD) filled in a fresh cache through llama.cpp's server, every request and answer
kept, and compared with the same run made before the change (``--before FILE``): every echoed token's
log-probability, each candidate's sum (what discotest reads, ``endpoint.read_prompt_logprobs``), each item's pick,
each translation (text and ``finish_reason``) and the row's numbers; with the server process's CPU seconds (user +
system, read from the OS around the row) and wall seconds per item.

    .venv/bin/python -m bench.llm.score_identity [--pairs ja-en,en-de] [--suites jazp,bsd-zp-ja-en-test]
        [--limit 50] [--threads 1] [--module bench.llm.llama_server_topk] [--out FILE] [--before FILE]

``--module``: the server's module (``bench/llm/llama_server_topk.py`` by default; the copy of it before a change,
put on PYTHONPATH, measures the before); ``--threads``: the server's llama.cpp threads (``n_threads`` and
``n_threads_batch``). Nothing else differs between two runs: the same model, prompt, rows, ``--limit`` and order.
``--concurrency`` is 1 by default, so that the server is asked in the same order in both runs: llama-cpp-python
reuses the previous request's prompt prefix (its KV cache) and evaluates only the rest, and a token's logits depend
on the batch that evaluated it (echoed log-probabilities up to 0.13 apart measured on jazp, where four requests at
once reached the server in another order).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from tests.support.real_model import ALIAS, PROMPT

from bench.llm.real_card import MODULE, cpu, model_file, server_process


def candidate_scores(exchanges: list[tuple[bytes, bytes]]) -> list[dict]:
    """Per scoring request (``echo`` + ``logprobs`` 1, the alignment probe left out): its prompt, the candidate's
    (sum, token count) as the endpoint reads it, and every echoed token's log-probability."""
    from discotest.models.endpoint import read_prompt_logprobs

    out = []
    for body, answer in exchanges:
        request = json.loads(body)
        if request.get("logprobs") != 1 or not request.get("echo"):
            continue
        text = request["prompt"]
        last = text[text.rfind("\n") + 1:]
        boundary = len(text) - len(last) + last.index(":") + 1  # the prompt ends "\nEnglish:", then " candidate"
        decoded = json.loads(answer)
        total, count, _ = read_prompt_logprobs(decoded, boundary, len(text), text)
        out.append({"prefix": text[:boundary], "candidate": text[boundary + 1:], "sum": total, "tokens": count,
                    "echoed": decoded["choices"][0]["logprobs"]["token_logprobs"]})
    return out


def translations(exchanges: list[tuple[bytes, bytes]]) -> dict[str, list]:
    """Per chat request (its message): the answer's text and ``finish_reason``, the last answer where it was asked
    twice (the line-break stop left nothing: asked again without it)."""
    out = {}
    for body, answer in exchanges:
        request = json.loads(body)
        if "messages" in request:
            choice = json.loads(answer)["choices"][0]
            out[request["messages"][0]["content"]] = [choice["message"].get("content"), choice.get("finish_reason")]
    return out


def picks(scores: list[dict]) -> dict[str, str]:
    """Each item's (prompt's) highest-scoring candidate: the pick a contrastive verdict reads."""
    best: dict[str, tuple[float, str]] = {}
    for s in scores:
        if s["prefix"] not in best or s["sum"] > best[s["prefix"]][0]:
            best[s["prefix"]] = (s["sum"], s["candidate"])
    return {prefix: candidate for prefix, (_, candidate) in best.items()}


def compare(row: dict, before: dict) -> dict:
    """What differs between a row's run and its run before: requests, echoed values, sums (exactly and as printed,
    4 decimals), picks, the row's numbers."""
    now = {(s["prefix"], s["candidate"]): s for s in row["scores"]}
    then = {(s["prefix"], s["candidate"]): s for s in before["scores"]}
    shared = sorted(set(now) & set(then))
    echoed = sum(now[k]["echoed"] != then[k]["echoed"] for k in shared)
    sums = sum(now[k]["sum"] != then[k]["sum"] for k in shared)
    printed = sum(f"{now[k]['sum']:.4f}" != f"{then[k]['sum']:.4f}" for k in shared)
    largest = max((abs(now[k]["sum"] - then[k]["sum"]) for k in shared), default=0.0)
    a, b = picks(row["scores"]), picks(before["scores"])
    asked = set(row["translations"]) & set(before["translations"])
    return {"translations": len(asked), "translation differs": sum(
                row["translations"][m] != before["translations"][m] for m in asked),
            "candidates": len(shared), "only one side": len(set(now) ^ set(then)), "echo differs": echoed,
            "sum differs": sums, "sum differs at 4 decimals": printed, "largest sum difference": largest,
            "items": len(set(a) & set(b)), "pick differs": sum(a[p] != b[p] for p in set(a) & set(b)),
            "numbers equal": row["lines"] == before["lines"],
            "server CPU s an item before / after": [before["cpu_server_per_item"], row["cpu_server_per_item"]],
            "wall s an item before / after": [before["wall_per_item"], row["wall_per_item"]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", default="ja-en,en-de")
    parser.add_argument("--suites", default="jazp,bsd-zp-ja-en-test")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--max-length", type=int, default=48)
    parser.add_argument("--timeout", type=float, default=600, help="seconds a request may wait (the others queue)")
    parser.add_argument("--concurrency", type=int, default=1, help="requests under way at once (1: the same order in "
                        "every run, see above)")
    parser.add_argument("--module", default=MODULE)
    parser.add_argument("--out", type=Path, default=Path("/tmp/discotest-score-identity/scores.json"))
    parser.add_argument("--before", type=Path)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    os.environ["DISCOTEST_CACHE"] = str(args.out.parent / f"cache-{time.time_ns()}")  # every score asked

    from tests.support.served import RecordingProxy, serve_gguf

    import discotest
    from discotest.cards.groups import rows_of

    model = model_file(args.out.parent)
    rows = []
    with serve_gguf(model, ALIAS, args.out.parent, seconds=300, module=args.module, n_threads=args.threads,
                    n_threads_batch=args.threads) as url, RecordingProxy(url) as proxy:
        server = server_process(args.module)
        for card_row in rows_of(args.pairs.split(","), args.suites.split(",")):
            suite = card_row.key
            posts, began, cpu0 = len(proxy.exchanges), time.monotonic(), cpu(server)
            card = discotest.card(endpoint=proxy.url, model=ALIAS, pairs=card_row.pair, suites=card_row.id,
                                  limit=args.limit, quiet=True, prompt_file=str(PROMPT), max_length=args.max_length,
                                  timeout=args.timeout, concurrency=args.concurrency)
            wall, used = time.monotonic() - began, cpu(server) - cpu0
            (filled,) = [r for r in card.rows if r["id"] == card_row.id]
            scores = candidate_scores(proxy.exchanges[posts:])
            answers = translations(proxy.exchanges[posts:])
            items = len({s["prefix"] for s in scores}) or len(answers)
            row = {"row": suite, "status": filled["status"], "reason": filled.get("reason"), "module": args.module,
                   "threads": args.threads, "items": items,
                   "requests": len(proxy.exchanges) - posts, "cpu_server_per_item": round(used / items, 3),
                   "wall_per_item": round(wall / items, 3), "load": os.getloadavg()[0], "lines": filled["lines"],
                   "scores": scores, "translations": answers}
            rows.append(row)
            shown = {k: v for k, v in row.items() if k not in ("scores", "lines", "translations")}
            before = {r["row"]: {"translations": {}, **r} for r in json.loads(args.before.read_text())} \
                if args.before and args.before.is_file() else {}  # read as each row ends: it may be measured now
            if suite in before:
                shown["against before"] = compare(row, before[suite])
            print(json.dumps(shown, ensure_ascii=False), flush=True)
    args.out.write_text(json.dumps(rows, ensure_ascii=False), "utf-8")


if __name__ == "__main__":
    main()
