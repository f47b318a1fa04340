"""CTXPRO evaluation sets (Wicks & Post 2023): items carry the word a translation must contain (``expected``).

They are scored on a translation, not by model scores, as the authors' ``ctxpro score`` (PyPI ``ctxpro`` 0.0.5,
``score.py``) does: the last sentence of the output by the ``sentence-splitter`` package (Koehn and Schroeder's
Moses splitter) for the target language, lower-cased, ASCII punctuation removed, passes iff `` expected `` occurs in
it. tests/contrastive/test_ctxpro_authors.py runs the authors' scorer on the same outputs and gets the same figures
(DeepL on the auxiliary en-de test set: 40.0 with context, 7.8 without). A hand-written sentence regex cut subtitle
segments holding two dialogue turns ("… umsonst ist. - Ja, ein bisschen schon.") where the splitter keeps them whole:
36.38. One addition: an output whose pieces are joined by ``<eos>`` is cut at the last ``<eos>`` first.
"""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

from discotest.contrastive.published import _optional_int, _read_json
from discotest.data.contrastive_item import ContrastiveItem
from discotest.data.readers import read_lines, require
from discotest.errors import InputError

CONTEXT_SEP = "<eos>"
_PUNCT = str.maketrans("", "", string.punctuation)
_SENT_END = re.compile(r"(?<=[.!?…])\s+(?=\S)")


def load_ctxpro(path: str | Path, inputs: str | Path | None = None) -> list[ContrastiveItem]:
    """Items of one CTXPRO JSON file. ``inputs`` (``release/inputs/…``), when present, gives the source context:
    previous sentences joined by ``<eos>``, the last piece being the test sentence."""
    rows = _read_json(path)
    contexts: list[list[str]] = []
    if inputs is not None:
        lines = read_lines(inputs)
        if len(lines) != len(rows):
            raise InputError(f"{len(lines)} input lines for {len(rows)} CTXPRO items", inputs)
        contexts = [[p.strip() for p in line.split(CONTEXT_SEP)][:-1] for line in lines]
    items = []
    for i, row in enumerate(rows):
        where = f"{path} item {i}"
        src, ref, expected, rule = (require(row, key, str, where)
                                    for key in ("src segment", "ref segment", "expected", "rule"))
        items.append(ContrastiveItem(
            index=i, src=src, candidates=(ref,), correct_index=0,
            src_context=tuple(contexts[i]) if contexts else (), phenomenon=rule,
            distance=_optional_int(row, "ante distance", where), pair=rule, expected=expected,
            meta={"document": row.get("document id"), "segment": row.get("segment id")},
        ))
    return items


@functools.cache
def _splitter(lang: str):
    """The authors' sentence splitter for ``lang`` (None for a language it has no rules for: the regex then)."""
    try:
        from sentence_splitter import SentenceSplitter, SentenceSplitterException
    except ImportError:
        raise InputError("CTXPRO scoring needs the sentence-splitter package the authors use: "
                         "pip install 'discotest[ctxpro]'") from None
    try:
        return SentenceSplitter(language=lang)
    except SentenceSplitterException:
        return None


def splitter_name(lang: str) -> str:
    """The segmentation ``last_sentence`` uses for ``lang``, as the signature names it."""
    if _splitter(lang) is None:
        return "regex"
    from importlib.metadata import version

    return f"sentence-splitter-{version('sentence-splitter')}"


def last_sentence(output: str, lang: str = "de") -> str:
    """The test sentence of a translation made with context: the last ``<eos>`` piece, else the last sentence by
    the authors' splitter for ``lang`` (the whole output when it finds none, as theirs)."""
    if CONTEXT_SEP in output:
        return output.split(CONTEXT_SEP)[-1].strip()
    splitter = _splitter(lang)
    pieces = splitter.split(text=output.strip()) if splitter else _SENT_END.split(output.strip())
    return pieces[-1] if pieces else output.strip()


def contains_expected(output: str, expected: str, lang: str = "de") -> bool:
    """CTXPRO's pass test on one translation (the authors' ``passes_test`` on ``get_last``)."""
    text = " " + last_sentence(output, lang).lower().translate(_PUNCT) + " "
    return f" {expected.lower()} " in text
