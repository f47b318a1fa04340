"""Read the eval-anaphora pronoun test data (Jwalapuram et al. 2019) as (context, reference, system) triples.

Each JSONL record holds lowercased English token lists: ``reference_sentence`` and ``noisy_sentence`` (a system
sentence that differs from the reference in a pronoun) and ``reference_context`` — the previous sentences of the
document *followed by the reference sentence itself*. The loader strips that trailing copy and splits the rest into
sentences at sentence-final punctuation, so callers get the same shape as DiP: previous sentences, then the sentence.

``pronoun_pair_list.json`` is the user study of the same paper: per ``"<ref pronoun>_<sys pronoun>"`` a list of
``[agreement, {"REF": n, "SYS": n, "Tie": n}]`` (how many judgements preferred the reference, the system or neither).
Only the counts are read: the float's meaning is not documented (it is not the REF share: 25 REF, 6 SYS has 1.0).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.data.catalogue import data_dir
from discotest.data.readers import json_objects, read_json, require
from discotest.errors import InputError

LANGUAGES = ("chinese", "french", "german", "russian")
SENTENCE_END = {".", "?", "!"}
REQUIRED = ("reference_context", "reference_sentence", "noisy_sentence")
VOTES = ("REF", "SYS", "Tie")


@dataclass(frozen=True)
class AnaphoraPair:
    """One reference-vs-system pair; sentences are space-joined lowercased tokens."""

    context: tuple[str, ...]
    reference: str
    system: str
    origin: str
    sample_id: int | None
    language: str


def split_sentences(tokens: list[str]) -> list[str]:
    """Token list → sentence strings, cut after '.', '?' or '!' (the data keeps no sentence boundaries)."""
    out, current = [], []
    for tok in tokens:
        current.append(tok)
        if tok in SENTENCE_END:
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return out


def _token_list(record: dict, key: str, path: Path, line: int) -> list[str]:
    value = record.get(key)
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InputError(f"{key!r} must be a list of token strings", path, line)
    return value


def read_pairs(path: str | Path, language: str | None = None) -> list[AnaphoraPair]:
    """All records of one ``test_data_<language>.jsonl`` file."""
    path = Path(path)
    if not path.is_file():
        raise InputError("eval-anaphora file not found", path)
    language = language or path.stem.removeprefix("test_data_")
    out = []
    for number, record in json_objects(path):
        ctx, ref, sys_ = (_token_list(record, key, path, number) for key in REQUIRED)
        if not ref or not sys_:
            raise InputError("empty reference or system sentence", path, number)
        if ctx[len(ctx) - len(ref):] == ref:  # the context ends with the sentence itself
            ctx = ctx[:len(ctx) - len(ref)]
        out.append(AnaphoraPair(tuple(split_sentences(ctx)), " ".join(ref), " ".join(sys_),
                                str(record.get("origin", "")),
                                require(record, "sample_id", (int, type(None)), path, number, default=None), language))
    return out


def load_eval_anaphora(data: str | Path | None = None, languages: tuple[str, ...] = LANGUAGES
                       ) -> dict[str, list[AnaphoraPair]]:
    """Pairs per language from ``<data dir>/eval_anaphora/test_data_<language>.jsonl``."""
    folder = data_dir(data) / "eval_anaphora"
    out = {}
    for language in languages:
        path = folder / f"test_data_{language}.jsonl"
        if not path.is_file():
            raise InputError("eval-anaphora test data missing (put the eval_anaphora folder in the data dir)", path)
        out[language] = read_pairs(catalogue.check_file(path, data), language)
    return out


def pronoun_substitution(pair: AnaphoraPair) -> str | None:
    """``"<ref word>_<sys word>"`` when the system sentence is the reference with one word replaced by one other
    (the key of ``pronoun_pair_list.json``), else None."""
    ref, sys_ = pair.reference.split(), pair.system.split()
    changes = [op for op in difflib.SequenceMatcher(None, ref, sys_, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(changes) != 1:
        return None
    tag, i1, i2, j1, j2 = changes[0]
    if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
        return None
    return f"{ref[i1]}_{sys_[j1]}"


def read_pronoun_pair_list(path: str | Path) -> dict[str, list[dict[str, int]]]:
    """``pronoun_pair_list.json`` → per pronoun pair, one vote count per study entry (REF, SYS, Tie; missing = 0)."""
    path = Path(path)
    if not path.is_file():
        raise InputError("eval-anaphora user-study counts not found", path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError("expected an object of pronoun pairs", path)
    out = {}
    for key, entries in data.items():
        if key.count("_") != 1 or not isinstance(entries, list):
            raise InputError(f"pronoun pair {key!r}: expected a list of [agreement, counts]", path)
        counts = []
        for entry in entries:
            votes = entry[1] if isinstance(entry, list) and len(entry) == 2 else None
            if not isinstance(votes, dict) or not set(votes) <= set(VOTES) or not all(
                    isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in votes.values()):
                raise InputError(f"pronoun pair {key!r}: an entry is not [agreement, {{REF/SYS/Tie: count}}]", path)
            counts.append({v: votes.get(v, 0) for v in VOTES})
        out[key] = counts
    return out


def load_pronoun_pair_list(data: str | Path | None = None) -> dict[str, list[dict[str, int]]]:
    """The user-study counts from ``<data dir>/eval_anaphora/pronoun_pair_list.json``."""
    path = data_dir(data) / "eval_anaphora" / "pronoun_pair_list.json"
    if not path.is_file():
        raise InputError("eval-anaphora user-study counts missing (put the eval_anaphora folder in the data dir)",
                         path)
    return read_pronoun_pair_list(catalogue.check_file(path, data))
