"""The registry of suite families: each family names its suites, declares its options and runs them into Results.

``discotest run``, ``compare``, ``suites`` and ``discotest.run``/``discotest.compare`` all dispatch through here
(``run_settings``, ``compare_settings``: a family's own ``run``/``compare`` between the checks every run gets), so a
new suite is a registration, not a new route through the code (docs/contributing/adding-a-suite.md). An option is
declared once, as data: the CLI builds its flags from it and the Python API checks keyword arguments against the same
names, so ``--input-format`` on the command line is ``input_format=`` in Python; ``Option.check`` checks a value's
type, range and choices once, for both; a family reads the checked values as a ``Settings`` (``s.align_train``).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discotest.errors import InputError, did_you_mean
from discotest.models.language_watch import Watch, watching
from discotest.models.requests import Asked, answer_all, settled
from discotest.progress import quiet_scope
from discotest.report.emit import Report
from discotest.timing import stage


@dataclass(frozen=True)
class Option:
    """One setting of a family: its Python name (the CLI's ``dest``), flags, help, default and parsing."""

    name: str
    flags: tuple[str, ...]
    help: str | None
    default: Any = None
    type: Callable[[str], Any] | None = None
    choices: tuple[str, ...] | None = None
    action: str | None = None  # "store_true", "store_false", "append"
    metavar: str | None = None
    nargs: int | str | None = None
    required: bool = False  # the command line must give it (the API takes it as a positional argument, or not at all)
    many: bool = False  # a comma-separated list on the command line (--lang de,fr): Python may give a list too

    @property
    def takes_list(self) -> bool:
        """Whether a Python list is a value of this option: a repeated flag, ``nargs``, or a comma-separated list;
        any other option takes one value (``lang=["de"]`` for ``translate``'s one language is refused)."""
        return self.many or self.action == "append" or bool(self.nargs)

    def check(self, value: Any) -> Any:
        """``value`` as this option takes it, or an InputError naming the flag: its type and range (the same parse
        as the CLI's, or for a Python value the same range check) and its choices. The one check of an option's
        value, for ``discotest run …`` and ``discotest.run(…)`` alike; pipelines do not check again."""
        if value is None or self.action in ("store_true", "store_false"):
            return value
        if isinstance(value, list | tuple | set):
            if not self.takes_list:
                shown = repr(list(value))
                raise InputError(f"{self.flags[0]} takes one value, not a list ({shown[:60]}"
                                 f"{'…' if len(shown) > 60 else ''}): give it as one {self.metavar or 'value'}")
            if self.many and value and self.type is not None and hasattr(self.type, "check"):
                return self.type.check(list(value))  # a comma-separated list's own parse takes the whole list
            return [self._check_one(v) for v in value]
        return self._check_one(value)

    def _check_one(self, value: Any) -> Any:
        import argparse

        flag = self.flags[0]
        if self.type is not None and isinstance(value, str):
            try:
                value = self.type(value)
            except (argparse.ArgumentTypeError, ValueError) as exc:
                raise InputError(f"argument {flag}: {exc}") from None
        elif self.type is not None and hasattr(self.type, "check"):  # a number given in Python: the range check
            value = self.type.check(value)
        # choices name things: an object given in Python instead of a name (a WordAligner of one's own) is the
        # family's to accept or refuse
        if self.choices is not None and isinstance(value, str | int | float) and value not in self.choices:
            raise InputError(f"{flag} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
                             f"{did_you_mean(str(value), [str(c) for c in self.choices])}")
        return value

    def argparse_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dest": self.name, "help": self.help}
        for key in ("type", "choices", "action", "metavar", "nargs"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.required:
            out["required"] = True
        return out


@dataclass(frozen=True)
class SuiteSize:
    """A suite's size as data (``suites --format json``: a number and its unit) and as the text ``suites`` prints.
    ``n`` is None where it is not counted: the data is missing (``missing`` says what to fetch), the suite is your
    file, or DiP's sets are mined."""

    n: int | None
    unit: str = "items"  # what is counted: items, zero pronouns, test items ('' when nothing is)
    detail: str = ""  # after the count: "in 5 domains (QA, …)"; alone when nothing is counted
    missing: str = ""  # "not in the data directory: `discotest data fetch NAME`"
    by_lang: dict[str, int] | None = None  # per target language, when the suite has a file per language

    def __str__(self) -> str:
        if not self.unit:
            return self.detail
        if self.by_lang is not None:
            text = ", ".join(f"{lang} {n:,} {self.unit}" for lang, n in self.by_lang.items())
            if self.missing:
                text += ("; " if text else "") + f"? {self.unit} ({self.missing})"
            return text
        count = "?" if self.n is None else f"{self.n:,}"
        return (f"{count} {self.unit}" + (f" {self.detail}" if self.detail else "")
                + (f" ({self.missing})" if self.missing else ""))

    def to_json(self) -> dict[str, Any]:
        """``size`` (a number or null), ``unit``, ``size_by_lang`` and ``size_note`` (what the number cannot say)."""
        note = "; ".join(x for x in (self.detail, self.missing) if x) or None
        return {"size": self.n, "unit": self.unit or None, "size_by_lang": self.by_lang, "size_note": note}


@dataclass(frozen=True)
class SuiteFacts:
    """What ``discotest suites`` says of one suite: its size (counted from the data), languages and licence."""

    size: SuiteSize
    langs: str
    licence: str = ""


def count_items(load: Callable[[], int], what: str = "items", detail: str = "") -> SuiteSize:
    """The size of a suite from its loader, or what to fetch when its data is not there."""
    from discotest.data.catalogue import MissingDataError

    try:
        return SuiteSize(load(), what, detail)
    except MissingDataError as exc:
        name = exc.detail.split("'")[1] if "'" in exc.detail else "NAME"
        return SuiteSize(None, what, detail, f"not in the data directory: `discotest data fetch {name}`")


@dataclass(frozen=True)
class Family:
    """A suite family. ``run(suite, settings)`` and ``compare(suite, settings)`` get every option of the family, the
    defaults filled in, and return a Report; ``suites()`` lists the suite names it answers to (with the published
    systems a user can name, for ``discotest suites``)."""

    name: str
    title: str
    suites: Callable[[], dict[str, list[str]]]
    options: tuple[Option, ...]
    run: Callable[[str, Settings], Report]
    compare: Callable[[str, Settings], Report] | None = None
    compare_options: tuple[Option, ...] = ()
    handles: Callable[[str], bool] | None = None  # extra names it answers to (files named by the user …)
    doc: str = ""
    describe: Callable[[str, str | None], SuiteFacts] | None = None  # (suite, data dir) -> facts for `suites`
    # (suite, settings) -> the language --input files must be in (checked before the run), None: not checked
    input_language: Callable[[str, Settings], str | None] | None = None
    # (suite, settings, path) -> refuse an --input file whose lines do not translate the rows they land on (shifted,
    # swapped, another suite's or language's sentences: ``lang.correspondence.refuse_misaligned``, against the
    # suite's references or published outputs where it has them); run by ``run`` and ``compare`` after the language
    # check, before any work; off with skip_language_check. A family that takes --input declares both
    # (tests/registry/test_input_checks.py); it returns without a word where the file is not a translation file
    # (a contrastive suite's own file) or the settings are ones its run refuses; it returns a warning or None (a
    # file that is mostly the suite's reference translation: scored, its scores the reference's)
    check_lines: Callable[[str, Settings, str], str | None] | None = None
    # (suite, settings) -> one line per thing made ready: what ``discotest data prepare`` builds ahead of a run
    # (alignment models); None: the family trains nothing
    prepare: Callable[[str, Settings], list[str]] | None = None
    # (suite, a run's options, data dir) -> the items of each result such a run gives: the card's plan counts a row
    # with them (``--limit`` caps each result); None: the suite's size (``describe``) is the row's
    parts: Callable[[str, dict[str, Any], str | None], list[int]] | None = None
    # whether one run over several languages (``lang`` a list, one published system set) leaves each language's own run
    # of the same options nothing but its results to read from the cache (the gender suites' verdicts, found by their
    # files): the card then runs a suite's rows of several pairs as that one run, languages in parallel
    langs_together: bool = False
    # runs of several of the family's suites, each over several languages as ``langs_together`` says, made at once
    # (``[(suite, settings), …]``), each language's runs of every suite in one worker process (its analyser loaded
    # once, not once per suite): each run then finds its results in the cache, as after its own run; its second
    # argument, ``on_language(lang)`` or None, is told as each language's results are all in the cache (the card ranks
    # that language's rows meanwhile). None: the card runs each suite's languages together, one suite after another
    suites_together: Callable[[list[tuple[str, Settings]], Callable[[str], None] | None], None] | None = None
    # the run in two phases (``run_settings`` then calls these, not ``run``): ``requests(suite, settings)`` opens the
    # models the run needs and states what it asks them (``models.requests.Asked``), ``score(suite, settings, asked,
    # answers)`` turns the answers into the Report; a caller holding several runs (the card) sends every run's
    # requests before it scores any. None: the family has one phase (``run``)
    requests: Callable[..., Asked] | None = None
    score: Callable[[str, Settings, Asked, list[list[Any]]], Report] | None = None
    # a two-phase family whose requests depend on CPU work (DiP: which items are asked about is known once the texts
    # are parsed and mined) states that work as a first stage: ``cpu_stage(suite, settings)`` runs before any model
    # is opened or asked, and its result is ``requests``'s third argument (``requests(suite, settings, staged)``)
    cpu_stage: Callable[[str, Settings], Any] | None = None
    # suite -> each published system a run names with ``--system`` and the target languages it has an output in
    # (empty: every language of the suite), in the family's order: what the card ranks a row against
    # (``cards.system.published_names``); ``suites`` says the same in words. None: no published system
    published: Callable[[str], dict[str, tuple[str, ...]]] | None = None
    # whether ``--jobs`` sizes the family's own local worker processes (gender: one per language); False: it means
    # only the CPUs of a local Ray (``--engine ray``), and a run without Ray refuses it (DiP). The card gives its
    # ``--jobs`` to a row's run only where it means the same thing (``cards.build.CardOptions.run_options``)
    local_jobs: bool = True
    # whether a two-phase run's score phase reads only the answers (its models are asked nothing more): the card may
    # then score the row in a worker process, each model stood in for by what names it (``packed``). False: the score
    # phase asks a model too (DiP asks its pronoun scorer about the model's own translations), and is scored where
    # the models were opened
    answers_suffice: bool = True

    def answers(self, suite: str) -> bool:
        return suite in self.suites() or bool(self.handles and self.handles(suite))


_FAMILIES: dict[str, Family] = {}
# suite -> the name of the family whose suites list it, found once per process (``family_of``: a card asks some 400
# times, and the contrastive family's list is built from the catalogue each time, 0.5 ms a question); emptied by
# ``register`` and ``unregister``. A name a family only ``handles`` (a user's file) is asked each time
_FAMILY_OF: dict[str, str] = {}


def register(family: Family) -> Family:
    if (family.requests is None) != (family.score is None):
        raise ValueError(f"suite family {family.name!r}: a run in two phases declares both requests and score")
    if family.cpu_stage is not None and family.requests is None:
        raise ValueError(f"suite family {family.name!r}: a first stage comes before requests: declare them")
    if family.name in _FAMILIES and _FAMILIES[family.name] is not family:
        raise ValueError(f"suite family {family.name!r} is registered twice")
    _FAMILIES[family.name] = family
    _FAMILY_OF.clear()
    return family


def unregister(name: str) -> None:
    """Remove a family (tests that register one of their own)."""
    _FAMILIES.pop(name, None)
    _FAMILY_OF.clear()


def families() -> list[Family]:
    return list(_FAMILIES.values())


def all_suites() -> list[str]:
    return sorted({s for f in _FAMILIES.values() for s in f.suites()})


def family_of(suite: str) -> Family:
    if (known := _FAMILIES.get(_FAMILY_OF.get(suite, ""))) is not None:
        return known
    for family in _FAMILIES.values():
        if suite in family.suites():
            _FAMILY_OF[suite] = family.name
            return family
        if family.handles and family.handles(suite):
            return family
    raise InputError(f"unknown suite {suite!r}{did_you_mean(suite, all_suites())}; choose from "
                     f"{', '.join(all_suites())} (`discotest suites` lists them)")


class Settings(Mapping[str, Any]):
    """The checked settings of one family or command: every declared option, read as an attribute (``s.align_train``).

    Built by ``checked_settings`` only, so each value has passed its ``Option.check`` and its default is the
    declaration's; immutable. A name not declared is an AttributeError naming the owner and its options at once
    (``s.align_trian`` fails where it is written, not as a default deep in a run); ``replace`` gives a new one with
    changed values, checked again. Attribute access is typed ``Any``: the declared Option (its ``type``, ``choices``,
    ``action``) is the type. It stays a Mapping so that ``dict(s)``, ``**s`` and code that lists settings (JSON,
    signatures) keep working; a family reads ``s.name``, and ``s.get(name)`` only for an option that some of the
    families it serves do not declare (say why where it is used)."""

    __slots__ = ("_values", "_declared", "_owner")
    _values: dict[str, Any]
    _declared: dict[str, Option]
    _owner: str

    def __init__(self, values: dict[str, Any], declared: dict[str, Option], owner: str) -> None:
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "_declared", declared)
        object.__setattr__(self, "_owner", owner)

    def __getattr__(self, name: str) -> Any:  # only for names that are not attributes of the class
        if name.startswith("__") or name in Settings.__slots__:  # copy/pickle probing; a half-built object
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(self._unknown(name)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"settings are immutable: use .replace({name}=…)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("settings are immutable")

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Settings({self._owner}: {self._values!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """For a worker process: the checked values and the declared names (an Option's parse is often a local
        function, which does not pickle); there ``replace`` still refuses an undeclared name but checks no value."""
        return (_unpickled_settings, (self._values, tuple(self._declared), self._owner))

    @property
    def owner(self) -> str:
        """The family or command the settings are of (it names them in errors)."""
        return self._owner

    def _unknown(self, name: str) -> str:
        flag = name.replace("_", "-")
        return (f"{self._owner} has no option {name!r} (--{flag}){did_you_mean(name, list(self._declared))}; its "
                f"options: {', '.join(sorted(self._declared))}")

    def without(self, *names: str) -> dict[str, Any]:
        """Every other setting, as keywords for a pipeline that takes them all (``translate``, ``augment``);
        ``names`` are declared ones, each read on its own by the caller."""
        unknown = [k for k in names if k not in self._declared]
        if unknown:
            raise AttributeError(self._unknown(unknown[0]))
        return {k: v for k, v in self._values.items() if k not in names}

    def replace(self, **changes: Any) -> Settings:
        """New settings with ``changes``: only declared names, each value checked by its declaration."""
        unknown = [k for k in changes if k not in self._declared]
        if unknown:
            raise InputError(self._unknown(unknown[0]))
        return Settings({**self._values, **{k: self._declared[k].check(v) for k, v in changes.items()}},
                        self._declared, self._owner)


def _unpickled_settings(values: dict[str, Any], names: tuple[str, ...], owner: str) -> Settings:
    return Settings(values, {name: Option(name, ("--" + name.replace("_", "-"),), None) for name in names}, owner)


def settings_for(family: Family, options: Mapping[str, Any], compare: bool = False) -> Settings:
    """Every option of ``family`` (and of its ``compare``) with its default, overridden by ``options``."""
    return checked_settings((*family.options, *(family.compare_options if compare else ())), options, family.title)


def checked_settings(options_declared: Sequence[Option], options: Mapping[str, Any], owner: str) -> Settings:
    """Every declared option with its default, overridden by ``options``, each checked by its declaration
    (``Option.check``); an option not declared is an error naming the ones ``owner`` (a family, a command) has, so
    a typo never runs silently with a default. A later declaration of a name replaces an earlier one (compare's
    ``--system`` repeats where run's takes a list)."""
    declared = {o.name: o for o in options_declared}
    clash = [name for name in declared if hasattr(Settings, name)]
    if clash:  # a declaration error: ``s.items`` must read the option, not the Mapping method
        raise ValueError(f"{owner}: option name {clash[0]!r} is a Settings attribute; name it otherwise")
    unknown = [k for k in options if k not in declared]
    if unknown:
        flag = unknown[0].replace("_", "-")
        raise InputError(f"{owner} has no option {unknown[0]!r} (--{flag}); its options: "
                         f"{', '.join(sorted(declared))}")
    settings = {name: (list(o.default) if isinstance(o.default, list) else o.default) for name, o in declared.items()}
    settings.update({name: declared[name].check(value) for name, value in options.items()})
    return Settings(settings, declared, owner)


def split_list(value: str | Sequence[str] | None, what: str = "") -> list[str] | str | None:
    """``"all"`` stays ``"all"``; ``"a,b"`` and ``["a", "b"]`` become a list; None stays None. A value of commas
    alone (``--lang ',,'``) is an InputError saying so (``what`` names the option), not an empty list that would
    surface later as "no system has an output"."""
    if value is None or value == "all":
        return value
    if isinstance(value, str):
        out = [v.strip() for v in value.split(",") if v.strip()]
        if not out and value.strip():
            raise InputError(f"{what + ' ' if what else ''}{value!r} names nothing (only commas and spaces): give "
                             "a name, a comma-separated list, or 'all'")
        return out
    return list(value)


def _input_paths(settings: Settings) -> list[str]:
    # .get here and below: the registry serves every family, and a family need not declare input, quiet, …
    given = settings.get("input")
    declared = settings._declared.get("input")
    if isinstance(given, str) and declared is not None and declared.many:  # one file per part: "qa.txt,gr.txt"
        given = [p.strip() for p in given.split(",") if p.strip()]
    return [] if not given else [given] if isinstance(given, str | Path) else [str(p) for p in given]


def check_input_language(family: Family, suite: str, settings: Settings) -> tuple[list[str], list[str]]:
    """Refuse an ``--input`` file that is mostly another language or script than the family scores (one line naming
    the file and both languages; ``lang.identify``), before any work. Returns the inputs that were not checked
    because ``skip_language_check`` is set (their results' signatures say so), and a warning for each file that is
    scored although many of its lines are not in the language (``LanguageReading.doubt``: every family alike)."""
    paths = _input_paths(settings)
    expected = family.input_language(suite, settings) if family.input_language and paths else None
    if not expected:
        return [], []
    if settings.get("skip_language_check"):
        return paths, []
    from discotest.data.readers import is_stdin
    from discotest.data.translations import translation_texts
    from discotest.lang.identify import check_language, knows

    if not knows(expected):  # a language the check cannot judge (a registered toy language): not checked
        return [], []
    warnings = []
    for path in paths:
        if is_stdin(path) or Path(path).is_file():  # a missing file is the family's error, in its own words
            reading = check_language(path, translation_texts(path, settings.get("input_format") or "auto"), expected)
            doubt = reading.doubt()
            warnings += [f"warning: {path}: {doubt}"] if doubt else []
    return [], warnings


def check_input_lines(family: Family, suite: str, settings: Settings) -> list[str]:
    """Each ``--input`` file's lines checked against the rows they land on (``Family.check_lines``), before any
    work, and its warnings; a missing file is the family's error, in its own words."""
    from discotest.data.readers import is_stdin

    if family.check_lines is None or settings.get("skip_language_check"):
        return []
    warnings = []
    for path in _input_paths(settings):
        if is_stdin(path) or Path(path).is_file():
            warning = family.check_lines(suite, settings, path)
            warnings += [warning] if warning else []
    return warnings


def _finish(report: Report, paths: list[str], warnings: list[str], watch: Watch | None = None) -> Report:
    """``langcheck:off`` in the signature of every result read from one of ``paths`` or translated by a model the
    run did not check (``watch.unchecked``); the language warnings (the files', the models' translations') added to
    the report's (stderr, JSON, HTML)."""
    from discotest.data.readers import system_name
    from discotest.report.result import Signature

    warnings = [*warnings, *(watch.warnings if watch else ())]
    report.warnings = [*report.warnings, *(w for w in warnings if w not in report.warnings)]
    names = {system_name(p) for p in paths}
    models = watch.unchecked if watch else set()
    for result in report.results:
        signature = getattr(result, "signature", None)
        if not isinstance(signature, Signature):
            continue
        fields = list(signature.fields)
        if getattr(result, "system", None) in names or dict(fields).get("model") in models:
            at = next((i for i, (key, _) in enumerate(fields) if key == "files"), len(fields))  # files: stays last
            result.signature = Signature((*fields[:at], ("langcheck", "off"), *fields[at:]))
    return report


def lang_codes(value: str | Sequence[str] | None) -> list[str] | str | None:
    """``split_list`` of language codes, lower-cased: ``--lang DE`` is ``de`` (codes are case-insensitive)."""
    langs = split_list(value.lower() if isinstance(value, str) else value, "--lang")
    return [lang.lower() for lang in langs] if isinstance(langs, list) else langs


@dataclass
class Phased:
    """One run of a two-phase family between its phases (``ask``, ``answered``, ``scored``): its settings, its
    requests, and what the input checks and the language watches of its phases found (``_finish`` reads them)."""

    family: Family
    suite: str
    settings: Settings
    asked: Asked
    unchecked: list[str]
    warnings: list[str]
    watches: list[Watch]


def packed(run: Phased, answers: list[list[Any]]) -> bytes | None:
    """A run between its phases, answered, as bytes another process scores (``unpacked``, then ``scored``): each
    model of its asks replaced by what its score phase reads of it (``models.requests.settled``: no weights, no
    client), its family named by the module that registers it. None where the run cannot go: its family's score
    phase asks a model (``Family.answers_suffice``), the family is no module's ``FAMILY`` (one a test registers), or
    its state holds what does not pickle (an opened parser, a function of its own); it is then scored here."""
    import pickle

    module = _family_module(run.family)
    if module is None or not run.family.answers_suffice:
        return None
    try:
        sizes: dict[int, tuple[Any, list[int]]] = {}
        for each in run.asked.asks:
            sizes.setdefault(id(each.model), (each.model, []))[1].extend(each.contexts)
        stand_ins = {key: (model, settled(model, contexts)) for key, (model, contexts) in sizes.items()}

        class _Packer(pickle.Pickler):
            def reducer_override(self, obj: Any) -> Any:
                found = stand_ins.get(id(obj))
                if found is not None and found[0] is obj:
                    return _itself, (found[1],)
                if isinstance(obj, Family):
                    named = _family_module(obj)
                    if named is None:
                        raise pickle.PicklingError(f"family {obj.name!r} is no module's FAMILY")
                    return _registered, (named,)
                return NotImplemented

        out = io.BytesIO()
        _Packer(out, protocol=pickle.HIGHEST_PROTOCOL).dump((run, answers))
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return out.getvalue()


def unpacked(payload: bytes) -> tuple[Phased, list[list[Any]]]:
    """``packed``'s run and answers, in the process that scores them."""
    import pickle

    run, answers = pickle.loads(payload)  # noqa: S301 - the card's own bytes, from its own process
    return run, answers


def _itself(value: Any) -> Any:
    return value


def _family_module(family: Family) -> str | None:
    """The module whose ``FAMILY`` the family is (a built-in family's ``family.py``), or None."""
    import sys

    module = getattr(family.run, "__module__", None)
    return module if module and getattr(sys.modules.get(module), "FAMILY", None) is family else None


def _registered(module: str) -> Family:
    """The family a module registers, imported (in a worker process: as the card's process has it)."""
    import importlib

    return importlib.import_module(module).FAMILY


def has_phases(suite: str) -> bool:
    """Whether ``suite``'s family runs in two phases (``Family.requests``): its requests can be gathered first."""
    return family_of(suite).requests is not None


def ask(suite: str, settings: Settings) -> Phased:
    """A two-phase run's first phase from its checked settings (``settings_for``, built once by the caller: the
    card's row): the input files checked as ``run`` checks them, the family's first stage done where it has one
    (``Family.cpu_stage``), its requests stated (its models opened)."""
    family = family_of(suite)
    if family.requests is None:
        raise ValueError(f"{family.title} run in one phase (no requests)")
    with stage("language check"):
        unchecked, warnings = check_input_language(family, suite, settings)
    warnings += check_input_lines(family, suite, settings)
    with quiet_scope(settings.get("quiet")), watching(not settings.get("skip_language_check")) as watch:
        if family.cpu_stage is None:
            asked = family.requests(suite, settings)
        else:
            asked = family.requests(suite, settings, family.cpu_stage(suite, settings))
    return Phased(family, suite, settings, asked, unchecked, warnings, [watch])


def answered(run: Phased) -> list[list[Any]]:
    """The answers to a run's requests (``models.requests.answer_all``), a model's translations read for their
    language as a one-phase run's are."""
    with quiet_scope(run.settings.get("quiet")), watching(not run.settings.get("skip_language_check")) as watch:
        answers = answer_all(run.asked.asks)
    run.watches.append(watch)
    return answers


def scored(run: Phased, answers: list[list[Any]]) -> Report:
    """A two-phase run's Report from its answers, finished as ``run`` finishes one (``_finish``)."""
    assert run.family.score is not None  # a family with requests has its score phase (``register``)
    with quiet_scope(run.settings.get("quiet")), watching(not run.settings.get("skip_language_check")) as watch:
        report = run.family.score(run.suite, run.settings, run.asked, answers)
    watches = [*run.watches, watch]
    merged = Watch(watch.check, list(dict.fromkeys(w for seen in watches for w in seen.warnings)),
                   set().union(*(seen.unchecked for seen in watches)))
    return _finish(report, run.unchecked, run.warnings, merged)


def run_settings(suite: str, settings: Settings) -> Report:
    """``suite`` run with its family's checked settings (``settings_for``: ``discotest.run`` builds them from the
    user's options, the card from each row's): a two-phase family's requests, their answers, its score (``ask``,
    ``answered``, ``scored``), or a one-phase family's own ``Family.run``, between the same checks."""
    family = family_of(suite)
    if family.requests is not None:
        phased = ask(suite, settings)
        return scored(phased, answered(phased))
    with stage("language check"):  # py3langid's model is most of it (read back from the cache)
        unchecked, warnings = check_input_language(family, suite, settings)
    warnings += check_input_lines(family, suite, settings)
    # the stage bars deep in the pipelines follow quiet; a model's translations are read for their language
    with quiet_scope(settings.get("quiet")), watching(not settings.get("skip_language_check")) as watch:
        report = family.run(suite, settings)
    return _finish(report, unchecked, warnings, watch)


def prepare_settings(suite: str, settings: Settings) -> list[str]:
    """Build what runs of ``suite`` with its family's checked settings would build on first use (alignment models,
    into the cache; the family's own ``Family.prepare``), one line each; a family that trains nothing says so."""
    family = family_of(suite)
    if family.prepare is None:
        raise InputError(f"{suite}: nothing to prepare (its runs train no model)")
    with quiet_scope(settings.get("quiet")):
        return family.prepare(suite, settings)


def compare_settings(suite: str, settings: Settings) -> Report:
    """Two systems of ``suite`` compared item by item with the family's checked settings (``settings_for(…,
    compare=True)``): the family's own ``Family.compare``, between the checks ``run_settings`` makes."""
    family = family_of(suite)
    if family.compare is None:
        raise InputError(f"{family.title} results cannot be compared item by item")
    with stage("language check"):  # py3langid's model is most of it (read back from the cache)
        unchecked, warnings = check_input_language(family, suite, settings)
    warnings += check_input_lines(family, suite, settings)
    with quiet_scope(settings.get("quiet")), watching(not settings.get("skip_language_check")) as watch:
        report = family.compare(suite, settings)
    return _finish(report, unchecked, warnings, watch)


__all__ = ["Family", "Option", "Phased", "Report", "Settings", "all_suites", "answered", "ask", "compare_settings",
           "families", "family_of", "has_phases", "packed", "prepare_settings", "register", "run_settings",
           "scored", "settings_for", "split_list", "unpacked", "unregister"]
