"""The eflomal alignment model's tables decoded in this process: no child process, no Thot model read on the way.

Thot decodes a sentence pair with its eflomal model by Gibbs sampling (40 sweeps from a seeded chain per trained
sampler, the per-token marginals summed, then the argmax per target word). That costs two Python child processes
that each load Thot's model files. Here the same tables — lexical p(t|s) of every sampler, the jump distribution
between consecutive non-NULL links, NULL's probability ``p0`` — are exported once per model into numpy arrays
(``export``; kept in the cache beside the Thot files under the same key, ``.npz``), and each direction is decoded by
the exact per-token marginal of the model without the fertility factor (forward–backward over "last non-NULL
source position", a first-order HMM with the model's own jumps, including eflomal's start and end jumps), then each
link's posterior times its fertility factor (``_fertility_factor``: the ratio P(φ + 1 | s) / P(φ | s) of the model's
``efl_fertnd`` table that Thot's sampler multiplies a link by, its logarithm averaged over φ, the source word's other
links as the first-order marginal gives them; so a content word left without links, which the first-order marginal
allows, becomes unlikely), summed over the samplers and arg-maxed per target word like Thot's decode (ties to the
lowest source position, NULL last). The factor is exact only where the other links are independent, and it is
applied once, not propagated through the chain (a second forward–backward with it moved the links little nearer
Thot's for about 30% more CPU); bench/validity/fast_decode.py measures what the difference from Thot's decode
changes in the verdicts (VALIDITY.md). Sentences are batched by target length (sources padded), both directions,
and symmetrised with ``grow_diag_final_and`` as Thot's links are. Same arrays and pairs: the same links.

``Tables.check`` also says which pairs the fast decode is unsure of on the words a caller reads (``watch``: source
positions; None: every word), so that those alone go to Thot's decode (``--align-decode checked``,
``lang.align.model``). A pair is unsure when, for a watched source word, the reverse direction's choice for it, or any
target word's choice for or against it in the forward direction, is within ``MARGIN`` of the runner-up (posteriors
averaged over the samplers); when the two directions disagree on a link of a watched word; or when a watched word is
left without a link (an entity the translation renders is rarely left so, even by the first-order marginal's
errors: the fertility factor makes it unlikely). One disagreement is not
doubt (``CHECK``, "one-to-many"): the reverse direction can give an English word one target word only, so where the
forward direction links it to a run of adjacent target words (hairdresser → مصفف الشعر, CEO → المدير التنفيذي) and
the reverse direction's one link falls inside that run, the two agree as far as each can; and the reverse
direction's choice among the words of that run is no doubt either (its margin is taken between the run's best word
and the best word outside it, NULL included). On all 33 published WinoMT pairs this sent
ar 70.3 → 59.9% of the sentences to Thot and he 48.6 → 36.9%, with not one more verdict changed
(bench/validity/fast_decode.py; the figures are in VALIDITY.md). Accepting the converse as well (several adjacent
English words on one target word: "his love" → حبه) sent ar 46.5% but changed 4 more noun, 13 more reader and 29 more
consistency verdicts of ar, he and de, so it stays doubt in general. Only its narrow case passes (``ATTACHED``, where
the caller gives a language's endings of a pronoun written into a word, ``gender.run.ATTACHED_PRONOUNS``): a watched
English pronoun (his, her, him, their, them, its) that the reverse direction puts on the same target word as its
English neighbour, which the forward direction gives that word to alone, when the word ends in such a pronoun
("thanked him" → وشكره, "his behavior" → سلوكه); at that word the pronoun and its neighbour count as one choice.

The doubt test is array operations over batches of pairs padded to like lengths (``_doubts``: no loop per word; the
same unsure pairs as the per-word loop it replaced on all 33 published pairs, at less than half its CPU), and
``Tables.examine`` gives, per watched word, which test fired (the bits ``DISAGREE``, ``UNALIGNED``,
``REVERSE_CLOSE``, ``FORWARD_CLOSE``, ``EMPTY``) for bench/validity/fast_decode.py ``--why``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np

from discotest.lang.align.base import Links, Pair, grow_diag_final_and

FORMAT = 2  # of the exported arrays (part of their cache key); 2: the fertility ratios added
SMOOTHING_PROB = 1e-9  # Thot's SmoothingProb: a (source, target) pair the lexical table lacks
UNKNOWN_WORD = 1  # Thot's index of a word outside the vocabulary
DIRECTIONS = ("fwd", "rev")
PAD = 8  # source lengths are padded up to a multiple of this (fewer batches; padding adds exact zeros only)
# ``check``: a watched word's choice within this posterior margin of its runner-up is unsure. Chosen on WinoMT German's
# 5 published outputs (bench/validity/fast_decode.py): 0.1 routed 24% and missed 7 verdict changes, 0.3 routed 26%
# and missed 4, 0.5 routed 48% and missed 4 (all on sota's broken outputs).
MARGIN = 0.3
MAX_FERTILITY = 7  # Thot's eflomal counts a source word's links 0..7 (its ``efl_fertnd`` rows)
FERTILITY_KEPT = 3  # ratios exported per source word: after 0, 1, and 2 or more other links
RATIO_FLOOR = 1e-12  # ``_fertility_factor``: a link's "not this word" probability is at least this (no log of 0)
# which disagreements of the two directions on a watched word ``check`` takes as doubt (named in the signature): every
# one (the rule before, unnamed) or all but one English word's one-to-many run of adjacent target words (the docstring)
CHECK = "one-to-many"
# ``check`` with ``attached`` (a language's endings of a pronoun written into a word, ``gender.run.ATTACHED_PRONOUNS``):
# a watched English pronoun the reverse direction puts on its neighbour's target word, which ends so, is no doubt
# (``_group_doubts``; named in the signature with the endings' hash)
ATTACHED = "many-to-one-attached"
POSSESSIVE_PRONOUNS = frozenset({"his", "her", "him", "hers", "its", "their", "them"})
# doubt bits of a watched source word (``Tables.examine``; the bench counts them)
DISAGREE, UNALIGNED, REVERSE_CLOSE, FORWARD_CLOSE, EMPTY = 1, 2, 4, 8, 16


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

    def check(self, pairs: Sequence[Pair], watch: Sequence[frozenset[int] | None] | None = None,
              dropped: frozenset[str] = frozenset(), attached: Collection[str] = ()
              ) -> tuple[list[Links | None], list[int]]:
        """``align``'s links of every pair the fast decode is sure of, None for the others, and the indices of those
        (unsure on their watched source words: the module's docstring); ``watch[k]`` None, or ``watch`` None: every
        source word of the pair is watched; ``dropped``: the English words (lower-case) the translation may leave
        out, whose watched occurrences left without a link by both directions are not doubt; ``attached``: the
        endings of a target word that carry a pronoun written into it (``ATTACHED``: an English pronoun and its
        neighbour on such a word is no doubt). An unsure pair's links are not symmetrised: its caller decodes it
        again."""
        links, unsure, _ = self.examine(pairs, watch, dropped, attached)
        return links, unsure

    def examine(self, pairs: Sequence[Pair], watch: Sequence[frozenset[int] | None] | None = None,
                dropped: frozenset[str] = frozenset(), attached: Collection[str] = ()
                ) -> tuple[list[Links | None], list[int], list[np.ndarray]]:
        """``check``'s links and unsure pairs, and per pair why: each source word's doubt bits (``DISAGREE``,
        ``UNALIGNED``, ``REVERSE_CLOSE``, ``FORWARD_CLOSE``, ``EMPTY``; 0 where sure or not watched), which the
        bench counts (bench/validity/fast_decode.py ``--why``)."""
        if not pairs:
            return [], [], []
        lowered = [([w.lower() for w in s] or ["<empty>"], [w.lower() for w in t] or ["<empty>"]) for s, t in pairs]
        fwd_post = self.directions["fwd"].posteriors(lowered)
        rev_post = self.directions["rev"].posteriors([(t, s) for s, t in lowered])
        watched = [np.zeros(len(s), dtype=bool) for s, _ in lowered]
        for n, (src, _) in enumerate(pairs):
            positions = range(len(src)) if watch is None or watch[n] is None else [s for s in watch[n] if s < len(src)]
            watched[n][list(positions)] = True
        doubts = _doubts(lowered, fwd_post, rev_post, watched, dropped, tuple(attached))
        links: list[Links | None] = []
        unsure = []
        for n, ((src, trg), pf, pr) in enumerate(zip(pairs, fwd_post, rev_post)):
            if not trg and watched[n].any():  # an empty translation leaves every watched word unaligned
                doubts[n] = np.where(watched[n], doubts[n] | EMPTY, 0)
            if doubts[n].any():
                unsure.append(n)
                links.append(None)
                continue
            both = grow_diag_final_and(_argmax_links(pf), {(s, t) for t, s in _argmax_links(pr)})
            links.append(frozenset((s, t) for s, t in both if s < len(src) and t < len(trg)))
        return links, unsure, doubts

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
        self.log_ratio = arrays[f"{d}.fert_log_ratio"]  # (samplers, source words, FERTILITY_KEPT)

    def _ids(self, words: Sequence[str], index: dict[str, int]) -> list[int]:
        return [index.get(w, UNKNOWN_WORD) for w in words]

    def decode(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[set[tuple[int, int]]]:
        """Per pair, (source index, target index) of every target word's best non-NULL source word."""
        return [_argmax_links(posterior) for posterior in self.posteriors(pairs)]

    def posteriors(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[np.ndarray]:
        """Per pair, the marginal of every target word (rows) over its source words and NULL (last column), averaged
        over the samplers.

        Pairs are batched by target length and padded source width (the source length rounded up to ``PAD``): a
        pair's arithmetic depends on its own lengths only, never on the pairs beside it, so it gets the same links
        alone and in company."""
        out: list[np.ndarray] = [np.zeros((0, 1)) for _ in pairs]
        groups: dict[tuple[int, int], list[int]] = {}
        for n, (src, trg) in enumerate(pairs):
            groups.setdefault((len(trg), -(-len(src) // PAD) * PAD), []).append(n)
        for (_, width), group in sorted(groups.items()):
            src_ids = [self._ids(pairs[n][0], self.src_index) for n in group]
            trg_ids = np.array([self._ids(pairs[n][1], self.trg_index) for n in group], dtype=np.int64)
            total = self._marginals(src_ids, trg_ids, width)
            for row, n in enumerate(group):
                slen = len(pairs[n][0])
                out[n] = np.concatenate([total[row, :, :slen], total[row, :, width:]], axis=1)
        return out

    def _marginals(self, src_ids: list[list[int]], trg_ids: np.ndarray, width: int) -> np.ndarray:
        """Per sentence and target position, the marginal of each padded source position and NULL (last), averaged
        over the samplers."""
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
            table = self.log_ratio[c]
            ratio = np.where(present[..., None], table[np.minimum(src, len(table) - 1)], 0.0)  # (B, S, kept)
            post = _marginal(emissions[..., c], nulls[..., c], slens, jump, self.window, self.p0)
            post[:, :, :width] *= _fertility_factor(post[:, :, :width], ratio)
            norm = post.sum(axis=2, keepdims=True)
            norm[norm <= 0] = 1.0
            total += post / norm
        return total / len(self.jump)

    def _emission(self, src: np.ndarray, trg: np.ndarray) -> np.ndarray:
        """p(t|s) of every sampler for every source word of each sentence against every target word: (B, S, T, c)."""
        wanted = src[:, :, None] * self.n_trg + trg[:, None, :]
        at = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        return np.where((self.keys[at] == wanted)[..., None], self.probs[at], SMOOTHING_PROB)


def _argmax_links(posterior: np.ndarray) -> set[tuple[int, int]]:
    """(source, target) of every target word's best column of ``posterior`` (rows: target words; columns: the source
    words, then NULL) when it is not NULL; ties to the lowest source position, NULL last (as Thot's decode)."""
    if posterior.size == 0:
        return set()
    best = np.argmax(posterior, axis=1).tolist()
    slen = posterior.shape[1] - 1
    return {(i, j) for j, i in enumerate(best) if i < slen}


def _unsure(fwd_post: np.ndarray, rev_post: np.ndarray, watched: Sequence[int], droppable: Collection[int] = (),
            words: tuple[Sequence[str], Sequence[str]] | None = None, attached: Collection[str] = ()) -> bool:
    """Whether one pair is unsure on its ``watched`` source words (``_doubts`` of it alone; ``droppable``: positions
    that may be left unaligned); ``words``: its (source, target) words, lower-case, which ``attached`` reads."""
    src, trg = words if words is not None else ([f"{s}" for s in range(rev_post.shape[0])], [""] * fwd_post.shape[0])
    mask = np.zeros(len(src), dtype=bool)
    mask[list(watched)] = True
    dropped = frozenset(src[s] for s in droppable)
    return bool(_doubts([(src, trg)], [fwd_post], [rev_post], [mask], dropped, tuple(attached))[0].any())


def _doubts(pairs: Sequence[tuple[Sequence[str], Sequence[str]]], fwd_post: Sequence[np.ndarray],
            rev_post: Sequence[np.ndarray], watched: Sequence[np.ndarray], dropped: Collection[str],
            attached: tuple[str, ...]) -> list[np.ndarray]:
    """Per pair (lower-case words, as decoded), each source word's doubt bits (the module's docstring; 0 where it is
    sure or not ``watched``): ``fwd_post`` (target × source+NULL) and ``rev_post`` (source × target+NULL) of each pair.
    Pairs are padded into batches of like lengths (multiples of ``PAD``: padding adds zeros, which change no argmax,
    margin or maximum of a real row) and every rule is an array operation over the batch: no loop per word."""
    out: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * len(pairs)
    groups: dict[tuple[int, int], list[int]] = {}
    for n, post in enumerate(fwd_post):
        groups.setdefault((-(-post.shape[0] // PAD) * PAD, -(-(post.shape[1] - 1) // PAD) * PAD), []).append(n)
    for (tpad, spad), group in sorted(groups.items()):
        batch = len(group)
        fwd = np.zeros((batch, tpad, spad + 1))
        rev = np.zeros((batch, spad, tpad + 1))
        tlen = np.zeros(batch, dtype=np.int64)
        watch = np.zeros((batch, spad), dtype=bool)
        src_words = np.full((batch, spad), "", dtype=object)
        trg_words = np.full((batch, tpad), "", dtype=object)
        for row, n in enumerate(group):
            t, s = fwd_post[n].shape[0], fwd_post[n].shape[1] - 1
            tlen[row] = t
            fwd[row, :t, :s], fwd[row, :t, spad] = fwd_post[n][:, :s], fwd_post[n][:, s]
            rev[row, :s, :t], rev[row, :s, tpad] = rev_post[n][:, :t], rev_post[n][:, t]
            watch[row, :s] = watched[n]
            src_words[row, :s], trg_words[row, :t] = pairs[n][0], pairs[n][1]
        droppable = np.isin(src_words, list(dropped)) if dropped else np.zeros_like(watch)
        if attached:
            pronoun = np.isin(src_words, sorted(POSSESSIVE_PRONOUNS))
            endings = np.char.endswith(trg_words.astype(str)[..., None], np.array(attached)).any(axis=2)
        else:
            pronoun, endings = np.zeros_like(watch), np.zeros((batch, tpad), dtype=bool)
        bits = _group_doubts(fwd, rev, tlen, watch, droppable, pronoun, endings)
        for row, n in enumerate(group):
            out[n] = bits[row, : fwd_post[n].shape[1] - 1]
    return out


def _group_doubts(fwd: np.ndarray, rev: np.ndarray, tlen: np.ndarray, watch: np.ndarray, droppable: np.ndarray,
                  pronoun: np.ndarray, endings: np.ndarray) -> np.ndarray:
    """``_doubts`` of one padded batch: ``fwd`` (B, T, S+1), ``rev`` (B, S, T+1), NULL the last column of each;
    ``tlen`` (B,) the real target lengths; ``watch``, ``droppable``, ``pronoun`` (B, S): the watched source words, those
    that may be left unaligned, the English pronouns of ``ATTACHED``; ``endings`` (B, T): the target words that end in
    an attached pronoun. (B, S) bits."""
    batch, tpad, width = fwd.shape
    spad = width - 1
    rows = np.arange(batch)[:, None]
    real_t = np.arange(tpad)[None, :] < tlen[:, None]  # (B, T)
    chosen = fwd.argmax(axis=2)  # (B, T): the forward choice of each target word (spad: NULL)
    links = (chosen[:, :, None] == np.arange(spad)[None, None, :]) & real_t[:, :, None]  # (B, T, S)
    top = fwd.max(axis=2)
    second = np.partition(fwd, -2, axis=2)[:, :, -2]
    close = np.where(links, (top - second)[:, :, None], top[:, :, None] - fwd[:, :, :spad]) < MARGIN
    close &= real_t[:, :, None]  # (B, T, S): target words whose choice for or against a source word is close
    of = links.transpose(0, 2, 1)  # (B, S, T): the target words the forward direction links to each source word
    count = of.sum(axis=2)
    first = of.argmax(axis=2)
    last = tpad - 1 - of[:, :, ::-1].argmax(axis=2)
    run = of & ((count > 0) & (last - first + 1 == count))[:, :, None]  # one run of adjacent target words
    best = rev.argmax(axis=2)  # (B, S): the reverse direction's choice for each source word
    null = best >= tlen[:, None]
    target = np.minimum(best, tpad - 1)
    in_run = np.take_along_axis(run, target[:, :, None], axis=2)[:, :, 0] & ~null
    disagree = np.where(null, count > 0, ~in_run)
    outside = np.where(np.concatenate([run, np.zeros((batch, spad, 1), dtype=bool)], axis=2), 0.0, rev).max(axis=2)
    rev_top = rev.max(axis=2)
    margin = np.where(in_run, rev_top - outside, rev_top - np.partition(rev, -2, axis=2)[:, :, -2])
    forward_close = close.any(axis=1)  # (B, S)
    # ATTACHED: a pronoun the reverse direction puts on its neighbour's target word, which the forward direction
    # gives the neighbour alone (and the reverse direction the neighbour too), that word ending in a pronoun
    neighbour = chosen[rows, target]  # (B, S): the forward choice at the pronoun's reverse link (spad: NULL)
    here = np.arange(spad)[None, :]
    attached = (pronoun & disagree & ~null & (count == 0) & (neighbour < spad) & (np.abs(neighbour - here) == 1)
                & (best[rows, np.minimum(neighbour, spad - 1)] == best) & endings[rows, target])
    if attached.any():
        row_of = np.take_along_axis(fwd, target[:, :, None], axis=1)  # (B, S, S+1): the forward row at that word
        columns = np.arange(width)[None, None, :]
        pair = (columns == here[:, :, None]) | (columns == neighbour[:, :, None])
        pair_close = row_of.max(axis=2) - np.where(pair, 0.0, row_of).max(axis=2) < MARGIN
        elsewhere = (close & (np.arange(tpad)[None, :, None] != target[:, None, :])).any(axis=1)
        disagree &= ~attached
        forward_close = np.where(attached, elsewhere | pair_close, forward_close)
    bits = (DISAGREE * disagree | UNALIGNED * (null & ~droppable) | REVERSE_CLOSE * (margin < MARGIN)
            | FORWARD_CLOSE * forward_close)
    return np.where(watch, bits, 0).astype(np.int64)


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


def _fertility_factor(links: np.ndarray, log_ratio: np.ndarray) -> np.ndarray:
    """Per link (B, T, S), the fertility ratio P(φ + 1 | s) / P(φ | s) its source word expects, φ being the number of
    the other target words linked to the same source word as the first-order ``links`` posteriors give it (each
    independently), counted 0, 1, or 2 and more; ``log_ratio`` (B, S, 3): each source word's three log ratios. Thot's
    sampler multiplies a candidate link by this ratio at φ of its current sample; here the ratio's geometric mean over
    φ's distribution (its logarithm's expectation: nearer Thot's links than the arithmetic mean, de 1,058 and ar 1,526
    watched words unlike Thot's against 1,007 and 1,400). P(φ = 0) and P(φ = 1) come from prefix and suffix sums over
    the target words: no loop over words or sentences."""
    rest = np.maximum(1.0 - links, RATIO_FLOOR)
    logs, odds = np.log(rest), links / rest
    none = np.exp(_others(logs))  # P(φ = 0): no other target word links this source word
    one = none * _others(odds)  # P(φ = 1)
    more = np.clip(1.0 - none - one, 0.0, None)
    r = log_ratio[:, None, :, :]
    return np.exp(none * r[..., 0] + one * r[..., 1] + more * r[..., 2])


def _others(values: np.ndarray) -> np.ndarray:
    """Per target word (axis 1), the sum of ``values`` over the sentence's other target words: the prefix before it
    plus the suffix after it (no subtraction, so a large value of its own costs the others no precision)."""
    zero = np.zeros_like(values[:, :1])
    before = np.concatenate([zero, np.cumsum(values, axis=1)[:, :-1]], axis=1)
    after = np.concatenate([np.cumsum(values[:, ::-1], axis=1)[:, -2::-1], zero], axis=1)
    return before + after


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
        keys, probs, jumps, ratios = [], [], [], []
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
            ratios.append(_fertility_ratios(base.with_name(base.name + ".efl_fertnd" + suffix), len(src_vocab)))
        # one sorted key array for every sampler, a column of p(t|s) each (Thot's smoothing where one lacks the pair):
        # a pair's words are looked up once, not once per sampler
        union = np.unique(np.concatenate(keys))
        table = np.full((len(union), chains), SMOOTHING_PROB)
        for c in range(chains):
            table[np.searchsorted(union, keys[c]), c] = probs[c]
        arrays[f"{d}.lex_keys"] = union
        arrays[f"{d}.lex_prob"] = table
        arrays[f"{d}.jump"] = np.stack(jumps)
        arrays[f"{d}.fert_log_ratio"] = np.stack(ratios)
    return Tables(arrays)


def _fertility_ratios(path: Path, words: int) -> np.ndarray:
    """(source words, FERTILITY_KEPT): log P(φ + 1 | s) / P(φ | s) of every source word for φ = 0, 1, 2, as Thot's
    decode takes them from the ``efl_fertnd`` table (a word or fertility the table lacks has Thot's smoothing
    probability, so a word without a row has ratio 1)."""
    rows = np.frombuffer(path.read_bytes(), dtype=[("s", "<u4"), ("f", "<u4"), ("numer", "<f4"), ("denom", "<f4")])
    if len(rows) and int(rows["f"].max()) > MAX_FERTILITY:
        raise ValueError(f"{path}: a fertility beyond {MAX_FERTILITY}")
    rows = rows[rows["s"] < words]  # (a word outside the vocabulary is never looked up)
    logs = np.full((words, MAX_FERTILITY + 1), np.log(SMOOTHING_PROB))
    logs[rows["s"], rows["f"]] = rows["numer"].astype(np.float64) - rows["denom"].astype(np.float64)
    return logs[:, 1 : FERTILITY_KEPT + 1] - logs[:, :FERTILITY_KEPT]


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
