"""Explicit English discourse connectives: a PDTB-style lexicon (``connectives_en.tsv``) plus parse rules.

Ambiguous words ("and", "since", "while", "so" …) are connectives only in some uses; each lexicon row names
the rule that tells the discourse use apart on the spaCy parse (see the TSV header). Longest match first,
so "as a result" is one connective, not "as"; when the longer entry's rule refuses ("instead of tea"), the
shorter one is tried ("instead", which refuses a following "of").

Arguments follow the PDTB-3 (Webber, Prasad, Lee, Joshi 2019, the PDTB-3 annotation manual, §2.5 and §5:
explicit connectives in intra-sentential relations, free adjuncts, infinitival clauses): an argument is a clause,
finite or non-finite, never a bare noun phrase. So "after leaving the house", "before signing", "instead of
going", "so as to catch", "by cutting costs", "since joining" are connectives (rule ``nonfinite``: the word after
the connective, past adverbs and auxiliaries, is a verb tagged VBG/VBN/VB, i.e. VerbForm Ger/Part/Inf, that
heads a clause and does not modify a noun), while "after the meeting", "because of the rain", "instead of tea",
"in addition to the fee", "since 2019" are not; "for example Paris" is not either (rule ``clausal``).

Senses: where an entry lists more than one, ``SENSE_RULES`` chooses one from the context; the others keep
their first listed sense.

- ``while``: Temporal.Synchronous when its clause is non-finite or verbless ("while waiting", "while in Paris"),
  either clause is progressive ("while I was cooking") or the main clause is an imperative ("while you hold
  it, pull …"); else Comparison.Contrast.
- ``since``: Temporal.Asynchronous.Succession when its clause is non-finite ("since joining") or the clause it
  attaches to is perfect ("since he moved, he has worked") and its own clause is not present tense; else
  Contingency.Cause.Reason ("since you are here, you can help").
- ``as``: Contingency.Cause.Reason when its clause is stative (be, have, know …, or a modal: "as he is ill");
  else Temporal.Synchronous ("as he opened the hatch", "as I was leaving"). "as" must mark a clause with its
  own subject (rule ``as``), so "as expected", "as is stated", "as the police announced" are not connectives.
- ``then``: Contingency.Condition when an if/unless clause precedes it in the sentence ("if it rains, then …");
  else Temporal.Asynchronous.Precedence.
- ``when``: Temporal.Asynchronous.Succession when its clause is perfect ("when he had finished"); else
  Temporal.Synchronous.
- ``still``: only clause-initial "Still," is a connective (Comparison.Concession, rule ``initial``); "he is still
  working" is a temporal adverb, not a connective, so it has no second sense to choose.
- ``meanwhile`` and the other multi-sense entries (but, however, and, finally …) keep the first sense: the parse
  gives no cue we measured to separate, e.g., Temporal.Synchronous from Expansion.Conjunction for "meanwhile".

How often these choices are right on real references is measured, not assumed: see ``dip/README.md``
(Connectives) and ``tests/gold/dip_connectives_wmt22.tsv``.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from discotest.dip.align import align
from discotest.dip.parse import Sentence, Token

# the detector's version: part of every mined test set's manifest and of the DiP signature, so a test set mined
# with other rules or senses is never scored (or compared) as if it were this one's
DETECTOR_VERSION = "connectives-pdtb3-v2"

CLAUSE_HEAD = {"VERB", "AUX"}
COMPLEMENT = {"ccomp", "csubj", "xcomp"}
TIME_ANCHORS = {"back", "since", "until", "till", "from", "by"}
NONFINITE_TAGS = {"VBG", "VBN", "VB"}  # Penn tags of VerbForm=Ger/Part (VBG), Part (VBN), Inf (VB)
NOUN_MODIFIER = {"amod", "compound", "nmod", "nsubj", "dobj", "pobj", "attr", "appos"}
CONDITION_MARKS = {"if", "unless"}
AUX_DEPS = {"aux", "auxpass"}
DEGREE_NEXT = {"ADJ", "ADV", "DET"}
SUBJECT = {"nsubj", "nsubjpass", "csubj", "expl"}
# "as the police announced": attribution, not a discourse relation (PDTB annotates attribution separately)
REPORTING = {"say", "announce", "report", "confirm", "state", "write", "explain", "tell", "note", "mention",
             "show", "expect", "know", "go", "describe", "suggest", "claim", "add", "point", "put", "call"}
# stative heads: "as he is ill", "as they have no car", "as it can …" give a reason, not a time
STATIVE = {"be", "have", "know", "need", "want", "seem", "like", "believe", "understand", "own", "belong",
           "contain", "cost", "remain", "lack", "depend", "mean", "include"}
SYNCHRONOUS, SUCCESSION, PRECEDENCE = "Temporal.Synchronous", "Temporal.Asynchronous.Succession", \
    "Temporal.Asynchronous.Precedence"
REASON, CONDITION, CONTRAST = "Contingency.Cause.Reason", "Contingency.Condition", "Comparison.Contrast"


@dataclass(frozen=True)
class Entry:
    connective: str
    senses: tuple[str, ...]
    ambiguous: bool
    rule: str

    @property
    def sense(self) -> str:
        return self.senses[0]


@dataclass(frozen=True)
class Found:
    connective: str
    sense: str
    index: int  # token index of the connective's first word


@cache
def lexicon() -> dict[tuple[str, ...], Entry]:
    text = resources.files("discotest.dip").joinpath("connectives_en.tsv").read_text("utf-8")
    rows = csv.DictReader((line for line in text.splitlines() if not line.startswith("#")), delimiter="\t")
    out = {}
    for row in rows:
        entry = Entry(row["connective"], tuple(row["senses"].split("|")), row["ambiguous"] == "yes", row["rule"])
        if entry.rule not in RULES:
            raise ValueError(f"connectives_en.tsv: unknown rule {entry.rule!r} for {entry.connective!r}")
        for sense in SENSE_RULES[entry.connective][1] if entry.connective in SENSE_RULES else ():
            if sense not in entry.senses:
                raise ValueError(f"connectives_en.tsv: {entry.connective!r} lacks the sense {sense!r}")
        out[tuple(entry.connective.split())] = entry
    return out


def _clause_initial(sent: Sentence, i: int) -> bool:
    """First word of the sentence, or right after punctuation or a coordinating conjunction."""
    return i == 0 or sent[i - 1].pos in {"PUNCT", "CCONJ"} or sent[i - 1].dep == "cc"


def _head(sent: Sentence, i: int) -> Token:
    return sent[sent[i].head]


def _children(sent: Sentence, k: int) -> list[int]:
    return [j for j, t in enumerate(sent) if t.head == k and j != k]


def _coordinate(sent: Sentence, i: int, n: int) -> bool:
    """and/but/or: sentence-initial (links to the previous sentence), or coordinating two clauses or verb
    phrases, i.e. the following conjunct is a verb ("she left and he stayed", "he came and went": PDTB-3
    annotates conjoined VPs too). Coordinated nouns or adjectives ("bread and butter") are not."""
    tok = sent[i]
    if tok.dep != "cc":
        return False
    if all(t.pos == "PUNCT" for t in sent[:i]):  # sentence-initial, maybe after an opening quote
        return True
    head = tok.head
    for j, other in enumerate(sent):
        if other.head == head and other.dep == "conj" and j > i:
            return other.pos in CLAUSE_HEAD and sent[head].pos in CLAUSE_HEAD
    return False


def _subordinate(sent: Sentence, i: int, n: int = 1) -> bool:
    """A marker of an adverbial clause ("since he left"), not a preposition ("since 2010"), not the marker of
    a complement clause ("asked if he came"), and in front of its clause: a clause whose subject or auxiliary
    comes before the word ("the groups have long since been removed") has it as an adverb."""
    head = _head(sent, i)
    if sent[i].dep == "mark" and head.pos in CLAUSE_HEAD and head.dep not in COMPLEMENT:
        return not any(sent[c].dep in SUBJECT | AUX_DEPS for c in _children(sent, sent[i].head) if c < i)
    return sent[i].text.lower() == "though" and _adverbial(sent, i)  # "He left, though."


def _nonfinite_verb(sent: Sentence, i: int, n: int) -> int | None:
    """The verb heading a non-finite clause right after the connective ("after [having] left", "instead of
    [just] going", "so as to catch"), or None. The next word past adverbs, "not" and auxiliaries must be a verb
    tagged VBG/VBN/VB that heads a clause, not a noun's modifier ("after rising prices") nor a noun; it must
    depend on the connective (pcomp "after leaving", acl "in order to sign") or be the clause the connective
    marks ("while waiting", "so as to catch"), and have no finite auxiliary ("it has since then belonged":
    "since" is an adverb of a finite clause there)."""
    j = i + n
    while j < len(sent) and (sent[j].pos in {"ADV", "PART"} or (sent[j].pos == "AUX" and sent[j].dep in AUX_DEPS)):
        j += 1
    if j >= len(sent):
        return None
    tok = sent[j]
    if tok.pos not in CLAUSE_HEAD or tok.tag not in NONFINITE_TAGS or tok.dep in NOUN_MODIFIER:
        return None
    span = range(i, i + n)
    if not (tok.head in span or any(sent[k].head == j and sent[k].dep == "mark" for k in span)):
        return None
    if any(sent[c].dep in AUX_DEPS and sent[c].tag in {"VBD", "VBZ", "VBP", "MD"} for c in _children(sent, j)):
        return None
    return j


def _nonfinite(sent: Sentence, i: int, n: int) -> bool:
    """A preposition-like connective whose argument is a non-finite clause ("by cutting costs"), never an NP."""
    return _nonfinite_verb(sent, i, n) is not None


def _clause(sent: Sentence, i: int, n: int) -> bool:
    """after/before/since/until/while: a finite clause ("after he left") or a non-finite one ("after leaving");
    not a noun phrase ("after the war", "since 2019")."""
    return _subordinate(sent, i) or _nonfinite(sent, i, n)


def _as(sent: Sentence, i: int, n: int) -> bool:
    """"as" marking a full adverbial clause ("as he was leaving", "as he is ill"); not a comparative or
    parenthetical clause without a subject of its own ("as expected", "as is stated on the website", "as
    mentioned above"), nor attribution ("as the police announced"), nor the second "as" of a comparison ("as
    much water as he needs")."""
    if not _subordinate(sent, i):
        return False
    if not any(sent[c].dep in SUBJECT and c > i for c in _children(sent, sent[i].head)):
        return False
    if _head(sent, i).lemma.lower() in REPORTING and not any(  # "as we know" vs "as I know nobody there"
            sent[c].dep in {"dobj", "ccomp", "xcomp", "attr"} for c in _children(sent, sent[i].head)):
        return False
    words = [t.text.lower() for t in sent]  # comparative: "as much … as", "so many … as", "such … as", "same … as"
    return not any(words[k] in {"such", "same"} or (words[k] in {"as", "so"} and sent[k + 1].pos in DEGREE_NEXT)
                   for k in range(max(0, i - 8), i))


def _when(sent: Sentence, i: int, n: int) -> bool:
    """"when" heading an adverbial clause; not a question ("When did he come?") nor a relative clause."""
    return sent[i].dep in {"advmod", "mark"} and _head(sent, i).dep == "advcl"


def _adverbial(sent: Sentence, i: int, n: int = 1) -> bool:
    """An adverb modifying a verb or clause; not of an adjective/adverb ("however much"), not the object of a
    preposition ("since then") nor a point in time ("back then")."""
    if i and sent[i - 1].text.lower() in TIME_ANCHORS:  # "back then", "by then", "until then": a time, not a relation
        return False
    return sent[i].dep in {"advmod", "cc", "npadvmod"} and _head(sent, i).pos in CLAUSE_HEAD


def _initial(sent: Sentence, i: int, n: int) -> bool:
    """Adverbial at the start of a clause ("Finally, he arrived"), not mid-clause ("he finally arrived")."""
    return _adverbial(sent, i) and _clause_initial(sent, i)


def _so(sent: Sentence, i: int, n: int) -> bool:
    """Result "so" ("it rained, so we stayed"), not a degree adverb ("so good") nor "I think so"."""
    return sent[i].dep == "cc" or _initial(sent, i, n)


def _bare(sent: Sentence, i: int, n: int) -> bool:
    """Not the head of a prepositional phrase: "because of the rain", "instead of tea", "in addition to the fee"
    take a noun phrase (the non-finite "instead of going" is its own entry, rule nonfinite)."""
    return not (i + n < len(sent) and sent[i + n].text.lower() in {"of", "to"})


def _clausal(sent: Sentence, i: int, n: int) -> bool:
    """"for example" / "in particular" relating clauses: the words after it (past a comma) up to the next
    punctuation contain a verb ("For example, prices rose"); "cities, for example Paris, are" lists an NP."""
    j = i + n
    while j < len(sent) and sent[j].pos == "PUNCT":
        j += 1
    while j < len(sent) and sent[j].pos != "PUNCT":
        if sent[j].pos in CLAUSE_HEAD:
            return True
        j += 1
    return False


RULES: dict[str, Callable[[Sentence, int, int], bool]] = {
    "always": lambda sent, i, n: True,
    "coordinate": _coordinate,
    "subordinate": _subordinate,
    "clause": _clause,
    "nonfinite": _nonfinite,
    "as": _as,
    "when": _when,
    "adverbial": _adverbial,
    "initial": _initial,
    "so": _so,
    "bare": _bare,
    "clausal": _clausal,
}


# --- senses in context ---------------------------------------------------------------------------------------

def _own_clause(sent: Sentence, i: int, n: int) -> int | None:
    """The verb of the clause the connective introduces (Arg2 of a subordinator): its non-finite verb, or the
    head it marks when that head follows it; None for a verbless clause ("while in Paris, he met her" hangs
    "while" on the sentence's main verb, past a comma)."""
    verb = _nonfinite_verb(sent, i, n)
    if verb is not None:
        return verb
    head = sent[i].head
    if head <= i or sent[head].pos not in CLAUSE_HEAD:
        return None
    if (sent[head].dep == "ROOT" and sent[i + n].pos in {"ADP", "ADJ", "ADV"}
            and any(t.text == "," for t in sent[i + n:head])):
        return None
    return head


def _has_aux(sent: Sentence, v: int, lemmas: set[str]) -> bool:
    return any(sent[c].dep in AUX_DEPS and sent[c].lemma.lower() in lemmas for c in _children(sent, v))


def _progressive(sent: Sentence, v: int) -> bool:
    return sent[v].tag == "VBG" and _has_aux(sent, v, {"be"})


def _perfect(sent: Sentence, v: int) -> bool:
    return _has_aux(sent, v, {"have"}) or any(_has_aux(sent, c, {"have"}) and sent[c].dep in {"conj", "xcomp"}
                                              for c in _children(sent, v))


def _present(sent: Sentence, v: int) -> bool:
    """Present tense: the verb or one of its auxiliaries is VBZ/VBP (or a modal), "is here", "can help"."""
    return sent[v].tag in {"VBZ", "VBP", "MD"} or any(
        sent[c].dep in AUX_DEPS and sent[c].tag in {"VBZ", "VBP", "MD"} for c in _children(sent, v))


def _imperative(sent: Sentence, v: int) -> bool:
    return sent[v].tag == "VB" and sent[v].dep == "ROOT" and not any(
        sent[c].dep in SUBJECT | AUX_DEPS for c in _children(sent, v))


def _while(sent: Sentence, i: int, n: int) -> str:
    own = _own_clause(sent, i, n)
    if own is None or _nonfinite_verb(sent, i, n) is not None or sent[i + n].tag == "VBG":  # "while waiting"
        return SYNCHRONOUS
    main = sent[own].head if sent[own].dep == "advcl" else None
    if _progressive(sent, own) or (main is not None and (_progressive(sent, main) or _imperative(sent, main))):
        return SYNCHRONOUS  # "while I was cooking, …", "while you hold it, pull …"
    return CONTRAST


def _since(sent: Sentence, i: int, n: int) -> str:
    if _nonfinite_verb(sent, i, n) is not None:  # "since joining the company"
        return SUCCESSION
    own = _own_clause(sent, i, n)
    if own is None:
        return REASON
    main = sent[own].head if sent[own].dep == "advcl" else None
    return SUCCESSION if main is not None and _perfect(sent, main) and not _present(sent, own) else REASON


def _as_sense(sent: Sentence, i: int, n: int) -> str:
    """A stative clause (be/have/know …, or a modal) gives a reason; an event ("as he opened the hatch")
    happens at the same time."""
    own = _own_clause(sent, i, n)
    if own is None or sent[own].lemma.lower() in STATIVE or sent[own].pos == "AUX" or any(
            sent[c].tag == "MD" for c in _children(sent, own)):
        return REASON
    return SYNCHRONOUS


def _then(sent: Sentence, i: int, n: int) -> str:
    """After an if/unless clause of the same sentence: the consequent of a condition."""
    return CONDITION if any(t.text.lower() in CONDITION_MARKS and t.dep == "mark" for t in sent[:i]) else PRECEDENCE


def _when_sense(sent: Sentence, i: int, n: int) -> str:
    own = sent[i].head
    return SUCCESSION if sent[own].dep == "advcl" and _perfect(sent, own) else SYNCHRONOUS


# connective -> (chooser(sentence, index, length), the senses it can return; ``lexicon`` checks they are the entry's)
SENSE_RULES: dict[str, tuple[Callable[[Sentence, int, int], str], tuple[str, ...]]] = {
    "while": (_while, (SYNCHRONOUS, CONTRAST)),
    "since": (_since, (SUCCESSION, REASON)),
    "as": (_as_sense, (SYNCHRONOUS, REASON)),
    "then": (_then, (CONDITION, PRECEDENCE)),
    "when": (_when_sense, (SUCCESSION, SYNCHRONOUS)),
}


def find_connectives(sent: Sentence) -> list[Found]:
    """Connectives in discourse use, left to right, longest match first, no overlaps; each with its sense in
    context (``SENSE_RULES``) or its first listed sense."""
    words = [t.text.lower() for t in sent]
    lex = lexicon()
    longest = max(len(k) for k in lex)
    out: list[Found] = []
    i = 0
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            entry = lex.get(tuple(words[i:i + n]))
            if entry is not None and RULES[entry.rule](sent, i, n):
                rule = SENSE_RULES.get(entry.connective)
                out.append(Found(entry.connective, rule[0](sent, i, n) if rule else entry.sense, i))
                i += n
                break
        else:
            i += 1
    return out


@dataclass(frozen=True)
class Match:
    same: bool  # the system has the reference's connective (accuracy)
    any: bool  # the system has some connective at that place (ANY)
    connective: str | None  # the system connective matched to it


def expected_positions(ref: Sentence, sys: Sentence, indices: list[int]) -> list[int]:
    """Where each reference token index should fall in the system sentence: its aligned word, else the nearest
    aligned neighbour shifted by the distance to it, else the same relative position."""
    mapping = align([t.text for t in ref], [t.text for t in sys])
    out = []
    for i in indices:
        left = next(((k, mapping[k]) for k in range(i, -1, -1) if mapping[k] is not None), None)
        right = next(((k, mapping[k]) for k in range(i, len(mapping)) if mapping[k] is not None), None)
        if left is not None:
            out.append(left[1] + i - left[0])
        elif right is not None:
            out.append(max(0, right[1] - (right[0] - i)))
        else:
            out.append(i * len(sys) // max(1, len(ref)))
    return out


def match(ref: list[Found], sys: list[Found], expected: list[int] | None = None) -> list[Match]:
    """Match the reference connectives of a segment to the system's at the aligned place.

    WMT segments are line-aligned; inside a segment each reference connective is expected at a system position
    (``expected_positions``; by default its own index). Same connectives pair first, nearest first (accuracy);
    each remaining reference connective then takes the nearest unused system connective (ANY). Each system
    connective is used once, so "If …, then … because …" against "If …, … as …" pairs "because" with "as".
    """
    expected = expected if expected is not None else [f.index for f in ref]
    out: list[Match | None] = [None] * len(ref)
    used: set[int] = set()
    for same_only in (True, False):
        pairs = sorted(
            (abs(expected[k] - f.index), k, n) for k in range(len(ref)) for n, f in enumerate(sys)
            if not same_only or f.connective == ref[k].connective
        )
        for _, k, n in pairs:
            if out[k] is None and n not in used:
                used.add(n)
                out[k] = Match(same_only, True, sys[n].connective)
    return [m if m is not None else Match(False, False, None) for m in out]


def match_sentences(ref: Sentence, sys: Sentence) -> tuple[list[Found], list[Match]]:
    """The reference connectives of a segment and, for each, its match in the system segment."""
    ref_found = find_connectives(ref)
    if not ref_found:
        return ref_found, []
    sys_found = find_connectives(sys)
    return ref_found, match(ref_found, sys_found, expected_positions(ref, sys, [f.index for f in ref_found]))
