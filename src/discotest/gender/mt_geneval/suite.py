"""MT-GenEval (Currey et al., EMNLP 2022): English→ar de es fr hi it pt ru, two subsets.

- **counterfactual**: every English sentence in a feminine and a masculine version, each with its reference. The
  items are the feminine sentences (rows 0…N−1) then the masculine ones (rows N…2N−1): a translation file gives them
  in that order (or as ``source ||| translation`` lines). An item's other-gender reference is its counterpart's.
- **contextual**: ``context <sep> sentence`` inputs where only the context (the first sentence) says the person's
  gender; the translation is of the second sentence, scored against its reference in the original gender and the
  gender-flipped one. The files carry no gender label: an item's gender is read from the English context's
  pronouns (he/him/his/himself against she/her/hers/herself), ``unknown`` when it has both or neither.

Every file is pinned in the registry (``mt-geneval-<subset>-<split>-<lang>-<part>``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.errors import InputError

SUITE = "mt-geneval"
SUBSETS = ("counterfactual", "contextual")
SPLITS = ("test", "dev")
LANGS = ("ar", "de", "es", "fr", "hi", "it", "pt", "ru")
GENDERS = ("female", "male")
SEPARATOR = "<sep>"
_MALE = frozenset({"he", "him", "his", "himself"})
_FEMALE = frozenset({"she", "her", "hers", "herself"})
_MARKED = re.compile(r"<([FM])>(.*?)</\1>")


@dataclass(frozen=True)
class GenEvalItem:
    """One test item: the English input, the reference of the right gender and that of the other gender."""

    index: int  # row in the evaluated order (counterfactual: feminine rows, then masculine rows)
    gender: str  # female / male; contextual: unknown when the English context does not say it by a pronoun
    source: str  # English sentence translated (contextual: the second sentence)
    reference: str
    other: str  # the other-gender reference (counterfactual: the counterpart's; contextual: the flipped one)
    context: str = ""  # contextual: the first sentence (may be empty in the published files)
    line: int = 0  # 1-based line in the published files
    marked: tuple[str, ...] = ()  # counterfactual: the reference's words the annotators marked as gendered
    published: str = ""  # contextual: the input line as published (``context <sep> sentence``)


def source_name(subset: str, split: str, lang: str, part: str) -> str:
    """The registry name of one MT-GenEval file."""
    return f"{SUITE}-{subset}-{split}-{lang}-{part}"


def check_choice(value: str | None, choices: tuple[str, ...], flag: str) -> str:
    if value not in choices:
        raise InputError(f"{SUITE} needs {flag} {' or '.join(choices)}" + (f", not {value!r}" if value else ""))
    return value


def context_gender(context: str) -> str:
    """The person's gender as the English context states it by pronoun, else ``unknown``."""
    words = set(re.findall(r"[a-z]+", context.lower()))
    male, female = bool(words & _MALE), bool(words & _FEMALE)
    return "male" if male and not female else "female" if female and not male else "unknown"


def marked_words(line: str) -> tuple[str, ...]:
    """The ``<F>…</F>``/``<M>…</M>`` spans of an annotated reference."""
    return tuple(m.group(2) for m in _MARKED.finditer(line))


def _read(subset: str, split: str, lang: str, part: str, root: str | Path | None) -> tuple[Path, list[str]]:
    path = catalogue.locate(source_name(subset, split, lang, part), root)
    return path, read_lines(path)


def _same_length(files: list[tuple[Path, list[str]]]) -> int:
    n = len(files[0][1])
    for path, lines in files[1:]:
        if len(lines) != n:
            raise InputError(f"{len(lines)} lines where {files[0][0].name} has {n}", path, min(len(lines), n) + 1)
    return n


def load_mt_geneval(subset: str, lang: str, split: str = "test", root: str | Path | None = None
                    ) -> list[GenEvalItem]:
    """The items of one subset, language and split, in the evaluated order."""
    check_choice(subset, SUBSETS, "--subset")
    check_choice(split, SPLITS, "--split")
    if lang not in LANGS:
        raise InputError(f"{SUITE} has no language {lang!r}; choose from {', '.join(LANGS)}")
    if subset == "contextual":
        return _contextual(lang, split, root)
    return _counterfactual(lang, split, root)


def _counterfactual(lang: str, split: str, root: str | Path | None) -> list[GenEvalItem]:
    parts = ("source-feminine", "reference-feminine", "annotated-reference-feminine",
             "source-masculine", "reference-masculine", "annotated-reference-masculine")
    files = [_read("counterfactual", split, lang, part, root) for part in parts]
    n = _same_length(files)
    (_, src_f), (_, ref_f), (_, ann_f), (_, src_m), (_, ref_m), (_, ann_m) = files
    items = [GenEvalItem(i, "female", src_f[i], ref_f[i], ref_m[i], line=i + 1, marked=marked_words(ann_f[i]))
             for i in range(n)]
    items += [GenEvalItem(n + i, "male", src_m[i], ref_m[i], ref_f[i], line=i + 1, marked=marked_words(ann_m[i]))
              for i in range(n)]
    return items


def _contextual(lang: str, split: str, root: str | Path | None) -> list[GenEvalItem]:
    files = [_read("contextual", split, lang, part, root) for part in ("source", "original", "flipped")]
    _same_length(files)
    (path, sources), (_, original), (_, flipped) = files
    items = []
    for i, (line, ref, other) in enumerate(zip(sources, original, flipped)):
        if line.count(SEPARATOR) != 1:
            raise InputError(f"expected one '{SEPARATOR}' between context and sentence", path, i + 1)
        context, sentence = (part.strip() for part in line.split(SEPARATOR))
        items.append(GenEvalItem(i, context_gender(context), sentence, ref, other, context, i + 1, published=line))
    return items
