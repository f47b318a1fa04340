"""natasha's Russian tagger and parser (slovnet), run for what the Russian analyser reads: tag ids and arcs.

The same models and the same numbers as ``NewsMorphTagger.map`` / ``NewsSyntaxParser.map``, with these costs of a cold
run taken out (``bench/speed``; the tags and arcs are the same: tests/lang/test_morph_ru_natasha.py, and
bench/release/verdict_identity.py):

- the navec embedding is loaded as slovnet reads it, its id and its quantised table; ``NewsEmbedding`` also builds
  a dictionary of its 250,000 words and precomputes norms for word similarity, which the taggers never use;
- the tagger and the parser are loaded with slovnet's own ``Morph.load`` / ``Syntax.load`` steps from natasha's model
  files, without importing the ``natasha`` package (its ``__init__`` imports pymorphy2, yargy, razdel and the
  extractors: a fifth of a cold Russian run's start-up), and the two models' word vocabulary (the same 250,000 words
  in both files) is read once, not twice, and never made into a dictionary of all its words: only the words the
  models are given are looked up (``_WordVocab``);
- a convolution's input is padded into a zeroed array, not by ``np.pad`` (``_Conv1d``: the same windows and the same
  matrix product);
- sentences go to the models sorted by length, in slovnet's batches of 8, so a batch is padded to about its own
  length (google's Russian output: 18% fewer padded tokens) and each answer is put back in its place;
- a token's tag stays slovnet's tag id: the analyser turns (word, tag id) into its reading once per word and tag,
  not a tag string parsed into a feature dictionary and a markup record per token;
- the batches alternate between two threads (``THREADS``), each on one BLAS thread (see ``ru.py``). A sentence's
  tags and arcs do not depend on the other sentences of its batch, so neither order nor threads change them.
"""

from __future__ import annotations

import gzip
import importlib.util
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from navec.meta import Meta
from navec.navec import META, PQ_
from navec.pq import PQ
from navec.tar import Tar
from slovnet.api import Morph, Syntax
from slovnet.conll import parse_conll_tag
from slovnet.const import PAD, REL, SHAPE, TAG, UNK, WORD
from slovnet.exec.encoders import SyntaxEncoder, TagEncoder
from slovnet.exec.infer import MorphInfer, SyntaxDecoder, SyntaxInfer, TagDecoder
from slovnet.exec.model import Conv1d
from slovnet.exec.model import Morph as MorphModel
from slovnet.exec.model import Syntax as SyntaxModel
from slovnet.exec.pack import Pack, vocab_name
from slovnet.vocab import Vocab
from threadpoolctl import threadpool_limits

BATCH = 8  # slovnet's batch size (``Morph.load``, ``Syntax.load``), which the encoders were built with
# two Python threads share the batches: numpy's matrix products release the GIL, so on two cores the tagging and parsing
# of google's Russian output take about two thirds of the time; each on one BLAS thread (no OpenBLAS threads spinning)
THREADS = min(2, os.cpu_count() or 1)


def _natasha_data(*parts: str) -> str:
    """A file of natasha's data folder (``natasha.data``'s paths), found without importing the package."""
    spec = importlib.util.find_spec("natasha")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("natasha is not installed (pip install 'discotest[ru]')")
    return os.path.join(next(iter(spec.submodule_search_locations)), "data", *parts)


NEWS_EMBEDDING = _natasha_data("emb", "navec_news_v1_1B_250K_300d_100q.tar")
NEWS_MORPH = _natasha_data("model", "slovnet_morph_news_v1.tar")
NEWS_SYNTAX = _natasha_data("model", "slovnet_syntax_news_v1.tar")


class _WordVocab(Vocab):
    """slovnet's word ``Vocab`` (the same ids: a word's line, the last one where a word is listed twice) without its
    dictionary of all 250,000 words, which took a third of natasha's load (0.08 s of CPU): the ids of the words of the
    sentences given to the models are looked up when they come (``learn``: one pass over the list per batch of new
    words; google's Russian output asks for about 3,000)."""

    def __init__(self, items: list[str]) -> None:
        self.items = items
        self.item_ids: dict[str, int] = {}
        self._learned: set[str] = set()

    def learn(self, words: Iterable[str]) -> None:
        """Look up the ids of ``words`` (and of the unknown and padding items) not looked up yet."""
        new = {*words, UNK, PAD} - self._learned
        if new:
            self.item_ids.update((item, i) for i, item in enumerate(self.items) if item in new)
            self._learned |= new

    @property
    def unk_id(self) -> int | None:  # type: ignore[override]
        self.learn(())
        return self.item_ids.get(UNK)

    @property
    def pad_id(self) -> int | None:  # type: ignore[override]
        self.learn(())
        return self.item_ids.get(PAD)

    def encode(self, item: str) -> int | None:
        if item not in self._learned:
            self.learn((item,))
        found = self.item_ids.get(item)
        return self.item_ids.get(UNK) if found is None else found


class _Vocabs:
    """slovnet's ``Pack.load_vocab`` with each distinct vocabulary built once (the tagger's and the parser's word
    vocabularies hold the same 250,000 words; their gzip files differ only in the header), the word vocabulary as a
    ``_WordVocab``."""

    def __init__(self) -> None:
        self._built: dict[tuple[bool, bytes], Vocab] = {}

    def load(self, pack: Pack, name: str) -> Vocab:
        content = gzip.decompress(pack.read(vocab_name(name)))
        key = (name == WORD, content)
        if key not in self._built:
            self._built[key] = (_WordVocab if name == WORD else Vocab)(content.decode("utf8").splitlines())
        return self._built[key]


def _unpack(path: str, model_class: type, labels: str, vocabs: _Vocabs) -> tuple:
    """What ``slovnet``'s ``Morph.load``/``Syntax.load`` read from a pack: the model with its weights, and the word,
    shape and label vocabularies (word and shape shared between the two packs, built once)."""
    with Pack(path) as pack:
        pack.load_meta().check_protocol()
        model = pack.load_model(model_class)
        arrays = dict(pack.load_arrays(model.weights))
        words, shapes, tags = (vocabs.load(pack, name) for name in (WORD, SHAPE, labels))
    return model.inject_arrays(arrays), words, shapes, tags


def _load_morph(path: str, vocabs: _Vocabs) -> Morph:
    """``slovnet.api.Morph.load(path)`` with shared vocabularies."""
    model, words, shapes, tags = _unpack(path, MorphModel, TAG, vocabs)
    return Morph(MorphInfer(model, TagEncoder(words, shapes, BATCH), TagDecoder(tags)), BATCH)


def _load_syntax(path: str, vocabs: _Vocabs) -> Syntax:
    """``slovnet.api.Syntax.load(path)`` with shared vocabularies."""
    model, words, shapes, rels = _unpack(path, SyntaxModel, REL, vocabs)
    return Syntax(SyntaxInfer(model, SyntaxEncoder(words, shapes, BATCH), SyntaxDecoder(rels)), BATCH)


class _Conv1d(Conv1d):
    """slovnet's ``Conv1d`` with the input padded into a zeroed array, not by ``np.pad`` (whose general machinery,
    per layer and batch, cost a fifth of the models' time outside the matrix products). The windows matrix and the
    matrix product are slovnet's own, on the same array: the numbers are the same."""

    def __call__(self, input: np.ndarray) -> np.ndarray:
        batch_size, in_dim, seq_len = input.shape
        padded = np.zeros((batch_size, in_dim, seq_len + 2 * self.padding), dtype=input.dtype)
        padded[:, :, self.padding:self.padding + seq_len] = input
        batch_stride, in_stride, seq_stride = padded.strides
        filters_count, in_dim, kernel_size = self.weight.shape
        windows_count = padded.shape[2] - kernel_size + 1
        windows = np.ndarray((batch_size, windows_count, in_dim, kernel_size), dtype=padded.dtype,
                             buffer=padded.data, strides=(batch_stride, padded.itemsize, in_stride, seq_stride))
        windows = windows.reshape(batch_size * windows_count, in_dim * kernel_size)
        weight = self.weight.array.reshape(filters_count, in_dim * kernel_size)
        output = np.matmul(windows, weight.T) + self.bias.array
        return output.reshape(batch_size, windows_count, filters_count).swapaxes(2, 1)


class _TablePQ(PQ):
    """navec's quantised vectors without the norms and products it precomputes for ``sim`` (unused here)."""

    def precompute(self) -> None:
        pass


class _Embedding:
    """What slovnet's ``navec(...)`` reads of a ``Navec``: its id (checked against the model's) and its ``pq``."""

    def __init__(self, path: str = NEWS_EMBEDDING) -> None:
        with Tar(path) as tar:
            self.meta = Meta.from_file(tar.load(META))
            Meta.check_protocol(self.meta.protocol)
            self.pq = _TablePQ.from_file(tar.load(PQ_))


class Natasha:
    """natasha's news tagger and parser over pre-tokenised sentences (lists of words)."""

    def __init__(self) -> None:
        embedding, vocabs = _Embedding(), _Vocabs()
        self.tagger = _load_morph(NEWS_MORPH, vocabs).navec(embedding)
        self.parser = _load_syntax(NEWS_SYNTAX, vocabs).navec(embedding)
        for model in (self.tagger.infer.model, self.parser.infer.model):
            for layer in model.encoder.layers:
                layer.conv.__class__ = _Conv1d
        self._tags: dict[int, tuple[str, dict[str, str]]] = {}

    def tag(self, tag_id: int) -> tuple[str, dict[str, str]]:
        """The part of speech and features of a tag id (as ``MorphToken.pos`` and ``.feats``)."""
        if tag_id not in self._tags:
            self._tags[tag_id] = parse_conll_tag(self.tagger.infer.decoder.tags_vocab.decode(tag_id))
        return self._tags[tag_id]

    @staticmethod
    def _learn(words: Vocab, sentences: Sequence[Sequence[str]]) -> None:
        """The ids of the sentences' words looked up at once (``_WordVocab``), before the threads encode them."""
        if isinstance(words, _WordVocab):
            words.learn(word.lower() for sentence in sentences for word in sentence)

    def tag_ids(self, sentences: Sequence[Sequence[str]]) -> list[list[int]]:
        """Each sentence's tag id per word."""
        infer = self.tagger.infer
        self._learn(infer.encoder.words_vocab, sentences)

        def batches(batch: Sequence[Sequence[str]]) -> Iterator[np.ndarray]:
            for x in infer.encoder(batch):
                yield from _masked(infer.model.head.decode(infer.model(x.word_id, x.shape_id, x.pad_mask)), x.pad_mask)

        return [pred.tolist() for pred in _by_length(sentences, batches)]

    def arcs(self, sentences: Sequence[Sequence[str]]) -> list[list[tuple[int, str]]]:
        """Each sentence's (head index, 0-based with -1 for the root; relation) per word."""
        infer = self.parser.infer
        self._learn(infer.encoder.words_vocab, sentences)
        rels = infer.decoder.rels_vocab

        def batches(batch: Sequence[Sequence[str]]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
            for x in infer.encoder(batch):
                pred, mask = infer.model(x.word_id, x.shape_id, x.pad_mask), ~x.pad_mask
                yield from zip(_masked(infer.model.head.decode(pred.head_id, mask), x.pad_mask),
                               _masked(infer.model.rel.decode(pred.rel_id, mask), x.pad_mask))

        return [[(int(h) - 1, rels.decode(r)) for h, r in zip(heads.tolist(), ids.tolist())]
                for heads, ids in _by_length(sentences, batches)]


def _masked(pred: np.ndarray, pad_mask: np.ndarray) -> Iterator[np.ndarray]:
    """Each row of a batch's predictions cut to its sentence's length (slovnet's ``split_masked``)."""
    for row, size in zip(pred, (~pad_mask).sum(-1)):
        yield row[:size]


def _by_length(sentences: Sequence[Sequence[str]], run: Callable[[list[list[str]]], Iterable]) -> list:
    """``run`` over the sentences sorted by length (stable), in slovnet's batches, on two threads of one BLAS thread
    each (the batches alternate between them); the answers in the given order."""
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    batches = [order[i:i + BATCH] for i in range(0, len(order), BATCH)]
    parts = [[i for batch in batches[t::THREADS] for i in batch] for t in range(THREADS)]
    out: list = [None] * len(sentences)

    def one(part: list[int]) -> None:
        for i, answer in zip(part, run([list(sentences[i]) for i in part])):
            out[i] = answer

    with threadpool_limits(limits=1, user_api="blas"):  # one BLAS thread: see ru.py's docstring
        if THREADS == 1 or len(batches) < 2:
            one(order)
        else:
            with ThreadPoolExecutor(THREADS) as pool:
                list(pool.map(one, parts))
    return out
