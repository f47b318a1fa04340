"""Loaders for the published contrastive suites: Voita et al. 2019, Bawden et al. 2018 (DiscEvalMT), SCAT.

Each returns items in the suite's own order, candidates in the order the suite lists them, so a scores file made
for the original scripts (one line per candidate) lines up.
"""

from __future__ import annotations

import re
from pathlib import Path

from discotest.data.contrastive_item import ContrastiveItem, candidate_pair, make_item
from discotest.data.readers import check_type, read_json, read_lines, require, string_list
from discotest.errors import InputError

VOITA_SEP = " _eos "


def _read_json(path: Path, container: type = list):
    """The whole suite file, which must be a JSON ``container`` (list or object)."""
    data = read_json(path)
    check_type(data, container, "the suite file", path)
    return data


def _optional_int(row: dict, key: str, where, line=None) -> int | None:
    value = row.get(key)
    return None if value is None else check_type(value, int, f"field {key!r}", where, line)


def load_voita(path: str | Path, phenomenon: str) -> list[ContrastiveItem]:
    """Voita, Sennrich, Titov 2019: ``{src, dst: [candidates], true_ind, ctx_dist}``; each text is 3 context
    sentences and the current one joined by `` _eos ``. Candidates differ only in the current sentence (except the
    known ellipsis_infl bug, where their target context is kept per candidate in ``meta``)."""
    rows = _read_json(path)
    items = []
    for i, row in enumerate(rows):
        where = f"{path} item {i}"
        src_parts = require(row, "src", str, where).split(VOITA_SEP)
        dst_parts = [d.split(VOITA_SEP) for d in string_list(require(row, "dst", list, where), "field 'dst'", where)]
        true = require(row, "true_ind", int, where)
        if not 0 <= true < len(dst_parts):
            raise InputError(f"true_ind {true} is outside the {len(dst_parts)} candidates", where)
        current = [parts[-1] for parts in dst_parts]
        contexts = {tuple(parts[:-1]) for parts in dst_parts}
        meta = {"row": i} if len(contexts) == 1 else {"row": i, "candidate_contexts": [p[:-1] for p in dst_parts]}
        items.append(make_item(
            i, src=src_parts[-1], candidates=current, correct_index=true, src_context=tuple(src_parts[:-1]),
            tgt_context=tuple(dst_parts[true][:-1]), phenomenon=phenomenon,
            distance=_optional_int(row, "ctx_dist", where),
            pair=candidate_pair(current[true], next((c for j, c in enumerate(current) if j != true), current[true])),
            meta=meta, where=str(path),
        ))
    return items


def _pair(value, what: str, where) -> list[str]:
    """DiscEvalMT's [context sentence, current sentence]."""
    string_list(value, what, where)
    if len(value) != 2:
        raise InputError(f"{what} must be [context, sentence], a list of 2 strings, not {len(value)}", where)
    return value


def load_bawden_anaphora(path: str | Path) -> list[ContrastiveItem]:
    """DiscEvalMT anaphora: 50 blocks × 4 target pairs. A pair is ``correct``/``incorrect`` or, when the target
    context is a different (still acceptable) translation, ``semi-correct``/``incorrect``; both count the first as
    right. Candidates are [correct or semi-correct, incorrect] (the order of their flattened files)."""
    blocks = _read_json(path, dict)
    items = []
    for key, block in blocks.items():
        where = f"{path} block {key}"
        src = _pair(require(block, "src", list, where), "field 'src'", where)
        for j, trg in enumerate(require(block, "trg", list, where)):
            check_type(trg, dict, f"target {j}", where)
            good = trg.get("correct") or trg.get("semi-correct")
            bad = trg.get("incorrect")
            if not good or not bad:
                raise InputError(f"block {key} target {j}: needs correct (or semi-correct) and incorrect", path)
            good, bad = _pair(good, f"target {j}", where), _pair(bad, f"target {j}", where)
            kind = require(trg, "type", str, where, default="")
            items.append(make_item(
                len(items), src=src[1], candidates=[good[1], bad[1]], correct_index=0,
                src_context=(src[0],), tgt_context=(good[0],), phenomenon="anaphora", distance=1,
                pair=kind + ":" + candidate_pair(good[1], bad[1]),
                meta={"block": key, "target": j, "semi_correct": "semi-correct" in trg}, where=str(path),
            ))
    return items


def load_bawden_lexical(path: str | Path) -> list[ContrastiveItem]:
    """DiscEvalMT lexical choice: 100 blocks (type repet / disambig) × 2 examples; candidates [correct, incorrect]."""
    blocks = _read_json(path, dict)
    items = []
    for key, block in blocks.items():
        where = f"{path} block {key}"
        kind = require(block, "type", str, where)
        for j, ex in enumerate(require(block, "examples", list, where)):
            where_ex = f"{where} example {j}"
            trg = require(ex, "trg", dict, where_ex)
            good = _pair(require(trg, "correct", list, where_ex), "field 'correct'", where_ex)
            bad = _pair(require(trg, "incorrect", list, where_ex), "field 'incorrect'", where_ex)
            src = _pair(require(ex, "src", list, where_ex), "field 'src'", where_ex)
            items.append(make_item(
                len(items), src=src[1], candidates=[good[1], bad[1]], correct_index=0,
                src_context=(src[0],), tgt_context=(good[0],), phenomenon=f"lexical-choice:{kind}",
                distance=1, pair=candidate_pair(good[1], bad[1]), meta={"block": key, "example": j},
                where=str(path),
            ))
    return items


_P_TAG = re.compile(r"<p>(.*?)</p>")
_HL = re.compile(r"\s*<hon>\s*|\s*<hoff>\s*")
_FLIP = {"il": "elle", "elle": "il", "ils": "elles", "elles": "ils"}


def _flip(match: re.Match) -> str:
    word = match.group(1)
    flipped = _FLIP.get(word.lower())
    if flipped is None:
        return word
    return flipped.capitalize() if word[:1].isupper() else flipped


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", _HL.sub(" ", _P_TAG.sub(r"\1", text))).strip()


def load_scat(folder: str | Path, split: str = "test") -> list[ContrastiveItem]:
    """SCAT (Yin et al. 2021): line-aligned ``highlighted.<split>.{en,fr}`` and ``.context.{en,fr}``. The incorrect
    candidate flips the gender of the ``<p>``-marked French pronoun(s) (il↔elle, ils↔elles), as Lopes et al. 2020.
    Context is one line of sentences joined by spaces, kept as a single context string."""
    folder = Path(folder)
    names = [f"highlighted.{split}.{s}" for s in ("en", "fr", "context.en", "context.fr")]
    en, fr, cen, cfr = (read_lines(folder / n) for n in names)
    if not len(en) == len(fr) == len(cen) == len(cfr):
        raise InputError(f"SCAT files have different line counts ({len(en)}, {len(fr)}, {len(cen)}, {len(cfr)})",
                         folder / names[0])
    items = []
    for i, (s, t, cs, ct) in enumerate(zip(en, fr, cen, cfr)):
        marked = _P_TAG.findall(t)
        flipped = _clean(_P_TAG.sub(_flip, t))
        correct = _clean(t)
        pair = ",".join(f"{w.lower()}>{_FLIP.get(w.lower(), w.lower())}" for w in marked)
        items.append(make_item(
            i, src=_clean(s), candidates=[correct, flipped], correct_index=0,
            src_context=(_clean(cs),) if cs.strip() else (), tgt_context=(_clean(ct),) if ct.strip() else (),
            phenomenon="anaphora", pair=pair,
            meta={"line": i + 1, "context_marked": "<hon>" in ct or "<hon>" in cs, "changed": flipped != correct},
            where=str(folder / names[1]), line=i + 1,
        ))
    return items
