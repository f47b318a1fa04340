"""Score contrastive candidates with a decoder-only LLM: the log-probability of the candidate's own tokens as the
answer to a translation prompt (``models.llm_prompt``) holding the source sentence and its context.

Tokens. The prompt is tokenized alone (chat prompts without special tokens: the rendered template holds BOS; plain
prompts with the tokenizer's BOS) and prompt + lead + candidate as one text. When the prompt's tokens are a prefix of
the whole text's tokens (the rule with every chat template, whose generation prompt ends in a special token or a
line break, and with the plain prompt's ``Language:`` + space), the candidate's tokens are the rest. When the
tokenizer merges across the boundary (a ``--prompt`` template ending inside a word), the prompt's tokens are kept and
the candidate (with its lead) is tokenized on its own and appended: every candidate of an item is then scored after
the very same prompt tokens, on tokens of its own only; ``boundary_merges`` counts such candidates and the run says
how many on stderr.

The candidates of an item share the prompt: by default (``share_prompt=True``) it is computed once per item, the
candidates packed after it in one row (``causal_lm.score_shared``); ``share_prompt=False`` scores each prompt +
candidate in full (``causal_lm.score_full``). Items are length-sorted into batches of ``batch_size`` items; scores are
cached by content hash (model fingerprint, prompt template, settings, prompts and candidates), by the driver only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from discotest import cache
from discotest.errors import InputError
from discotest.models.answers import Asking, cached, one_by_one
from discotest.models.causal_lm import CausalItem, CausalLazyModel, pad_id, score_full, score_items_batch
from discotest.models.hf_models import (
    check_model,
    short_fingerprint,
)
from discotest.models.interface import LogProb, Scorer, ScoreRequest
from discotest.models.llm_prompt import Prompt, PromptBuilder, prompt_ids

CACHE_NAMESPACE = "candidate-logprobs"
CONTINUATIONS = "continuation-logprobs"  # plain language-model scores of a text after its context sentences
ENCODING_VERSION = "causal-2"  # part of the cache key: bump when ``encode`` changes what a candidate becomes


class CausalScorer(CausalLazyModel, Scorer):
    """Scores candidates with a causal LM; ``model``/``tokenizer`` may be given as objects (tests, notebooks)."""

    kind = "causal"

    def __init__(self, name_or_path: str, *, batch_size: int = 8, device: str = "cpu", use_cache: bool = True,
                 quiet: bool = False, normalise: bool = False, use_target_context: bool = True,
                 src_lang: str | None = None, tgt_lang: str | None = None, revision: str | None = None,
                 prompt_file: str | None = None, share_prompt: bool = True, model=None, tokenizer=None,
                 fingerprint: str | None = None, engine: str = "local", ray_address: str | None = None,
                 ray_actors: int = 2):
        self.name = str(name_or_path)
        self.batch_size = max(1, batch_size)
        self.device, self.use_cache, self.quiet = device, use_cache, quiet
        self.normalise, self.use_target_context = normalise, use_target_context
        self.src_lang, self.tgt_lang = src_lang or "en", tgt_lang or "en"
        self.revision, self.prompt_file, self.share_prompt = revision, prompt_file, share_prompt
        self.engine, self.ray_address, self.ray_actors = engine, ray_address, ray_actors
        self._model, self._tokenizer, self._fingerprint = model, tokenizer, fingerprint
        self._prompts: PromptBuilder | None = None
        self.boundary_merges = 0
        if model is None and tokenizer is None:
            check_model(self.name, revision)

    # -- loading ---------------------------------------------------------------------------------------------------
    prepare_on_access = True  # the model is moved to the device and put in eval mode at every access

    def numeric_settings(self) -> list[tuple[str, str]]:
        """What besides model and inputs can change a score's last bits: batch, prompt sharing, device, torch."""
        from importlib.metadata import version

        return [("batch", str(self.batch_size)), ("kv", "shared" if self.share_prompt else "full"),
                ("device", self.device), ("engine", f"torch-{version('torch')}")]

    def signature_fields(self, k: int) -> list[tuple[str, str]]:
        prompts = self.prompts
        return [("model", self.name), ("model_hash", short_fingerprint(self.fingerprint())), ("lm", "causal"),
                ("prompt", f"{'chat' if prompts.chat else 'plain'}:{prompts.template_hash}"), ("context", str(k)),
                ("tgtctx", "yes" if self.use_target_context else "no"),
                ("logprob", "mean" if self.normalise else "sum"), *self.numeric_settings()]

    # -- prompts and tokens ----------------------------------------------------------------------------------------
    def item_prompt(self, request: ScoreRequest, k: int) -> Prompt:
        """The prompt of a request at context size ``k``: its last ``k`` source (and target) context sentences."""
        src_ctx, tgt_ctx = request.context(k, self.use_target_context)
        return self.prompts.render(request.source, self.src_lang, self.tgt_lang, src_ctx, tgt_ctx)

    def prompt_ids(self, prompt: Prompt) -> list[int]:
        return prompt_ids(self.tokenizer, prompt)

    def encode(self, prompt: Prompt, candidates: Sequence[str]) -> CausalItem:
        """The prompt's ids and each candidate's own ids (see the module docstring for a merge at the boundary)."""
        tok = self.tokenizer
        head = self.prompt_ids(prompt)
        specials = head[:len(head) - len(tok(prompt.text, add_special_tokens=False)["input_ids"])]
        out = []
        for candidate in candidates:
            whole = specials + tok(prompt.text + prompt.lead + candidate, add_special_tokens=False)["input_ids"]
            if whole[:len(head)] == head:
                out.append(whole[len(head):])
            else:
                self.boundary_merges += 1
                out.append(tok(prompt.lead + candidate, add_special_tokens=False)["input_ids"])
        return CausalItem(head, out)

    # -- scoring ---------------------------------------------------------------------------------------------------
    def batches(self, encoded: Sequence[CausalItem]) -> list[list[int]]:
        """Positions of items in scoring batches: longest first, ``batch_size`` items per batch."""
        order = sorted(range(len(encoded)), key=lambda i: -(len(encoded[i].prompt)
                                                            + max((len(c) for c in encoded[i].candidates), default=0)))
        return [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]

    def score_batch(self, batch: Sequence[CausalItem]) -> list[list[float]]:
        """Per item, its candidates' sums (``causal_lm.score_items_batch``)."""
        return score_items_batch(self.model, batch, pad_id(self.tokenizer), self.device, self.share_prompt)

    def score_encoded(self, encoded: Sequence[CausalItem]) -> list[list[float]]:
        """Sums per candidate per item, in input order."""
        from tqdm import tqdm

        result: list[list[float]] = [[] for _ in encoded]
        plan = self.batches(encoded)
        if self.engine == "ray" and plan:
            from discotest.models.hf_ray import score_causal_batches_on_ray

            scored = score_causal_batches_on_ray(self, [[encoded[i] for i in batch] for batch in plan])
        else:
            scored = []
            with tqdm(total=len(plan), desc=f"scoring with {Path(self.name).name}", unit="batch",
                      disable=self.quiet or not plan, file=sys.stderr) as bar:
                for batch in plan:
                    scored.append(self.score_batch([encoded[i] for i in batch]))
                    bar.update(1)
        for batch, sums in zip(plan, scored):
            for i, s in zip(batch, sums):
                result[i] = list(s)
        return result

    def _key(self, prompts: Sequence[Prompt], items: Sequence[ScoreRequest]) -> str:
        rows = [[p.text, p.lead, p.chat, list(item.candidates)] for p, item in zip(prompts, items)]
        return cache.content_key([CACHE_NAMESPACE, ENCODING_VERSION, self.fingerprint(), self.prompts.template_hash,
                                  json.dumps(self.numeric_settings()), json.dumps(rows, ensure_ascii=False)])

    def logprobs(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[list[list[LogProb]]]:
        """(sum, token count) per candidate per request, for every context size (each cached under its own key)."""
        for k in contexts:
            if k < 0:
                raise InputError(f"--context must be 0 or more, not {k}")
        def answer(todo: Sequence[list[Prompt]], done: Callable[[int, list[list[LogProb]]], None]) -> None:
            for n, prompts in enumerate(todo):
                merges_before = self.boundary_merges
                encoded = [self.encode(p, request.candidates) for p, request in zip(prompts, requests)]
                done(n, [[(s, len(c)) for s, c in zip(sums, enc.candidates)]
                         for sums, enc in zip(self.score_encoded(encoded), encoded)])
                if self.boundary_merges > merges_before and not self.quiet:
                    print(f"discotest: {self.boundary_merges - merges_before} candidates: the tokenizer merged "
                          "prompt and candidate tokens; they were tokenized on their own", file=sys.stderr)

        asking = Asking(CACHE_NAMESPACE, lambda prompts: self._key(prompts, requests), answer, json.dumps,
                        lambda text, _prompts: _parse(text, requests))
        return cached(asking, [[self.item_prompt(request, k) for request in requests] for k in contexts],
                      self.use_cache).answers

    # -- plain continuations (a language model's own score of a text, no prompt template) ---------------------------
    def encode_continuation(self, context: Sequence[str], text: str, max_length: int = 1024) -> tuple[list[int], int]:
        """(input ids, index of the first scored token). The text is tokenised on its own (with a leading space, as
        in running text) and joined to the context at token level, so its tokens, and their number, do not depend
        on the context. A BOS (else EOS) token starts every input when the tokenizer has one, so the first token is
        scored even without context; a long input loses context tokens from the left."""
        tok = self.tokenizer
        start = tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
        prefix = [start] if start is not None else []
        joined = " ".join(s.strip() for s in context if s.strip())
        ctx = tok(joined, add_special_tokens=False)["input_ids"] if joined else []
        sent = tok(" " + text.strip(), add_special_tokens=False)["input_ids"]
        sent = sent[:max(1, max_length - len(prefix))]
        room = max_length - len(prefix) - len(sent)
        ctx = ctx[len(ctx) - room:] if room > 0 else []
        return prefix + ctx + sent, max(1, len(prefix) + len(ctx))

    def score_continuations(self, encoded: Sequence[tuple[list[int], int]]) -> list[LogProb]:
        """(sum, scored tokens) per encoded input: length-sorted batches of ``batch_size``, right-padded, through
        ``causal_lm.score_full`` (the arithmetic every causal score shares)."""
        from tqdm import tqdm

        rows = [(ids[:first], ids[first:]) for ids, first in encoded]
        order = sorted(range(len(rows)), key=lambda i: -len(encoded[i][0]))
        plan = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        out: list[LogProb] = [(0.0, 0)] * len(rows)
        model, pad = self.model, pad_id(self.tokenizer)
        for batch in tqdm(plan, desc=f"scoring with {Path(self.name).name}", unit="batch", disable=self.quiet,
                          file=sys.stderr):
            sums = score_full(model, [rows[i] for i in batch], pad, self.device, padding_side="right")
            for i, total in zip(batch, sums):
                out[i] = (total, len(rows[i][1]))
        return out

    def continuation_logprobs(self, contexts: Sequence[Sequence[str]], texts: Sequence[str],
                              max_length: int = 1024) -> list[LogProb]:
        """Cached (sum of log-probabilities, number of scored tokens) of each text after its context sentences."""
        if len(contexts) != len(texts):
            raise InputError(f"{len(contexts)} contexts but {len(texts)} sentences")
        pairs = [[list(c), t] for c, t in zip(contexts, texts)]
        key = cache.content_key([CONTINUATIONS, self.fingerprint(), str(max_length),
                                 json.dumps([s for s in self.numeric_settings() if s[0] != "kv"]),
                                 json.dumps(pairs, ensure_ascii=False)])
        parse = cache.json_rows(len(pairs), lambda s, n: (float(s), int(n)))
        asking = Asking(CONTINUATIONS, lambda _pairs: key,
                        one_by_one(lambda _pairs: self.score_continuations([self.encode_continuation(c, t, max_length)
                                                                            for c, t in pairs])),
                        json.dumps, lambda text, _pairs: parse(text))
        return cached(asking, [pairs], self.use_cache).answers[0]


def _parse(text: str, items: Sequence[ScoreRequest]) -> list[list[tuple[float, int]]]:
    """A cached entry: per item, [sum, token count] per candidate; anything else is damage (recomputed)."""
    rows = json.loads(text)
    if len(rows) != len(items) or any(len(r) != len(i.candidates) for r, i in zip(rows, items)):
        raise ValueError("cached scores do not match the items")
    return [[(float(s), int(n)) for s, n in row] for row in rows]
