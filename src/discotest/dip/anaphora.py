"""Anaphora: reference sentences whose personal, possessive or reflexive pronoun a system renders as a
different pronoun (Jwalapuram et al. 2020, §3.3). Pronouns are compared at the aligned place, the
system sentence aligned to the reference sentence word by word (``discotest.dip.align``)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from importlib import resources

from discotest.dip.parse import Sentence

PRONOUNS = frozenset({
    "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves",
    "you", "your", "yours", "yourself", "yourselves", "he", "him", "his", "himself",
    "she", "her", "hers", "herself", "it", "its", "itself", "they", "them", "their", "theirs", "themselves",
})
CONTEXT = 2  # previous sentences given to the pronoun scorer, as in the Jwalapuram et al. 2019 test data


@cache
def acceptable_pairs() -> frozenset[tuple[str, str]]:
    text = resources.files("discotest.dip").joinpath("anaphora_acceptable.tsv").read_text("utf-8")
    rows = csv.DictReader((line for line in text.splitlines() if not line.startswith("#")), delimiter="\t")
    return frozenset((row["reference"], row["system"]) for row in rows)


def is_error(ref: str, sys: str) -> bool:
    ref, sys = ref.lower(), sys.lower()
    return ref != sys and (ref, sys) not in acceptable_pairs()


@dataclass(frozen=True)
class Difference:
    token: int  # index of the pronoun in the reference sentence
    ref: str
    sys: str


def aligned_pronouns(ref: Sentence, sys: Sentence) -> dict[int, str]:
    """Reference pronoun index -> the system pronoun at the aligned place (lowercased).

    Equal runs align one to one. In a replaced run the k-th reference pronoun pairs with the k-th system
    pronoun when both sides have as many, otherwise by relative position; a pair is kept only if the system
    word is a pronoun and is anchored: a neighbouring word on either side is aligned as equal ("because it is"
    / "since he is"), so rephrased clauses ("my main priority" / "I would like") are not compared.
    Pronouns in deleted runs have no counterpart (omissions are not mined as differences).
    """
    a = [t.text.lower() for t in ref]
    b = [t.text.lower() for t in sys]
    opcodes = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    equal = {i1 + k: j1 + k for op, i1, i2, j1, _ in opcodes if op == "equal" for k in range(i2 - i1)}

    def anchored(i: int, j: int) -> bool:
        return equal.get(i - 1, -2) == j - 1 or (i + 1 in equal and equal[i + 1] == j + 1)

    out: dict[int, str] = {}
    for op, i1, i2, j1, j2 in opcodes:
        ref_p = [i for i in range(i1, i2) if a[i] in PRONOUNS]
        if not ref_p or op == "delete":
            continue
        if op == "equal":
            out.update({i: a[i] for i in ref_p})
            continue
        sys_p = [j for j in range(j1, j2) if b[j] in PRONOUNS]
        if len(sys_p) == len(ref_p):
            pairs = list(zip(ref_p, sys_p))
        else:
            pairs = [(i, j1 + min(j2 - j1 - 1, (i - i1) * (j2 - j1) // (i2 - i1))) for i in ref_p]
        out.update({i: b[j] for i, j in pairs if b[j] in PRONOUNS and anchored(i, j)})
    return out


def differences(ref: Sentence, sys: Sentence) -> list[Difference]:
    """Reference pronouns the system renders as another, non-acceptable pronoun."""
    return [
        Difference(i, ref[i].text.lower(), s)
        for i, s in sorted(aligned_pronouns(ref, sys).items())
        if is_error(ref[i].text, s)
    ]


def context_lines(line: int, doc_start: int, size: int = CONTEXT) -> list[int]:
    """The previous ``size`` lines of the same document."""
    return list(range(max(doc_start, line - size), line))


def pronoun_pairs(items: Sequence[dict], sys_parses: dict[int, Sentence], ref_parses: dict[int, Sentence]
                  ) -> list[str | None]:
    """For each mined item, the system's pronoun at the item's place when it is an error, else None."""
    out: list[str | None] = []
    for item in items:
        line = item["sentences"][-1]
        found = aligned_pronouns(ref_parses[line], sys_parses[line]).get(item["token"])
        out.append(found if found is not None and is_error(item["pronoun"], found) else None)
    return out
