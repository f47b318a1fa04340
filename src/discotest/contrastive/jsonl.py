"""Contrastive suites written as files: the documented JSONL (Shimazu-style zero-pronoun sets and any user suite),
Wino-X MT and ContraPro.

JSONL, one object per line (see ``docs`` in the package's ``jazp`` data folder)::

    {"id": "jazp-001", "context": ["ctx-3", "ctx-2", "ctx-1"], "source": "current sentence",
     "target_context": [], "correct": "English", "incorrect": ["English with another pronoun"],
     "distance": 2, "phenomenon": "zero-pronoun", "pronoun": "he", "incorrect_pronoun": ["she"], "meta": {}}

``context`` and ``target_context`` are oldest first and may be empty; ``distance`` is 0..3 (0: the antecedent is in
the current sentence). Only ``source``, ``correct`` and ``incorrect`` are required.
"""

from __future__ import annotations

from pathlib import Path

from discotest.contrastive.published import _optional_int, _read_json
from discotest.data.contrastive_item import ContrastiveItem, candidate_pair, make_item
from discotest.data.readers import check_type, json_objects, read_lines, require, string_list
from discotest.errors import InputError, did_you_mean

FIELDS = ("id", "context", "source", "target_context", "correct", "incorrect", "distance", "phenomenon", "pronoun",
          "incorrect_pronoun", "meta")


def _strings(value, name: str, path, number) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(string_list(value, f"field {name!r}", path, number))


def _shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: a bad value is echoed, not a 5 MB field."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def load_jsonl(path: str | Path, default_phenomenon: str = "zero-pronoun") -> list[ContrastiveItem]:
    """The documented contrastive JSONL; every problem names the file and line."""
    items = []
    seen: dict[object, int] = {}  # item id -> the line that gave it first
    for number, row in json_objects(path):
        for name in row:
            close = did_you_mean(name, FIELDS) if name not in FIELDS else ""
            if close:  # a misspelled field would be ignored and its default used; other fields are yours (meta)
                raise InputError(f"unknown field {_shown(name)}{close}", path, number)
        for name in ("source", "correct"):
            require(row, name, str, path, number)
        require(row, "incorrect", (str, list), path, number)
        incorrect = _strings(row["incorrect"], "incorrect", path, number)
        if not incorrect:
            raise InputError("empty list of incorrect candidates", path, number)
        distance = row.get("distance")
        if distance is not None and (not isinstance(distance, int) or isinstance(distance, bool) or distance < 0):
            raise InputError(f"distance must be a whole number ≥ 0, not {_shown(distance)}", path, number)
        pronoun = require(row, "pronoun", (str, type(None)), path, number, default=None)
        meta = require(row, "meta", (dict, type(None)), path, number, default=None) or {}
        phenomenon = require(row, "phenomenon", str, path, number, default=default_phenomenon)
        item_id = require(row, "id", (str, int), path, number, default=f"line-{number}")
        if "id" in row:
            if item_id in seen:
                raise InputError(f"item id {_shown(item_id)} repeats the id of line {seen[item_id]} (every item needs "
                                 "its own id: results and --details are keyed by it)", path, number)
            seen[item_id] = number
        others = _strings(row.get("incorrect_pronoun"), "incorrect_pronoun", path, number)
        pair = f"{pronoun}>{others[0]}" if pronoun and others else candidate_pair(row["correct"], incorrect[0])
        items.append(make_item(
            len(items), src=row["source"], correct=row["correct"], incorrect=incorrect,
            src_context=_strings(row.get("context"), "context", path, number),
            tgt_context=_strings(row.get("target_context"), "target_context", path, number),
            phenomenon=phenomenon, distance=distance, pair=pair, meta={"id": item_id, "line": number, **meta},
            where=str(path), line=number,
        ))
    if not items:
        raise InputError("no items in the file", path)
    return items


def load_winox_mt(path: str | Path) -> list[ContrastiveItem]:
    """Wino-X MT (Emelin & Sennrich 2021) as a contrastive suite: single sentences whose two translations differ
    in the target pronoun (the format is read by ``discotest.data.winox``)."""
    from discotest.data.winox import read_winox

    return [
        make_item(item.index, src=item.sentence, candidates=list(item.translations), correct_index=item.answer - 1,
                  phenomenon="wino-x", distance=0, pair=f"{item.gold_pronoun}>{item.wrong_pronoun}",
                  meta={"id": item.qid, "line": item.line}, where=str(path), line=item.line)
        for item in read_winox(path)
    ]


def load_contrapro(path: str | Path, context: tuple[str | Path, str | Path] | None = None,
                   context_size: int = 0, opus: str | Path | None = None) -> list[ContrastiveItem]:
    """ContraPro (Müller et al. 2018), its published ``contrapro.json``: per item the reference German sentence
    and ``errors`` (contrastive variants). Context, N lines per item, oldest first, either from ``context`` =
    (``contrapro.context.en``, ``contrapro.context.de``) as ContraPro's own scripts write them, or rebuilt here
    from the OPUS OpenSubtitles2018 de-en files named by ``opus`` (the prefix before ``.ids``/``.en``/``.de``)."""
    rows = _read_json(path)
    for i, row in enumerate(rows):
        check_type(row, dict, f"item {i}", path)
    ctx_src: list[str] = []
    ctx_tgt: list[str] = []
    if (context is not None or opus is not None) and context_size < 1:
        raise InputError("ContraPro context needs --context N (N ≥ 1)")
    if opus is not None:
        from discotest.contrastive.contrapro_context import opus_context

        ctx_src, ctx_tgt = opus_context(rows, opus, context_size, where=path)
    elif context is not None:
        ctx_src, ctx_tgt = read_lines(context[0]), read_lines(context[1])
        for f, lines in zip(context, (ctx_src, ctx_tgt)):
            if len(lines) != context_size * len(rows):
                raise InputError(f"{len(lines)} lines, expected {context_size} × {len(rows)} items", f)
    items = []
    for i, row in enumerate(rows):
        where = f"{path} item {i}"
        variants = require(row, "errors", list, where)
        for j, e in enumerate(variants):
            require(e, "contrastive", str, where, what=f"field 'contrastive' of error {j}")
            require(e, "replacement", str, where, default="", what=f"field 'replacement' of error {j}")
        errors = [e["contrastive"] for e in variants]
        src, ref = require(row, "src segment", str, where), require(row, "ref segment", str, where)
        labels = {key: require(row, key, str, where, default="") for key in ("src pronoun", "ref pronoun")}
        if not errors:
            raise InputError(f"item {i}: empty list of contrastive variants", path)
        span = slice(i * context_size, (i + 1) * context_size)
        items.append(make_item(
            i, src=src, correct=ref, incorrect=errors,
            src_context=tuple(ctx_src[span]) if ctx_src else (), tgt_context=tuple(ctx_tgt[span]) if ctx_tgt else (),
            phenomenon=f"pronoun:{labels['src pronoun'].lower()}", distance=_optional_int(row, "ante distance", where),
            pair=f"{labels['ref pronoun'].lower()}>{variants[0].get('replacement', '').lower()}",
            meta={"document": row.get("document id"), "segment": row.get("segment id")}, where=str(path),
        ))
    return items
