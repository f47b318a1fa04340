"""Served contrastive scoring (``--endpoint``) against a REAL server that returns prompt log-probabilities:
llama.cpp's, through ``llama-cpp-python[server]`` (the ``serve-test`` extra; built from source), on 127.0.0.1, serving
the tiny random Llama 3.1 of tests/support/tiny_llm.py written as float32 GGUF (tests/support/tiny_gguf.py); and the
tiny Qwen3, whose echo (no BOS) llama-cpp-python 0.3.36 reports one token late: the endpoint's alignment probe must
refuse it. The resumed run, a test of orchestration rather than of a tokenizer, is served the tiny Llama whose
tokenizer is cut to 512 tokens (``small_llama_server``, tests/conftest.py).

The server applies no chat template to ``/v1/completions``, so the endpoint scores after the plain completion prompt;
the local side is the same model with its chat template removed, which renders that very prompt. Both must give the
same tokens and the same log-probabilities up to float32 arithmetic (llama.cpp's kernels vs torch's: another order of
summation in the matrix products, RMS norm and log-softmax over the 128k vocabulary), ``TOLERANCE`` per candidate.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("transformers")
pytest.importorskip("gguf")
pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] (the serve-test extra) is not installed")

from discotest.contrastive.suites import load_suite  # noqa: E402
from discotest.models.causal_scorer import CausalScorer  # noqa: E402
from discotest.models.endpoint import ALIGNMENT_PROBE, EndpointClient, EndpointScorer, read_prompt_logprobs  # noqa: E402
from tests.support.cli_helpers import assert_one_line_error, one_result, run_cli  # noqa: E402
from tests.support.served import serve_gguf  # noqa: E402
from tests.support.tiny_gguf import write_tiny_gguf  # noqa: E402
from tests.support.tiny_llm import without_chat_template  # noqa: E402

ALIAS = "tiny-llama3_1"
# |served - local| per candidate sum: 5.7e-6 at most measured (voita-deixis, 6 candidates of 5-7 tokens after
# prompts of 39-47; float32 kernels differ); 1e-4 leaves room for longer candidates and other CPUs.
TOLERANCE = 1e-4
# Gemma 3: ggml computes GELU through a float16 table (GGML_GELU_FP16), torch exactly: 2.9e-4 measured on a
# 4-token candidate of the 6-layer tiny Gemma; 2e-3 leaves room (a token more or less would move a sum by ~12)
GEMMA_TOLERANCE = 2e-3
PROMPT = '{{ source_context | join(" ") }} {{ source }}'  # short: fewer echoed tokens, see below


@pytest.fixture(scope="module")
def plain_llama(tiny_llms, tmp_path_factory):
    """The tiny Llama 3.1 without its chat template: the plain completion prompt, as on ``/v1/completions``."""
    return without_chat_template(tiny_llms["llama3_1"], tmp_path_factory.mktemp("plain-llama") / "llama3_1")


def _serve(family: str, tiny_llms, tmp_path_factory):
    """``python -m llama_cpp.server`` on 127.0.0.1 with the GGUF of a tiny model (alias ``tiny-FAMILY``); its base
    URL. Stopped after."""
    folder = tmp_path_factory.mktemp(f"gguf-{family}")
    model = write_tiny_gguf(tiny_llms[family], folder / f"tiny-{family}.f32.gguf")
    with serve_gguf(model, f"tiny-{family}", folder) as url:
        yield url


@pytest.fixture(scope="module")
def llama_server(tiny_llms, tmp_path_factory):
    """The tiny Llama 3.1 served (BOS added: its echo is aligned, so every test on it passes the alignment probe)."""
    yield from _serve("llama3_1", tiny_llms, tmp_path_factory)


@pytest.fixture(scope="module")
def qwen_server(tiny_llms, tmp_path_factory):
    """The tiny Qwen3 served (no BOS: llama-cpp-python 0.3.36 echoes its log-probabilities one token late)."""
    yield from _serve("qwen3", tiny_llms, tmp_path_factory)


@pytest.fixture(scope="module")
def faithful_gemma(shared_data, tmp_path_factory):
    """A tiny Gemma 3 that llama.cpp computes as Hugging Face does: ``query_pre_attn_scalar`` = head_dim (as in the
    real 1B/4B/12B; llama.cpp scales attention by 1/sqrt(head_dim), the shared tiny Gemma keeps the default 256) and
    6 layers, so that the 6th is global (rope base 1e6) after five sliding ones (rope base 1e4)."""
    from tests.support.tiny_llm import build_tiny_llm

    return build_tiny_llm("gemma3", shared_data / "llm_tokenizers", tmp_path_factory.mktemp("gemma3") / "gemma3",
                          layers=6, query_pre_attn_scalar=8)


@pytest.fixture(scope="module")
def gemma_server(faithful_gemma, tmp_path_factory):
    """The faithful tiny Gemma 3 served (BOS added)."""
    folder = tmp_path_factory.mktemp("gguf-gemma3")
    with serve_gguf(write_tiny_gguf(faithful_gemma, folder / "tiny-gemma3.f32.gguf"), "tiny-gemma3", folder) as url:
        yield url


@pytest.fixture(scope="module")
def small_gemma_server(shared_data, tmp_path_factory):
    """A tiny Gemma 3 (the faithful shape) on Gemma 3's real tokenizer cut to its first 1,024 tokens and the pieces
    they are made of (tests/support/tiny_llm.py ``small_vocabulary``): the card's orchestration through a Gemma server
    (its BOS, template and byte fallback) without the 262k-token sort per echoed token (~0.5 s a token here)."""
    from tests.support.tiny_llm import build_tiny_llm, small_vocabulary

    folder = tmp_path_factory.mktemp("gguf-small-gemma3")
    tokenizer = small_vocabulary("gemma3", shared_data / "llm_tokenizers", folder / "tokenizers", size=1024)
    model = build_tiny_llm("gemma3", tokenizer.parent, folder / "model", layers=6, query_pre_attn_scalar=8)
    with serve_gguf(write_tiny_gguf(model, folder / "tiny.f32.gguf"), "tiny-gemma3", folder) as url:
        yield url


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_served_scores_and_verdicts_are_the_local_ones(llama_server, plain_llama, shared_data, tmp_path, capsys):
    """A voita-deixis subset (English to Russian, Cyrillic candidates; context 1) run through the CLI on the server and
    on the local model: every candidate's score within ``TOLERANCE`` (the same tokens: one token more or less would
    move a sum by ~12, the log-probability of a token under a random model of a 128k vocabulary), so the same verdict
    for every item and the same accuracies; the signature names the model as the server reports it.

    The request template is short (``PROMPT``): llama-cpp-python sorts the whole vocabulary in Python for every echoed
    token (~0.1 s each here), so the test keeps to ~100 served tokens (4 requests)."""
    items = load_suite("voita-deixis", shared_data)[:4:2]  # two distinct sources (each item comes twice, swapped)
    suite = tmp_path / "subset.jsonl"
    suite.write_text("".join(json.dumps({"source": i.src, "context": list(i.src_context),
                                         "target_context": list(i.tgt_context), "correct": i.correct,
                                         "incorrect": list(i.incorrect), "distance": i.distance},
                                        ensure_ascii=False) + "\n" for i in items), "utf-8")
    prompt = tmp_path / "prompt.j2"
    prompt.write_text(PROMPT, "utf-8")
    runs = {}
    for side, system in (("served", ["--endpoint", llama_server, "--concurrency", "1"]),
                         ("local", ["--model", str(plain_llama)])):
        details = tmp_path / f"{side}.jsonl"
        code, out, err = run_cli(capsys, "run", "contrastive-jsonl", "--input", str(suite), *system, "--src-lang",
                                 "en", "--tgt-lang", "ru", "--prompt", str(prompt), "--context", "1", "-q",
                                 "--format", "json", "--details", str(details))
        assert code == 0, err
        runs[side] = one_result(out), [json.loads(line) for line in details.read_text("utf-8").splitlines()]
    (served, served_rows), (local, local_rows) = runs["served"], runs["local"]
    assert len(served_rows) == len(local_rows) == 2
    far = max(abs(a - b) for s, m in zip(served_rows, local_rows) for a, b in zip(s["scores"], m["scores"]))
    assert far <= TOLERANCE
    assert [r["chosen"] for r in served_rows] == [r["chosen"] for r in local_rows]
    margins = [abs(r["scores"][0] - r["scores"][1]) for r in local_rows]
    assert min(margins) > 10 * TOLERANCE  # the verdicts are not decided inside the tolerance
    assert served["scores"] == local["scores"]
    for part in (f"|model:{ALIAS}|", "|served:openai-api|", "|prompt:plain:", "|context:1|"):
        assert part in served["signature"]
    assert dict(f.split(":", 1) for f in served["signature"].split("|"))["prompt"] == \
        dict(f.split(":", 1) for f in local["signature"].split("|"))["prompt"]


def test_served_prompt_tokens_are_the_local_ones(llama_server, plain_llama):
    """The default request template: the server's echoed prompt is tokenized as the local model does (the same
    count of candidate tokens, nothing merged across the boundary) and scored the same."""
    from discotest.models.interface import ScoreRequest

    item = ScoreRequest("He left.", ("Он ушёл .", "Она ушла ."))
    served = EndpointScorer(llama_server, src_lang="en", tgt_lang="ru", use_cache=False, quiet=True, concurrency=1)
    assert served.model == ALIAS
    local = CausalScorer(str(plain_llama), src_lang="en", tgt_lang="ru", use_cache=False, quiet=True)
    prompt = local.item_prompt(item, 0)
    assert not prompt.chat
    encoded = local.encode(prompt, item.candidates)
    for candidate, ids, mine in zip(item.candidates, encoded.candidates, local.score_encoded([encoded])[0]):
        total, count = served.one(prompt.text, candidate)
        assert count == len(ids) and abs(total - mine) <= TOLERANCE
    assert served.boundary_merges == 0 and local.boundary_merges == 0


def test_a_stopped_scoring_run_asks_the_server_only_for_what_it_had_not_answered(small_llama_server, monkeypatch):
    """Each served candidate's score is cached as it arrives (one entry per prompt and candidate): a run stopped after
    some candidates (here: a first run over two of three items, as a ``kill -9`` halfway leaves it) asks the server
    again only for the others, and the scores are the same as one whole run's. Orchestration, not the tokenizer: on
    the tiny Llama whose tokenizer is cut to 512 tokens (tests/conftest.py)."""
    from discotest.models.interface import ScoreRequest

    items = [ScoreRequest("He left.", ("Он ушёл .", "Она ушла .")), ScoreRequest("She came.", ("Она пришла .",
             "Он пришёл .")), ScoreRequest("It fell.", ("Оно упало .", "Он упал ."))]
    asked: list[str] = []
    real = EndpointScorer.one
    monkeypatch.setattr(EndpointScorer, "one", lambda self, prompt, candidate: asked.append(candidate)
                        or real(self, prompt, candidate))
    scorer = EndpointScorer(small_llama_server, src_lang="en", tgt_lang="ru", quiet=True, concurrency=1)
    first = scorer.logprobs(items[:2], [0])[0]
    assert len(asked) == 4
    asked.clear()
    whole = scorer.logprobs(items, [0])[0]
    assert asked == ["Оно упало .", "Он упал ."] and whole[:2] == first


# the card's servers, by family: Llama's and Gemma's vocabularies cut (the card checks orchestration; the full
# tokenizers' tokens and scores are the tests above and below)
SERVERS = {"llama3_1": "small_llama_server", "gemma3": "small_gemma_server", "qwen3": "qwen_server"}


@pytest.mark.parametrize("family", list(SERVERS))
def test_a_card_through_the_server_gives_the_suites_own_numbers(family, request, shared_data, tmp_path):
    """The discourse card with ``--endpoint`` for each tokenizer family (a quick look: 1 jazp item, a short request
    template: each echoed token costs the server a sort of the vocabulary): its number is the one ``run jazp
    --endpoint`` gives (from the cache: the card's scores are the run's); a row no endpoint can fill (MT-GenEval
    translates with a local model only) says why. Qwen3:
    llama-cpp-python echoes its log-probabilities one token late (no BOS), so its row fails with the alignment probe's
    one line and the card still finishes."""
    import discotest

    server = request.getfixturevalue(SERVERS[family])
    prompt = tmp_path / "prompt.j2"
    prompt.write_text(PROMPT, "utf-8")
    options = dict(endpoint=server, model=f"tiny-{family}", limit=1, context=[0], prompt_file=str(prompt),
                   concurrency=1, quiet=True)
    card = discotest.card(pairs="ja-en,en-de", suites="jazp,mt-geneval", **options)
    rows = {f"{row.pair}/{row.id}": row for row in card.rows}
    jazp = rows["ja-en/jazp"]
    unfilled = [rows[f"en-de/mt-geneval-{subset}"] for subset in ("counterfactual", "contextual")]
    assert len(rows) == 3 and all(row.status == "unfilled" and "cannot be run with an endpoint; run it with "
                                  "--model" in row.reason for row in unfilled)
    assert card.system == f"tiny-{family}"
    if family == "qwen3":
        assert jazp.status == "failed" and "one token late" in jazp.reason and "\n" not in jazp.reason
        return
    assert jazp.status == "ok", jazp.reason
    own = discotest.run("jazp", **options)[0]
    line = jazp.lines[0]
    assert line.n == 1 and line.value == round(own.scores.overall.accuracy, 4)
    assert "served:openai-api" in jazp.signature and "limit:1" in jazp.signature
    assert f"model:tiny-{family}" in jazp.signature


def test_served_gemma_tokens_and_scores_are_the_local_ones(gemma_server, faithful_gemma, tmp_path):
    """The tiny Gemma 3 through llama.cpp ("gemma4" BPE vocabulary from tokenizer.json): the echoed tokens of a
    plain completion prompt (a line break before the language's name, Cyrillic, an emoji) are Hugging Face's, one by
    one; it passes the alignment probe (BOS added); its candidates' log-probabilities are the local ones within
    ``GEMMA_TOLERANCE``. One short item and the short request template (``PROMPT``) only: llama-cpp-python sorts the
    262k vocabulary in Python per echoed token (~0.5 s each here)."""
    from transformers import AutoTokenizer

    from discotest.models.interface import ScoreRequest

    plain = without_chat_template(faithful_gemma, tmp_path / "gemma3")
    item = ScoreRequest("He left 😀", ("Он ушёл 😀", "Она ушла 😀"))
    template = tmp_path / "prompt.j2"
    template.write_text(PROMPT, "utf-8")
    served = EndpointScorer(gemma_server, src_lang="en", tgt_lang="ru", use_cache=False, quiet=True, concurrency=1,
                            prompt_file=str(template))
    assert served.model == "tiny-gemma3"
    local = CausalScorer(str(plain), src_lang="en", tgt_lang="ru", use_cache=False, quiet=True,
                         prompt_file=str(template))
    tok = AutoTokenizer.from_pretrained(plain)
    prompt = local.item_prompt(item, 0)
    text = prompt.text + " " + item.candidates[0]
    # the request EndpointScorer.one sends for the correct candidate (made once: each echoed token costs ~0.5 s)
    answer = EndpointClient(gemma_server).call("/completions", {"model": "tiny-gemma3", "prompt": text,
                                                                "max_tokens": 1, "temperature": 0, "echo": True,
                                                                "logprobs": 1})
    ids = tok(text)["input_ids"]
    echoed = answer["choices"][0]["logprobs"]["tokens"][:len(ids) - 1]  # no BOS; then the one generated token
    assert ids[0] == tok.bos_token_id and "\n" in text
    assert "".join(echoed) == text
    assert echoed == [tok.decode([i]) for i in ids[1:]]
    encoded = local.encode(prompt, item.candidates)
    mine = local.score_encoded([encoded])[0]
    correct = read_prompt_logprobs(answer, len(prompt.text), len(text))
    incorrect = served.one(prompt.text, item.candidates[1])  # the scorer's own path, alignment probe included
    assert correct is not None and not correct[2]
    assert [correct[1], incorrect[1]] == [len(c) for c in encoded.candidates]
    assert max(abs(correct[0] - mine[0]), abs(incorrect[0] - mine[1])) <= GEMMA_TOLERANCE
    assert served.boundary_merges == 0 and local.boundary_merges == 0


def test_a_late_echo_is_refused_and_it_is_late(qwen_server, tiny_llms, tmp_path, capsys):
    """The tiny Qwen3 through llama-cpp-python: each echoed value is the local model's log-probability of the token
    being the NEXT one (read one position late) — so the GGUF is a faithful Qwen3 and the echo is misaligned —, the
    alignment probe says so, and a scoring run is refused with one line naming the server."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    text = ALIGNMENT_PROBE[0]
    answer = EndpointClient(qwen_server).call("/completions", {"model": "tiny-qwen3", "prompt": text, "max_tokens": 1,
                                                               "temperature": 0, "echo": True, "logprobs": 1})
    served = answer["choices"][0]["logprobs"]["token_logprobs"]
    tok = AutoTokenizer.from_pretrained(tiny_llms["qwen3"])
    model = AutoModelForCausalLM.from_pretrained(tiny_llms["qwen3"]).eval()
    ids = tok(text, add_special_tokens=False)["input_ids"]
    with torch.inference_mode():
        logp = model(torch.tensor([ids])).logits[0].float().log_softmax(-1)
    late = [float(logp[i, ids[i]]) for i in range(1, len(ids))]
    aligned = [float(logp[i - 1, ids[i]]) for i in range(1, len(ids))]
    assert len(served) == len(ids)
    assert max(abs(a - b) for a, b in zip(served[1:], late)) <= TOLERANCE
    assert max(abs(a - b) for a, b in zip(served[1:], aligned)) > 100 * TOLERANCE

    suite = tmp_path / "one.jsonl"
    suite.write_text(json.dumps({"source": "He left.", "correct": "Он ушёл.", "incorrect": ["Она ушла."]}) + "\n",
                     "utf-8")
    prompt = tmp_path / "prompt.j2"
    prompt.write_text(PROMPT, "utf-8")
    capsys.readouterr()  # the local model's loading bar
    code, out, err = run_cli(capsys, "run", "contrastive-jsonl", "--input", str(suite), "--endpoint", qwen_server,
                             "--src-lang", "en", "--tgt-lang", "ru", "--prompt", str(prompt), "-q", "--format", "json")
    assert_one_line_error(code, err, qwen_server.removesuffix("/v1"), "tiny-qwen3", "one token late")
    assert out == ""


@pytest.mark.parametrize("family", ["llama3_1", "gemma3"])
def test_served_chat_translation_is_the_local_one(family, request, tmp_path, capsys):
    """WinoMT-demo through llama.cpp's ``/v1/chat/completions`` (the GGUF carries the model's chat template): the
    same 16 greedy translations as the local model's (a token holding part of a UTF-8 character: the server drops its
    bytes, and the local U+FFFD is removed by post-processing). Gemma 3: the faithful tiny one."""
    if family == "gemma3":
        server, model = request.getfixturevalue("gemma_server"), request.getfixturevalue("faithful_gemma")
    else:
        server, model = request.getfixturevalue("llama_server"), request.getfixturevalue("tiny_llms")[family]
    rows = {}
    for side, system in (("served", ["--endpoint", server]), ("local", ["--model", str(model)])):
        details = tmp_path / f"{side}.jsonl"
        code, out, err = run_cli(capsys, "run", "winomt-demo", "--lang", "de", *system, "--max-length", "8", "-q",
                                 "--format", "json", "--details", str(details), "--skip-language-check")  # random
        assert code == 0, err
        rows[side] = [json.loads(line)["translation"] for line in details.read_text("utf-8").splitlines()]
        if side == "served":
            signature = one_result(out)["signature"]
            assert f"|model:tiny-{family}|" in signature and "|served:openai-api|" in signature
    assert len(rows["served"]) == 16 and len(set(rows["served"])) > 1
    assert rows["served"] == rows["local"]
