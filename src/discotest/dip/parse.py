"""The English parse every DiP phenomenon reads: lemmas, parts of speech, dependencies.

One spaCy pipeline per process (loaded on first use); parses are cached by content hash of the
pipeline version and the sentences, so mining, ranking and training the coherence model parse each
WMT file once per machine. Tokens are stored as plain tuples (JSON), not spaCy objects.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from discotest import cache as disk_cache
from discotest.lang.english import english_pipeline

CACHE_NAMESPACE = "english-parse"


@dataclass(frozen=True)
class Token:
    text: str
    lemma: str
    pos: str  # universal POS (NOUN, PRON, CCONJ, …)
    tag: str  # Penn tag (NN, PRP, …)
    dep: str
    head: int  # index of the head token in the sentence (itself for the root)
    idx: int  # character offset in the sentence


Sentence = tuple[Token, ...]


def _pipeline():
    return english_pipeline(("ner",))


def pipeline_version() -> str:
    nlp = _pipeline()
    return f"{nlp.meta['name']}-{nlp.meta['version']}"


def _key(sentences: Sequence[str]) -> str:
    return disk_cache.content_key([CACHE_NAMESPACE, pipeline_version(), *sentences])


def cached(sentences: Sequence[str]) -> list[Sentence] | None:
    """The cached parse of exactly these sentences (one ``parse`` call's entry), else None: what the ray engine's
    driver reads first, so only the shards not parsed yet travel to Ray."""
    return disk_cache.load(CACHE_NAMESPACE, _key(sentences), parse=lambda t: _parse_entry(t, sentences)) or None


def parse(sentences: Sequence[str], use_cache: bool = True, batch_size: int = 256) -> list[Sentence]:
    """Parse sentences (one segment each; an empty string gives an empty tuple), cached as one entry per call."""
    if use_cache and (hit := cached(sentences)):
        return hit
    key = _key(sentences)
    rows = [
        [(t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i, t.idx) for t in doc]
        for doc in _pipeline().pipe(sentences, batch_size=batch_size)
    ]
    if use_cache:
        disk_cache.store(CACHE_NAMESPACE, key, json.dumps(rows, ensure_ascii=False))
    return [tuple(Token(*t) for t in sent) for sent in rows]


_FIELD_TYPES = (str, str, str, str, str, int, int)


def _parse_entry(text: str, sentences: Sequence[str]) -> list[Sentence]:
    """A cached parse; ValueError unless each sentence has well-typed tokens whose heads and offsets fit it."""
    rows = json.loads(text)
    if not isinstance(rows, list) or len(rows) != len(sentences):
        raise ValueError("wrong number of sentences")
    out = []
    for sent, sentence in zip(rows, sentences):
        tokens = tuple(Token(*t) for t in sent)
        for tok in tokens:
            values = (tok.text, tok.lemma, tok.pos, tok.tag, tok.dep, tok.head, tok.idx)
            if not all(type(v) is kind for v, kind in zip(values, _FIELD_TYPES)):
                raise ValueError("malformed token")
            if not (0 <= tok.head < len(tokens) and sentence.startswith(tok.text, tok.idx)):
                raise ValueError("token does not fit its sentence")
        out.append(tokens)
    return out
