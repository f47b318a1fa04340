"""Score contrastive candidates with a CTranslate2 model (a converted Marian/M2M100/mBART/NLLB model).

Same pairs, context and target-prefix handling as ``HFScorer`` (its tokenizer makes the token ids); the ids become
token strings for ``Translator.score_batch``, which adds the decoder start and ``</s>`` itself and returns one
log-probability per target token plus one for ``</s>``; only the current sentence's positions are summed.
``ctranslate2`` is imported only here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from discotest.systems.hf_models import load_tokenizer
from discotest.systems.hf_scorer import Encoded, HFScorer


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
            import ctranslate2

            device = "cuda" if self.device.startswith("cuda") else "cpu"
            self._translator = ctranslate2.Translator(self.name, device=device, compute_type=self.compute_type)
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

    def score_encoded(self, encoded: Sequence[Encoded]) -> list[tuple[float, int]]:
        from tqdm import tqdm

        order = sorted(range(len(encoded)), key=lambda i: -(len(encoded[i].source) + len(encoded[i].target)))
        out: list[tuple[float, int]] = [(0.0, 0)] * len(encoded)
        batches = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        for batch in tqdm(batches, desc=f"scoring with {Path(self.name).name}", unit="batch", disable=self.quiet,
                          file=sys.stderr):
            tokens = [self.to_tokens(encoded[i]) for i in batch]
            results = self.translator.score_batch([s for s, _ in tokens], [t for _, t in tokens],
                                                  max_batch_size=self.batch_size)
            for i, result in zip(batch, results):
                scored = list(result.log_probs)[encoded[i].score_from:]
                out[i] = (float(sum(scored)), len(scored))
        return out
