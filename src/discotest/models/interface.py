"""What every backend on the models floor offers, in plain data: a **scorer** (a source sentence with its context and
candidate translations -> each candidate's log-probability and token count; a language model also scores plain
continuations of a text) and a **translator** (sources -> translations). A wing asks ``models.door`` for one and
never names a backend class; a new backend implements these and is added to ``door`` (the models floor only).

The shape follows lm-evaluation-harness's one model interface (``loglikelihood``, ``generate_until``): callers hand
over requests, backends decide batching, caching and where the work runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

# the most tokens a translation may have (and a seq2seq model's source, which it truncates): ``--max-length``'s one
# default, for every translating backend, every family and the card (``registry.options.MAX_LENGTH``); signatures
# name it ``max_len``
DEFAULT_MAX_LENGTH = 256

LogProb = tuple[float, int]  # (sum of the candidate's token log-probabilities, number of its tokens)


@dataclass(frozen=True)
class ScoreRequest:
    """One source sentence, up to N sentences before it on either side, and the candidate translations to score. A
    scorer at context size k uses the last k context sentences (the target side only when it is told to)."""

    source: str
    candidates: tuple[str, ...]
    source_context: tuple[str, ...] = ()  # oldest first
    target_context: tuple[str, ...] = ()  # oldest first; empty when there is none

    def context(self, k: int, use_target_context: bool = True) -> tuple[list[str], list[str]]:
        """The last ``k`` source and target context sentences (none for k = 0)."""
        source = list(self.source_context[-k:]) if k else []
        target = list(self.target_context[-k:]) if k and use_target_context else []
        return source, target


def normalised(scored: LogProb, normalise: bool) -> float:
    """The sum, or the per-token mean with ``normalise`` (a candidate without tokens keeps its sum)."""
    total, count = scored
    return (total / count if count else total) if normalise else total


T = TypeVar("T")


def split_by_item(flat: Sequence[T], items: Sequence[Any]) -> list[list[T]]:
    """Values given candidate after candidate (every item's ``candidates`` in turn), regrouped per item: how every
    scorer and scores file hands back its scores."""
    out, at = [], 0
    for item in items:
        out.append(list(flat[at:at + len(item.candidates)]))
        at += len(item.candidates)
    return out


class Scorer:
    """What every scorer is (``door.open_scorer`` gives one). A backend sets ``name`` and ``normalise`` and
    implements ``logprobs``, ``fingerprint`` and ``signature_fields``; ``score_contexts`` (what a wing usually
    calls) reads the log-probabilities as sums or per-token means.

    ``kind`` names the backend (``seq2seq``, ``causal``, ``ctranslate2``, ``endpoint``, ``scores-file``);
    ``logprob_scores`` says whether its numbers are log-probabilities with token counts (a scores file's are not);
    ``takes_context`` whether the context size changes its scores (a scores file's are fixed)."""

    name: str
    kind: str = ""
    normalise: bool = False
    logprob_scores = True
    takes_context = True

    def fingerprint(self) -> str:
        """What the scores depend on besides the inputs and settings (weights' digest, server and model, file)."""
        raise NotImplementedError

    def signature_fields(self, k: int) -> list[tuple[str, str]]:
        raise NotImplementedError

    def cannot_score(self) -> str | None:
        """Why this backend cannot score (one line), or None when it can; a served model is asked (a probe)."""
        return None

    def system_name(self, k: int) -> str:
        """The system a result at context size ``k`` names."""
        from pathlib import Path

        return f"{Path(self.name).name}@ctx{k}"

    def logprobs(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[list[list[LogProb]]]:
        """Per context size, per request, per candidate: (log-probability sum, token count)."""
        raise NotImplementedError

    def score_contexts(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[list[list[float]]]:
        """One score per candidate (higher = better) per request, for every context size: ``logprobs`` read as sums
        or, with ``normalise``, per-token means."""
        return [[[normalised(s, self.normalise) for s in row] for row in per_request]
                for per_request in self.logprobs(requests, contexts)]

    def score_items(self, requests: Sequence[ScoreRequest], context: int = 0) -> list[list[float]]:
        return self.score_contexts(requests, [context])[0]

    def continuation_logprobs(self, contexts: Sequence[Sequence[str]], texts: Sequence[str],
                              max_length: int = 1024) -> list[LogProb]:
        """log P(text | the context sentences before it) under a plain language model (no prompt template), per
        text; only a language model can."""
        from discotest.errors import InputError

        raise InputError(f"{self.kind or type(self).__name__} scorer {self.name!r} cannot score plain continuations: "
                         "that needs a decoder-only language model")


class Translator(Protocol):
    """What every translator is (``door.open_translator`` gives one): ``translate`` sources in order (a model
    with ``context=N`` gives each its N previous sources and its own previous translations);
    ``translate_in_context`` gives each source its own context sentences (a document's previous sentences, oldest
    first), in the prompt of a model that has one (``context_prompt``; a seq2seq model has none and takes no context
    there); ``name``, ``backend`` (transformers, ctranslate2, endpoint: the signature's ``engine`` field) and
    ``signature_fields`` say what translated."""

    name: str
    backend: str
    context_prompt: bool

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]: ...

    def translate_in_context(self, sources: Sequence[str], contexts: Sequence[Sequence[str]],
                             desc: str | None = None) -> list[str]: ...

    def signature_fields(self) -> list[tuple[str, str]]: ...

    def fingerprint(self) -> str: ...


def in_context_fields(translator: Translator, context: int, how: str = "prompt") -> list[tuple[str, str]]:
    """The signature fields of translations made by ``translate_in_context`` with ``context`` sentences each: the
    translator's own, its ``context`` replaced by ``0`` or ``K:how`` (``prompt``: the source-side context in the
    prompt; a wing that gives a seq2seq model its context its own way names that way)."""
    return [*((k, v) for k, v in translator.signature_fields() if k != "context"),
            ("context", f"{context}:{how}" if context else "0")]
