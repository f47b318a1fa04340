"""The eflomal alignment model's tables decoded in this process: no child process, no Thot model read on the way.

Thot decodes a sentence pair with its eflomal model by Gibbs sampling (40 sweeps from a seeded chain per trained
sampler, the per-token marginals summed, then the argmax per target word). That costs two Python child processes
that each load Thot's model files. Here the same tables — lexical p(t|s) of every sampler, the jump distribution
between consecutive non-NULL links, NULL's probability ``p0`` — are exported once per model into numpy arrays
(``export``; kept in the cache beside the Thot files under the same key, ``.npz``), and each direction is decoded by
the exact per-token marginal of the model without the fertility factor (forward–backward over "last non-NULL
source position", a first-order HMM with the model's own jumps, including eflomal's start and end jumps), summed
over the samplers and arg-maxed per target word like Thot's decode (ties to the lowest source position, NULL last).
Fertility couples the tokens beyond a first-order chain, so it is left out (its first-link odds as a per-word factor
agreed less with Thot's decode: German 96.7 → 95.5% of target words); bench/validity/fast_decode.py measures what the
whole difference changes in the verdicts. Sentences are batched by target length (sources padded), both directions,
and symmetrised with ``grow_diag_final_and`` as Thot's links are. Same arrays and pairs: the same links.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from discotest.lang.align.base import Links, Pair, grow_diag_final_and

FORMAT = 1  # of the exported arrays (part of their cache key)
SMOOTHING_PROB = 1e-9  # Thot's SmoothingProb: a (source, target) pair the lexical table lacks
UNKNOWN_WORD = 1  # Thot's index of a word outside the vocabulary
DIRECTIONS = ("fwd", "rev")
PAD = 8  # source lengths are padded up to a multiple of this (fewer batches; padding adds exact zeros only)


class Tables:
    """One model's decode tables (both directions), as ``export`` wrote them."""

    def __init__(self, arrays: dict[str, np.ndarray]):
        self.arrays = arrays
        self.directions = {d: _Direction(arrays, d) for d in DIRECTIONS}

    def to_bytes(self) -> bytes:
        """The arrays as an uncompressed .npz (loads in milliseconds)."""
        buffer = io.BytesIO()
        np.savez(buffer, **{k: self.arrays[k] for k in sorted(self.arrays)})
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, payload: bytes) -> Tables:
        """Tables read back from ``to_bytes``; ValueError if they are not (a damaged cache entry)."""
        try:
            with np.load(io.BytesIO(payload), allow_pickle=False) as npz:
                arrays = {k: npz[k] for k in npz.files}
        except (OSError, EOFError, KeyError) as exc:
            raise ValueError(f"not decode tables: {exc}") from exc
        if int(arrays.get("format", np.array(-1))) != FORMAT:
            raise ValueError("decode tables of another format")
        return cls(arrays)

    def align(self, pairs: Sequence[Pair]) -> list[Links]:
        """Links of every pair: each direction decoded, then grow-diag-final-and (as ``ThotAligner`` does)."""
        if not pairs:
            return []
        lowered = [([w.lower() for w in s] or ["<empty>"], [w.lower() for w in t] or ["<empty>"]) for s, t in pairs]
        forward = self.directions["fwd"].decode(lowered)
        reverse = self.directions["rev"].decode([(t, s) for s, t in lowered])
        out = []
        for (src, trg), fwd, rev in zip(pairs, forward, reverse):
            both = grow_diag_final_and(fwd, {(s, t) for t, s in rev})
            out.append(frozenset((s, t) for s, t in both if s < len(src) and t < len(trg)))
        return out

    def directional(self, pairs: Sequence[tuple[list[str], list[str]]], direction: str) -> list[set[tuple[int, int]]]:
        """One direction's links of pairs already lowered and oriented for it (the bench compares them with Thot's)."""
        return self.directions[direction].decode(pairs)


class _Direction:
    """One direction's vocabularies and per-sampler tables."""

    def __init__(self, arrays: dict[str, np.ndarray], d: str):
        self.src_index = {w: i for i, w in enumerate(str(arrays[f"{d}.src_vocab"]).split("\n"))}
        self.trg_index = {w: i for i, w in enumerate(str(arrays[f"{d}.trg_vocab"]).split("\n"))}
        self.n_trg = len(self.trg_index)
        self.p0 = float(arrays[f"{d}.p0"])
        self.window = int(arrays[f"{d}.window"])
        self.keys, self.probs = arrays[f"{d}.lex_keys"], arrays[f"{d}.lex_prob"]  # (N,), (N, samplers)
        self.jump = arrays[f"{d}.jump"]  # (samplers, 2 * window + 1)

    def _ids(self, words: Sequence[str], index: dict[str, int]) -> list[int]:
        return [index.get(w, UNKNOWN_WORD) for w in words]

    def decode(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[set[tuple[int, int]]]:
        """Per pair, (source index, target index) of every target word's best non-NULL source word.

        Pairs are batched by target length and padded source width (the source length rounded up to ``PAD``): a
        pair's arithmetic depends on its own lengths only, never on the pairs beside it, so it gets the same links
        alone and in company."""
        out: list[set[tuple[int, int]]] = [set() for _ in pairs]
        groups: dict[tuple[int, int], list[int]] = {}
        for n, (src, trg) in enumerate(pairs):
            groups.setdefault((len(trg), -(-len(src) // PAD) * PAD), []).append(n)
        for (_, width), group in sorted(groups.items()):
            src_ids = [self._ids(pairs[n][0], self.src_index) for n in group]
            trg_ids = np.array([self._ids(pairs[n][1], self.trg_index) for n in group], dtype=np.int64)
            best = self._best(src_ids, trg_ids, width)
            for row, n in zip(best.tolist(), group):
                slen = len(pairs[n][0])
                out[n] = {(i, j) for j, i in enumerate(row) if i < slen}
        return out

    def _best(self, src_ids: list[list[int]], trg_ids: np.ndarray, width: int) -> np.ndarray:
        """Per sentence and target position, the arg-max of the marginal summed over the samplers: a source position,
        or the sentence's source length for NULL."""
        batch, tlen = trg_ids.shape
        slens = np.array([len(s) for s in src_ids], dtype=np.int64)
        src = np.zeros((batch, width), dtype=np.int64)
        present = np.zeros((batch, width), dtype=bool)
        for row, ids in enumerate(src_ids):
            src[row, : len(ids)] = ids
            present[row, : len(ids)] = True
        total = np.zeros((batch, tlen, width + 1))
        emissions = self._emission(src, trg_ids) * present[:, :, None, None]  # (B, S, T, samplers)
        nulls = self._emission(np.zeros((batch, 1), dtype=np.int64), trg_ids)[:, 0]  # (B, T, samplers)
        for c, jump in enumerate(self.jump):
            total += _marginal(emissions[..., c], nulls[..., c], slens, jump, self.window, self.p0)
        # arg-max over [source 0..S-1 of the padded width, NULL]; padded positions have 0 mass, NULL maps to slen
        best = np.argmax(total, axis=2)
        return np.where(best == width, slens[:, None], best)

    def _emission(self, src: np.ndarray, trg: np.ndarray) -> np.ndarray:
        """p(t|s) of every sampler for every source word of each sentence against every target word: (B, S, T, c)."""
        wanted = src[:, :, None] * self.n_trg + trg[:, None, :]
        at = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        return np.where((self.keys[at] == wanted)[..., None], self.probs[at], SMOOTHING_PROB)


def _marginal(emission: np.ndarray, null: np.ndarray, slens: np.ndarray, jump: np.ndarray, window: int,
              p0: float) -> np.ndarray:
    """Per target word, the posterior of each source position (padded width) and of NULL (last column), under the
    chain of jumps between consecutive non-NULL links (from a start before the first word, to an end after the last)
    and ``p0`` per NULL link. States: the last non-NULL source position so far, 0 = the start, k = source k - 1."""
    batch, width, tlen = emission.shape
    offsets = np.arange(width)[None, :] - (np.arange(width + 1)[:, None] - 1)  # [L, p]: p - L
    moves = jump[np.clip(offsets, -window, window) + window]  # (S+1, S)
    last = np.arange(width + 1)[None, :] - 1
    end = jump[np.clip(slens[:, None] - last, -window, window) + window]  # (B, S+1): the jump to the end
    alpha = np.zeros((batch, width + 1))
    alpha[:, 0] = 1.0
    alphas = []
    for j in range(tlen):
        alphas.append(alpha)
        new = alpha * (p0 * null[:, j])[:, None]
        new[:, 1:] += _into(alpha, moves) * emission[:, :, j]
        scale = new.sum(axis=1, keepdims=True)
        scale[scale <= 0] = 1.0
        alpha = new / scale
    beta = end / end.sum(axis=1, keepdims=True)  # the state after the last word: only the end jump is left
    out = np.zeros((batch, tlen, width + 1))
    for j in range(tlen - 1, -1, -1):
        before = alphas[j]
        to_source = _into(before, moves) * emission[:, :, j] * beta[:, 1:]  # (B, S)
        to_null = (before * beta).sum(axis=1) * p0 * null[:, j]  # (B,)
        norm = to_source.sum(axis=1) + to_null
        norm[norm <= 0] = 1.0
        out[:, j, :width] = to_source / norm[:, None]
        out[:, j, width] = to_null / norm
        beta = beta * (p0 * null[:, j])[:, None] + _into(emission[:, :, j] * beta[:, 1:], moves.T)
        total = beta.sum(axis=1, keepdims=True)
        total[total <= 0] = 1.0
        beta = beta / total  # a per-word scale: the posterior of each word is normalised on its own
    return out


def _into(weights: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """``weights @ moves`` summed in a fixed order, state by state: a matrix product (BLAS) may group the sum by the
    batch's size, and a pair's links would then depend on the pairs beside it."""
    return np.einsum("bk,ks->bs", weights, moves)  # numpy's own loop (no BLAS): each row summed the same way


def export(prefix: str) -> Tables:
    """The decode tables of the Thot eflomal model files at ``prefix`` (``<prefix>.fwd.*``, ``<prefix>.rev.*``)."""
    arrays: dict[str, np.ndarray] = {"format": np.array(FORMAT)}
    for d in DIRECTIONS:
        base = Path(f"{prefix}.{d}")
        config = base.with_name(base.name + ".yml").read_text()
        chains = int(_setting(config, "numSamplers"))
        arrays[f"{d}.p0"] = np.array(float(_setting(config, "p0")))
        src_vocab = _vocabulary(base.with_name(base.name + ".svcb"))
        trg_vocab = _vocabulary(base.with_name(base.name + ".tvcb"))
        arrays[f"{d}.src_vocab"] = np.array("\n".join(src_vocab))
        arrays[f"{d}.trg_vocab"] = np.array("\n".join(trg_vocab))
        arrays[f"{d}.chains"] = np.array(chains)
        keys, probs, jumps = [], [], []
        for c in range(chains):
            suffix = "" if chains == 1 else f".{c}"
            lex = np.frombuffer(base.with_name(base.name + ".efl_lexnd" + suffix).read_bytes(),
                                dtype=[("s", "<u4"), ("t", "<u4"), ("numer", "<f4"), ("denom", "<f4")])
            keys.append(lex["s"].astype(np.int64) * len(trg_vocab) + lex["t"].astype(np.int64))
            probs.append(np.exp(lex["numer"].astype(np.float64) - lex["denom"].astype(np.float64)))
            lines = base.with_name(base.name + ".efl_jumpnd" + suffix).read_text().split()
            window = int(lines[0])
            logs = np.array([float(x) for x in lines[1:]])
            if len(logs) != 2 * window + 1:
                raise ValueError(f"{base}.efl_jumpnd{suffix}: {len(logs)} jumps for a window of {window}")
            arrays[f"{d}.window"] = np.array(window)
            jumps.append(np.exp(logs))
        # one sorted key array for every sampler, a column of p(t|s) each (Thot's smoothing where one lacks the pair):
        # a pair's words are looked up once, not once per sampler
        union = np.unique(np.concatenate(keys))
        table = np.full((len(union), chains), SMOOTHING_PROB)
        for c in range(chains):
            table[np.searchsorted(union, keys[c]), c] = probs[c]
        arrays[f"{d}.lex_keys"] = union
        arrays[f"{d}.lex_prob"] = table
        arrays[f"{d}.jump"] = np.stack(jumps)
    return Tables(arrays)


def _setting(config: str, name: str) -> str:
    found = re.search(rf"^{name}:\s*(\S+)", config, re.MULTILINE)
    if found is None:
        raise ValueError(f"the model's settings lack {name}")
    return found.group(1)


def _vocabulary(path: Path) -> list[str]:
    """Words by index from a Thot vocabulary file (``index word`` per line)."""
    words: dict[int, str] = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line:
            index, _, word = line.partition(" ")
            words[int(index)] = word
    return [words.get(i, "") for i in range(max(words) + 1)]
