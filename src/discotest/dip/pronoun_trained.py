"""``offline-trained``: the offline pronoun scorer's parts with weights learnt on WMT21 mined pronoun pairs.

``OfflinePronounScorer`` (offline-v1) adds an n-gram log-probability and an agreement bonus with two constants
picked on eval-anaphora. This scorer keeps its parts as features and learns how to combine them from data that is
not eval-anaphora: pronoun-differing pairs mined from WMT21 references against every system's output, in the swap
view (``pronoun_pairs``), the reference preferred. A sentence's score is w·φ(context, sentence); the weights minimise
the logistic loss of w·(φ(reference) − φ(swapped)) with an L2 penalty, no intercept (a pair is symmetric: swapping
its sentences flips the sign). Features: the LM log-probability, the v1 agreement bonus, per pronoun class its count,
its count by the class the context evidence points to (the "pronoun class × antecedent class" indicators a
sentence score can carry: pair indicators "reference class × system class" cannot be, as Eq. 1 needs a score per
sentence), and the share and amount of evidence for and against each pronoun.

Which features are used (``FEATURE_SETS``, simplest first) and the L2 strength are chosen on WMT21 alone (fit on
three source languages, count wins on the fourth, every split); eval-anaphora and WMT22 are never used for training
or choosing. The n-gram LM behind the features never sees the
WMT21 training pairs' files (nor, as before, the pair being scored): their references would otherwise be in its
training text and the LM weight would learn to trust memory. Weights are cached as JSON under a key made of the
version, the content hash of the mined pairs and the LM's training files.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from discotest import cache as disk_cache
from discotest.dip.documents import DATASETS
from discotest.dip.ngram_lm import normalise
from discotest.dip.pronoun_pairs import SwapPair, mine_swap_pairs, pairs_to_json
from discotest.dip.pronoun_scorer import CLASSES, OfflinePronounScorer, agreement_bonus, pronoun_evidence
from discotest.errors import InputError

TRAINED_VERSION = "offline-trained-v1"
CACHE_NAMESPACE = "dip-pronoun-trained"
# (data, pair, reference) mined for training: every WMT21 into-English pair of the data dir, every reference
TRAINING: tuple[tuple[str, str, str], ...] = (
    ("wmt21", "de-en", "A"), ("wmt21", "de-en", "B"), ("wmt21", "ja-en", "A"), ("wmt21", "ru-en", "A"),
    ("wmt21", "ru-en", "B"), ("wmt21", "zh-en", "A"))
L2_GRID = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0)
NEWTON_STEPS = 25
AGREEMENT_BETA = 2.0
CONTEXT_CLASSES = (*CLASSES, "none")
FEATURES = ("lm", "agreement", *(f"n[{c}]" for c in CLASSES),
            *(f"n[{c}|{d}]" for c in CLASSES for d in CONTEXT_CLASSES), "support", "log_for", "log_against")
_CLASS_COUNTS = tuple(f"n[{c}]" for c in CLASSES)
_CUES = ("support", "log_for", "log_against")
# candidate feature sets, simplest first: which one is used is chosen on WMT21 (``choose``)
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "lm+agreement": ("lm", "agreement"),
    "+cues": ("lm", "agreement", *_CUES),
    "+classes": ("lm", "agreement", *_CLASS_COUNTS),
    "+classes+cues": ("lm", "agreement", *_CLASS_COUNTS, *_CUES),
    "all": FEATURES,
}


def sentence_features(base: OfflinePronounScorer, context: Sequence[str], sentence: str) -> np.ndarray:
    """φ(context, sentence), in ``FEATURES`` order."""
    tokens = normalise(sentence)
    out = np.zeros(len(FEATURES))
    out[0] = base.lm_logprob(tokens)
    out[1] = agreement_bonus(base.agreement_terms(context, tokens), AGREEMENT_BETA)
    for cls, evidence in pronoun_evidence(context, tokens):
        total = sum(evidence.values())
        top = max(CLASSES, key=lambda c: evidence[c]) if total else "none"  # first in CLASSES order among equals
        k = CLASSES.index(cls)
        out[2 + k] += 1
        out[2 + len(CLASSES) + k * len(CONTEXT_CLASSES) + CONTEXT_CLASSES.index(top)] += 1
        out[-3] += evidence[cls] / total if total else 0.0
        out[-2] += math.log1p(evidence[cls])
        out[-1] += math.log1p(total - evidence[cls])
    return out


def pair_differences(base: OfflinePronounScorer, pairs: Sequence[SwapPair]) -> np.ndarray:
    """φ(reference) − φ(swapped), one row per pair."""
    if not pairs:
        return np.zeros((0, len(FEATURES)))
    return np.array([sentence_features(base, p.context, p.reference) - sentence_features(base, p.context, p.swapped)
                     for p in pairs])


def fit(diffs: np.ndarray, l2: float, steps: int = NEWTON_STEPS) -> np.ndarray:
    """Weights minimising mean log(1 + exp(−w·d)) + l2/2 ‖w‖² over the rows d, each feature scaled to unit RMS
    first (so one penalty suits all), returned in the features' own units. Newton steps with step halving: a fixed
    number, from w = 0, so the same rows give the same weights."""
    n, k = diffs.shape
    scale = np.sqrt((diffs ** 2).mean(0)) if n else np.zeros(k)
    active = scale > 0  # a feature that never differs gets weight 0 (and would make the Hessian singular)
    x = diffs[:, active] / scale[active]
    w = np.zeros(int(active.sum()))

    def loss(v: np.ndarray) -> float:
        return float(np.logaddexp(0.0, -x @ v).mean() + l2 / 2 * v @ v)

    for _ in range(steps if len(w) else 0):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))  # P(reference preferred)
        grad = -(x.T @ (1.0 - p)) / n + l2 * w
        hess = (x.T * (p * (1.0 - p))) @ x / n + l2 * np.eye(len(w))
        step, current = np.linalg.lstsq(hess, grad, rcond=None)[0], loss(w)
        t = 1.0
        while t > 1e-6 and loss(w - t * step) > current:
            t /= 2
        w = w - t * step
    out = np.zeros(k)
    out[active] = w / scale[active]
    return out


def accuracy(weights: np.ndarray, diffs: np.ndarray) -> tuple[int, int]:
    """(pairs whose reference scores strictly higher, pairs)."""
    return int((diffs @ weights > 0).sum()), len(diffs)


@dataclass(frozen=True)
class Choice:
    """One (feature set, L2 strength) tried on WMT21: wins on the held-out languages, pooled over the splits."""

    features: str
    l2: float
    wins: int
    n: int


def choose(diffs: np.ndarray, groups: Sequence[str], sets: Sequence[str] = tuple(FEATURE_SETS),
           grid: Sequence[float] = L2_GRID) -> tuple[Choice, list[Choice]]:
    """The feature set and L2 strength with the most held-out wins, leaving out one source language at a time
    (``wmt21:de-en:A`` and ``wmt21:de-en:B`` go together); among equals the smaller set, then the stronger penalty
    (the simpler model). One language only: no held-out split, so the smallest set with the strongest penalty."""
    language = np.array([g.split(":")[1] for g in groups])
    held_out = sorted(set(language)) if len(set(language)) > 1 else []
    choices = []
    for name in sets:
        cols = [FEATURES.index(f) for f in FEATURE_SETS[name]]
        for l2 in grid:
            wins = n = 0
            for held in held_out:
                w = fit(diffs[language != held][:, cols], l2)
                won, total = accuracy(w, diffs[language == held][:, cols])
                wins, n = wins + won, n + total
            choices.append(Choice(name, l2, wins, n))
    rank = {name: k for k, name in enumerate(sets)}
    best = max(choices, key=lambda c: (c.wins, -rank[c.features], c.l2))
    return best, choices


def fit_features(diffs: np.ndarray, features: str, l2: float) -> np.ndarray:
    """``fit`` on the columns of one feature set; the other features get weight 0."""
    cols = [FEATURES.index(f) for f in FEATURE_SETS[features]]
    out = np.zeros(len(FEATURES))
    out[cols] = fit(diffs[:, cols], l2)
    return out


@dataclass(frozen=True)
class TrainedModel:
    weights: tuple[float, ...]  # one per FEATURES entry, 0 outside the chosen set
    features: str  # the chosen FEATURE_SETS entry
    l2: float
    n: int  # training pairs
    data: str  # sha256 of the training pairs (JSON)

    def to_json(self) -> str:
        return json.dumps({"features": list(FEATURES), "weights": list(self.weights), "set": self.features,
                           "l2": self.l2, "n": self.n, "data": self.data})

    @classmethod
    def from_json(cls, text: str) -> TrainedModel:
        raw = json.loads(text)
        if raw["features"] != list(FEATURES) or len(raw["weights"]) != len(FEATURES) or raw["set"] not in FEATURE_SETS:
            raise ValueError("weights of another feature set")
        return cls(tuple(float(w) for w in raw["weights"]), str(raw["set"]), float(raw["l2"]), int(raw["n"]),
                   str(raw["data"]))


def training_excludes(training: Sequence[tuple[str, str, str]] = TRAINING) -> tuple[str, ...]:
    """File-name parts of the training pairs (``newstest2021.ja-en.``): kept out of the LM's training text."""
    return tuple(dict.fromkeys(f"{DATASETS[data][1]}.{pair}." for data, pair, _ in training))


class TrainedPronounScorer:
    """w·φ(context, sentence) with w learnt on WMT21 mined pairs (module docstring); ``model`` skips training."""

    name = "offline-trained"

    def __init__(self, data_dir: str | Path | None = None, *, use_cache: bool = True, exclude: Sequence[str] = (),
                 quiet: bool = True, training: Sequence[tuple[str, str, str]] = TRAINING,
                 base: OfflinePronounScorer | None = None, model: TrainedModel | None = None):
        self.data_dir = data_dir
        self.use_cache = use_cache
        self.exclude = tuple(exclude)
        self.training = tuple(training)
        self.quiet = quiet
        self.base = base or OfflinePronounScorer(data_dir, use_cache=use_cache, quiet=quiet,
                                                 exclude=training_excludes(self.training) + self.exclude)
        self._model = model

    def training_base(self) -> OfflinePronounScorer:
        """The LM the weights are fitted with: without the training pairs' files (and nothing else, so one fit
        serves every scored pair; ``base`` also leaves out the scored pair)."""
        if not self.exclude:
            return self.base
        return OfflinePronounScorer(self.data_dir, use_cache=self.use_cache, quiet=self.quiet,
                                    exclude=training_excludes(self.training))

    def training_pairs(self) -> list[SwapPair]:
        return [p for data, pair, ref in self.training
                for p in mine_swap_pairs(data, pair, ref, self.data_dir, self.use_cache)]


    def train(self, pairs: Sequence[SwapPair]) -> TrainedModel:
        """Fit on ``pairs`` (feature set and L2 chosen by ``choose``), cached by their content."""
        text = pairs_to_json(pairs)
        data = hashlib.sha256(text.encode("utf-8")).hexdigest()
        base = self.training_base()
        sets = [f"{name}={'+'.join(features)}" for name, features in FEATURE_SETS.items()]
        key = disk_cache.content_key([CACHE_NAMESPACE, TRAINED_VERSION, *FEATURES, *sets, *map(str, L2_GRID),
                                      str(NEWTON_STEPS), data, base.signature(), base.lm_key()])
        if self.use_cache and (hit := disk_cache.load(CACHE_NAMESPACE, key, TrainedModel.from_json)) is not None:
            return hit
        if not pairs:
            raise InputError("no pronoun pairs to train the offline pronoun scorer on")
        diffs = pair_differences(base, pairs)
        best = choose(diffs, [p.group for p in pairs])[0]
        weights = fit_features(diffs, best.features, best.l2)
        model = TrainedModel(tuple(float(w) for w in weights), best.features, best.l2, len(pairs), data)
        if self.use_cache:
            disk_cache.store(CACHE_NAMESPACE, key, model.to_json())
        return model

    @property
    def model(self) -> TrainedModel:
        if self._model is None:
            self._model = self.train(self.training_pairs())
        return self._model

    def signature(self) -> str:
        """``offline-trained-v1[train=wmt21:de-en.A,…@<hash of the mined pairs>]``, plus any excluded files."""
        train = ",".join(f"{data}:{pair}.{ref}" if k == 0 or data != self.training[k - 1][0] else f"{pair}.{ref}"
                         for k, (data, pair, ref) in enumerate(self.training))
        out = f"{TRAINED_VERSION}[train={train}@{self.model.data[:8]}"
        return out + (f",exclude={'+'.join(self.exclude)}]" if self.exclude else "]")

    def score(self, contexts: Sequence[Sequence[str]], sentences: Sequence[str]) -> list[float]:
        if len(contexts) != len(sentences):
            raise InputError(f"{len(contexts)} contexts but {len(sentences)} sentences")
        weights = np.array(self.model.weights)
        return [float(sentence_features(self.base, c, s) @ weights) for c, s in zip(contexts, sentences)]
