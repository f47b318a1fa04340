"""Building contrastive sets as Shimazu et al. 2020 did: replace a whole pronoun chain of the English target with
another pronoun and fix English agreement.

Input JSONL, one object per line: ``target`` (the correct English current sentence), ``chain`` (the pronoun
positions in it, as indices into ``target.split()``; an entry may be ``{"token": i, "case": "obj"}`` to settle
``her``/``his``/``it`` by hand), plus whatever the suite JSONL carries (``source``, ``context``,
``target_context``, ``distance``, ``id``) which is passed through. Output: the suite JSONL of
``discotest.contrastive.jsonl``. A pronoun's case is read from its form and neighbours; a subject's verb
is fixed for is/are, was/were, has/have, does/do (and their n't forms), contractions ('s/'re/'ve) and the
present-tense -s of regular verbs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from discotest.atomic import write_text_atomic
from discotest.data.readers import check_type, json_objects, require
from discotest.errors import InputError

FORMS = {
    "he": {"subj": "he", "obj": "him", "det": "his", "poss": "his", "refl": "himself"},
    "she": {"subj": "she", "obj": "her", "det": "her", "poss": "hers", "refl": "herself"},
    "it": {"subj": "it", "obj": "it", "det": "its", "poss": "its", "refl": "itself"},
    "they": {"subj": "they", "obj": "them", "det": "their", "poss": "theirs", "refl": "themselves"},
}
DEFAULT_SWAP = {"he": "she", "she": "he", "it": "they", "they": "it"}
_LOOKUP = {form: (person, case) for person, cases in FORMS.items() for case, form in cases.items()}
_LOOKUP.update({"him": ("he", "obj"), "his": ("he", "det"), "her": ("she", "obj"), "it": ("it", "subj"),
                "its": ("it", "det")})  # ambiguous forms: decided by context below
PLURAL = {"they"}
SG_TO_PL = {"is": "are", "was": "were", "has": "have", "does": "do", "isn't": "aren't", "wasn't": "weren't",
            "hasn't": "haven't", "doesn't": "don't"}
PL_TO_SG = {v: k for k, v in SG_TO_PL.items()}
ADVERBS = {"always", "never", "also", "often", "still", "really", "just", "already", "usually", "sometimes", "even",
           "only", "probably", "certainly", "rarely", "seldom", "actually", "all", "both", "finally", "now"}
NOT_VERBS = {"was", "has", "is", "does", "his", "us", "this", "thus", "as", "always", "perhaps", "sometimes", "yes",
             "hers", "its", "less", "unless", "across", "towards", "afterwards", "plus"}
# words after "her"/"his" that show it is not a determiner ("saw her in the park", "the book is his.")
FUNCTION = {"a", "an", "the", "to", "in", "on", "at", "for", "with", "from", "by", "of", "and", "or", "but", "that",
            "if", "when", "because", "so", "as", "about", "into", "up", "down", "out", "off", "again", "too", "yet",
            "is", "was", "are", "were", "will", "would", "can", "could", "should", "this", "there", "here", "then",
            "back", "away", "home", "before", "after", "until", "while", "since", "over", "very", "right", "now"}
CONJ = {"and", "but", "so", "because", "when", "if", "that", "although", "though", "while", "since", "as", "or",
        "after", "before", "until", "once", "where", "whether"}
BASE_VERBS = {"go", "do", "have", "say", "make", "take", "come", "see", "know", "get", "want", "like", "think",
              "need", "play", "work", "live", "build", "buy", "read", "look", "seem", "keep", "run", "eat", "wash",
              "try", "watch", "give", "tell", "find", "feel", "leave", "call", "ask", "love", "help", "start",
              "remember", "believe", "bring", "write", "sit", "stand", "hear", "let", "mean", "pay", "meet", "lose",
              "win", "sleep", "walk", "talk", "use", "wear", "fly", "cry", "carry", "study", "hope", "miss", "fix"}
_PARTS = re.compile(r"^([^\w']*)([\w']*?)((?:'(?:s|re|ve|d|ll|m))?)([^\w']*)$", re.UNICODE)


def _split(token: str) -> tuple[str, str, str, str]:
    m = _PARTS.match(token)
    if not m:
        return "", token, "", ""
    return m.group(1), m.group(2), m.group(3), m.group(4)


def _word(tokens: list[str], i: int) -> str:
    return _split(tokens[i])[1].lower() if 0 <= i < len(tokens) else ""


def _case_of(tokens: list[str], i: int, form: str) -> str:
    """Grammatical case of the pronoun at ``i`` from its form and neighbours."""
    nxt = _word(tokens, i + 1)
    ends_clause = bool(_split(tokens[i])[3]) or not nxt
    if form in ("her", "his"):
        if ends_clause or nxt in FUNCTION or not nxt.isalpha():
            return "obj" if form == "her" else "poss"
        return "det"
    if form == "it":
        prev = _word(tokens, i - 1)
        starts = i == 0 or bool(_split(tokens[i - 1])[3]) or prev in CONJ
        follows_verb = nxt in SG_TO_PL or nxt in PL_TO_SG or nxt in ADVERBS or nxt in NOT_VERBS or (
            nxt.endswith("s") and nxt not in NOT_VERBS) or nxt in {"will", "would", "can", "could", "did", "had"}
        return "subj" if starts or (follows_verb and not ends_clause) or _split(tokens[i])[2] else "obj"
    return _LOOKUP[form][1]


def _match_case(new: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return new.upper()
    return new[:1].upper() + new[1:] if like[:1].isupper() else new


def _to_plural_verb(word: str) -> str | None:
    low = word.lower()
    if low in SG_TO_PL:
        return SG_TO_PL[low]
    if low.endswith("s") and low not in NOT_VERBS and len(low) > 2 and not low.endswith("ss"):
        if low.endswith("ies"):
            return low[:-3] + "y"
        if re.search(r"(s|sh|ch|x|z|o)es$", low):
            return low[:-2]
        return low[:-1]
    return None


def _to_singular_verb(word: str) -> str | None:
    low = word.lower()
    if low in PL_TO_SG:
        return PL_TO_SG[low]
    if low in BASE_VERBS:
        if low == "have":
            return "has"
        if re.search(r"[^aeiou]y$", low):
            return low[:-1] + "ies"
        if re.search(r"(s|sh|ch|x|z|o)$", low):
            return low + "es"
        return low + "s"
    return None


def _contraction(old_person: str, new_person: str, clitic: str, next_word: str) -> str:
    """'s (is/has) ↔ 're/'ve when number changes."""
    if not clitic or (old_person in PLURAL) == (new_person in PLURAL):
        return clitic
    if new_person in PLURAL and clitic == "'s":
        perfect = next_word in {"been", "got", "had", "done", "gone", "seen"} or next_word.endswith("ed")
        return "'ve" if perfect else "'re"
    if old_person in PLURAL and clitic in ("'re", "'ve"):
        return "'s"
    return clitic


def _fix_verb(tokens: list[str], i: int, old: str, new: str) -> None:
    """Make the verb after the subject at ``i`` agree with ``new`` (skipping adverbs)."""
    if (old in PLURAL) == (new in PLURAL) and new != "they":
        return
    j = i + 1
    while j < len(tokens) and _word(tokens, j) in ADVERBS:
        j += 1
    if j >= len(tokens) or _split(tokens[i])[3]:
        return
    lead, word, clitic, trail = _split(tokens[j])
    fixed = _to_plural_verb(word) if new in PLURAL else _to_singular_verb(word)
    if fixed is not None and (old in PLURAL) != (new in PLURAL):
        tokens[j] = lead + _match_case(fixed, word) + clitic + trail


def swap_chain(target: str, chain: list, new: str) -> str:
    """The target with every pronoun of ``chain`` replaced by the matching form of ``new`` (he/she/it/they)."""
    if new not in FORMS:
        raise ValueError(f"replacement must be one of {', '.join(FORMS)}")
    tokens = target.split()
    for entry in chain:
        i, case = (entry, None) if isinstance(entry, int) else (entry["token"], entry.get("case"))
        lead, word, clitic, trail = _split(tokens[i])
        form = word.lower()
        if form not in _LOOKUP:
            raise ValueError(f"token {i} ({tokens[i]!r}) is not a third-person pronoun")
        old = _LOOKUP[form][0]
        case = case or _case_of(tokens, i, form)
        replacement = _match_case(FORMS[new][case], word)
        clitic = _contraction(old, new, clitic, _word(tokens, i + 1))
        tokens[i] = lead + replacement + clitic + trail
        if case == "subj" and not _split(target.split()[i])[2]:
            _fix_verb(tokens, i, old, new)
    return " ".join(tokens)


def build_item(row: dict, replacement: str | None = None, where: str | None = None, line: int | None = None) -> dict:
    """One suite JSONL row from one annotated row."""
    target, chain = require(row, "target", str, where, line), require(row, "chain", list, where, line)
    if not chain:
        raise InputError("field 'chain' must be a non-empty list of token positions", where, line)
    tokens = target.split()
    positions = []
    for entry in chain:
        if isinstance(entry, dict):
            position = require(entry, "token", int, where, line, what="field 'token' of a chain entry")
            case = require(entry, "case", (str, type(None)), where, line, default=None,
                           what="field 'case' of a chain entry")
            if case is not None and case not in FORMS["he"]:
                raise InputError(f"chain case {case[:20]!r} is not one of {', '.join(FORMS['he'])}", where, line)
        else:
            position = check_type(entry, int, "a chain entry (a token position, or an object)", where, line)
        if not 0 <= position < len(tokens):
            raise InputError(f"chain position {position} does not point into the {len(tokens)} target tokens",
                             where, line)
        positions.append(position)
    first = _split(tokens[positions[0]])[1].lower()
    if first not in _LOOKUP:
        raise InputError(f"chain starts at {tokens[positions[0]]!r}, not a he/she/it/they pronoun", where, line)
    old = _LOOKUP[first][0]
    new = replacement or DEFAULT_SWAP[old]
    if new == old:
        raise InputError(f"the chain is already {new!r}", where, line)
    try:
        incorrect = swap_chain(target, chain, new)
    except (ValueError, IndexError) as exc:
        raise InputError(str(exc), where, line) from None
    out = {k: v for k, v in row.items() if k not in ("target", "chain")}
    out.update(correct=target, incorrect=[incorrect], pronoun=old, incorrect_pronoun=[new])
    out.setdefault("source", "")
    out.setdefault("phenomenon", "pronoun")
    return out


def build_rows(path: str | Path, replacement: str | None = None) -> list[dict]:
    """Every row of the file with its incorrect variants (``make-contrastive``); an empty file is an error."""
    rows = [build_item(row, replacement, str(path), n) for n, row in json_objects(path)]
    if not rows:
        raise InputError("no rows in the file", path)
    return rows


def rows_text(rows: list[dict]) -> str:
    """The rows as the JSONL a contrastive suite is read from."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write_rows(output: str | Path, rows: list[dict]) -> None:
    write_text_atomic(output, rows_text(rows))


def build_file(path: str | Path, output: str | Path, replacement: str | None = None) -> int:
    rows = build_rows(path, replacement)
    write_rows(output, rows)
    return len(rows)
