"""Translation with decoder-only LLMs: tiny random Qwen3, Llama 3.1 and Gemma 3 models with their real tokenizers
(tests/support/tiny_llm.py); post-processing rules; `run winomt-demo --model LLM` and `translate` end to end."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from discotest.cli import main  # noqa: E402
from discotest.models.causal_translator import (  # noqa: E402
    CausalTranslator,
    LineBreakStop,
    postprocess,
    ran_out,
    stop_ids,
    strip_reasoning,
)
from discotest.models.llm_prompt import prompt_ids  # noqa: E402
from tests.support.cli_helpers import one_result  # noqa: E402
from tests.support.tiny_llm import FAMILIES  # noqa: E402

SOURCES = ["The doctor asked the nurse to help her.", "He left.",
           "The developer argued with the designer because she did not like the design."]


def translator(tiny_llms, loaded, family: str, **options) -> CausalTranslator:
    """A translator of the family's tiny model, the session's loaded objects handed over."""
    model, tok = loaded[family]
    return CausalTranslator(str(tiny_llms[family]), "de", model=model, tokenizer=tok, quiet=True, **options)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_postprocessing_rules():
    # rule 3: reasoning blocks go, closed or not
    assert strip_reasoning("<think>\nplan\n</think>\n\nDer Arzt.") == "\n\nDer Arzt."
    assert strip_reasoning("A <think>x</think>B<think>y</think>") == "A B"
    assert strip_reasoning("Der Arzt <think>still thinking") == "Der Arzt "
    # rule 4: the first non-empty line (sentence suites); rule 5: whitespace; rule 2: U+FFFD
    assert postprocess("<think>\n\n</think>\n\n  Der Arzt bat.\nExplanation: …") == "Der Arzt bat."
    assert postprocess("  one\ntwo ", sentence=False) == "one\ntwo"
    assert postprocess("<think>never closed\nline") == ""
    assert postprocess("Der Arzt \ufffd bat\ufffd") == "Der Arzt  bat"  # bytes of an unfinished character
    assert postprocess("\n\n") == ""


@pytest.mark.parametrize("family", FAMILIES)
def test_end_of_turn_and_line_break_stops(tiny_llms, tiny_llms_loaded, family):
    """Rule 1 cuts at the family's own end-of-turn token; the line-break criterion waits for a closed reasoning
    block."""
    import torch

    t = translator(tiny_llms, tiny_llms_loaded, family, use_cache=False)
    tok = t.tokenizer
    turn_end = {"qwen3": "<|im_end|>", "llama3_1": "<|eot_id|>", "gemma3": "<end_of_turn>"}[family]
    stops = stop_ids(tok, t.model)
    assert tok.convert_tokens_to_ids(turn_end) in stops and tok.eos_token_id in stops
    ids = tok("Der Arzt.", add_special_tokens=False)["input_ids"]
    after = tok(" Extra", add_special_tokens=False)["input_ids"]
    assert t.decode(ids + [tok.convert_tokens_to_ids(turn_end)] + after, stops) == "Der Arzt."
    stop = LineBreakStop(tok, 1)
    rows = [tok(text, add_special_tokens=False)["input_ids"] for text in
            ("\nDer Arzt.\nMore", "<think>\nplan\n", "<think>\nplan\n</think>\n\nDer", "\n\nDer Arzt.")]
    width = max(map(len, rows))
    batch = torch.tensor([[0] + r + [r[-1]] * (width - len(r)) for r in rows])
    assert stop(batch, None).tolist() == [True, False, False, False]


@pytest.mark.parametrize("family", FAMILIES)
def test_batched_generation_equals_one_unpadded_prompt_at_a_time(tiny_llms, tiny_llms_loaded, family):
    """Left-padded batches give what generate gives each prompt alone, unpadded: batch size does not matter."""
    import torch

    batched = translator(tiny_llms, tiny_llms_loaded, family, max_length=10, batch_size=8, use_cache=False)
    out = batched.translate(SOURCES)
    single = translator(tiny_llms, tiny_llms_loaded, family, max_length=10, batch_size=1, use_cache=False)
    assert single.translate(SOURCES) == out
    tok, model = batched.tokenizer, batched.model
    stops = stop_ids(tok, model)
    for text, got in zip(SOURCES, out):
        ids = prompt_ids(tok, batched.render(text))
        with torch.inference_mode():
            alone = model.generate(input_ids=torch.tensor([ids]), do_sample=False, max_new_tokens=10,
                                   eos_token_id=stops, pad_token_id=tok.pad_token_id or 0,
                                   temperature=None, top_p=None, top_k=None)[0, len(ids):].tolist()
        assert got == batched.decode(alone, stops)  # without the line-break stop: the first line is the same


def test_context_holds_previous_sources_and_own_translations(tiny_llms, tiny_llms_loaded, monkeypatch):
    seen = []
    real = CausalTranslator.generate_prompts
    monkeypatch.setattr(CausalTranslator, "generate_prompts", lambda self, p: seen.extend(p) or real(self, p))
    t = translator(tiny_llms, tiny_llms_loaded, "qwen3", max_length=6, context=1)
    out = t.translate(SOURCES)
    assert len(seen) == 3 and t.translated == 3
    assert "Context (English):\nHe left.\nIts translation (German):\n" + out[1] + "\n" in seen[2].text
    assert SOURCES[0] not in seen[2].text and "Context" not in seen[0].text
    again = translator(tiny_llms, tiny_llms_loaded, "qwen3", max_length=6, context=1)
    assert again.translate(SOURCES) == out and again.cache_hits == 3 and len(seen) == 3
    alone = translator(tiny_llms, tiny_llms_loaded, "qwen3", max_length=6)
    alone.translate(SOURCES[1:2])
    assert alone.translated == 1  # no context, another prompt: another cache entry
    assert dict(t.signature_fields())["context"] == "1" and dict(alone.signature_fields())["context"] == "0"


@pytest.mark.parametrize("family", FAMILIES)
def test_run_winomt_demo_with_an_llm(tiny_llms, family, capsys, monkeypatch):
    calls = []
    real = CausalTranslator.generate
    monkeypatch.setattr(CausalTranslator, "generate", lambda self, texts: calls.append(len(texts)) or real(self, texts))
    args = ["run", "winomt-demo", "--lang", "de", "--model", str(tiny_llms[family]), "--max-length", "8", "-q",
            "--format", "json", "--batch-size", "16", "--skip-language-check"]  # a random LLM writes no German
    assert main(args) == 0
    out = capsys.readouterr().out
    first, warnings = one_result(out), json.loads(out)["warnings"]
    assert first["scores"]["n"] == 16 and sum(calls) == 16
    # a random model runs to --max-length inside its first line: said, as for a served model
    cut = [w for w in warnings if re.search(r": \d+ of its 16 translations stopped at --max-length \(8 tokens\)", w)]
    assert len(cut) == 1, warnings
    sig = first["signature"]
    for part in (f"|model:{tiny_llms[family].name}|", "|lm:causal|", "|prompt:chat:", "|decoding:greedy|",
                 "|max_len:8|", "|context:0|"):
        assert part in sig
    monkeypatch.setattr(CausalTranslator, "generate", lambda *a: pytest.fail("a cached run must not translate"))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert one_result(out)["scores"] == first["scores"] and cut[0] in json.loads(out)["warnings"]  # from the cache


def test_translate_file_with_context_and_prompt(tiny_llms, tmp_path, capsys):
    source = tmp_path / "doc.txt"
    source.write_text("\n".join(SOURCES) + "\n", "utf-8")
    template = tmp_path / "prompt.j2"
    template.write_text("{{ source_context | join(' ') }} {{ source }} ({{ tgt_lang }})", "utf-8")
    out = tmp_path / "out.txt"
    assert main(["translate", "--input", str(source), "--lang", "de", "--model", str(tiny_llms["llama3_1"]),
                 "--max-length", "6", "--context", "2", "--prompt", str(template), "-o", str(out), "-q"]) == 0
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == 3 and all("\n" not in line for line in lines)
    capsys.readouterr()


def test_llm_options_with_a_seq2seq_model_are_one_line_errors(tmp_path, capsys):
    from tests.support.tiny_marian import build_tiny_marian

    tiny = build_tiny_marian(tmp_path / "marian")
    source = tmp_path / "doc.txt"
    source.write_text("He left.\n", "utf-8")
    for extra in (["--context", "1"], ["--prompt", str(source)]):
        assert main(["translate", "--input", str(source), "--lang", "de", "--model", str(tiny), "-o",
                     str(tmp_path / "o.txt"), "-q", *extra]) == 2
        err = capsys.readouterr().err
        assert "needs a decoder-only LLM" in err and err.count("\n") == 1


@pytest.mark.parametrize("family", FAMILIES)
def test_a_row_that_runs_out_of_max_new_tokens_is_flagged_cut_and_the_flag_is_cached(tiny_llms, tiny_llms_loaded,
                                                                                       family):
    """As a server's ``finish_reason: length``: a row is cut when it generated all ``max_length`` tokens without an
    end-of-turn token or (sentence suites) a line break ending its first line; the flag is kept beside the cached
    translation (``answers.CACHE_ENDS``), so a run from the cache counts the same cut translations."""
    import torch

    t = translator(tiny_llms, tiny_llms_loaded, family, max_length=3)
    tok, stops = t.tokenizer, stop_ids(t.tokenizer, t.model)

    def ids(text: str) -> list[int]:
        return tok(text, add_special_tokens=False)["input_ids"]

    row, broken, thinking = ids("Der Arzt fragte die"), ids("Der\nArzt fragte"), ids("<think>\nplan\n")
    assert ran_out(tok, row, stops, len(row)) and not ran_out(tok, row, stops, len(row) + 1)
    assert not ran_out(tok, row[:-1] + [stops[0]], stops, len(row))  # ended at its end of turn
    assert not ran_out(tok, broken, stops, len(broken)) and ran_out(tok, broken, stops, len(broken), sentence=False)
    assert ran_out(tok, thinking, stops, len(thinking))  # a reasoning block never closed
    out = t.translate(SOURCES)
    expected = set()
    for text, got in zip(SOURCES, out):
        prompt = prompt_ids(tok, t.render(text))
        with torch.inference_mode():
            alone = t.model.generate(input_ids=torch.tensor([prompt]), do_sample=False, max_new_tokens=3,
                                     eos_token_id=stops, pad_token_id=tok.pad_token_id or 0, temperature=None,
                                     top_p=None, top_k=None)[0, len(prompt):].tolist()
        expected |= {got} if ran_out(tok, alone, stops, 3) else set()
    assert t.cut == expected and expected  # a random model runs out of 3 tokens
    again = translator(tiny_llms, tiny_llms_loaded, family, max_length=3)
    assert again.translate(SOURCES) == out and again.cache_hits == 3 and again.translated == 0
    assert again.cut == expected
    # a Ray actor's worker hands the flags back with its batch (what generate_on_ray adds to the driver's cut)
    from discotest.models.translator import translation_worker

    work = translation_worker(CausalTranslator, t.name, "de", "en", t.worker_options(), None)
    answer = json.loads(work(json.dumps(SOURCES)))
    assert answer["translations"] == out and {out[n] for n in answer["cut"]} == expected
