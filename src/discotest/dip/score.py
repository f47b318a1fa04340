"""Score one system's output lines on mined DiP items: per-item verdicts and rows of statistics.

Statistic rows are what the paired bootstrap resamples (``discotest.stats.paired_bootstrap``):
lexical ``[consistent, 1]``, connectives ``[same, any, 1]``, anaphora ``[score(ref) − score(sys), differs]``,
coherence ``[score(ref) − score(sys)]``. Anaphora and coherence follow the paper's Eq. 1, Σ(ref − sys),
lower is better; an item where the system's pronoun equals the reference's contributes 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from discotest.dip import anaphora, connectives, lexical
from discotest.dip.mine import CoherenceModel, Parses
from discotest.models.requests import Ask


class PronounScorer(Protocol):
    name: str

    def signature(self) -> str: ...

    def score(self, contexts: Sequence[Sequence[str]], sentences: Sequence[str]) -> list[float]: ...


@runtime_checkable
class ModelPronounScorer(PronounScorer, Protocol):
    """A pronoun scorer that asks a model through the door (``hf:``): a run states each of its calls as requests
    (``ask``: one ``Ask``, answered in one call of the model, as ``score`` would call it) and reads the answers
    back (``read``); a scorer without a model (the offline ones) scores in the run's score phase."""

    def ask(self, contexts: Sequence[Sequence[str]], sentences: Sequence[str], what: str | None = None) -> Ask: ...

    def read(self, answers: Sequence[Any]) -> list[float]: ...


@dataclass(frozen=True)
class Metric:
    label: str
    higher_is_better: bool
    value: Callable[[np.ndarray], float]  # column sums of the statistic rows -> the score


def _pct(col: int, total: int) -> Callable[[np.ndarray], float]:
    return lambda s: 100.0 * s[col] / s[total] if s[total] else 0.0


METRICS = {
    "lexical": Metric("consistency %", True, _pct(0, 1)),
    "connectives": Metric("accuracy %", True, _pct(0, 2)),
    "anaphora": Metric("Σ(ref−sys)", False, lambda s: float(s[0])),
    "coherence": Metric("Σ(ref−sys)", False, lambda s: float(s[0])),
}
EXTRA = {"connectives": ("ANY %", _pct(1, 2)), "anaphora": ("differs", lambda s: int(round(s[1])))}  # differs: a count


@dataclass
class PhenomenonScore:
    phenomenon: str
    system: str
    verdicts: list[dict]
    stats: list[list[float]]
    summary: dict = field(default_factory=dict)

    @property
    def value(self) -> float:
        return float(METRICS[self.phenomenon].value(self.sums()))

    def sums(self) -> np.ndarray:
        width = {"lexical": 2, "connectives": 3, "anaphora": 2, "coherence": 1}[self.phenomenon]
        return np.asarray(self.stats, dtype=float).reshape(-1, width).sum(0)


def _summary(score: PhenomenonScore) -> dict:
    sums = score.sums()
    out = {"n": len(score.stats), METRICS[score.phenomenon].label: score.value}
    if score.phenomenon in EXTRA:
        label, fn = EXTRA[score.phenomenon]
        out[label] = fn(sums)
    if score.phenomenon == "lexical":
        out.update(Counter(v["miss"] for v in score.verdicts if v["miss"]))
    return out


def score_lexical(items: Sequence[dict], ref: Parses, sys: Parses) -> tuple[list[dict], list[list[float]]]:
    verdicts, stats = [], []
    for item in items:
        ref_block = [ref[i] for i in item["sentences"]]
        sys_block = [sys[i] for i in item["sentences"]]
        count = lexical.count_lemma(sys_block, item["lemma"])
        consistent = count >= item["ref_count"]
        miss, other = (None, None) if consistent else lexical.classify_miss(ref_block, sys_block, item["lemma"])
        verdicts.append({"id": item["id"], "lemma": item["lemma"], "ref_count": item["ref_count"], "count": count,
                         "consistent": consistent, "miss": miss, "other_word": other})
        stats.append([float(consistent), 1.0])
    return verdicts, stats


def score_connectives(items: Sequence[dict], ref: Parses, sys: Parses) -> tuple[list[dict], list[list[float]]]:
    verdicts, stats = [], []
    for item in items:
        line = item["sentences"][0]
        ref_found, matches = connectives.match_sentences(ref[line], sys[line])
        k = next((n for n, f in enumerate(ref_found) if f.index == item["token"]), None)
        # k is None when the parse changed since mining (another spaCy model): the item cannot be placed
        m = connectives.Match(False, False, None) if k is None else matches[k]
        verdicts.append({"id": item["id"], "connective": item["connective"], "sense": item["sense"],
                         "system_connective": m.connective, "same": m.same, "any": m.any})
        stats.append([float(m.same), float(m.any), 1.0])
    return verdicts, stats


def reference_pronoun_call(items: Sequence[dict], reference: Sequence[str]) -> tuple[list[list[str]], list[str]]:
    """The contexts and sentences of the reference's call: every anaphora item's reference sentence in its context."""
    return [[reference[i] for i in item["sentences"][:-1]] for item in items], \
        [reference[item["sentences"][-1]] for item in items]


def reference_pronoun_scores(items: Sequence[dict], reference: Sequence[str], scorer: PronounScorer) -> list[float]:
    """score(ref in its context) per anaphora item: the same for every system, so computed once."""
    return scorer.score(*reference_pronoun_call(items, reference))


def swap_pronoun(sentence: str, ref: Parses, item: dict, pronoun: str) -> str:
    """The reference sentence with the system's pronoun in place of the reference's (case kept)."""
    tok = ref[item["sentences"][-1]][item["token"]]
    initial = tok.text[:1].isupper() and (tok.text.lower() != "i" or tok.idx == 0)  # "I" is upper anywhere
    word = pronoun.capitalize() if initial or pronoun == "i" else pronoun
    return sentence[:tok.idx] + word + sentence[tok.idx + len(tok.text):]


@dataclass(frozen=True)
class PronounCall:
    """What one system's anaphora items ask the pronoun scorer, in one call: the system's pronoun per item (None
    where it is the reference's), the items that differ (``todo``), and their contexts and sentences."""

    pronouns: list[str | None]
    todo: list[int]
    contexts: list[list[str]]
    sentences: list[str]


def pronoun_call(items: Sequence[dict], lines: Sequence[str], ref: Parses, sys: Parses, mode: str = "system",
                 reference: Sequence[str] = ()) -> PronounCall:
    """``mode="system"`` (the paper): the system sentence in the system's own context. ``mode="swap"``: the
    reference sentence and context with only the pronoun replaced by the system's, so the difference measures the
    pronoun alone and not the rest of the sentence (length and fluency dominate sentence scores otherwise)."""
    pronouns = anaphora.pronoun_pairs(items, sys, ref)
    todo = [k for k, p in enumerate(pronouns) if p is not None]
    if mode == "swap":
        contexts = [[reference[i] for i in items[k]["sentences"][:-1]] for k in todo]
        sentences = [swap_pronoun(reference[items[k]["sentences"][-1]], ref, items[k], pronouns[k]) for k in todo]
    else:
        contexts = [[lines[i] for i in items[k]["sentences"][:-1]] for k in todo]
        sentences = [lines[items[k]["sentences"][-1]] for k in todo]
    return PronounCall(pronouns, todo, contexts, sentences)


def score_anaphora(items: Sequence[dict], lines: Sequence[str], ref: Parses, sys: Parses,
                   scorer: PronounScorer, ref_scores: Sequence[float], mode: str = "system",
                   reference: Sequence[str] = (), answered: Sequence[float] | None = None
                   ) -> tuple[list[dict], list[list[float]]]:
    """Σ(ref − sys) per item (``pronoun_call`` says what is scored); ``answered``: the scores of that call, already
    asked of the scorer's model (``ModelPronounScorer``), else the scorer is called here."""
    call = pronoun_call(items, lines, ref, sys, mode, reference)
    pronouns, todo = call.pronouns, call.todo
    if answered is not None:
        if len(answered) != len(todo):  # the requests were stated from other parses: a bug, not the user's input
            raise RuntimeError(f"{len(answered)} pronoun scores answered for {len(todo)} items")
        sys_scores = list(answered)
    else:
        sys_scores = scorer.score(call.contexts, call.sentences) if todo else []
    by_item = dict(zip(todo, sys_scores))
    verdicts, stats = [], []
    for k, item in enumerate(items):
        differs = k in by_item
        diff = ref_scores[k] - by_item[k] if differs else 0.0
        verdicts.append({"id": item["id"], "pronoun": item["pronoun"], "system_pronoun": pronouns[k],
                         "differs": differs, "score_ref": ref_scores[k],
                         "score_sys": by_item.get(k), "diff": diff})
        stats.append([diff, float(differs)])
    return verdicts, stats


def reference_coherence_scores(items: Sequence[dict], reference: Sequence[str], model: CoherenceModel) -> list[float]:
    return model.score_documents([[reference[i] for i in item["sentences"]] for item in items])


def score_coherence(items: Sequence[dict], lines: Sequence[str], model: CoherenceModel,
                    ref_scores: Sequence[float]) -> tuple[list[dict], list[list[float]]]:
    sys_scores = model.score_documents([[lines[i] for i in item["sentences"]] for item in items]) if items else []
    verdicts = [{"id": item["id"], "score_ref": r, "score_sys": s, "diff": r - s}
                for item, r, s in zip(items, ref_scores, sys_scores)]
    return verdicts, [[v["diff"]] for v in verdicts]


@dataclass
class Scorers:
    """The models and the reference-side scores shared by every system scored on the same items."""

    pronoun: PronounScorer | None = None
    coherence: CoherenceModel | None = None
    ref_pronoun: list[float] | None = None
    ref_coherence: list[float] | None = None
    anaphora_mode: str = "swap"  # or "system" (see score_anaphora)
    # per system name, its pronoun scores already asked of the pronoun scorer's model (``ModelPronounScorer``)
    answered: dict[str, list[float]] = field(default_factory=dict)


def score_system(name: str, lines: Sequence[str], tests: dict[str, list[dict]], reference: Sequence[str],
                 ref: Parses, sys: Parses, scorers: Scorers,
                 progress: Callable[[int], None] | None = None) -> dict[str, PhenomenonScore]:
    """Score one system on every phenomenon present in ``tests`` whose model is available; ``progress`` is called
    with 1 per phenomenon done (scored or skipped)."""
    out: dict[str, PhenomenonScore] = {}
    for phenomenon, items in tests.items():
        scored = _score_phenomenon(name, phenomenon, items, lines, reference, ref, sys, scorers)
        if scored is not None:
            result = PhenomenonScore(phenomenon, name, *scored)
            result.summary = _summary(result)
            out[phenomenon] = result
        if progress:
            progress(1)
    return out


def _score_phenomenon(name: str, phenomenon: str, items: list[dict], lines: Sequence[str], reference: Sequence[str],
                      ref: Parses, sys: Parses, scorers: Scorers) -> tuple[list[dict], list[list[float]]] | None:
    """(verdicts, statistics) of one phenomenon, or None when its model is missing."""
    if phenomenon == "lexical":
        return score_lexical(items, ref, sys)
    if phenomenon == "connectives":
        return score_connectives(items, ref, sys)
    if phenomenon == "anaphora":
        if scorers.pronoun is None:
            return None
        if scorers.ref_pronoun is None:
            scorers.ref_pronoun = reference_pronoun_scores(items, reference, scorers.pronoun)
        return score_anaphora(items, lines, ref, sys, scorers.pronoun, scorers.ref_pronoun, scorers.anaphora_mode,
                              reference, scorers.answered.get(name))
    if phenomenon == "coherence":
        if scorers.coherence is None:
            return None
        if scorers.ref_coherence is None:
            scorers.ref_coherence = reference_coherence_scores(items, reference, scorers.coherence)
        return score_coherence(items, lines, scorers.coherence, scorers.ref_coherence)
    return None
