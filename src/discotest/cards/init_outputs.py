"""``card --outputs DIR --init``: the sources a user's own pipeline must translate, one file per row where discotest
can write them (the gender suites' English sentences, in suite order), and ``manifest.json``'s template: every row of
the pairs with ``null`` for the file still to give, and what that file must hold."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
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
    "mzprt": "one file per domain, {\"QA\": FILE, \"GR\": FILE, …}: one English translation per line of that "
             "domain's sources file (PAIR.mzprt.DOMAIN.src.txt), in its order, translated document by document (the "
             ".docids.txt beside it names each line's document); null: a domain not translated (the row covers the "
             "others)",
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
        if row.suite == "mzprt":
            lines, sources[row.key] = _mzprt_sources(folder, row, data_dir)
            files[row.key] = dict.fromkeys(sources[row.key])
            written += lines
        elif row.suite == "dip":
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


def _mzprt_sources(folder: Path, row: CardRow, data_dir: str | None) -> tuple[list[str], dict[str, str]]:
    """mZPRT's Chinese sources, one file per domain of the row in its order, as its run reads a file of that domain:
    one line per sentence (the zero pronouns dropped, as a system is given them; no ``[doc]`` lines), and beside it
    each line's document (a document-level system translates them whole: the pronouns are in the context)."""
    from discotest.cards.system import file_parts
    from discotest.zero_pronoun.mzprt import load_mzprt

    lines, names = [], {}
    for domain in (file_parts(row) or ("", []))[1]:
        suite = load_mzprt(domain, data_dir)
        name = names[domain] = f"{row.pair}.{row.id}.{domain}.src.txt"
        write_text_atomic(folder / name, "".join(f"{seg.source}\n" for seg in suite.segments))
        write_text_atomic(folder / f"{row.pair}.{row.id}.{domain}.docids.txt",
                          "".join(f"{seg.doc}\n" for seg in suite.segments))
        lines.append(f"{folder / name}: {len(suite.segments)} sentences of {len({s.doc for s in suite.segments})} "
                     f"mZPRT {domain} documents to translate into English (their documents: "
                     f"{row.pair}.{row.id}.{domain}.docids.txt)")
    return lines, names


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


def check_outputs(folder: str | Path, rows: Sequence[CardRow], data_dir: str | None = None) -> tuple[list[str], bool]:
    """``card --outputs DIR --check``: row by row, before any scoring, whether its file is present (its lines),
    missing (no file named, or not in the folder) or wrong (not one line per line of the sources ``--init``
    wrote); a row read one file per part (mZPRT) says it for each part, its file read as the row's run reads it. And
    whether every named file is right. The manifest itself is checked as the card checks it."""
    from discotest.cards.system import file_parts, read_manifest

    folder = Path(folder)
    data = manifest_data(folder)
    named, sources = data.get("files") or {}, data.get("sources") or {}
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    suites = {key: o.get("suite_file") for key, o in options.items() if isinstance(o, dict) and "suite_file" in o}

    def absent(name: object) -> bool:
        return isinstance(name, str) and not (folder / name).is_file()

    if not any(absent(n) for given in [*named.values(), *suites.values()]
               for n in (given.values() if isinstance(given, dict) else [given])):
        # every other mistake: one line, exit 2, as the card says it; a suite file's rows are the row's word below
        read_manifest(folder, read_suites=False)
    out, right = [], True
    for row in rows:
        if "outputs" not in row.takes:
            continue
        name, parts = named.get(row.key), file_parts(row)
        if parts is not None:
            given = name if isinstance(name, dict) else {}
            source = sources.get(row.key) if isinstance(sources.get(row.key), dict) else {}
            for part in parts[1]:
                line, fine = _check_one(folder, given.get(part), source.get(part), lambda path, d=part:
                                        _mzprt_lines(path, d, data_dir))
                out.append(f"{row.key}/{part}: {line}")
                right &= fine
            continue
        items = None
        if row.key in suites:  # the user's own suite: its file, then the outputs' lines against its rows
            line, fine, items = _check_suite(folder, suites[row.key])
            out.append(f"{row.key} suite file: {line}")
            right &= fine
        if not isinstance(name, str):
            out.append(f"{row.key}: missing (no file named; the row stays empty)")
            continue
        line, fine = (_check_one(folder, name, sources.get(row.key)) if row.key not in suites else
                      _check_one(folder, name, suites[row.key], expected=(items, "row")))
        out.append(f"{row.key}: {line}")
        right &= fine
    return out, right


def _check_suite(folder: Path, name: object) -> tuple[str, bool, int | None]:
    """A row's own suite file's word in ``--check`` (missing, wrong: the line `run --suite-file` refuses, present:
    its rows), whether it is right, and its number of rows."""
    from discotest.gender.suite_file import load_suite_file

    if not isinstance(name, str) or not (folder / name).is_file():
        return f"missing ({name} is not in {folder})", False, None
    try:
        items = len(load_suite_file(folder / name).items)
    except InputError as exc:
        return f"wrong ({name}: {exc.detail}" + (f", its line {exc.line})" if exc.line else ")"), False, None
    return f"present ({name}: {items} rows)", True, items


def _check_one(folder: Path, name: object, source: object,
               read: Callable[[Path], str | None] | None = None,
               expected: tuple[int | None, str] | None = None) -> tuple[str, bool]:
    """One file's word in ``--check`` and whether it is right: missing (none named: the row, or the part, stays empty;
    or not in the folder), wrong (``read``, the run's own reader, refuses it; else its lines against the sources',
    or ``expected``'s count of ``source``'s units: a suite file's rows), present."""
    if not isinstance(name, str):
        return "missing (no file named; it stays empty)", True
    if not (folder / name).is_file():
        return f"missing ({name} is not in {folder})", False
    with open(folder / name, "rb") as handle:
        lines = sum(1 for _ in handle)
    if read is not None:
        refused = read(folder / name)
        if refused:
            return f"wrong ({name}: {refused})", False
    count, unit = expected or (None, "line")
    if expected is None and isinstance(source, str) and (folder / source).is_file():
        with open(folder / source, "rb") as handle:
            count = sum(1 for _ in handle)
    if count is not None and lines != count and read is None:
        return f"wrong ({name}: {lines} lines, {source} has {count} {unit}s: one per {unit} of it)", False
    return (f"present ({name}: {lines} lines" + (f", one per {unit} of {source})" if lines == count else ")"), True)


def _mzprt_lines(path: Path, domain: str, data_dir: str | None) -> str | None:
    """Why mZPRT's run refuses ``path`` as its file of ``domain`` (the line count, a bad line), else None."""
    from discotest.zero_pronoun.hypotheses import input_translations
    from discotest.zero_pronoun.mzprt import load_mzprt

    try:
        input_translations(path, load_mzprt(domain, data_dir))
    except InputError as exc:
        return exc.detail + (f" (its line {exc.line})" if exc.line else "")
    return None


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
