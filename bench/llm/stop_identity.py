"""Does the line-break stop change a served translation? The real model's card rows with it, then every request again
without it (what discotest sent before), compared after post-processing; the server's CPU and tokens per item.

    .venv/bin/python -m bench.llm.stop_identity [--suites winomt,mittens] [--limit 50] [--out DIR]

For sentence suites the endpoint asks the server to stop at the first line break (``models/endpoint.py``,
``LINE_STOP``): greedy decoding gives the same tokens up to it, and an answer the stop left without its translation
(the model opened with a line break, or the stop fell in a reasoning block: ``stopped_short``) is asked again without
it. This bench proves it on the real model (Gemma 3 270M base, served as in ``bench/llm/real_card.py``): each row's
card is filled in a fresh cache (with the stop: phase A), then each of its chat requests is sent again without
``stop`` (phase B); the two translations (``postprocess``) and their cut flags (``cut_by_length``) must be equal.
A difference is shown with the request asked once more without the stop right after (a server that reuses the
prompt's KV cache can answer the same request differently after another one: then the stop is not the cause).
Per phase: the server process's CPU seconds (user + system, read from the OS around the phase), its wall seconds and
the tokens it generated (``usage.completion_tokens``), per item.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from tests.support.real_model import ALIAS, PROMPT

from bench.llm.real_card import MODULE, cpu, model_file, server_process


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", default="ja-en,en-de")
    parser.add_argument("--suites", default="winomt,mittens")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--max-length", type=int, default=48)
    parser.add_argument("--out", type=Path, default=Path("/tmp/discotest-stop-identity"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ["DISCOTEST_CACHE"] = str(args.out / f"cache-{time.time_ns()}")  # phase A asks the server every time

    from tests.support.served import RecordingProxy, serve_gguf

    import discotest
    from discotest.cards.groups import rows_of
    from discotest.models.causal_translator import postprocess
    from discotest.models.endpoint import LINE_STOP, EndpointClient, cut_by_length

    model = model_file(args.out)
    rows = rows_of(args.pairs.split(","), args.suites.split(","))
    options = {"max_length": args.max_length, "prompt_file": str(PROMPT)}
    report = []
    with serve_gguf(model, ALIAS, args.out, seconds=300, module=MODULE) as url, RecordingProxy(url) as proxy:
        server = server_process()
        direct = EndpointClient(url, concurrency=1, timeout=600)
        for row in rows:
            posts, began, cpu0 = len(proxy.exchanges), time.monotonic(), cpu(server)
            card = discotest.card(endpoint=proxy.url, model=ALIAS, pairs=row.pair, suites=row.id, limit=args.limit,
                                  quiet=True, **options)
            wall_a, cpu_a = time.monotonic() - began, cpu(server) - cpu0
            (filled,) = [r for r in card.rows if r.id == row.id]
            final: dict[str, dict] = {}  # message -> its last answer (the one kept); asked twice: restarted
            asked: dict[str, int] = {}
            tokens_a = 0
            for body, answer in proxy.exchanges[posts:]:
                request = json.loads(body)
                if "messages" not in request:
                    continue
                message = request["messages"][0]["content"]
                asked[message] = asked.get(message, 0) + 1
                final[message] = json.loads(answer)
                tokens_a += final[message].get("usage", {}).get("completion_tokens", 0)
            bodies = {json.loads(body)["messages"][0]["content"]: json.loads(body)
                      for body, _ in proxy.exchanges[posts:] if "messages" in json.loads(body)}
            began, cpu0, tokens_b, differ, cut_a, cut_b = time.monotonic(), cpu(server), 0, [], 0, 0
            for message, body in bodies.items():
                whole = direct.call("/chat/completions", {k: v for k, v in body.items() if k not in LINE_STOP})
                tokens_b += whole.get("usage", {}).get("completion_tokens", 0)
                kept = final[message]
                a, b = (postprocess(x["choices"][0]["message"].get("content") or "") for x in (kept, whole))
                cut_a, cut_b = cut_a + cut_by_length(kept), cut_b + cut_by_length(whole)
                if a != b or cut_by_length(kept) != cut_by_length(whole):
                    # the same request once more, straight after: llama-cpp-python reuses the KV cache of the prompt
                    # it shares with the request before, and a prompt evaluated in other batches can tip a greedy tie
                    again = direct.call("/chat/completions", {k: v for k, v in body.items() if k not in LINE_STOP})
                    differ.append({"with stop": a, "without": b, "cut": [cut_by_length(kept), cut_by_length(whole)],
                                   "asked again after the stop left nothing": asked[message] > 1,
                                   "the request without stop once more": postprocess(
                                       again["choices"][0]["message"].get("content") or "")})
            wall_b, cpu_b = time.monotonic() - began, cpu(server) - cpu0
            n = len(bodies)
            report.append({"row": row.key, "status": filled.status, "items": n,
                           "restarted": sum(1 for v in asked.values() if v > 1), "differ": len(differ),
                           "cut with / without": [cut_a, cut_b],
                           "server CPU s an item without / with": [round(cpu_b / n, 2), round(cpu_a / n, 2)],
                           "wall s an item without / with": [round(wall_b / n, 2), round(wall_a / n, 2)],
                           "generated tokens an item without / with": [round(tokens_b / n, 1),
                                                                       round(tokens_a / n, 1)],
                           "examples of differences": differ[:5]})
            print(json.dumps(report[-1], ensure_ascii=False), flush=True)
    (args.out / "stop_identity.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
