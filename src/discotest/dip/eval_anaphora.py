"""Read the eval-anaphora pronoun test data (Jwalapuram et al. 2019) as (context, reference, system) triples.

Each JSONL record holds lowercased English token lists: ``reference_sentence`` and ``noisy_sentence`` (a system
sentence that differs from the reference in a pronoun) and ``reference_context`` — the previous sentences of the
document *followed by the reference sentence itself*. The loader strips that trailing copy and splits the rest into
sentences at sentence-final punctuation, so callers get the same shape as DiP: previous sentences, then the sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from discotest.data import registry
from discotest.data.readers import json_objects, require
from discotest.data.registry import data_dir
from discotest.errors import InputError

LANGUAGES = ("chinese", "french", "german", "russian")
SENTENCE_END = {".", "?", "!"}
REQUIRED = ("reference_context", "reference_sentence", "noisy_sentence")


@dataclass(frozen=True)
class AnaphoraPair:
    """One reference-vs-system pair; sentences are space-joined lowercased tokens."""

    context: tuple[str, ...]
    reference: str
    system: str
    origin: str
    sample_id: int | None
    language: str


def split_sentences(tokens: list[str]) -> list[str]:
    """Token list → sentence strings, cut after '.', '?' or '!' (the data keeps no sentence boundaries)."""
    out, current = [], []
    for tok in tokens:
        current.append(tok)
        if tok in SENTENCE_END:
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return out


def _token_list(record: dict, key: str, path: Path, line: int) -> list[str]:
    value = record.get(key)
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InputError(f"{key!r} must be a list of token strings", path, line)
    return value


def read_pairs(path: str | Path, language: str | None = None) -> list[AnaphoraPair]:
    """All records of one ``test_data_<language>.jsonl`` file."""
    path = Path(path)
    if not path.is_file():
        raise InputError("eval-anaphora file not found", path)
    language = language or path.stem.removeprefix("test_data_")
    out = []
    for number, record in json_objects(path):
        ctx, ref, sys_ = (_token_list(record, key, path, number) for key in REQUIRED)
        if not ref or not sys_:
            raise InputError("empty reference or system sentence", path, number)
        if ctx[len(ctx) - len(ref):] == ref:  # the context ends with the sentence itself
            ctx = ctx[:len(ctx) - len(ref)]
        out.append(AnaphoraPair(tuple(split_sentences(ctx)), " ".join(ref), " ".join(sys_),
                                str(record.get("origin", "")),
                                require(record, "sample_id", (int, type(None)), path, number, default=None), language))
    return out


def load_eval_anaphora(data: str | Path | None = None, languages: tuple[str, ...] = LANGUAGES
                       ) -> dict[str, list[AnaphoraPair]]:
    """Pairs per language from ``<data dir>/eval_anaphora/test_data_<language>.jsonl``."""
    folder = data_dir(data) / "eval_anaphora"
    out = {}
    for language in languages:
        path = folder / f"test_data_{language}.jsonl"
        if not path.is_file():
            raise InputError("eval-anaphora test data missing (put the eval_anaphora folder in the data dir)", path)
        out[language] = read_pairs(registry.check_file(path, data), language)
    return out
