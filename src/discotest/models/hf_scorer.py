"""Score contrastive candidates with a Hugging Face seq2seq model (Marian/Opus-MT, M2M100, mBART-50, NLLB).

Context is k-to-1 concatenation: the k previous source sentences and the current one joined by a separator. When
the suite gives the target context, the k previous target sentences are put in front of the candidate on the
decoder side (teacher-forced) and only the current sentence's tokens are scored. Pairs are length-sorted and
batched; scores are the sum of token log-probabilities, or their mean (``normalise=True``). Results are cached by
content hash (model fingerprint + options + inputs), by the driver only. A batch's arithmetic is ``hf_batch``'s;
with ``engine="ray"`` the same batches go to Ray actors (``hf_ray``), the batches of every context size of a run to
one actor pool. torch and transformers are imported only in these modules.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from discotest import cache
from discotest.errors import InputError
from discotest.models.answers import Asking, cached
from discotest.models.hf_batch import Encoded, decoder_inputs, score_batch
from discotest.models.hf_models import (
    LanguageCodes,
    LazyModel,
    check_model,
    family_of,
    language_codes,
    model_fingerprint,
    set_languages,
    short_fingerprint,
)
from discotest.models.interface import LogProb, Scorer, ScoreRequest, split_by_item

__all__ = ["CACHE_NAMESPACE", "Encoded", "HFScorer", "context_pairs", "model_fingerprint"]

CACHE_NAMESPACE = "candidate-logprobs"
ENCODING_VERSION = "2"  # part of the cache key: bump when ``encode`` changes what a pair becomes


def context_pairs(requests: Sequence[ScoreRequest], k: int, separator: str = " ",
                  use_target_context: bool = True) -> list[tuple[str, str, str]]:
    """(source text, target prefix, candidate) for every candidate of every request, in order."""
    out = []
    for request in requests:
        src_ctx, tgt_ctx = request.context(k, use_target_context)
        source = separator.join([*src_ctx, request.source])
        prefix = separator.join(tgt_ctx)
        out.extend((source, prefix, cand) for cand in request.candidates)
    return out


class HFScorer(LazyModel, Scorer):
    """Scores candidates with a seq2seq model; ``model``/``tokenizer`` may be given as objects (tests, notebooks)."""

    kind = "seq2seq"

    def __init__(self, name_or_path: str, *, batch_size: int = 32, device: str = "cpu", use_cache: bool = True,
                 quiet: bool = False, separator: str = " ", normalise: bool = False, use_target_context: bool = True,
                 src_lang: str | None = None, tgt_lang: str | None = None, revision: str | None = None,
                 max_length: int = 512, model=None, tokenizer=None, fingerprint: str | None = None,
                 engine: str = "local", ray_address: str | None = None, ray_actors: int = 2):
        self.name = name_or_path
        self.engine, self.ray_address, self.ray_actors = engine, ray_address, ray_actors
        self.batch_size = max(1, batch_size)
        self.device = device
        self.use_cache = use_cache
        self.quiet = quiet
        self.separator = separator
        self.normalise = normalise
        self.use_target_context = use_target_context
        self.max_length = max_length
        self.revision = revision
        self._model, self._tokenizer = model, tokenizer
        self._fingerprint = fingerprint
        self.src_lang, self.tgt_lang = src_lang, tgt_lang
        self._codes: LanguageCodes | None = None
        if model is None and tokenizer is None:
            check_model(name_or_path, revision)  # a missing folder or an unreachable hub fails before any work

    # -- loading ---------------------------------------------------------------------------------------------------
    prepare_on_access = True  # the model is moved to the device and put in eval mode at every access

    @property
    def tokenizer(self):
        tokenizer = super().tokenizer
        set_languages(tokenizer, self._language_codes())
        return tokenizer

    def _language_codes(self) -> LanguageCodes:
        """ISO codes become the family's (de -> de_DE for mBART-50, deu_Latn for NLLB); as given when the family is
        unknown (a tokenizer object from a caller) or only one side is given."""
        if self._codes is None:
            codes = LanguageCodes(self.src_lang, self.tgt_lang, None)
            if self.src_lang and self.tgt_lang:
                try:
                    fam = family_of(None, self._tokenizer, self.name)
                except InputError:
                    fam = None
                if fam and fam != "marian":
                    codes = language_codes(fam, self.src_lang, self.tgt_lang)
            self._codes = codes
        return self._codes

    def numeric_settings(self) -> list[tuple[str, str]]:
        """Settings besides the model and the inputs that can change a score's last bits: the batch (padding and
        matrix shapes), the device and the engine's version. They key the cache and go in the signature."""
        from importlib.metadata import version

        return [("batch", str(self.batch_size)), ("device", self.device), ("engine", f"torch-{version('torch')}")]

    def signature_fields(self, k: int) -> list[tuple[str, str]]:
        return [("model", self.name), ("model_hash", short_fingerprint(self.fingerprint())), ("context", f"{k}to1"),
                ("sep", repr(self.separator)), ("tgtctx", "yes" if self.use_target_context else "no"),
                ("logprob", "mean" if self.normalise else "sum"), *self.numeric_settings()]

    # -- encoding --------------------------------------------------------------------------------------------------
    def encode(self, source: str, prefix: str, candidate: str) -> Encoded:
        """Token ids; the target prefix is joined at token level so the candidate's tokens are the same with or
        without context, and only they (and the end of sentence) are scored."""
        tok = self.tokenizer
        src = tok(source, truncation=True, max_length=self.max_length)["input_ids"]
        full = tok(text_target=candidate)["input_ids"]
        plain = tok(text_target=candidate, add_special_tokens=False)["input_ids"]
        lead = 0
        while lead < len(full) and full[lead:lead + len(plain)] != plain:
            lead += 1
        lead = lead if lead < len(full) else 0
        if not prefix:
            return Encoded(src, full, lead)
        # trailing whitespace is left out: the candidate brings its own word boundary (SentencePiece's leading
        # '▁'), and the tokenizers-backed mBART-50/NLLB tokenizers would otherwise add a lone '▁' the model never
        # sees in running text ("y . " -> '▁y', '▁.', '▁'); Marian/M2M100 SentencePiece drops it anyway
        pre = tok(text_target=(prefix + self.separator).rstrip(), add_special_tokens=False)["input_ids"]
        target = full[:lead] + pre + full[lead:]
        return Encoded(src, target, lead + len(pre))

    # -- scoring ---------------------------------------------------------------------------------------------------
    def batches(self, encoded: Sequence[Encoded]) -> list[list[int]]:
        """Positions of ``encoded`` in scoring batches: longest first, ``batch_size`` per batch. Every engine scores
        these very batches, so padding and matrix shapes (and with them a score's last bits) are the same."""
        order = sorted(range(len(encoded)), key=lambda i: -(len(encoded[i].source) + len(encoded[i].target)))
        return [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]

    def score_encoded(self, encoded: Sequence[Encoded]) -> list[tuple[float, int]]:
        """(sum of log-probabilities, number of scored tokens) per pair, in input order; batched, length-sorted."""
        return self.score_encoded_sets([encoded])[0]

    def score_encoded_sets(self, sets: Sequence[Sequence[Encoded]]) -> list[list[tuple[float, int]]]:
        """``score_encoded`` of every set (one per context size) in one go: each set is batched on its own, exactly
        as alone, and all the batches are scored together — with ``engine="ray"`` by one actor pool
        (``models.hf_ray``), so every actor loads the model once per run, not once per context size."""
        from tqdm import tqdm

        plans = [self.batches(encoded) for encoded in sets]
        rows = [[encoded[i] for i in batch] for encoded, batches in zip(sets, plans) for batch in batches]
        bar = tqdm(total=len(rows), desc=f"scoring with {Path(self.name).name}", unit="batch",
                   disable=self.quiet, file=sys.stderr)
        with bar:
            scored = iter(self.score_rows(rows, lambda: bar.update(1)))
        out = []
        for encoded, batches in zip(sets, plans):
            result: list[tuple[float, int]] = [(0.0, 0)] * len(encoded)
            for batch in batches:
                sums, counts = next(scored)
                for j, i in enumerate(batch):
                    result[i] = (float(sums[j]), int(counts[j]))
            out.append(result)
        return out

    def score_rows(self, rows: Sequence[Sequence[Encoded]],
                   on_batch: Callable[[], None]) -> list[tuple[list[float], list[int]]]:
        """(sums, counts) of every batch, in order: here (``hf_batch.score_batch``) or on Ray actors."""
        if not rows:
            return []
        tok = self.tokenizer
        pad = tok.pad_token_id if tok.pad_token_id is not None else 0
        if self.engine == "ray":
            from discotest.models.hf_ray import score_batches_on_ray

            return score_batches_on_ray(self, rows, pad, on_batch=lambda _position: on_batch())
        model, scored = self.model, []
        for batch_rows in rows:
            scored.append(score_batch(model, batch_rows, pad, self.device))
            on_batch()
        return scored

    @staticmethod
    def _decoder_inputs(model, labels, pad: int):
        return decoder_inputs(model, labels, pad)

    def _key(self, pairs: Sequence[tuple[str, str, str]]) -> str:
        return cache.content_key([CACHE_NAMESPACE, ENCODING_VERSION, self.fingerprint(), repr(self.separator),
                                  str(self.max_length), json.dumps(self.numeric_settings()),
                                  json.dumps(pairs, ensure_ascii=False)])

    def score_pairs(self, pairs: Sequence[tuple[str, str, str]]) -> list[tuple[float, int]]:
        """Cached scoring of (source, target prefix, candidate) triples."""
        return self.score_pair_sets([pairs])[0]

    def score_pair_sets(self, pair_sets: Sequence[Sequence[tuple[str, str, str]]]) -> list[list[tuple[float, int]]]:
        """``score_pairs`` of every set, each cached under its own key; the sets not in the cache are scored together
        (``score_encoded_sets``)."""
        def answer(todo: Sequence[Sequence[tuple[str, str, str]]],
                   done: Callable[[int, list[tuple[float, int]]], None]) -> None:
            for n, result in enumerate(self.score_encoded_sets([[self.encode(*p) for p in pairs] for pairs in todo])):
                done(n, result)

        asking = Asking(CACHE_NAMESPACE, self._key, answer, json.dumps, _read_pairs)
        return cached(asking, pair_sets, self.use_cache).answers

    def logprobs(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[list[list[LogProb]]]:
        """(sum, token count) per candidate per request for every context size, the model's work for all of them done
        in one go."""
        for k in contexts:
            if k < 0:
                raise InputError(f"--context must be 0 or more, not {k}")
        raws = self.score_pair_sets([context_pairs(requests, k, self.separator, self.use_target_context)
                                     for k in contexts])
        return [split_by_item(raw, requests) for raw in raws]


def _read_pairs(text: str, pairs: Sequence[tuple[str, str, str]]) -> list[tuple[float, int]]:
    """A cached set: (sum, token count) per pair; anything else is damage (scored again)."""
    return cache.json_rows(len(pairs), lambda s, c: (float(s), int(c)))(text)
