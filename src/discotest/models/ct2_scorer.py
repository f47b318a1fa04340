"""Score contrastive candidates with a CTranslate2 model (a converted Marian/M2M100/mBART/NLLB model).

Same pairs, context and target-prefix handling as ``HFScorer`` (its tokenizer makes the token ids); the ids become
token strings for ``Translator.score_batch``, which adds the decoder start and ``</s>`` itself and returns one
log-probability per target token plus one for ``</s>``; only the current sentence's positions are summed. With
``engine="ray"`` the same batches, as token strings, go to an actor pool (``models.ray_pool``): each actor opens its
own ``ctranslate2.Translator`` with the same device, compute type and number of threads. ``ctranslate2`` is imported
only here and in ``translator``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from discotest.errors import InputError
from discotest.models.hf_models import load_tokenizer
from discotest.models.hf_scorer import Encoded, HFScorer

DEFAULT_THREADS = 4  # ctranslate2's own default for intra_threads=0 (src/utils.cc: at most 4, at most the cores)


def intra_threads() -> int:
    """The threads ``ctranslate2`` takes for ``intra_threads=0`` in this process: ``$OMP_NUM_THREADS``, else 4 or the
    number of cores if fewer. Resolved by the driver and given to every translator explicitly, so a Ray actor (where
    Ray sets ``OMP_NUM_THREADS=1``) computes with the threads the local engine uses."""
    given = os.environ.get("OMP_NUM_THREADS", "")
    if given.isascii() and given.isdigit() and int(given) > 0:
        return int(given)
    return min(DEFAULT_THREADS, os.cpu_count() or DEFAULT_THREADS)


def open_ct2_translator(model_dir: str, device: str, compute_type: str, threads: int):
    """A ``ctranslate2.Translator`` on the CPU or the GPU of ``device`` (``cuda:1`` is a CUDA device)."""
    try:
        import ctranslate2
    except ImportError:
        raise InputError("a CTranslate2 model needs: pip install ctranslate2") from None
    return ctranslate2.Translator(model_dir, device="cuda" if device.startswith("cuda") else "cpu",
                                  compute_type=compute_type, intra_threads=threads)


def score_tokens(translator, rows: Sequence[Sequence], batch_size: int) -> tuple[list[float], list[int]]:
    """Sums of the scored log-probabilities and their counts for one batch of (source tokens, target tokens,
    score_from) rows: every engine's arithmetic."""
    results = translator.score_batch([r[0] for r in rows], [r[1] for r in rows], max_batch_size=batch_size)
    sums, counts = [], []
    for row, result in zip(rows, results):
        scored = list(result.log_probs)[row[2]:]
        sums.append(float(sum(scored)))
        counts.append(len(scored))
    return sums, counts


def scoring_worker(model_dir: str, device: str, compute_type: str, threads: int,
                   batch_size: int) -> Callable[[str], str]:
    """On a Ray actor: open the translator once; the worker scores one batch (JSON rows of ``score_tokens``)."""
    translator = open_ct2_translator(model_dir, device, compute_type, threads)
    return lambda payload: json.dumps(score_tokens(translator, json.loads(payload), batch_size))


def is_ct2_model(path: str) -> bool:
    """A CTranslate2 model directory holds ``model.bin`` (Transformers models hold safetensors / pytorch_model)."""
    return (Path(path) / "model.bin").is_file()


def convert_model(name_or_path: str, output_dir: str | Path, quantization: str | None = None,
                  converter_cls=None) -> Path:
    """Convert a Hugging Face seq2seq model with CTranslate2's converter, copying the tokenizer files alongside."""
    if converter_cls is None:
        from ctranslate2.converters import TransformersConverter as converter_cls
    files = [f for f in ("source.spm", "target.spm", "vocab.json", "tokenizer_config.json", "sentencepiece.bpe.model",
                         "tokenizer.json", "special_tokens_map.json") if (Path(name_or_path) / f).is_file()]
    converter = converter_cls(str(name_or_path), copy_files=files or None)
    return Path(converter.convert(str(output_dir), quantization=quantization, force=True))


class CT2Scorer(HFScorer):
    """``HFScorer``'s pairs scored by a CTranslate2 model (its tokenizer: the model folder's, or ``tokenizer_path``)."""

    kind = "ctranslate2"

    def __init__(self, model_dir: str, *, tokenizer_path: str | None = None, translator=None,
                 compute_type: str = "default", **options):
        super().__init__(model_dir, **options)
        self.tokenizer_path = tokenizer_path or model_dir
        self.compute_type = compute_type
        self._translator = translator

    @property
    def tokenizer(self):
        if self._tokenizer is None:
            self._tokenizer = load_tokenizer(self.tokenizer_path)
        return self._tokenizer

    @property
    def translator(self):
        if self._translator is None:
            self._translator = open_ct2_translator(self.name, self.device, self.compute_type, intra_threads())
        return self._translator

    def numeric_settings(self) -> list[tuple[str, str]]:
        """int8 and float32 scores differ: the compute type keys the cache and goes in the signature."""
        from importlib.metadata import version

        return [("batch", str(self.batch_size)), ("device", self.device),
                ("engine", f"ctranslate2-{version('ctranslate2')}"), ("compute", self.compute_type)]

    def to_tokens(self, enc: Encoded) -> tuple[list[str], list[str]]:
        """Source tokens as the tokenizer makes them (with ``</s>``); target tokens without the final ``</s>``."""
        tok = self.tokenizer
        target = enc.target[:-1] if enc.target and enc.target[-1] == tok.eos_token_id else enc.target
        return tok.convert_ids_to_tokens(enc.source), tok.convert_ids_to_tokens(target)

    def score_rows(self, rows: Sequence[Sequence[Encoded]],
                   on_batch: Callable[[], None]) -> list[tuple[list[float], list[int]]]:
        """(sums, counts) of every batch, in order: here or on Ray actors, both through ``score_tokens``."""
        batches = [[[*self.to_tokens(enc), enc.score_from] for enc in batch] for batch in rows]
        if self.engine == "ray":
            from discotest.models import ray_pool

            kwargs = dict(model_dir=self.name, device=self.device, compute_type=self.compute_type,
                          threads=intra_threads(), batch_size=self.batch_size)
            results = ray_pool.map_on_actors(scoring_worker, kwargs, [json.dumps(b) for b in batches],
                                             actors=self.ray_actors, address=self.ray_address,
                                             gpus=self.device.startswith("cuda"),
                                             on_done=lambda _position, _result: on_batch())
            return [tuple(json.loads(r)) for r in results]
        out = []
        for batch in batches:
            out.append(score_tokens(self.translator, batch, self.batch_size))
            on_batch()
        return out
