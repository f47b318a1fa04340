"""Translate with a decoder-only LLM: the prompt of ``models.llm_prompt``, batched greedy generation, and written-down
post-processing rules.

Generation: prompts are left-padded with an attention mask (generate derives the position ids from it), decoded
greedily (one beam, no sampling; ``--beam`` is for seq2seq models), and stopped at the model's end of turn: its EOS,
its generation config's EOS ids and whichever of the end-of-turn tokens ``END_OF_TURN`` its vocabulary has. For
sentence suites (every suite that takes ``--model``, and ``translate``: one sentence per line) a row also stops at
its first line break outside a reasoning block (``LineBreakStop``). A row that runs out of ``max_new_tokens`` before
either is counted as cut (``ran_out``: as a server's ``finish_reason: length``), said on the run and the card's row,
and flagged beside its cached translation (``answers.CACHE_ENDS``).

Post-processing (``postprocess``), in this order:

1. the answer is cut at its first end-of-turn token and decoded without special tokens;
2. U+FFFD is removed: it is what bytes that end before their UTF-8 character does decode to (a token holding part of a
   character, at the length limit or from a model gone astray). llama.cpp's server drops such bytes, Hugging Face
   decodes them to U+FFFD; removing it makes the local and the served answer the same text, and a translation of
   natural text holds no genuine U+FFFD;
3. every ``<think>…</think>`` block is removed, and an unclosed ``<think>`` with everything after it (reasoning that
   ran out of tokens is no translation);
4. sentence suites: only the first non-empty line is kept;
5. surrounding whitespace is stripped.

``context=N``: each sentence's prompt holds the previous N source sentences and the model's own translations of them
(``target_context``), so the sentences are translated one after the other, in order (``--engine ray`` does not apply
then). Every translation is cached under its rendered prompt (which holds template, languages and context), the
model's fingerprint, the maximum length and the post-processing version.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from discotest import cache
from discotest.errors import InputError
from discotest.models.answers import Asking, one_by_one
from discotest.models.causal_lm import CausalLazyModel, pad_id
from discotest.models.hf_models import LanguageCodes, short_fingerprint
from discotest.models.llm_prompt import Prompt, PromptBuilder, prompt_ids
from discotest.models.translator import CACHE_NAMESPACE, ModelTranslator, model_label

END_OF_TURN = ("<|im_end|>", "<|eot_id|>", "<end_of_turn>", "<|endoftext|>", "<|end_of_text|>", "<|eom_id|>",
               "<eos>", "</s>")
POSTPROCESS_VERSION = "2"  # part of the cache key: bump when ``postprocess`` changes (2: U+FFFD removed)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


def strip_reasoning(text: str) -> str:
    """Rule 2: closed ``<think>`` blocks removed; an unclosed one cuts the text where it opens."""
    text = _THINK.sub("", text)
    at = text.find("<think>")
    return text if at < 0 else text[:at]


def open_reasoning(text: str) -> bool:
    """Whether ``text`` ends inside a reasoning block (a ``<think>`` not closed): a line break there ends nothing."""
    return "<think>" in _THINK.sub("", text)


def postprocess(text: str, sentence: bool = True) -> str:
    """Rules 2-5 on a decoded answer (rule 1 is ``CausalTranslator.decode``); served answers (``models.endpoint``)
    take them too."""
    text = strip_reasoning(text.replace("\ufffd", ""))
    if sentence:
        text = next((line for line in text.splitlines() if line.strip()), "")
    return text.strip()


def stop_ids(tokenizer, model=None) -> list[int]:
    """The end-of-turn ids generation stops at (rule 1 cuts there too)."""
    ids: list[int] = []
    found = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    for value in (tokenizer.eos_token_id, found):
        ids.extend(value if isinstance(value, list) else [value] if isinstance(value, int) else [])
    vocab = tokenizer.get_vocab()
    ids.extend(vocab[token] for token in END_OF_TURN if token in vocab)
    return sorted(set(ids))


class LineBreakStop:
    """A stopping criterion: a row is done once its answer (reasoning blocks removed, leading whitespace
    stripped) holds a line break; an open ``<think>`` block is never done."""

    def __init__(self, tokenizer, start: int):
        self.tokenizer, self.start = tokenizer, start

    def __call__(self, input_ids, scores, **kwargs):
        import torch

        done = [self.ended(self.tokenizer.decode(row, skip_special_tokens=True, clean_up_tokenization_spaces=False))
                for row in input_ids[:, self.start:].tolist()]
        return torch.tensor(done, dtype=torch.bool, device=input_ids.device)

    @staticmethod
    def ended(text: str) -> bool:
        """An answer's first line has ended: a line break after text, outside reasoning."""
        return not open_reasoning(text) and "\n" in _THINK.sub("", text).lstrip()


def ran_out(tokenizer, row: Sequence[int], stops: Sequence[int], max_length: int, sentence: bool = True) -> bool:
    """A generated row (its answer's ids, padding after the end included) stopped by ``max_new_tokens`` before the
    translation ended, as a server's ``finish_reason: length`` (``endpoint.cut_by_length``): all ``max_length``
    tokens generated, no end-of-turn token among them and, for a sentence suite, no line break ending its first line
    (``LineBreakStop``)."""
    if len(row) < max_length or any(t in stops for t in row):
        return False
    return not (sentence and LineBreakStop.ended(tokenizer.decode(list(row), skip_special_tokens=True,
                                                                   clean_up_tokenization_spaces=False)))


class CausalTranslator(CausalLazyModel, ModelTranslator):
    """A decoder-only LLM (``AutoModelForCausalLM``) as a translation system."""

    context_prompt = True

    def __init__(self, name_or_path: str, tgt_lang: str, src_lang: str = "en", *, prompt_file: str | None = None,
                 context: int = 0, sentence: bool = True, **options: Any):
        if context < 0:
            raise InputError(f"--context must be 0 or more, not {context}")
        self.prompt_file, self.context, self.sentence = prompt_file, context, sentence
        self.cut: set[str] = set()  # translations that ran out of max_new_tokens before they ended (``ran_out``)
        self._prompts: PromptBuilder | None = None
        super().__init__(name_or_path, tgt_lang, src_lang, **options)

    # -- model, prompts --------------------------------------------------------------------------------------------
    @property
    def family(self) -> str:
        return "causal"

    @property
    def codes(self) -> LanguageCodes:
        """The languages as given (ISO codes; the prompt names them); no family-specific codes."""
        return LanguageCodes(self.src_code or self.src_lang, self.tgt_code or self.tgt_lang, None)

    def render(self, text: str, source_context: Sequence[str] = (), target_context: Sequence[str] = ()) -> Prompt:
        codes = self.codes
        return self.prompts.render(text, codes.src or "en", codes.tgt or self.tgt_lang, source_context,
                                   target_context)

    def signature_fields(self) -> list[tuple[str, str]]:
        prompts = self.prompts
        return [("model", model_label(self.name)),
                ("model_hash", short_fingerprint(self.fingerprint())), ("engine", self.backend), ("lm", "causal"),
                ("prompt", f"{'chat' if prompts.chat else 'plain'}:{prompts.template_hash}"),
                ("decoding", "greedy"), ("max_len", str(self.max_length)), ("context", str(self.context))]

    # -- generation ------------------------------------------------------------------------------------------------
    def decode(self, ids: Sequence[int], stops: Sequence[int]) -> str:
        """Rule 1: the answer up to its first end-of-turn token, without special tokens."""
        cut = next((i for i, t in enumerate(ids) if t in stops), len(ids))
        text = self.tokenizer.decode(list(ids[:cut]), skip_special_tokens=True,
                                     clean_up_tokenization_spaces=False)
        return postprocess(text, self.sentence)

    def generate_prompts(self, prompts: Sequence[Prompt]) -> list[str]:
        """Translate one batch of rendered prompts (uncached): left padding, greedy, stop at end of turn."""
        import torch
        from transformers import StoppingCriteriaList

        tok, model = self.tokenizer, self.model
        rows = [prompt_ids(tok, p) for p in prompts]
        width, pad = max(len(r) for r in rows), pad_id(tok)
        ids = torch.full((len(rows), width), pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for j, r in enumerate(rows):
            ids[j, width - len(r):] = torch.tensor(r)
            mask[j, width - len(r):] = 1
        stops = stop_ids(tok, model)
        criteria = StoppingCriteriaList([LineBreakStop(tok, width)] if self.sentence else [])
        with torch.inference_mode():
            out = model.generate(input_ids=ids.to(self.device), attention_mask=mask.to(self.device), do_sample=False,
                                 num_beams=1, max_new_tokens=self.max_length, eos_token_id=stops, pad_token_id=pad,
                                 stopping_criteria=criteria, temperature=None, top_p=None, top_k=None)
        answers = out[:, width:].tolist()
        texts = [self.decode(row, stops) for row in answers]
        self.cut.update(text for row, text in zip(answers, texts, strict=True)
                        if ran_out(tok, row, stops, self.max_length, self.sentence))
        return texts

    def generate(self, texts: Sequence[str]) -> list[str]:
        """Translate one batch of sentences without context (uncached; also what a Ray actor runs)."""
        return self.generate_prompts([self.render(t) for t in texts])

    def _prompt_key(self, prompt: Prompt) -> str:
        return cache.content_key([CACHE_NAMESPACE, "causal", POSTPROCESS_VERSION, self.fingerprint(), self.backend,
                                  str(self.max_length), json.dumps([self.sentence, prompt.chat, prompt.lead]),
                                  prompt.text])

    def _key(self, text: str) -> str:
        return self._prompt_key(self.render(text))

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]:
        """Without context: the base class's cached, length-sorted batches. With ``context=N``: one after the
        other, each prompt holding the previous N sources and the model's own translations of them."""
        if not self.context:
            return super().translate(sources, desc)
        from tqdm import tqdm

        asking = Asking(CACHE_NAMESPACE, self._prompt_key,
                        one_by_one(lambda prompt: self.generate_prompts([prompt])[0]))
        out: list[str] = []
        for i, text in enumerate(tqdm(sources, desc=desc or f"translating with {Path(self.name).name}", unit="sent",
                                      disable=self.quiet)):
            start = max(0, i - self.context)
            out.extend(self.ask(asking, [self.render(text, sources[start:i], out[start:i])]))
        return out

    def translate_in_context(self, sources: Sequence[str], contexts: Sequence[Sequence[str]],
                             desc: str | None = None) -> list[str]:
        """Each source with its own context sentences in the prompt (the source side only: nothing of them is
        translated, so each sentence is translated alone and in any order), cached per rendered prompt (a source
        without context shares ``translate``'s entry); the prompts not cached are generated in length-sorted batches."""
        prompts = [self.render(text, context) for text, context in zip(sources, contexts, strict=True)]
        asking = self.asking(self._prompt_key, self.generate_prompts, lambda prompt: len(prompt.text), desc,
                             encode=dataclasses.asdict)
        return self.ask(asking, prompts)

    def generate_payload(self, items: list[Any]) -> list[str]:
        """On an actor: a batch of rendered prompts (``translate_in_context``) or of sources (``translate``)."""
        if items and isinstance(items[0], dict):
            return self.generate_prompts([Prompt(**item) for item in items])
        return self.generate(items)

    def worker_options(self) -> dict[str, Any]:
        return {**super().worker_options(), "prompt_file": self.prompt_file, "sentence": self.sentence}
