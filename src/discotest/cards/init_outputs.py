"""``card --outputs DIR --init``: the sources a user's own pipeline must translate, one file per row where discotest
can write them (the gender suites' English sentences, in suite order), and ``manifest.json``'s template: every row of
the pairs with ``null`` for the file still to give, and what that file must hold."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from discotest.atomic import write_text_atomic
from discotest.cards.groups import CardRow
from discotest.cards.system import MANIFEST
from discotest.errors import InputError

GENDER = ("winomt", "winomt-adj", "bug")
HOLDS = {
    "input": "one translation per line of the sources file, in its order (docs/your-files.md)",
    "scores": "one score per line, one line per line of the candidates file (PAIR.ROW.candidates.jsonl: each item's "
              "candidates in the suite's order), higher is better (docs/card.md, 'A folder of outputs')",
    "ctxpro": "one translation per line of the sources file (PAIR.ROW.src.jsonl: each sentence with the sentences "
              "before it in its document), in its order",
    "mzprt": "nothing yet: mZPRT's run reads one file per domain (run mzprt --domain QA --input FILE) and the row "
             "covers all five, so a folder cannot fill it (docs/card.md, 'What the card does not do yet')",
    "dip": "one English translation per line of the WMT22 source file, in its order, translated document by document "
           "(the .docids.txt file names each line's document; docs/dip.md)",
}


def init_outputs(folder: str | Path, rows: Sequence[CardRow], system: str, data_dir: str | None) -> list[str]:
    """Write the sources and the manifest template into ``folder`` (created); one line per file written. An existing
    manifest is not overwritten."""
    from discotest.contrastive.suites import is_expected_word
    from discotest.gender.suites import load_gender_suite

    folder = Path(folder)
    manifest = folder / MANIFEST
    if manifest.exists():
        raise InputError("a manifest is already there; --init does not overwrite it", str(manifest))
    folder.mkdir(parents=True, exist_ok=True)
    written, files, holds, sources = [], {}, {}, {}
    for row in rows:
        if "outputs" not in row.takes:
            continue
        files[row.key] = None
        ctxpro = row.file == "input" and is_expected_word(row.suite)
        holds[row.key] = HOLDS[row.suite if row.suite in ("dip", "mzprt") else "ctxpro" if ctxpro else row.file]
        if row.suite == "dip":
            written += _dip_sources(folder, row, data_dir)
            sources[row.key] = f"{row.pair}.{row.id}.src.txt"
        elif row.suite in GENDER:
            items = load_gender_suite(row.suite, "current", data_dir)
            name = f"{row.pair}.{row.id}.src.txt"
            write_text_atomic(folder / name, "".join(f"{item.sentence}\n" for item in items))
            sources[row.key] = name
            written.append(f"{folder / name}: {len(items)} sentences of {row.suite} to translate into "
                           f"{row.pair.split('-')[1]}")
        elif row.suite in ("mittens", "mittens-out", "mt-geneval"):
            line, name = _sentences(folder, row, data_dir)
            written.append(line)
            sources[row.key] = name
        elif row.file == "scores" or ctxpro:
            line, name = _contrastive(folder, row, data_dir, scores=row.file == "scores")
            written.append(line)
            sources[row.key] = name
    template = {"system": system, "files": files, "what_each_file_holds": holds, "sources": sources}
    write_text_atomic(manifest, json.dumps(template, ensure_ascii=False, indent=1) + "\n")
    written.append(f"{manifest}: fill in the file of each row you translated (null: the row stays empty)")
    return written


def _dip_sources(folder: Path, row: CardRow, data_dir: str | None) -> list[str]:
    """A DiP row's WMT22 source, whole and in its order (every line is scored against its reference: mined items
    fall anywhere), and beside it the document of each line (a document-level system translates them whole)."""
    from discotest.data.readers import read_lines
    from discotest.dip.documents import pair_paths

    paths = pair_paths(row.options.get("data", "wmt22"), row.options["pair"], root=data_dir)
    source, docids = read_lines(paths["source"]), read_lines(paths["docids"])
    name = f"{row.pair}.{row.id}.src.txt"
    write_text_atomic(folder / name, "".join(f"{line}\n" for line in source))
    write_text_atomic(folder / f"{row.pair}.{row.id}.docids.txt", "".join(f"{d.strip()}\n" for d in docids))
    return [f"{folder / name}: {len(source)} lines of {len(dict.fromkeys(docids))} {paths['source'].name} documents "
            f"to translate into English (their documents: {row.pair}.{row.id}.docids.txt)"]


def _contrastive(folder: Path, row: CardRow, data_dir: str | None, scores: bool) -> tuple[str, str]:
    """A contrastive row's items as JSONL, in the suite's order, as its run reads them: for a scores row one line per
    candidate (``item``, ``candidate`` index, both contexts oldest first, the source and the candidate; which one is
    correct is not said), the order a scores file follows line by line; for CTXPRO one line per item to translate,
    its source with the sentences before it in its document."""
    from discotest.contrastive.suites import load_suite

    items = load_suite(row.suite, data_dir)
    if scores:
        name = f"{row.pair}.{row.id}.candidates.jsonl"
        lines = [{"item": item.index, "candidate": k, "src_context": list(item.src_context), "src": item.src,
                  "tgt_context": list(item.tgt_context), "text": candidate}
                 for item in items for k, candidate in enumerate(item.candidates)]
        what = f"{len(lines)} candidates of {len(items)} {row.suite} items to score, one score per line"
    else:
        name = f"{row.pair}.{row.id}.src.jsonl"
        lines = [{"item": item.index, "src_context": list(item.src_context), "src": item.src} for item in items]
        what = f"{len(items)} {row.suite} sentences to translate into {row.pair.split('-')[1]}, one per line"
    write_text_atomic(folder / name, "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    return f"{folder / name}: {what}", name


def _sentences(folder: Path, row: CardRow, data_dir: str | None) -> tuple[str, str]:
    """A MiTTenS or MT-GenEval row's sources, one per line in the order its run reads a translation file: MiTTenS's
    passages of the row's language (into English: the language's own), MT-GenEval's test sentences of the subset (the
    contextual ones with their context, as published; the counterfactual ones feminine first, then masculine)."""
    lang = row.options["lang"]
    if row.suite == "mt-geneval":
        from discotest.gender.mt_geneval.suite import load_mt_geneval

        subset = row.options["subset"]
        items = load_mt_geneval(subset, lang, "test", data_dir)
        texts = [item.published if subset == "contextual" else item.source for item in items]
    else:
        from discotest.gender.mittens.suite import load_mittens

        texts = [item.text("example") for item in load_mittens(row.suite, [lang], data_dir)]
    target = row.pair.split("-")[1]
    name = f"{row.pair}.{row.id}.src.txt"
    write_text_atomic(folder / name, "".join(" ".join(text.splitlines()) + "\n" for text in texts))
    return f"{folder / name}: {len(texts)} sentences of {row.suite} to translate into {target}", name


def check_outputs(folder: str | Path, rows: Sequence[CardRow]) -> tuple[list[str], bool]:
    """``card --outputs DIR --check``: row by row, before any scoring, whether its file is present (its lines),
    missing (no file named, or not in the folder) or wrong (not one line per line of the sources ``--init``
    wrote); and whether every named file is right. The manifest itself is checked as the card checks it."""
    from discotest.cards.system import read_manifest

    folder = Path(folder)
    data = manifest_data(folder)
    named, sources = data.get("files") or {}, data.get("sources") or {}
    missing_files = {key: name for key, name in named.items() if isinstance(name, str)
                     and not (folder / name).is_file()}
    if not missing_files:
        read_manifest(folder)  # every other mistake: one line, exit 2, as the card says it
    out, right = [], True
    for row in rows:
        if "outputs" not in row.takes:
            continue
        name = named.get(row.key)
        if not isinstance(name, str):
            out.append(f"{row.key}: missing (no file named; the row stays empty)")
            continue
        if row.key in missing_files:
            out.append(f"{row.key}: missing ({name} is not in {folder})")
            right = False
            continue
        if row.suite == "mzprt":
            out.append(f"{row.key}: wrong ({name}: {HOLDS['mzprt'].replace('nothing yet: ', '')})")
            right = False
            continue
        with open(folder / name, "rb") as handle:
            lines = sum(1 for _ in handle)
        source = sources.get(row.key)
        expected = None
        if isinstance(source, str) and (folder / source).is_file():
            with open(folder / source, "rb") as handle:
                expected = sum(1 for _ in handle)
        if expected is not None and lines != expected:
            out.append(f"{row.key}: wrong ({name}: {lines} lines, {source} has {expected}: one per line of it)")
            right = False
        else:
            out.append(f"{row.key}: present ({name}: {lines} lines"
                       + (f", one per line of {source})" if expected is not None else ")"))
    return out, right


def manifest_data(folder: str | Path) -> dict:
    """The outputs folder's manifest as JSON, unchecked (``read_manifest`` checks it); one line if unreadable."""
    path = Path(folder) / MANIFEST
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        raise InputError(f"no readable {MANIFEST} in {folder}", str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        raise InputError('expected {"system": NAME, "files": {"PAIR/ROW": FILE, …}}', str(path))
    return data
