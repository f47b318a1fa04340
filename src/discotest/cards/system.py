"""The system a card describes, as the user names it: a published system (``--system``), a folder of outputs with
a manifest (``--outputs``), a local model (``--model``) or a served one (``--endpoint``); and what it gives each row of
the card: the options of that suite's run, or the reason it cannot fill the row."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from discotest.cards.groups import CardRow
from discotest.errors import InputError, did_you_mean

MANIFEST = "manifest.json"


class Unfilled(Exception):
    """The system cannot fill this row; the message says why (shown on the card)."""


Kind = Literal["published", "outputs", "model", "endpoint"]
# the field that names each kind of system (``SystemSpec``): one, and only it, is set
NAMED_BY = {"published": "published", "outputs": "folder", "model": "path", "endpoint": "url"}


@dataclass(frozen=True)
class SystemSpec:
    """The card's system as the user named it: its kind and the one field that names a system of that kind."""

    kind: Kind
    published: str | None = None  # --system: the published system's name (google, Online-B …)
    folder: str | None = None  # --outputs: the folder of the files and their manifest
    path: str | None = None  # --model: the model's folder (or hub name)
    url: str | None = None  # --endpoint: the server's URL
    served_model: str | None = None  # --endpoint: the model it serves, as the server names it
    model_options: dict[str, Any] = field(default_factory=dict)  # --batch-size, --device, --prompt, --context …
    # --outputs: row key -> file (from the manifest); a row whose run reads one file per part (mZPRT: per domain,
    # ``file_parts``): part -> file, in the row's order of its parts
    files: dict[str, str | dict[str, str]] = field(default_factory=dict)
    label: str = ""
    # --outputs: row key -> the options of its run the manifest gives (``"options"``: a suite version …)
    row_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        named = [field for field in NAMED_BY.values() if getattr(self, field) is not None]
        if self.kind not in NAMED_BY or named != [NAMED_BY[self.kind]]:
            raise ValueError(f"a {self.kind} system is named by {NAMED_BY.get(self.kind, '?')} alone, not {named}")

    @property
    def given(self) -> str:
        """What names the system, as given: the published name, the folder, the model's path or the URL."""
        return str(getattr(self, NAMED_BY[self.kind]))

    @property
    def name(self) -> str:
        """The card's name of the system: the manifest's, else the folder's, the served model's, the URL or the
        published name."""
        if self.label:
            return self.label
        if self.folder is not None or self.path is not None:
            return Path(self.given.rstrip("/")).name
        return self.served_model or self.given

    def paths(self) -> list[str]:
        """Every file the manifest names (a row's parts' each)."""
        return [path for given in self.files.values()
                for path in (given.values() if isinstance(given, dict) else [given])]

    def parts_left_out(self, row: CardRow) -> str | None:
        """For a row read one file per part, the parts the manifest gives no file for, said as the row's warning
        (its numbers cover the parts given); None when every part has its file."""
        given, parts = self.files.get(row.key), file_parts(row)
        if self.kind != "outputs" or not isinstance(given, dict) or parts is None:
            return None
        left = [part for part in parts[1] if part not in given]
        return (f"scored on {' '.join(given)} only: {MANIFEST} names no file for {parts[0]} {' '.join(left)}"
                if left else None)

    def pairs(self) -> list[str]:
        """The pairs the system covers when the user names none: an outputs folder's manifest says."""
        return list(dict.fromkeys(key.split("/")[0] for key in self.files)) if self.kind == "outputs" else []

    def options_for(self, row: CardRow) -> dict[str, Any]:
        """The options of the row's suite run that name this system (``system`` for a published one is the whole
        published set: the card reads its own row out of it; a model's path, an endpoint and its served model). A
        model's options (``model_options``: ``--beam``, ``--max-length`` …) reach the row where the card gives it its
        run's other options (``cards.build.model_options_for``)."""
        if self.kind not in row.takes:
            raise Unfilled(_why_not(self.kind, row))
        if self.kind == "published":
            if not publishes(row, self.given):  # decided here, at no cost: the plan says so, no run is started
                raise Unfilled(f"{self.published} has no published output for {row.suite} ({row.pair})")
            if row.published_list == "run":  # its run gives every published system (DiP ranks a pair's WMT systems)
                return {}
            return {"system": "all" if runs_all(row) else self.published}
        if self.kind == "outputs":
            if row.key not in self.files:
                raise Unfilled(f"no file for {row.key} in {self.folder}/{MANIFEST}")
            files = self.files[row.key]
            if isinstance(files, dict):  # one file per part: the parts given, in the row's order, and their files
                option, _ = file_parts(row) or ("", [])
                return {**self.row_options.get(row.key, {}), option: list(files), row.file: list(files.values())}
            return {**self.row_options.get(row.key, {}), row.file: files}
        if self.kind == "model":
            return {"model": self.path}
        return {"endpoint": self.url, **({"model": self.served_model} if self.served_model else {})}

    def fingerprint(self, row: CardRow) -> str:
        """What names this system's input to the row in the card's cache: a published name, the row's file (its path
        and sha256), the model's files, or the endpoint and served model (a server's weights cannot be seen)."""
        if self.kind == "published":
            return f"published:{self.published}"
        if self.kind == "outputs":
            given = self.files.get(row.key)
            if not given:
                return "file:none"
            named = given.items() if isinstance(given, dict) else [("", given)]
            # the path too: a row's warnings quote it; a part's name too (the domain a file translates)
            # a suite file by its content too (its version: file@sha8, its subsets' with it)
            suite = own_suite(self, row)
            return ("".join(f"file:{part}:{path}:{hashlib.sha256(Path(path).read_bytes()).hexdigest()}:"
                            for part, path in named) + json.dumps(self.row_options.get(row.key, {}), sort_keys=True)
                    + (f":suite:{check_suite_file(suite)}" if suite else ""))
        if self.kind == "model":
            from discotest.models.door import model_fingerprint

            return (f"model:{model_fingerprint(self.given, self.model_options.get('revision'))}:"
                    + json.dumps(_fingerprinted(self.model_options), sort_keys=True))
        return f"endpoint:{self.url}:{self.served_model}:" + json.dumps(_fingerprinted(self.model_options),
                                                                           sort_keys=True)


def _fingerprinted(options: dict[str, Any]) -> dict[str, Any]:
    """The model options that name a card's cache: all but how long an endpoint is waited for (``--timeout`` gives
    up sooner or later; it changes no answer, and a card cached before the card took it stays found)."""
    return {k: v for k, v in options.items() if k != "timeout"}


def endpoint_system(url: str, model: str | None, model_options: dict[str, Any]) -> SystemSpec:
    """A served system, its model named as the server reports it when ``--model`` is not given (``GET /v1/models``:
    the one model listed; several, or none, is one line asking for --model): the card and its cache fingerprint are
    named after the model, not the URL, so the same model's card is the same with or without --model. A served model
    decodes greedily: ``--beam`` changes nothing there and is not among its options (nor in its card's cache key)."""
    model_options = {k: v for k, v in model_options.items() if k != "beam"}
    if not model:
        from discotest.models.door import served_model

        # --timeout bounds this first question too: a server that never answers fails in twice it, not 240 s
        model = served_model(url, timeout=model_options.get("timeout", 120.0))
    return SystemSpec("endpoint", url=url, served_model=model, model_options=model_options)


def file_parts(row: CardRow) -> tuple[str, list[str]] | None:
    """For a row whose run reads one file per part of the suite (mZPRT: ``--input`` one file per ``--domain``), the
    option naming the parts and the row's parts in its order; None for a row of one file."""
    if row.suite != "mzprt" or "outputs" not in row.takes:
        return None
    from discotest.registry import split_list
    from discotest.zero_pronoun.run import domains_of

    return "domain", domains_of(split_list(row.options.get("domain") or "all"))


def published_names(row: CardRow) -> list[str]:
    """The published systems of the row's suite with an output for its pair's target language, as its family
    declares them (``Family.published``); DiP's WMT systems of the pair, from the registry."""
    from discotest import families

    if row.published_list == "run":  # the pair's WMT systems, from the registry (no file read)
        from discotest.dip.documents import chosen_systems

        return list(chosen_systems(row.options.get("data", "wmt22"), row.options["pair"]))
    declared = families.family_of(row.suite).published
    target = row.pair.split("-")[1]
    return [name for name, langs in (declared(row.suite) if declared else {}).items() if not langs or target in langs]


def publishes(row: CardRow, name: str) -> bool:
    return name in published_names(row)


def published_pairs(name: str) -> list[str]:
    """The pairs in whose groups a published system named ``name`` has an output."""
    from discotest.cards.groups import known_pairs, rows_of

    return [pair for pair in known_pairs()
            if any("published" in row.takes and publishes(row, name) for row in rows_of([pair]))]


def runs_all(row: CardRow) -> bool:
    """Whether one run of the row's suite with ``--system all`` gives every published system: its family's
    ``--system`` takes a list (the gender suites, mZPRT); else one run per system (the contrastive family's takes one
    name: CTXPRO's files are located one at a time)."""
    from discotest import families

    return any(o.name == "system" and o.many for o in families.family_of(row.suite).options)


def _why_not(kind: str, row: CardRow) -> str:
    what = {"published": "has no published system outputs", "outputs": "takes no file of outputs",
            "model": "cannot be run with a local model", "endpoint": "cannot be run with an endpoint"}[kind]
    hint = ""
    if kind in ("model", "endpoint") and "outputs" in row.takes:
        hint = f"; translate its sources and give them with --outputs ({row.key})"
    if kind == "endpoint" and "model" in row.takes:
        hint = "; run it with --model"
    return f"{row.suite} {what}{hint}"


def read_manifest(folder: str | Path, read_suites: bool = True
                  ) -> tuple[str, dict[str, str | dict[str, str]], dict[str, dict[str, Any]]]:
    """The system's name, its files by row key (``pair/row``), paths resolved against the folder (every file must
    exist; a row read one file per part, mZPRT's per domain: part -> file), and the options of a row's run the
    manifest gives (``"options": {"PAIR/ROW": {"suite_version": "2019"}}``: ``row_options_allowed``; a gender row's
    own suite, ``{"suite_file": FILE}``, is a file of the folder, its rows read now unless ``read_suites`` is False:
    ``--check`` says a bad one as the row's word). One line naming the manifest and the entry for anything wrong (a
    bad row of a suite file: that file and line)."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not path.is_file():
        raise InputError(f"no {MANIFEST} in {folder} (`discotest card --outputs {folder} --init --pairs …` writes "
                         "one with the sources to translate)", str(path))
    try:
        data = json.loads(path.read_text("utf-8"), object_pairs_hook=_no_key_twice)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"not a JSON manifest: {exc}", str(path)) from None
    except _KeyTwice as exc:
        raise InputError(f"{exc.args[0]!r} is named twice (the manifest gives each row one file)",
                         str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        raise InputError('expected {"system": NAME, "files": {"PAIR/ROW": FILE, …}}', str(path))
    files: dict[str, str | dict[str, str]] = {}
    for key, name in data["files"].items():
        if not isinstance(key, str) or "/" not in key:
            raise InputError(f"entry {key!r}: expected \"PAIR/ROW\": \"FILE\"", str(path))
        row = _check_row_key(key, path)
        parts = file_parts(row)
        if name is None:  # --init's template: a row the user has not filled
            continue
        if parts is not None:
            given = _part_files(key, name, parts, folder, path)
            if given:  # every part null: the row stays empty
                files[key] = given
            continue
        if not isinstance(name, str):
            raise InputError(f"entry {key!r}: expected \"PAIR/ROW\": \"FILE\"", str(path))
        files[key] = _named_file(key, name, folder, path)
    return (str(data.get("system") or folder.name), files,
            _row_options(data.get("options"), path, folder, read_suites=read_suites))


def _named_file(key: str, name: str, folder: Path, manifest: Path) -> str:
    """A file the manifest names for ``key``, in its folder and present; one line naming the entry otherwise."""
    file = folder / name
    if not _inside(file, folder):
        raise InputError(f"entry {key!r}: {name} is outside {folder}; the manifest names files in its folder",
                         str(manifest))
    if not file.is_file():
        raise InputError(f"entry {key!r}: {name} is not in {folder}", str(manifest))
    return str(file)


def _part_files(key: str, given: Any, parts: tuple[str, list[str]], folder: Path, manifest: Path) -> dict[str, str]:
    """The files of a row read one per part (``{"QA": FILE, "GR": FILE, …}``; null: a part not translated), in the
    row's order of its parts; one line naming the entry for a single file, an unknown part or a bad name."""
    option, names = parts
    shape = "{" + ", ".join(f'"{n}": FILE' for n in names[:2]) + ", …}"
    if not isinstance(given, dict):
        raise InputError(f"entry {key!r}: its run reads one file per {option} ({' '.join(names)}): give {shape}",
                         str(manifest))
    for part, name in given.items():
        if part not in names:
            raise InputError(f"entry {key!r}: no {option} {part!r}{did_you_mean(str(part), names)} (its "
                             f"{option}s: {' '.join(names)})", str(manifest))
        if name is not None and not isinstance(name, str):
            raise InputError(f"entry {key!r}: {part}: expected a FILE or null", str(manifest))
    return {part: _named_file(f"{key}/{part}", given[part], folder, manifest) for part in names
            if given.get(part) is not None}


# the options of a row's run a manifest may give: those that say how the user's file is made (the suite version it was
# translated from, how it is read, scores as losses), never one that changes how the row is measured or what it is
# ranked against (an aligner, a verdict, DiP's holdout: the published systems beside it run without them); a
# gender row's own suite (``suite_file``: the user's items; its row is then not ranked, ``own_suite``); and DiP's
# ``max_docs`` (the pair's first N documents: a quick row; its one run mines and ranks the WMT systems on the same
# documents, and the signature's ``docs`` says how many)
ROW_OPTIONS = ("suite_version", "input_format", "scores_are_losses", "suite_file", "max_docs")
# the rows whose suite a user's own file may replace (`run SUITE --suite-file`): WinoMT's and BUG's; winomt-adj's
# rows come from WinoMT's, and a contrastive or Wino-X row's suite file is not a card row's option
OWN_SUITE_ROWS = ("winomt", "bug")


def row_options_allowed(row: CardRow) -> dict[str, Any]:
    """The options a manifest may give a row's run (name -> its declaration): those of ``ROW_OPTIONS`` its family
    takes (``suite_file`` only for ``OWN_SUITE_ROWS``)."""
    from discotest import families

    return {o.name: o for o in families.family_of(row.suite).options
            if o.name in ROW_OPTIONS and o.name not in row.options
            and (o.name != "suite_file" or row.suite in OWN_SUITE_ROWS)}


def own_suite(system: SystemSpec, row: CardRow) -> str | None:
    """The user's own suite file the manifest gives the row (a path in its folder), else None: no published system
    translated its items, so the row is not ranked."""
    if system.kind != "outputs":
        return None
    return system.row_options.get(row.key, {}).get("suite_file")


def check_suite_file(path: str) -> str:
    """The suite file's rows read as `run SUITE --suite-file` reads them (one line naming the file and the line for
    a bad one); its signature version (``file@sha8``, with its subsets')."""
    from discotest.gender.suite_file import load_suite_file

    return load_suite_file(path).version


def _row_options(given: Any, manifest: Path, folder: Path, read_suites: bool = True) -> dict[str, dict[str, Any]]:
    """The manifest's ``options``, each row's checked against what its run takes (``row_options_allowed``) and by
    the option's own type and choices; one line naming the manifest, the row and the option otherwise. A suite file
    is named as a row's file is (in the folder, present) and its rows read (``check_suite_file``) unless
    ``read_suites`` is False."""
    from discotest.cards.groups import rows_of

    if given is None:
        return {}
    if not isinstance(given, dict) or not all(isinstance(v, dict) for v in given.values()):
        raise InputError('"options": expected {"PAIR/ROW": {"option": value, …}, …}', str(manifest))
    out = {}
    for key, options in given.items():
        if not isinstance(key, str) or "/" not in key:
            raise InputError(f"options {key!r}: expected \"PAIR/ROW\"", str(manifest))
        _check_row_key(key, manifest)
        row = next(r for r in rows_of([key.split("/")[0]]) if r.key == key)
        allowed = row_options_allowed(row)
        checked = {}
        for name, value in options.items():
            if name not in allowed:
                raise InputError(f"options of {key}: {row.suite} takes no option {name!r} from the manifest"
                                 f"{did_you_mean(name, list(allowed))} (it takes: {', '.join(allowed) or 'none'})",
                                 str(manifest))
            option = allowed[name]
            try:  # as `run` checks it: its type and range (a JSON number too: max_docs 0 or 2.5), its choices
                value = option.check(value)
            except InputError as exc:
                raise InputError(f"options of {key}: {name}: {exc.detail}", str(manifest)) from None
            if name == "suite_file":
                if not isinstance(value, str):
                    raise InputError(f"options of {key}: suite_file: expected a FILE in {folder}", str(manifest))
                value = _named_file(f"{key} suite_file", value, folder, manifest)
                if read_suites:
                    check_suite_file(value)
            checked[name] = value
        out[key] = checked
    return out


class _KeyTwice(Exception):
    pass


def _no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (JSON's last-wins would drop a row's first file unsaid)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _KeyTwice(key)
        out[key] = value
    return out


def _inside(file: Path, folder: Path) -> bool:
    """Whether ``file`` is in ``folder`` as written (``..`` and absolute paths leave it; a link inside is inside)."""
    return os.path.abspath(file).startswith(os.path.abspath(folder) + os.sep)


def _check_row_key(key: str, manifest: Path) -> CardRow:
    """A manifest's row key names a row of the card's groups: a misspelt one is an error, not a row left out."""
    from discotest.cards.groups import known_pairs, rows_of

    pair, _, row_id = key.partition("/")
    if pair not in known_pairs():
        raise InputError(f"entry {key!r}: no pair {pair!r}{did_you_mean(pair, known_pairs())}", str(manifest))
    rows = rows_of([pair])
    ids = [row.id for row in rows]
    if row_id not in ids:
        raise InputError(f"entry {key!r}: {pair} has no row {row_id!r}{did_you_mean(row_id, ids)} (its rows: "
                         f"{', '.join(ids)})", str(manifest))
    return rows[ids.index(row_id)]
