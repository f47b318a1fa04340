"""Contrastive suites through a served LLM: llama-cpp-python's server on a tiny GGUF per family, ``discotest run``.

    .venv/bin/python bench/llm/served_contrastive.py [--families llama3_1,gemma3,qwen3] [--suites jazp,voita-deixis]
                                                    [--voita-items 6] [--context 1]

For each family: a tiny random model with the real tokenizer (tests/tiny_llm.py; Gemma 3 with
``query_pre_attn_scalar`` = head_dim and 6 layers, the build llama.cpp computes as Hugging Face does), written as
float32 GGUF (tests/tiny_gguf.py), served by ``python -m llama_cpp.server`` on 127.0.0.1 (one thread), then
``discotest run jazp --endpoint URL`` and a voita-deixis subset (the first ``--voita-items`` items, as
``contrastive-jsonl``). Prints each result line (text format: accuracy and signature) or the one-line refusal (Qwen3:
llama-cpp-python 0.3.36 echoes one token late without BOS, refused by the alignment probe), and the wall time.
Slow by nature: llama-cpp-python sorts the whole vocabulary (128k-262k) in Python for every echoed token.
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

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.cli_helpers import free_port, serving  # noqa: E402
from tests.tiny_gguf import write_tiny_gguf  # noqa: E402
from tests.tiny_llm import FAMILIES, build_tiny_llm  # noqa: E402

from discotest.contrastive.suites import load_suite  # noqa: E402

# what llama.cpp needs to compute a tiny Gemma 3 as Hugging Face does (see tests/tiny_gguf.py)
SHAPES = {"gemma3": dict(layers=6, query_pre_attn_scalar=8)}


def voita_subset(data: Path, n: int, out: Path) -> Path:
    """The first ``n`` voita-deixis items as a contrastive-jsonl file."""
    items = load_suite("voita-deixis", data)[:n]
    out.write_text("".join(json.dumps({"source": i.src, "context": list(i.src_context),
                                       "target_context": list(i.tgt_context), "correct": i.correct,
                                       "incorrect": list(i.incorrect), "distance": i.distance},
                                      ensure_ascii=False) + "\n" for i in items), "utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default="llama3_1,gemma3,qwen3")
    parser.add_argument("--suites", default="jazp,voita-deixis")
    parser.add_argument("--voita-items", type=int, default=6)
    parser.add_argument("--context", default="1")
    parser.add_argument("--data-dir", default=os.environ.get("DISCOTEST_DATA", str(REPO.parent / "shared" / "data")))
    args = parser.parse_args()
    data = Path(args.data_dir)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        os.environ.setdefault("DISCOTEST_CACHE", str(tmp / "cache"))
        for family in args.families.split(","):
            if family not in FAMILIES:
                raise SystemExit(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")
            model = build_tiny_llm(family, data / "llm_tokenizers", tmp / family, **SHAPES.get(family, {}))
            gguf = write_tiny_gguf(model, tmp / f"tiny-{family}.f32.gguf")
            port = free_port()
            command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias",
                       f"tiny-{family}", "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048",
                       "--n_threads", "1", "--n_threads_batch", "1", "--logits_all", "true", "--verbose", "false"]
            with serving(command, f"http://127.0.0.1:{port}/v1", tmp / f"{family}.log") as url:
                for suite in args.suites.split(","):
                    if suite == "voita-deixis":
                        run = ["contrastive-jsonl", "--input",
                               str(voita_subset(data, args.voita_items, tmp / "voita.jsonl")),
                               "--src-lang", "en", "--tgt-lang", "ru"]
                    else:
                        run = [suite]
                    start = time.monotonic()
                    done = subprocess.run([sys.executable, "-m", "discotest", "run", *run, "--endpoint", url,
                                           "--context", args.context, "--concurrency", "1", "-q",
                                           "--data-dir", str(data)], capture_output=True, text=True)
                    seconds = time.monotonic() - start
                    print(f"== {family} {suite} (exit {done.returncode}, {seconds:.0f} s)")
                    print(done.stdout.strip() or done.stderr.strip().splitlines()[-1], flush=True)


if __name__ == "__main__":
    main()
