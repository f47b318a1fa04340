"""Chinese word segmentation for alignment: jieba, with every pronoun form kept as one word.

The mZPRT authors segmented with jieba and a user dictionary of pronoun forms (我的, 他们自己 …) so
that a restored pronoun is one token the aligner can link. We do the same from our own pronoun table,
and go one step further for the ZP-labelled source: the text between ZPs is segmented on its own and
each ZP is inserted as a token, so a ZP can never be merged with a neighbouring character (jieba
sometimes joins 他 with what follows). Results are cached by content (namespace ``segment-zh``, beside the
alignment models: ``$DISCOTEST_MODELS`` when set): segmenting the alignment corpus is the slow part of a run whose
model is trained, and only the data's fixed Chinese (the suites' sources, the background text) is segmented, so a
team or a test session shares one segmentation.
"""

from __future__ import annotations

import json
import logging
import tempfile
from collections.abc import Sequence
from functools import cache

from discotest import cache as content_cache
from discotest.errors import InputError
from discotest.version import package_version as version  # importlib.metadata's, without importing it
from discotest.zero_pronoun.pronouns import load_zh_en

NAMESPACE = "segment-zh"
_USER_WORD_FREQ = 99999  # high enough to win over any dictionary split


def _jieba():
    try:
        import jieba
    except ImportError:
        raise InputError("Chinese segmentation needs jieba: pip install 'discotest[zh]'") from None
    return jieba


@cache
def _tokenizer():
    jieba = _jieba()

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    # jieba keeps its prefix dictionary in "jieba.cache" in the temp dir (the working directory when no temp dir
    # is writable), shared by every user and read back without a check: one planted there would change the
    # segmentation. Building it from the packaged dict.txt takes as long as reading that cache, so it is built in
    # a fresh private folder, where jieba finds nothing and whatever it writes is deleted.
    with tempfile.TemporaryDirectory(prefix="discotest-jieba-") as private:
        tokenizer.tmp_dir = private
        tokenizer.initialize()
    for word in load_zh_en().written_forms():
        tokenizer.add_word(word, _USER_WORD_FREQ)
    return tokenizer


def signature() -> str:
    """jieba's version and the pronoun user words: part of cache keys and of result signatures."""
    _jieba()
    words = content_cache.content_key(load_zh_en().written_forms())[:8]
    return f"jieba-{version('jieba')}+pron-{words}"


def _cut(text: str) -> list[str]:
    return [w for w in _tokenizer().lcut(text) if w.strip()]


def segment(text: str) -> list[str]:
    """Words of a Chinese sentence (whitespace dropped)."""
    return _cut(text)


def segment_with_spans(text: str, spans: Sequence[tuple[int, int]]) -> tuple[list[str], list[int]]:
    """Words of ``text`` with each (start, end) span as one word; returns (words, index of each span's word).

    Spans must be sorted and not overlap (the ZPs of a sentence).
    """
    words: list[str] = []
    at_word: list[int] = []
    at = 0
    for start, end in spans:
        words.extend(_cut(text[at:start]))
        at_word.append(len(words))
        words.append(text[start:end])
        at = end
    words.extend(_cut(text[at:]))
    return words, at_word


def segment_cached(texts: Sequence[str], spans: Sequence[Sequence[tuple[int, int]]] | None = None,
                   use_cache: bool = True) -> list[tuple[list[str], list[int]]]:
    """``segment_with_spans`` over many sentences, served from the content cache when possible."""
    spans = spans if spans is not None else [()] * len(texts)
    key = content_cache.content_key(
        [signature(), *(t + "\x01" + json.dumps(list(map(list, s))) for t, s in zip(texts, spans))]
    )
    hit = content_cache.load(NAMESPACE, key, parse=lambda t: _parse_entry(t, texts, spans)) if use_cache else None
    if hit is not None:
        return hit
    rows = [segment_with_spans(t, s) for t, s in zip(texts, spans)]
    content_cache.store(NAMESPACE, key, json.dumps(rows, ensure_ascii=False))
    return rows


def _parse_entry(text: str, texts: Sequence[str], spans: Sequence[Sequence[tuple[int, int]]]
                 ) -> list[tuple[list[str], list[int]]]:
    """A cached segmentation; ValueError unless it has one (words, span word indices) row per sentence whose
    words rebuild the sentence."""
    rows = json.loads(text)
    if not isinstance(rows, list) or len(rows) != len(texts):
        raise ValueError("wrong number of rows")
    out = []
    for row, sentence, wanted in zip(rows, texts, spans):
        words, at = row
        if not (all(isinstance(w, str) for w in words) and all(isinstance(i, int) for i in at)
                and len(at) == len(wanted) and all(0 <= i < len(words) for i in at)):
            raise ValueError("malformed row")
        if "".join("".join(words).split()) != "".join(sentence.split()):
            raise ValueError("words do not rebuild the sentence")
        out.append((words, at))
    return out
