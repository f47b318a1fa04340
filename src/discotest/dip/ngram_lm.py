"""An interpolated Kneser–Ney n-gram language model in pure Python, for the offline pronoun scorer.

Why not kenlm: it is not installable everywhere, and a trigram over a few million tokens of WMT English counts in
seconds here. Text is normalised the way the eval-anaphora data is (lowercase, letters/digits and . ? ! only), so
training text, DiP sentences and eval-anaphora token lists meet in one vocabulary. Counts are stored gzip-compressed
JSON in the discotest cache (content-hash key, atomic write) — the trained model is never shipped.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

BOS, EOS, UNK = "<s>", "</s>", "<unk>"
LM_SUFFIX = ".json.gz"  # cache entries: a sealed gzip of the counts (see discotest.cache)
TOKEN = re.compile(r"[a-z0-9]+|[.?!]")


def normalise(text: str) -> list[str]:
    """Lowercased word tokens; apostrophes, commas, quotes and non-ASCII letters split or vanish (as in the data)."""
    return TOKEN.findall(text.lower())


class KneserNeyLM:
    """Interpolated Kneser–Ney with one absolute discount per order (D = n1 / (n1 + 2·n2), at most 0.9)."""

    def __init__(self, order: int = 3):
        self.order = order
        # counts[k]: k-gram (space-joined) → count; raw counts for the top order, continuation counts below it
        self.counts: list[dict[str, int]] = [{} for _ in range(order + 1)]
        self.context_total: list[dict[str, int]] = [{} for _ in range(order + 1)]
        self.context_types: list[dict[str, int]] = [{} for _ in range(order + 1)]
        self.discount: list[float] = [0.75] * (order + 1)
        self.vocab_size = 1

    # -- training --------------------------------------------------------------------------------------------------
    def fit(self, sentences: Iterable[Sequence[str]]) -> KneserNeyLM:
        top: Counter[str] = Counter()
        n = self.order
        for tokens in sentences:
            padded = [BOS] * (n - 1) + list(tokens) + [EOS]
            for i in range(n - 1, len(padded)):
                top[" ".join(padded[i - n + 1:i + 1])] += 1
        self.counts[n] = dict(top)
        for k in range(n - 1, 0, -1):  # continuation counts: distinct left extensions of each k-gram
            cont: Counter[str] = Counter()
            for gram in self.counts[k + 1]:
                cont[gram.split(" ", 1)[1]] += 1
            self.counts[k] = dict(cont)
        self._derive()
        return self

    def _derive(self) -> None:
        for k in range(1, self.order + 1):
            total: defaultdict[str, int] = defaultdict(int)
            types: defaultdict[str, int] = defaultdict(int)
            hist: Counter[int] = Counter()
            for gram, c in self.counts[k].items():
                head = gram.rsplit(" ", 1)[0] if k > 1 else ""
                total[head] += c
                types[head] += 1
                if c <= 2:
                    hist[c] += 1
            self.context_total[k], self.context_types[k] = dict(total), dict(types)
            n1, n2 = hist[1], hist[2]
            # D = 1 (no count of 2, e.g. tiny text) would give seen n-grams no mass of their own: cap it
            self.discount[k] = min(n1 / (n1 + 2 * n2), 0.9) if n1 + n2 else 0.75
        self.vocab_size = len(self.counts[1]) + 1

    # -- scoring ---------------------------------------------------------------------------------------------------
    def prob(self, history: Sequence[str], word: str) -> float:
        """P(word | history) with the last order−1 words of history."""
        p = 1.0 / self.vocab_size  # uniform floor: unknown words keep a small probability
        for k in range(1, self.order + 1):
            h = list(history[len(history) - (k - 1):]) if k > 1 else []
            if len(h) < k - 1:
                break
            head = " ".join(h)
            total = self.context_total[k].get(head, 0)
            if not total:
                continue  # unseen history: keep the lower-order estimate
            c = self.counts[k].get(f"{head} {word}" if head else word, 0)
            d = self.discount[k]
            p = max(c - d, 0) / total + d * self.context_types[k][head] / total * p
        return p

    def token_logprobs(self, tokens: Sequence[str]) -> list[float]:
        """Natural-log probability of each token and of the end of sentence, given the sentence start."""
        padded = [BOS] * (self.order - 1) + list(tokens) + [EOS]
        return [math.log(self.prob(padded[:i], padded[i])) for i in range(self.order - 1, len(padded))]

    def logprob(self, tokens: Sequence[str]) -> float:
        return sum(self.token_logprobs(tokens))

    # -- storage ---------------------------------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        return gzip.compress(json.dumps({"order": self.order, "counts": self.counts[1:]}).encode(), compresslevel=3,
                             mtime=0)  # same model, same bytes

    @classmethod
    def from_bytes(cls, payload: bytes) -> KneserNeyLM:
        raw = json.loads(gzip.decompress(payload))
        lm = cls(int(raw["order"]))
        lm.counts = [{}, *raw["counts"]]
        lm._derive()
        return lm


def cached_lm(files: Sequence[Path], order: int = 3, use_cache: bool = True, namespace: str = "dip-ngram-lm"
              ) -> KneserNeyLM:
    """An LM trained on the non-empty lines of ``files``, kept in the discotest cache under a hash of their bytes."""
    from discotest import cache as disk_cache

    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    key = disk_cache.content_key([namespace, str(order), digest.hexdigest()])
    if use_cache and (hit := disk_cache.load_bytes(namespace, key, LM_SUFFIX, KneserNeyLM.from_bytes)) is not None:
        return hit
    lm = KneserNeyLM(order).fit(normalise(line) for path in files
                                for line in path.read_text("utf-8").split("\n") if line.strip())
    if use_cache:
        disk_cache.store_bytes(namespace, key, lm.to_bytes(), LM_SUFFIX)
    return lm
