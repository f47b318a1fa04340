"""Mining hard cases from many systems' outputs against the reference (Jwalapuram et al. 2020, §3).

An item is kept when at least one mined system gets it wrong: those are the paper's hard cases. Mined
systems exclude ``--holdout`` so a held-out system is never scored on items built from its own errors.
Every item points into the pair's files by 0-based line index.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Protocol

from discotest.dip import anaphora, connectives, lexical
from discotest.dip.documents import Document, PairData, blocks, shard_documents
from discotest.dip.names import PHENOMENA
from discotest.dip.shards import Parses, Progress, Shared, parse_texts, run_tasks
from discotest.progress import progress_bar

if TYPE_CHECKING:
    from discotest.engine import RayEngine

COHERENCE_SHARE = 0.3  # the bottom 30% of documents by system coherence


class CoherenceModel(Protocol):
    def signature(self) -> str: ...

    def score_documents(self, docs: Sequence[Sequence[str]]) -> list[float]: ...


def parse_lines(lines: Sequence[str], wanted: Sequence[int], documents: Sequence[Document], use_cache: bool = True
                ) -> Parses:
    """Parse only the wanted lines (documents kept by --max-docs, or a test set's lines), shard by shard of
    ``documents`` (one cache entry per shard, the same entries the ray engine writes)."""
    return parse_texts({"": lines}, wanted, documents, use_cache)[""]


def mine_lexical(pair: PairData, ref: Parses, systems: dict[str, Parses]) -> list[dict]:
    items = []
    for doc in pair.documents:
        for block in blocks(doc):
            ref_block = [ref[i] for i in block]
            for lemma, n_ref in sorted(lexical.focus_lemmas(ref_block).items()):
                counts = {name: lexical.count_lemma([p[i] for i in block], lemma) for name, p in systems.items()}
                inconsistent = sorted(name for name, n in counts.items() if 1 <= n < n_ref)
                if inconsistent:
                    items.append({
                        "doc_id": doc.doc_id, "sentences": list(block), "lemma": lemma, "ref_count": n_ref,
                        "system_counts": counts,
                        "reason": f"reference uses {lemma!r} {n_ref}x in the block; {', '.join(inconsistent)} "
                                  "use it at least once but fewer times",
                    })
    return items


def mine_connectives(pair: PairData, ref: Parses, systems: dict[str, Parses]) -> list[dict]:
    items = []
    for doc in pair.documents:
        block_of = {i: list(block) for block in blocks(doc) for i in block}
        for line in doc.lines:
            found = connectives.find_connectives(ref[line])
            if not found:
                continue
            matches = {name: connectives.match_sentences(ref[line], p[line])[1] for name, p in systems.items()}
            for k, conn in enumerate(found):
                missed = sorted(name for name, m in matches.items() if not m[k].any)
                if missed:
                    items.append({
                        "doc_id": doc.doc_id, "sentences": [line], "block": block_of.get(line, [line]),
                        "token": conn.index, "connective": conn.connective, "sense": conn.sense,
                        "missed_by": missed,
                        "reason": f"reference has {conn.connective!r} ({conn.sense}); "
                                  f"{', '.join(missed)} produce no connective at the aligned place",
                    })
    return items


def mine_anaphora(pair: PairData, ref: Parses, systems: dict[str, Parses]) -> list[dict]:
    items = []
    for doc in pair.documents:
        for line in doc.lines:
            variants: dict[int, dict[str, str]] = {}
            for name, p in systems.items():
                for diff in anaphora.differences(ref[line], p[line]):
                    variants.setdefault(diff.token, {})[name] = diff.sys
            for token, by_system in sorted(variants.items()):
                pronoun = ref[line][token].text.lower()
                items.append({
                    "doc_id": doc.doc_id, "sentences": [*anaphora.context_lines(line, doc.start), line],
                    "token": token, "pronoun": pronoun, "variants": dict(sorted(by_system.items())),
                    "reason": f"reference pronoun {pronoun!r}; " + ", ".join(
                        f"{name} has {p!r}" for name, p in sorted(by_system.items())),
                })
    return items


def mine_coherence(pair: PairData, systems: Sequence[str], model: CoherenceModel, progress: Progress = None,
                   engine: RayEngine | None = None) -> list[dict]:
    """Documents whose system outputs score lowest relative to the reference (mean over mined systems of
    score(sys) − score(ref), bottom 30%). Relative, because raw coherence scores also reflect the
    document's length and topic, which are the reference's too.

    Each text is scored shard by shard of documents (a document's score does not depend on the others in its call),
    as Ray tasks with an ``engine``; ``progress(1)`` as each text is complete."""
    shards = [[d for d in shard if d.end - d.start >= 2] for shard in shard_documents(pair.documents)]
    shards = [shard for shard in shards if shard]  # one sentence has no coherence to lose
    docs = [d for shard in shards for d in shard]
    if not docs or not systems:
        return []
    texts = {"": pair.reference, **{name: pair.systems[name] for name in systems}}
    args = [(name, shard) for name in texts for shard in shards]
    left = {name: len(shards) for name in texts}

    def done(position: int, _result: Any) -> None:
        left[args[position][0]] -= 1
        if progress and not left[args[position][0]]:
            progress(1)

    shipped: Any = Shared(engine, model) if engine is not None else model
    tasks = [(shipped, [texts[name][d.start:d.end] for d in shard]) for name, shard in args]
    scored = run_tasks(_score_documents, tasks, engine, done)
    by_text: dict[str, list[float]] = {name: [] for name in texts}
    for (name, _), scores in zip(args, scored):
        by_text[name].extend(scores)
    ref_scores = by_text[""]
    sys_scores = {name: by_text[name] for name in systems}
    relative = [sum(sys_scores[s][k] - ref_scores[k] for s in systems) / len(systems) for k in range(len(docs))]
    keep = sorted(range(len(docs)), key=lambda k: (relative[k], docs[k].start))[:math.ceil(COHERENCE_SHARE * len(docs))]
    return [{
        "doc_id": docs[k].doc_id, "sentences": list(docs[k].lines), "ref_score": ref_scores[k],
        "system_scores": {s: sys_scores[s][k] for s in systems},
        "reason": f"mean system coherence − reference coherence = {relative[k]:.4f}, "
                  f"in the bottom {COHERENCE_SHARE:.0%} of {len(docs)} documents",
    } for k in sorted(keep)]


def _score_documents(model: CoherenceModel | Shared, docs: Sequence[Sequence[str]]) -> list[float]:
    """One coherence task: the scores of a shard's documents."""
    return (model.get() if isinstance(model, Shared) else model).score_documents(docs)


MINERS = ("lexical", "connectives", "anaphora")


def mine_all(
    pair: PairData,
    systems: Sequence[str],
    phenomena: Sequence[str] = PHENOMENA,
    coherence_model: CoherenceModel | None = None,
    use_cache: bool = True,
    progress: Progress = None,
    engine: RayEngine | None = None,
    parses: tuple[Parses, dict[str, Parses]] | None = None,
) -> dict[str, list[dict]]:
    """Mine every requested phenomenon with the given systems; items get ids ``<phenomenon>-<n>``.

    Parsing and coherence scoring go shard by shard of documents, as Ray tasks with an ``engine``; ``parses`` (the
    reference's and at least the mined systems') saves parsing again when the caller has them."""
    wanted = [i for doc in pair.documents for i in doc.lines]
    out: dict[str, list[dict]] = {}
    mined = [p for p in MINERS if p in phenomena]
    if mined:
        if parses is None:
            parses = _parse_for_mining(pair, systems, wanted, use_cache, progress, engine)
        ref, parsed = parses[0], {name: parses[1][name] for name in systems}
        # here, not on Ray: mining all of WMT22 de-en (10 texts) takes 3.8 s here and 7.2 s as one Ray task per shard
        # on 2 CPUs (warm workers; 12.9 s on new ones), the parses' 23 MB of pickles costing more than the mining
        miners = {"lexical": mine_lexical, "connectives": mine_connectives, "anaphora": mine_anaphora}
        for phenomenon in mined:
            out[phenomenon] = miners[phenomenon](pair, ref, parsed)
    if "coherence" in phenomena and coherence_model is not None:
        with progress_bar("DiP: coherence of the reference and each system", "text", total=1 + len(systems)) as bar:
            out["coherence"] = mine_coherence(pair, systems, coherence_model, bar.update, engine)
    for phenomenon, items in out.items():
        for n, item in enumerate(items):
            items[n] = {"id": f"{phenomenon}-{n:05d}", **item}
    return {p: out[p] for p in PHENOMENA if p in out}


def _parse_for_mining(pair: PairData, systems: Sequence[str], wanted: list[int], use_cache: bool,
                      progress: Progress, engine: RayEngine | None) -> tuple[Parses, dict[str, Parses]]:
    """The reference's parses and each mined system's, with a bar per stage (or the caller's, per system)."""
    with progress_bar(f"DiP: parsing the reference ({len(wanted)} lines)", total=1) as bar:
        ref = parse_texts({"": pair.reference}, wanted, pair.documents, use_cache, engine, bar.update)[""]
    # the caller's bar (the mine command's), else a stage bar of its own that closes before the next stage
    own = nullcontext() if progress else progress_bar("DiP: parsing system outputs to mine", "system",
                                                      total=len(systems))
    with own as bar:
        parsed = parse_texts({name: pair.systems[name] for name in systems}, wanted, pair.documents, use_cache,
                             engine, progress or bar.update)
    return ref, parsed
