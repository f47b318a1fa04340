"""Context gains as a validity check of the contrastive suites (issue 54, item 2): a real small LLM scores each suite
at context 0, 1 and 3, beside MAJORITY and CO-OCCUR, and accuracy by antecedent distance d, with Wilson intervals.

    .venv/bin/pip install -e '.[real-model]'
    .venv/bin/python -m bench.llm.context_gains [--limit 60] [--suites jazp,voita-deixis] [--backend local|served]
                                                [--contexts 0,1,3] [--out DIR] [--json FILE]

A suite that tests context must be easier with context: where the model gains nothing at d >= 1, the suite may
measure something else (or the model does not use context); where the d >= 1 items gain, that is evidence the suite
measures context use. VALIDITY.md ("Context gains with a real model") holds the table this prints.

- The model: Gemma 3 270M (base, Q4_K_M GGUF of the ``real-model`` extra). ``--backend local`` (default) scores with
  transformers on the GGUF de-quantized to a float32 folder (``tests/support/real_model.py``'s ``local_model``);
  ``served`` with llama-cpp-python's server on the GGUF (``bench/llm/llama_server_topk.py``, on ``--port``: its
  answers are cached under the URL). Both read the card's few-shot prompt ``bench/llm/real_card_prompt.jinja`` (its
  shots are en-de and ja-en only; en-ru and en-fr get the context pairs and the source in the plain frame). On the
  same 20 voita-deixis items at context 1 the local model took about half the CPU of the served one (the server
  scores each candidate in its own request and selects the top 20 of 262k log-probabilities per echoed token; the
  local one computes an item's prompt once for its candidates): docs/models.md.
- The items: each suite's own ``--limit N`` (a deterministic sample stratified by phenomenon and distance, signed
  ``limit:N``), the same items at every context size and for the baselines.
- The baselines learn from a text of the suite's languages (``TRAIN``): BSD from the other split's sentence pairs (as
  VALIDITY.md's reference points), jazp from WMT22 ja-en, Voita from WMT22 en-ru (source ||| reference), Bawden from
  WMT22 de-fr's French reference (target only: no en-fr pair in ../shared/data).
- Everything is cached (``DISCOTEST_CACHE``, default ``OUT/cache``): a rerun scores nothing, and a larger ``--limit``
  scores only the items it adds (the sample's order within a stratum is fixed).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

SUITES = ("bsd-zp-ja-en-dev", "bsd-zp-ja-en-test", "jazp", "voita-deixis", "voita-ellipsis-infl", "voita-ellipsis-vp",
          "voita-lexcohesion", "bawden-anaphora", "bawden-lexical")
BASELINES = ("majority", "cooccur")
WMT22 = Path("wmt22_general") / "txt"


def train_text(suite: str, data: Path, out: Path) -> Path:
    """The baselines' training text for ``suite``: written once under ``out`` from ../shared/data."""
    if suite.startswith("bsd-zp-ja-en-"):
        other = "dev" if suite.endswith("test") else "test"
        path = out / f"bsd-{other}.txt"
        if not path.is_file():
            scenarios = json.loads((data / "bsd" / f"{other}.json").read_text("utf-8"))
            path.write_text("".join(f"{t['ja_sentence']} ||| {t['en_sentence']}\n" for s in scenarios
                                    for t in s["conversation"]), "utf-8")
        return path
    pair = {"jazp": "ja-en", "voita": "en-ru"}.get(suite.split("-")[0])
    if pair is None:  # Bawden: French target text only
        return data / WMT22 / "references" / "generaltest2022.de-fr.ref.A.fr"
    src, tgt = pair.split("-")
    path = out / f"wmt22-{pair}.txt"
    if not path.is_file():
        sources = (data / WMT22 / "sources" / f"generaltest2022.{pair}.src.{src}").read_text("utf-8").splitlines()
        refs = (data / WMT22 / "references" / f"generaltest2022.{pair}.ref.A.{tgt}").read_text("utf-8").splitlines()
        path.write_text("".join(f"{s} ||| {r}\n" for s, r in zip(sources, refs, strict=True)), "utf-8")
    return path


def by_distance(result) -> dict[str, tuple[int, int]]:
    """(right, n) per distance key (``judge.distance_key``: BSD's items that need no context apart), and ``all``."""
    from discotest.contrastive.judge import distance_key

    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for v in result.verdicts:
        for key in ("all", distance_key(v) if v.distance is not None else None):
            if key is not None:
                counts[key][0] += v.correct
                counts[key][1] += 1
    return {k: (r, n) for k, (r, n) in counts.items()}


def cell(right: int, n: int) -> str:
    """``acc [lo–hi]`` in percent, the 95% Wilson interval."""
    from discotest.stats import wilson_interval

    lo, hi = wilson_interval(right, n)
    return f"{100 * right / n:.0f} [{100 * lo:.0f}–{100 * hi:.0f}]"


def score_suite(suite: str, args: argparse.Namespace, system: dict, data: Path) -> dict:
    """Every system's (right, n) by distance on the suite's sample, and the signatures."""
    from tests.support.real_model import PROMPT

    import discotest

    began = time.monotonic()
    report = discotest.run(suite, **system, context=args.contexts, baseline=list(BASELINES),
                           train_text=str(train_text(suite, data, args.out)), limit=args.limit,
                           prompt_file=str(PROMPT), quiet=True, data_dir=str(data))
    rows = {}
    for result in report.results:
        rows[result.system] = {"by_d": by_distance(result), "signature": str(result.signature)}
    return {"suite": suite, "seconds": round(time.monotonic() - began, 1), "systems": rows}


def table(done: list[dict], contexts: list[int]) -> list[str]:
    """One markdown row per suite and distance: the model at each context size, the baselines, the gain 0 → max."""
    heads = [f"ctx {k}" for k in contexts]
    gains = [f"gain {contexts[0]}→{k} (pp)" for k in contexts[1:]]
    lines = [f"| suite | d | n | {' | '.join(heads)} | MAJORITY | CO-OCCUR | {' | '.join(gains)} |",
             "|---|---|---|" + "---|" * (len(heads) + 2 + len(gains))]
    for entry in done:
        systems = entry["systems"]
        model = [next(v for name, v in systems.items() if name.endswith(f"@ctx{k}")) for k in contexts]
        keys = sorted(model[0]["by_d"], key=lambda k: (k != "all", len(k), k))
        for key in keys:
            counts = [m["by_d"][key] for m in model]
            base = [systems[b]["by_d"].get(key) for b in BASELINES]
            n = counts[0][1]
            gain = [f"{100 * (c[0] - counts[0][0]) / n:+.0f}" for c in counts[1:]]
            lines.append(f"| {entry['suite']} | {key} | {n} | " + " | ".join(cell(*c) for c in counts) + " | "
                         + " | ".join(cell(*b) if b else "–" for b in base) + f" | {' | '.join(gain)} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suites", default=",".join(SUITES))
    parser.add_argument("--limit", type=int, default=60, help="each suite's --limit (its stratified sample)")
    parser.add_argument("--contexts", default="0,1,3")
    parser.add_argument("--backend", choices=("local", "served"), default="local")
    parser.add_argument("--out", type=Path, default=Path("/tmp/discotest-context-gains"))
    parser.add_argument("--json", type=Path, help="write the counts and signatures here")
    parser.add_argument("--port", type=int, default=18754, help="served: the server's port (the cache is keyed by "
                        "the URL, so a rerun on the same port asks nothing)")
    args = parser.parse_args()
    args.contexts = [int(k) for k in args.contexts.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("DISCOTEST_CACHE", str(args.out / "cache"))
    data = Path(os.environ.get("DISCOTEST_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"))
    from tests.support.real_model import ALIAS, local_model, plain_model

    try:
        model = local_model(args.out) if args.backend == "local" else plain_model(args.out)
    except ImportError:
        sys.exit("bench/llm/context_gains.py: the model is not installed: pip install -e '.[real-model]'")
    with contextlib.ExitStack() as stack:
        if args.backend == "local":
            system = {"model": str(model)}
        else:
            from tests.support.served import serve_gguf

            url = stack.enter_context(serve_gguf(model, ALIAS, args.out, seconds=300,
                                                 module="bench.llm.llama_server_topk", port=args.port))
            system = {"endpoint": url, "model": ALIAS, "concurrency": 1}
        done = []
        for suite in args.suites.split(","):
            done.append(score_suite(suite, args, system, data))
            print(json.dumps({"suite": suite, "seconds": done[-1]["seconds"]}), flush=True)
            if args.json:  # after each suite: a long run's finished suites are kept
                args.json.write_text(json.dumps(done, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print("\n".join(table(done, args.contexts)))


if __name__ == "__main__":
    main()
