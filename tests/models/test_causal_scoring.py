"""Contrastive scoring with decoder-only LLMs: tiny random Qwen3, Llama 3.1 and Gemma 3 models with their real
tokenizers and chat templates (tests/support/tiny_llm.py), no network."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from discotest.cli import main  # noqa: E402
from discotest.contrastive.run import score_requests  # noqa: E402
from discotest.contrastive.suites import load_suite  # noqa: E402
from discotest.data.contrastive_item import make_item  # noqa: E402
from discotest.models.causal_lm import (  # noqa: E402
    is_causal_lm,
    packed_fits,
    score_full,
    score_items_batch,
    score_shared,
)
from discotest.models.causal_scorer import CausalScorer  # noqa: E402
from discotest.models.llm_prompt import Prompt, bos_prefix  # noqa: E402
from tests.support.cli_helpers import results_of  # noqa: E402
from tests.support.tiny_llm import FAMILIES  # noqa: E402

ITEMS = score_requests([
    make_item(0, src="They are new.", correct="Ils sont neufs .", incorrect=["Elles sont neuves ."],
              src_context=("a .", "The buildings are tall .", "He likes them ."),
              tgt_context=("x .", "Les bâtiments sont hauts .", "Il les aime ."), distance=2),
    make_item(1, src="You came.", correct="Ты пришла .", incorrect=["Вы пришли .", "Вы"], distance=0),
    make_item(2, src="It is old.", correct="Il est vieux, mais on le lit encore beaucoup .",
              incorrect=["Elle est vieille ."], src_context=("The book .",), tgt_context=("Le livre .",)),
])


@pytest.fixture(scope="module")
def loaded(tiny_llms_loaded):
    return tiny_llms_loaded


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def scorer(tiny_llms, loaded, family, **options) -> CausalScorer:
    model, tok = loaded[family]
    return CausalScorer(str(tiny_llms[family]), model=model, tokenizer=tok, use_cache=options.pop("use_cache", False),
                        quiet=True, src_lang="en", tgt_lang="fr", **options)


def direct(model, ids: list[int], start: int) -> float:
    """Log-probability of ids[start:] given ids[:start], straight from one unpadded forward pass."""
    import torch

    with torch.inference_mode():
        logits = model(input_ids=torch.tensor([ids])).logits[0].float()
    logp = torch.log_softmax(logits, dim=-1)
    return sum(float(logp[i - 1, ids[i]]) for i in range(start, len(ids)))


def test_models_are_detected_from_their_config(tiny_llms, tmp_path):
    from tests.support.tiny_marian import build_tiny_marian

    assert all(is_causal_lm(str(tiny_llms[f])) for f in FAMILIES)
    assert not is_causal_lm(str(build_tiny_marian(tmp_path / "marian")))  # MarianForCausalLM exists: still seq2seq
    assert not is_causal_lm(str(tmp_path / "nothing"))


@pytest.mark.parametrize("family", FAMILIES)
def test_rendered_prompt_is_the_templates_own(tiny_llms, loaded, family):
    """The prompt is the model's chat template's own rendering (generation prompt added, Qwen3's reasoning off), and
    its tokens are those apply_chat_template gives (one BOS, not two)."""
    s = scorer(tiny_llms, loaded, family)
    tok = s.tokenizer
    prompt = s.item_prompt(ITEMS[0], 2)
    message = s.prompts.request(ITEMS[0].source, "en", "fr", ITEMS[0].source_context[-2:], ITEMS[0].target_context[-2:])
    messages = [{"role": "user", "content": message}]
    assert prompt.chat and prompt.lead == ""
    assert prompt.text == tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                                  enable_thinking=False)
    own = tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=True, enable_thinking=False)
    own = own["input_ids"] if isinstance(own, dict) or hasattr(own, "keys") else own
    assert s.prompt_ids(prompt) == list(own)
    assert "The buildings are tall .\nHe likes them ." in message and "Il les aime ." in message
    assert "a ." not in message.split("\n")  # only the last 2 context sentences
    ending = {"qwen3": "<|im_start|>assistant\n<think>\n\n</think>\n\n",
              "llama3_1": "<|start_header_id|>assistant<|end_header_id|>\n\n",
              "gemma3": "<start_of_turn>model\n"}[family]
    assert prompt.text.endswith(ending)
    assert prompt.text.count(tok.bos_token or "\0") == (0 if family == "qwen3" else 1)


def test_plain_prompt_without_a_chat_template(tiny_llms, loaded):
    """A model without a chat template gets the request, a line break and 'French:'; the answer follows a space, and
    the tokenizer's BOS starts the ids (Llama)."""
    model, tok = loaded["llama3_1"]
    template, tok.chat_template = tok.chat_template, None
    try:
        s = scorer(tiny_llms, loaded, "llama3_1")
        prompt = s.item_prompt(ITEMS[1], 0)
        assert not prompt.chat and prompt.lead == " "
        assert prompt.text.endswith("Translate this English sentence into French. Answer with the translation only."
                                    "\nYou came.\nFrench:")
        assert s.prompt_ids(prompt) == tok(prompt.text)["input_ids"]
        assert bos_prefix(tok) == [tok.bos_token_id]
        enc = s.encode(prompt, ["Ты пришла ."])
        assert enc.candidates[0] == tok(" Ты пришла .", add_special_tokens=False)["input_ids"]
        assert s.boundary_merges == 0
    finally:
        tok.chat_template = template


@pytest.mark.parametrize("family", FAMILIES)
def test_score_is_the_forward_pass_of_the_candidates_own_tokens(tiny_llms, loaded, family):
    """Each candidate's score is the log-probability of exactly its tokens after the prompt, computed directly; prompt
    sharing (packed) equals full scoring, at every batch size and on both padding sides."""
    model, tok = loaded[family]
    s = scorer(tiny_llms, loaded, family, batch_size=8)
    got = s.score_items(ITEMS, 3)
    encoded = [s.encode(s.item_prompt(item, 3), item.candidates) for item in ITEMS]
    for item, enc, scores in zip(ITEMS, encoded, got):
        assert len(scores) == len(item.candidates)
        for cand, ids, score in zip(item.candidates, enc.candidates, scores):
            whole = tok(s.item_prompt(item, 3).text + cand, add_special_tokens=False)["input_ids"]
            assert enc.prompt + ids == whole  # nothing added or lost at the boundary
            assert tok.decode(ids) == cand
            assert score == pytest.approx(direct(model, whole, len(enc.prompt)), abs=1e-4)
    pad = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
    rows = [(enc.prompt, c) for enc in encoded for c in enc.candidates]
    flat = [x for scores in got for x in scores]
    for side in ("left", "right"):
        assert score_full(model, rows, pad, padding_side=side) == pytest.approx(flat, abs=1e-4)
    assert [x for one in encoded for x in score_shared(model, [one], pad)[0]] == pytest.approx(flat, abs=1e-4)
    for options in (dict(batch_size=1), dict(batch_size=2, share_prompt=False), dict(share_prompt=False)):
        assert [x for r in scorer(tiny_llms, loaded, family, **options).score_items(ITEMS, 3) for x in r] == \
            pytest.approx(flat, abs=1e-4)


def test_packed_prompt_sharing_under_eager_attention_and_a_sliding_window(tiny_llms, loaded, monkeypatch):
    """The packed mask serves the eager implementation too (an additive mask); a row longer than the model's sliding
    window is scored in full (the packed mask has no window): its scores are the model's own, where packing would
    have been wrong."""
    model, tok = loaded["gemma3"]
    s = scorer(tiny_llms, loaded, "gemma3")
    encoded = [s.encode(s.item_prompt(item, 3), item.candidates) for item in ITEMS]
    pad = tok.pad_token_id
    want = [[direct(model, enc.prompt + c, len(enc.prompt)) for c in enc.candidates] for enc in encoded]
    monkeypatch.setattr(model.config, "_attn_implementation", "eager")
    assert [x for r in score_shared(model, encoded, pad) for x in r] == pytest.approx(sum(want, []), abs=1e-4)
    monkeypatch.undo()
    window = min(len(enc.prompt) for enc in encoded) // 2
    monkeypatch.setattr(model.config, "sliding_window", window)
    assert not packed_fits(model, encoded)
    windowed = [[direct(model, enc.prompt + c, len(enc.prompt)) for c in enc.candidates] for enc in encoded]
    assert max(abs(a - b) for a, b in zip(sum(windowed, []), sum(want, []))) > 1e-3  # the window does bite
    assert [x for r in score_items_batch(model, encoded, pad) for x in r] == pytest.approx(sum(windowed, []), abs=1e-4)
    assert [x for r in score_shared(model, encoded, pad) for x in r] != pytest.approx(sum(windowed, []), abs=1e-4)


def test_a_merge_across_the_boundary_keeps_the_prompt_tokens(tiny_llms, loaded):
    """'…hel' + 'lo' is one token 'hello' when tokenized together: the prompt's tokens are kept, the candidate is
    tokenized on its own, scored on its own tokens only, and counted."""
    model, tok = loaded["qwen3"]
    s = scorer(tiny_llms, loaded, "qwen3")
    prompt = Prompt("Say hel", "", False)
    together = tok("Say hello", add_special_tokens=False)["input_ids"]
    head = tok("Say hel", add_special_tokens=False)["input_ids"]
    assert together[:len(head)] != head  # the tokenizer does merge here
    enc = s.encode(prompt, ["lo", " there"])
    assert enc.prompt == head and s.boundary_merges == 1
    assert enc.candidates == [tok("lo", add_special_tokens=False)["input_ids"],
                              tok("Say hel there", add_special_tokens=False)["input_ids"][len(head):]]
    pad = tok.pad_token_id
    assert score_shared(model, [enc], pad)[0][0] == pytest.approx(direct(model, head + enc.candidates[0], len(head)),
                                                                  abs=1e-4)


def test_sum_mean_and_cache(tiny_llms, loaded, tmp_path, monkeypatch):
    total = scorer(tiny_llms, loaded, "qwen3").score_items(ITEMS, 1)
    mean = scorer(tiny_llms, loaded, "qwen3", normalise=True).score_items(ITEMS, 1)
    s = scorer(tiny_llms, loaded, "qwen3")
    n = len(s.encode(s.item_prompt(ITEMS[0], 1), ITEMS[0].candidates).candidates[0])
    assert mean[0][0] == pytest.approx(total[0][0] / n, rel=1e-6) and n > 1
    cached = scorer(tiny_llms, loaded, "qwen3", use_cache=True)
    assert cached.score_items(ITEMS, 1) == total
    monkeypatch.setattr(CausalScorer, "score_encoded", lambda *a: pytest.fail("a cache hit must not run the model"))
    assert scorer(tiny_llms, loaded, "qwen3", use_cache=True).score_items(ITEMS, 1) == total
    with pytest.raises(pytest.fail.Exception):  # another prompt template, another key
        scorer(tiny_llms, loaded, "qwen3", use_cache=True, prompt_file=_template(tmp_path)).score_items(ITEMS, 1)


def _template(folder) -> str:
    path = folder / "prompt.j2"
    path.write_text("{% for s in source_context %}{{ s }} {% endfor %}{{ source }} → {{ tgt_lang }}", "utf-8")
    return str(path)


def test_user_prompt_template(tiny_llms, loaded, tmp_path, capsys):
    s = scorer(tiny_llms, loaded, "gemma3", prompt_file=_template(tmp_path))
    assert s.prompts.request("It is old.", "en", "fr", ["The book ."]) == "The book . It is old. → French"
    fields = dict(s.signature_fields(1))
    assert fields["prompt"] == f"chat:{s.prompts.template_hash}" and fields["prompt"] != \
        dict(scorer(tiny_llms, loaded, "gemma3").signature_fields(1))["prompt"]
    bad = tmp_path / "bad.j2"
    bad.write_text("line one\n{{ source }\n", "utf-8")
    assert main(["run", "jazp", "--model", str(tiny_llms["qwen3"]), "--prompt", str(bad), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:" in err and err.count("\n") == 1
    unknown = tmp_path / "unknown.j2"
    unknown.write_text("{{ sauce }}", "utf-8")
    assert main(["run", "jazp", "--model", str(tiny_llms["qwen3"]), "--prompt", str(unknown), "-q"]) == 2
    err = capsys.readouterr().err
    assert "'sauce' is undefined" in err and "variables: source" in err and err.count("\n") == 1


@pytest.mark.parametrize("family", FAMILIES)
def test_cli_jazp_and_voita_subset(tiny_llms, family, shared_data, tmp_path, capsys):
    """`discotest run jazp --model LLM` and a voita-deixis subset (contrastive-jsonl) end to end."""
    contexts = ["--context", "0", "--context", "3"] if family == "qwen3" else ["--context", "3"]
    assert main(["run", "jazp", "--model", str(tiny_llms[family]), *contexts, "-q", "--format", "json",
                 "--batch-size", "16"]) == 0
    data = results_of(capsys.readouterr().out)
    assert [r["scores"]["overall"]["n"] for r in data] == [44] * (len(contexts) // 2)
    signature = data[-1]["signature"]
    for part in ("lm:causal", "prompt:chat:", "context:3", "kv:shared", "logprob:sum", "ja-en"):
        assert part in signature
    items = load_suite("voita-deixis", shared_data)[:6]
    path = tmp_path / "suite.jsonl"
    path.write_text("\n".join(json.dumps({"source": i.src, "context": list(i.src_context),
                                          "target_context": list(i.tgt_context), "correct": i.correct,
                                          "incorrect": list(i.incorrect), "distance": i.distance},
                                         ensure_ascii=False) for i in items) + "\n")
    assert main(["run", "contrastive-jsonl", "--input", str(path), "--model", str(tiny_llms[family]), "--context",
                 "3", "-q", "--format", "json", "--kv", "full"]) == 0
    data = results_of(capsys.readouterr().out)
    assert data[0]["scores"]["overall"]["n"] == 6 and "kv:full" in data[0]["signature"]


@pytest.mark.parametrize("family", FAMILIES)
def test_dip_pronoun_scorer_takes_the_same_llms(tiny_llms, loaded, family):
    """DiP's ``hf:<model>`` pronoun scorer is the models floor's causal LM scorer: with each family's real tokenizer
    its score is the direct forward pass of the sentence's tokens after BOS (or EOS) and the context."""
    from discotest.dip.pronoun_scorer import LMPronounScorer

    model, tok = loaded[family]
    scorer = LMPronounScorer(str(tiny_llms[family]), model=model, tokenizer=tok, use_cache=False, quiet=True)
    contexts, sentences = [["The buildings are tall."], []], ["They are new.", "She left."]
    got = scorer.score(contexts, sentences)
    for context, sentence, value in zip(contexts, sentences, got):
        ids, start = scorer.lm.encode_continuation(context, sentence)
        assert ids[0] == (tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id)
        assert value == pytest.approx(direct(model, ids, start), abs=1e-4)


def test_default_request_with_examples_and_context():
    from discotest.models.llm_prompt import PromptBuilder

    builder = PromptBuilder(None, examples=[{"source": "Hi.", "target": "Salut."}])
    assert builder.request("It is old.", "en", "fr", ["The book ."], ["Le livre ."]) == (
        "Examples of English sentences and their French translations:\nEnglish: Hi.\nFrench: Salut.\n\n"
        "Context (English):\nThe book .\nIts translation (French):\nLe livre .\n\n"
        "Translate this English sentence into French. Answer with the translation only.\nIt is old.")
    assert PromptBuilder(None).render("x", "en", "xx") == Prompt(
        "Translate this English sentence into xx. Answer with the translation only.\nx\nxx:", " ", False)
