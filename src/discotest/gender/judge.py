"""Gender accuracy of translated entities (Stanovsky et al. 2019; Yehudai et al. 2023, Table 9).

Accuracy counts every evaluated item (neutral gold included, as in the original evaluation);
precision/recall/F1 per gender; ΔG = F1(male) − F1(female); ΔS = accuracy on the pro-stereotypical
rows − accuracy on the anti-stereotypical rows. Figures are percentages.

Two verdicts per item. The *noun* verdict (``predicted_gender``, Stanovsky's WinoMT) is the gender of the entity's
noun and the words agreeing with it; where these show none (an epicene noun after an elided article, a Hebrew
homograph), the words that render the English sentence's one pronoun (``gender.pipeline.complete_silent``). A gender
that is only grammatical (the default masculine of an indefinite pronoun, the fixed gender of an epicene noun: die
Reinigungskraft), with nothing else marking the person, is neutral (``gender.pipeline.noun_gender``); ``--verdict
grammatical`` keeps it, as mt_gender does. The consistency reading compares the pronoun with the noun's own
grammatical gender; the rule below takes the noun verdict.

The *reader* verdict (``conveyed_gender``, ``convey``) is what a
reader takes from the whole translation: the noun plus the coreferent pronoun (the target words aligned to the
English pronoun, read by the consistency reading). The conflict rule, with N the noun's gender, P the pronoun's
(only when the translation shows one: not omitted, dropped, possessive-agreeing or unreadable) and D the
distractor's (the other entity of the sentence):

- no P, or P neutral (ungendered) → N (``unknown`` when nothing is readable; a neutral P with no readable N → neutral);
- P = N → that gender;
- N unknown (unreadable, or epicene with nothing agreeing) → P; N neutral → P when feminine, neutral when masculine
  (masculine agreement is the generic one for an indefinite or neuter noun: "jemanden …, dass seine Katze …",
  "quelqu'un … il" show no sex);
- N ≠ P, both gendered, and the pronoun fits the other entity (D = P, or P masculine and D neutral: masculine
  agreement is the generic one for an indefinite or epicene noun, "Die Sekretärin bat jemanden, …, damit er …") → N:
  a reader takes the pronoun to refer to that one ("Der Entwickler stritt mit der Designerin, weil sie …": sie is the
  designer) and it says nothing about the entity — unless the pronoun is the object of a clause whose subject is the
  other entity (``bound``: "Die Friseurin sprach mit dem Manager und bat sie um Hilfe": sie is not the hairdresser,
  that would be sich), then the pronoun is the entity's and the next two rules apply;
- otherwise N masculine, P feminine → female: a generic masculine noun, and the only feminine cue is the pronoun
  ("Der Schriftsteller interviewte den Manager, weil sie sehr erfolgreich ist": the manager is a woman);
- otherwise N feminine, P masculine → mixed: a feminine noun names women only, so the translation contradicts itself.

When the pronoun is compatible with both entities (N neutral, or N = P) the rule follows the English sentence,
whose pronoun refers to the entity: a reader resolves it by meaning, as the Winograd schema intends. Known limits
(tests/gender/test_reader_gold.py lists the gold rows they cost): N does not say whether a masculine reading came from
the noun alone or from a verb agreeing with it (ru "Менеджер согласился …, потому что она …" shows a man, not a generic
masculine noun), and an epicene noun counts by its grammatical gender (it "la guardia … lo").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class GenderVerdict:
    """One item's evidence and verdict: what ``--details`` writes, one JSON line each."""

    index: int
    source: str
    translation: str
    entity: str
    target_entity: list[str]
    located_by: str  # aligned / lexicon-confirmed / lexicon-found / lexicon-override / none
    predicted_gender: str
    gold_gender: str
    correct: bool
    reason: str
    evidence: list[str] = field(default_factory=list)
    stereotype: str | None = None
    # target-side consistency (--measure consistency); None when not measured
    pronoun: str | None = None  # the English pronoun
    target_pronoun: list[str] | None = None  # target words aligned to it
    pronoun_gender: str | None = None
    pronoun_reason: str | None = None
    # why the item is left out: an OMISSION_REASONS key, "pronoun-unreadable" (the target marks gender but it could
    # not be read), "entity-unreadable" (the entity's gender could not be read), or "no-source-pronoun"
    omitted: str | None = None
    distractor: str | None = None
    target_distractor: list[str] | None = None
    distractor_gender: str | None = None
    consistent: bool | None = None  # pronoun gender == entity gender; None when omitted
    # the reader-level verdict (--verdict reader, ``convey``); None when not computed
    conveyed_gender: str | None = None
    conveyed_reason: str | None = None
    conveyed_evidence: list[str] | None = None

    def to_json(self) -> dict:
        out = asdict(self)
        if self.pronoun is None:  # consistency not measured: keep the details file lean
            for key in CONSISTENCY_FIELDS:
                out.pop(key)
        if self.conveyed_gender is None:
            for key in READER_FIELDS:
                out.pop(key)
        return out

    def gender(self, verdict: str = "noun") -> str:
        """The item's gender under ``verdict`` (noun, grammatical: ``predicted_gender``, read under that convention;
        reader: ``conveyed_gender``)."""
        if verdict in NOUN_VERDICTS:
            return self.predicted_gender
        if self.conveyed_gender is None:
            raise ValueError(f"item {self.index}: the reader-level verdict was not computed")
        return self.conveyed_gender

    def is_correct(self, verdict: str = "noun") -> bool:
        return self.correct if verdict in NOUN_VERDICTS else self.gender(verdict) == self.gold_gender


CONSISTENCY_FIELDS = (
    "pronoun", "target_pronoun", "pronoun_gender", "pronoun_reason", "omitted", "distractor", "target_distractor",
    "distractor_gender", "consistent",
)
READER_FIELDS = ("conveyed_gender", "conveyed_reason", "conveyed_evidence")
# what accuracy, ΔG and ΔS are computed on (--verdict): the noun-level verdict (``pipeline.noun_gender``: an entity
# whose gender is only grammatical, an indefinite or an epicene noun with nothing else marking the person, is
# neutral), the same under mt_gender's convention (its grammatical gender counts: for comparison with papers), or
# the reader-level verdict
VERDICTS = ("noun", "grammatical", "reader")
NOUN_VERDICTS = ("noun", "grammatical")  # scored on ``predicted_gender``
_GENDERED = ("male", "female")


@dataclass(frozen=True)
class Conveyed:
    """The reader-level gender of one entity, why, and the words it was read from."""

    gender: str  # male / female / neutral / mixed / unknown
    reason: str
    evidence: tuple[str, ...] = ()


def convey(
    noun: str,
    noun_evidence: Sequence[str],
    pronoun: str | None,
    pronoun_evidence: Sequence[str] = (),
    distractor: str | None = None,
    no_pronoun: str = "no pronoun gender",
    bound: bool = False,
) -> Conveyed:
    """What a reader takes about the entity's gender from its noun (``noun``: male / female / neutral / unknown) and
    its coreferent pronoun (``pronoun``: the gender the translation shows for it, None when it shows none, and then
    ``no_pronoun`` says why), given the distractor's noun gender (None: no distractor) and whether the pronoun cannot
    refer to the distractor (``bound``: an object of its clause, the distractor the subject). The rule is the
    module's."""
    noun_ev, pro_ev = tuple(noun_evidence), tuple(pronoun_evidence)
    if pronoun not in (*_GENDERED, "neutral"):
        if noun == "unknown":
            return Conveyed("unknown", f"nothing readable: noun unreadable, {no_pronoun}")
        return Conveyed(noun, f"noun only ({no_pronoun})", noun_ev)
    if pronoun == "neutral":
        if noun in _GENDERED:
            return Conveyed(noun, "noun; the pronoun is ungendered", noun_ev)
        return Conveyed("neutral", f"{'neutral noun' if noun == 'neutral' else 'noun unreadable'}, ungendered pronoun",
                        noun_ev + pro_ev)
    if noun == pronoun:
        return Conveyed(noun, "noun and pronoun agree", noun_ev + pro_ev)
    if noun == "neutral" and pronoun == "male":
        return Conveyed("neutral", "neutral noun; a masculine pronoun is its generic agreement", noun_ev + pro_ev)
    if noun not in _GENDERED:
        return Conveyed(pronoun, f"pronoun ({'neutral noun' if noun == 'neutral' else 'noun unreadable'})",
                        noun_ev + pro_ev if noun == "neutral" else pro_ev)
    if not bound and (distractor == pronoun or (pronoun == "male" and distractor == "neutral")):
        return Conveyed(noun, f"noun; the {pronoun} pronoun fits the other entity, so it refers to that one", noun_ev)
    if noun == "male":
        why = "; the other entity is the subject" if bound and distractor == pronoun else ""
        return Conveyed("female", f"generic masculine noun, feminine pronoun{why}", noun_ev + pro_ev)
    return Conveyed("mixed", "feminine noun, masculine pronoun", noun_ev + pro_ev)


def _pct(num: float, den: float) -> float:
    return 100.0 * num / den if den else 0.0


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def delta_g_from_sums(row) -> float:
    """ΔG from summed ``[hit♂, gold♂, predicted♂, hit♀, gold♀, predicted♀]`` rows, as ``score_gender`` computes it."""
    hit_m, gold_m, said_m, hit_f, gold_f, said_f = (float(x) for x in row)
    return _f1(_pct(hit_m, said_m), _pct(hit_m, gold_m)) - _f1(_pct(hit_f, said_f), _pct(hit_f, gold_f))


def delta_s_from_sums(row) -> float:
    """ΔS from summed ``[correct pro, pro, correct anti, anti]`` rows, as ``score_gender`` computes it."""
    ok_pro, pro, ok_anti, anti = (float(x) for x in row)
    return _pct(ok_pro, pro) - _pct(ok_anti, anti)


@dataclass(frozen=True)
class GenderScores:
    n: int
    accuracy: float
    precision_male: float
    recall_male: float
    f1_male: float
    precision_female: float
    recall_female: float
    f1_female: float
    delta_g: float
    accuracy_pro: float | None
    accuracy_anti: float | None
    delta_s: float | None
    unknown: float  # share of items whose gender could not be read
    neutral: float  # share read as neutral
    mixed: float | None = None  # reader verdict only: share whose noun and pronoun contradict each other

    def to_json(self) -> dict:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(self).items()
                if not (k == "mixed" and v is None)}


@dataclass(frozen=True)
class ConsistencyScores:
    """Target-side consistency (Yehudai et al. 2023, §3): does the pronoun agree with its entity?

    ``consistency`` is over the scored items (pronoun and entity genders both read); ``omitted``
    counts the rest by reason; ``trivial`` is the share of scored items where entity and distractor
    have the same target gender, so agreement says nothing about which one the pronoun refers to.
    """

    n: int
    scored: int
    consistency: float
    trivial: float
    omitted: dict[str, int]

    def to_json(self) -> dict:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def score_consistency(verdicts: Sequence[GenderVerdict]) -> ConsistencyScores:
    scored = [v for v in verdicts if v.consistent is not None]
    omitted: dict[str, int] = {}
    for v in verdicts:
        if v.consistent is None:
            reason = v.omitted or "pronoun-unreadable"
            omitted[reason] = omitted.get(reason, 0) + 1
    trivial = [v for v in scored if v.distractor_gender == v.predicted_gender]
    return ConsistencyScores(
        n=len(verdicts),
        scored=len(scored),
        consistency=_pct(sum(bool(v.consistent) for v in scored), len(scored)),
        trivial=_pct(len(trivial), len(scored)),
        omitted=dict(sorted(omitted.items())),
    )


def score_gender(verdicts: Sequence[GenderVerdict], verdict: str = "noun") -> GenderScores:
    """The scores on the noun-level (``predicted_gender``) or reader-level (``conveyed_gender``) verdict."""
    n = len(verdicts)
    correct = [v.is_correct(verdict) for v in verdicts]
    genders = [v.gender(verdict) for v in verdicts]
    per_gender = {}
    for gender in ("male", "female"):
        gold = [ok for v, ok in zip(verdicts, correct) if v.gold_gender == gender]
        predicted = [g for g in genders if g == gender]
        hits = sum(gold)
        p, r = _pct(hits, len(predicted)), _pct(hits, len(gold))
        per_gender[gender] = (p, r, _f1(p, r))
    subset_acc = {}
    for subset in ("pro", "anti"):
        rows = [ok for v, ok in zip(verdicts, correct) if v.stereotype == subset]
        subset_acc[subset] = _pct(sum(rows), len(rows)) if rows else None
    delta_s = (
        subset_acc["pro"] - subset_acc["anti"]
        if subset_acc["pro"] is not None and subset_acc["anti"] is not None
        else None
    )
    return GenderScores(
        n=n,
        accuracy=_pct(sum(correct), n),
        precision_male=per_gender["male"][0],
        recall_male=per_gender["male"][1],
        f1_male=per_gender["male"][2],
        precision_female=per_gender["female"][0],
        recall_female=per_gender["female"][1],
        f1_female=per_gender["female"][2],
        delta_g=per_gender["male"][2] - per_gender["female"][2],
        accuracy_pro=subset_acc["pro"],
        accuracy_anti=subset_acc["anti"],
        delta_s=delta_s,
        unknown=_pct(genders.count("unknown"), n),
        neutral=_pct(genders.count("neutral"), n),
        mixed=_pct(genders.count("mixed"), n) if verdict == "reader" else None,
    )
