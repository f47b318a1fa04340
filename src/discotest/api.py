"""The Python API: the same operations as the CLI, with the same option names, returning a Report.

    >>> import discotest
    >>> report = discotest.run("winomt", lang="de", system="google")
    >>> report[0].scores.accuracy, report[0].signature.format()
    >>> discotest.run("mzprt", domain="GR", input="hyp.en").to_json()
    >>> discotest.run("voita-deixis", scores="scores.txt")
    >>> discotest.compare("winomt", lang="de", system=["google", "bing"])

Every suite a user can name on the command line works here: ``discotest.run(suite, **options)`` takes the options of
the suite's family (``discotest run --help``, spelled with underscores: ``--input-format`` is ``input_format=``) and
dispatches through the family registry (``discotest.families``); ``compare`` takes two systems (``system=[A, B]``,
``input=[A, B]`` or one of each) and adds ``bootstrap=`` and ``seed=``.

Every other command of the CLI is a function here too, with the command's option names: ``coref``,
``validate_sample``/``validate_score``, ``translate``, ``augment``, ``finetune``, ``mine``, ``make_contrastive``,
``data_status``/``data_fetch``/``data_verify``/``data_prepare`` and ``suites``/``suite_facts``. The CLI
(``discotest.cli``) parses and prints; the work is done here and in the wings.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from discotest import families
from discotest.errors import InputError
from discotest.registry import Settings, checked_settings
from discotest.report.emit import Report
from discotest.version import VERSION


def _family_settings(suite: str, options: dict[str, Any], compare: bool = False) -> Settings:
    """``options`` (the CLI's names) checked once into the settings of ``suite``'s family, as the registry runs it."""
    return families.settings_for(families.family_of(suite), options, compare=compare)


def run(suite: str, **options: Any) -> Report:
    """Evaluate on ``suite``: a Report of one Result per system (and language or domain), with per-item details."""
    return families.run_settings(suite, _family_settings(suite, options))


def compare(suite: str, **options: Any) -> Report:
    """Two systems on the same items of ``suite``: both results and, per language or domain, every metric's paired
    bootstrap and sign test."""
    return families.compare_settings(suite, _family_settings(suite, options, compare=True))


def card(**options: Any):
    """The discourse card of one system (``discotest card``): every suite of its language pairs, each number with its
    95% interval, its rank among the suite's published systems and its validity badge. ``options``: the command's,
    with underscores (``system=``, ``outputs=``, ``model=``, ``endpoint=``, ``pairs=``, ``suites=``, ``bootstrap=`` …).
    Returns a ``Card`` (``.rows``: typed ``FilledRow``s, ``.to_json()``)."""
    from discotest.cards.build import make_card

    return make_card(**options)


def card_versus(**options: Any):
    """``discotest card … --versus B``: (card A, card B, lines), one line per row and metric both filled with both
    values, the paired bootstrap p-value and whether they differ (p < 0.05)."""
    from discotest.cards.versus import make_versus

    return make_versus(**options)


def card_plan(**options: Any) -> list[dict[str, Any]]:
    """What ``discotest card --dry-run`` prints: per row (``PAIR/ROW``) its suite, items, status (``cached``,
    ``to run``, ``unfilled``), why it cannot be filled, and the seconds it last took here."""
    from discotest.cards import card_settings as checked
    from discotest.cards.build import CardOptions, plan, resolve

    s = checked(options)
    system, _, rows = resolve(s)
    return plan(system, rows, CardOptions.of(s))


def card_check(**options: Any) -> tuple[list[str], bool]:
    """``discotest card --outputs DIR --check``: one line per row of the pairs (``--pairs``, else the manifest's):
    present, missing or wrong; and whether every named file is right."""
    from discotest.cards import card_settings as checked
    from discotest.cards.build import resolve
    from discotest.cards.groups import rows_of
    from discotest.cards.init_outputs import check_outputs, manifest_data

    s = checked({**options, "init": True})
    if not s.outputs:
        raise InputError("--check reads an outputs folder: give --outputs DIR")
    if s.pairs:
        rows = resolve(s)[2]
    else:
        rows = rows_of(list(dict.fromkeys(str(key).split("/")[0] for key in manifest_data(s.outputs)["files"])))
    return check_outputs(s.outputs, rows, s.data_dir)


def card_init(**options: Any) -> list[str]:
    """``discotest card --outputs DIR --init --pairs …``: the sources to translate and the manifest's template
    written into DIR; one line per file."""
    from discotest.cards import card_settings as checked
    from discotest.cards.build import resolve
    from discotest.cards.init_outputs import init_outputs

    s = checked({**options, "init": True})
    if not s.outputs:
        raise InputError("--init writes an outputs folder: give --outputs DIR (and --pairs)")
    if not s.pairs:
        raise InputError("--init: give --pairs (e.g. en-de,ja-en,zh-en): the rows to write sources for")
    system, _, rows = resolve(s)
    return init_outputs(s.outputs, rows, system.name, s.data_dir)


def suites() -> dict[str, list[str]]:
    """Every suite name a user can run, with the published systems it has (what ``discotest suites`` prints)."""
    out: dict[str, list[str]] = {}
    for family in families.families():
        out.update(family.suites())
    return dict(sorted(out.items()))


def suite_facts(data_dir: str | None = None) -> list[dict[str, Any]]:
    """What ``discotest suites --format json`` prints: per suite its family, size (a number, null where it is not
    counted), its unit, the size per language, a note (what the number cannot say: mZPRT's domains, the file to
    fetch), languages, licence and published systems (null for a family that cannot describe its suites)."""
    out = []
    for family in families.families():
        for suite, systems in sorted(family.suites().items()):
            facts = family.describe(suite, data_dir) if family.describe is not None else None
            size = facts.size.to_json() if facts else {"size": None, "unit": None, "size_by_lang": None,
                                                       "size_note": None}
            out.append({"suite": suite, "family": family.name, **size,
                        "langs": facts.langs if facts else None, "licence": (facts.licence or None) if facts else None,
                        "systems": list(systems)})
    return out


def coref(suite: str, **options: Any) -> Report:
    """English coreference resolvers and (with ``lang``) MT systems scored on the same gender-suite items.
    ``options``: the command's (``gender.commands.COREF_OPTIONS``): resolver (a list; default rules), lang, system,
    suite_version, jobs, data_dir, quiet."""
    from discotest.gender.commands import COREF_OPTIONS
    from discotest.gender.coref.compare import coref_report

    s = checked_settings(COREF_OPTIONS, options, "coref")
    resolvers = [s.resolver] if isinstance(s.resolver, str) else s.resolver
    return coref_report(suite, resolvers or ["rules"], s.lang, s.system, s.suite_version, s.jobs, s.data_dir,
                        s.quiet)


def validate_sample(suite: str, lang: str, output: str | Path, **options: Any) -> tuple[int, Any]:
    """A stratified sample of gender verdicts as a CSV for a person (``validate sample``); the rows written and the
    verdict type. ``options``: the command's (``gender.commands.VALIDATE_SAMPLE_OPTIONS``): system or input, verdict,
    annotators, n, seed, jobs, data_dir, quiet."""
    from discotest.gender.commands import VALIDATE_SAMPLE_OPTIONS
    from discotest.gender.validate import sample_sheet

    s = checked_settings(VALIDATE_SAMPLE_OPTIONS, {"suite": suite, "lang": lang, "output": output, **options},
                         "validate sample")
    return sample_sheet(s.suite, s.lang, s.output, **s.without("suite", "lang", "output"))


def validate_score(csv: str | Path, **options: Any) -> list:
    """Agreement of a filled sample with the verdicts, with bootstrap intervals (``validate score``). ``options``:
    n_samples, seed."""
    from discotest.gender import validate
    from discotest.gender.commands import VALIDATE_SCORE_OPTIONS

    s = checked_settings(VALIDATE_SCORE_OPTIONS, options, "validate score")
    return validate.score(validate.read_filled(csv), n_samples=s.n_samples, seed=s.seed)


def translate(lang: str, **options: Any) -> list[str]:
    """A gender suite's sources (``suite``) or an English file (``input``) translated by a model (``model``) or a
    served one (``endpoint``); written to ``output`` when given. ``options``: the command's
    (``gender.commands.TRANSLATE_OPTIONS``): suite or input, model or endpoint, output, suite_version, markers,
    resolver, beam, max_length, batch_size, device, revision, src_lang, tgt_lang, context, engine, ray_address,
    ray_actors, prompt_file, concurrency, timeout (seconds one attempt waits for an endpoint), use_cache, data_dir,
    quiet."""
    from discotest.gender.commands import TRANSLATE_OPTIONS
    from discotest.gender.translate import translate_file, translate_suite
    from discotest.models.spec import ModelSpec

    s = checked_settings(TRANSLATE_OPTIONS, {"lang": lang, **options}, "translate")
    if (s.suite is None) == (s.input is None):
        raise InputError("translate: give --suite (a gender suite) or --input (an English file)")
    if not (s.model or s.endpoint):
        raise InputError("give --model (a model folder or hub name) or --endpoint URL")
    spec = ModelSpec.from_settings(s)  # the model: every model option, one name each
    if s.suite is not None:
        return translate_suite(s.suite, lang, spec, s.output, markers=s.markers, resolver=s.resolver,
                               data_dir=s.data_dir, suite_version=s.suite_version)
    return translate_file(s.input, lang, spec, s.output, markers=s.markers, resolver=s.resolver)


def augment(input: str | Path, output: str | Path, target: str | Path | None = None, **options: Any):
    """Coref/gender fine-tuning pairs selected from a parallel corpus (``augment``); the counts. ``options``: the
    command's (``gender.commands.AUGMENT_OPTIONS``): select, markers, resolver, summary, chunk_size, quiet."""
    from discotest.gender.augment import augment as select
    from discotest.gender.commands import AUGMENT_OPTIONS

    s = checked_settings(AUGMENT_OPTIONS, {"input": input, "output": output, "target": target, **options}, "augment")
    return select(s.input, s.output, s.target, **s.without("input", "output", "target"))


def finetune(model: str, data: str | Path, output: str | Path, **options: Any):
    """A Marian model fine-tuned on ``augment``'s JSONL, coreference markers in its vocabulary (``finetune``).
    ``options``: the command's (``gender.commands.FINETUNE_OPTIONS``): steps, batch_size, lr, max_length, markers,
    device, seed, revision, quiet."""
    from discotest.gender.commands import FINETUNE_OPTIONS
    from discotest.gender.finetune import finetune as train

    s = checked_settings(FINETUNE_OPTIONS, {"model": model, "data": data, "output": output, **options}, "finetune")
    return train(s.model, s.data, s.output, **s.without("model", "data", "output"))


def mine(benchmark: str = "dip", **options: Any) -> tuple[dict, list[str]]:
    """DiP test sets mined from one WMT pair's system outputs into ``output`` (``mine dip``): the manifest and any
    warnings. ``options``: the ``mine`` command's (pair, output, data, ref, holdout, system, max_docs, phenomena, …)."""
    from discotest.dip.family import MINE_OPTIONS, mine_sets
    from discotest.registry.options import DATA_DIR, QUIET

    if benchmark != "dip":
        raise InputError(f"mine: no benchmark {benchmark!r} (dip)")
    output = options.pop("output", None)
    if not output:
        raise InputError("mine dip needs --output DIR")
    return mine_sets(checked_settings((*MINE_OPTIONS, DATA_DIR, QUIET), options, "mine dip"), output)


def make_contrastive(input: str | Path, output: str | Path | None = None, **options: Any) -> list[dict]:
    """Incorrect variants built by swapping each row's annotated pronoun chain (``make-contrastive``): the suite
    rows, also written to ``output`` as JSONL when given. ``options``: replacement (he, she, it or they: only that
    pronoun; default every other one)."""
    from discotest.contrastive.build import build_rows, write_rows
    from discotest.registry.commands import MAKE_CONTRASTIVE_OPTIONS

    s = checked_settings(MAKE_CONTRASTIVE_OPTIONS, {"input": input, "output": output, **options}, "make-contrastive")
    rows = build_rows(s.input, s.replacement)
    if s.output is not None:
        write_rows(s.output, rows)
    return rows


def data_status(names: Sequence[str] = (), data_dir: str | None = None) -> list[dict[str, Any]]:
    """Each registered data source (of the named suites or sources; all without names): suite, name, status,
    path, size on disk, origin and licence (``data list``)."""
    from discotest.data import catalogue

    return catalogue.status(list(names), data_dir)


def data_fetch(names: Sequence[str], data_dir: str | None = None, **options: Any) -> list[tuple[str, Path, str]]:
    """Download sources and check their sha256 (``data fetch``): per source its name, path and the pin recorded
    for a source with no published checksum. ``options``: the command's, in its units (``registry.commands.
    DATA_FETCH_OPTIONS``): silence and deadline (seconds), min_rate (kB a second), max_size (MB). ``timeout=``, the
    old name of ``silence=``, is still taken, with a FutureWarning."""
    import warnings

    from discotest.data import catalogue
    from discotest.registry.commands import DATA_FETCH_OPTIONS, TIMEOUT_RENAMED, fetch_limits

    s = checked_settings(DATA_FETCH_OPTIONS, {"data_dir": data_dir, **options}, "data fetch")
    limits = fetch_limits(s)
    if s.timeout is not None:
        warnings.warn(TIMEOUT_RENAMED, FutureWarning, stacklevel=2)
    return catalogue.fetch_all(list(names), s.data_dir, limits)


def data_prepare(suites: Sequence[str], **options: Any) -> list[str]:
    """Build now what runs of ``suites`` build on first use, into the cache (``data prepare``): the alignment models
    (options: the suite family's, e.g. ``lang=``, ``domain=``, ``subset=``) and the language check's model. One line
    per thing made ready. For a machine that will run offline or must not pause on a first run."""
    from discotest.lang.identify import prepare_model

    lines = []
    for suite in suites:
        lines += families.prepare_settings(suite, _family_settings(suite, options))
    return [*lines, prepare_model()]


def data_verify(names: Sequence[str] = (), data_dir: str | None = None) -> list[tuple[str, str, str]]:
    """Check the sha256 of the files present (``data verify``): per source its status and path."""
    from discotest.data import catalogue

    return [(name, *catalogue.verify(name, data_dir)) for name in (names or list(catalogue.SOURCES))]


__all__ = ["VERSION", "Report", "augment", "card", "card_check", "card_init", "card_plan", "card_versus", "compare",
           "coref", "data_fetch", "data_prepare", "data_status", "data_verify", "finetune", "make_contrastive", "mine",
           "run", "suite_facts", "suites", "translate", "validate_sample", "validate_score"]
