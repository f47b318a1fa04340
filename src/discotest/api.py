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
from discotest.report.emit import Report
from discotest.version import VERSION


def run(suite: str, **options: Any) -> Report:
    """Evaluate on ``suite``: a Report of one Result per system (and language or domain), with per-item details."""
    return families.run(suite, **options)


def compare(suite: str, **options: Any) -> Report:
    """Two systems on the same items of ``suite``: both results and, per language or domain, every metric's paired
    bootstrap and sign test."""
    return families.compare(suite, **options)


def card(**options: Any):
    """The discourse card of one system (``discotest card``): every suite of its language pairs, each number with its
    95% interval, its rank among the suite's published systems and its validity badge. ``options``: the command's,
    with underscores (``system=``, ``outputs=``, ``model=``, ``endpoint=``, ``pairs=``, ``suites=``, ``bootstrap=`` …).
    Returns a ``Card`` (``.rows``, ``.to_json()``)."""
    from discotest.cards import make_card

    return make_card(**options)


def card_versus(**options: Any):
    """``discotest card … --versus B``: (card A, card B, lines), one line per row and metric both filled with both
    values, the paired bootstrap p-value and whether they differ (p < 0.05)."""
    from discotest.cards import make_versus

    return make_versus(**options)


def card_plan(**options: Any) -> list[dict[str, Any]]:
    """What ``discotest card --dry-run`` prints: per row (``PAIR/ROW``) its suite, items, status (``cached``,
    ``to run``, ``unfilled``), why it cannot be filled, and the seconds it last took here."""
    from discotest.cards import card_settings as checked
    from discotest.cards import common_options, plan, resolve

    s = checked(options)
    system, _, rows = resolve(s)
    return plan(system, rows, common_options(s), s["bootstrap"], s["seed"])


def card_init(**options: Any) -> list[str]:
    """``discotest card --outputs DIR --init --pairs …``: the sources to translate and the manifest's template
    written into DIR; one line per file."""
    from discotest.cards import card_settings as checked
    from discotest.cards import resolve
    from discotest.cards.init_outputs import init_outputs

    s = checked({**options, "init": True})
    if not s.get("outputs"):
        raise InputError("--init writes an outputs folder: give --outputs DIR (and --pairs)")
    if not s.get("pairs"):
        raise InputError("--init: give --pairs (e.g. en-de,ja-en,zh-en): the rows to write sources for")
    system, _, rows = resolve(s)
    return init_outputs(s["outputs"], rows, system.name, s.get("data_dir"))


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


def coref(suite: str, *, resolver: Sequence[str] = ("rules",), lang: str | None = None, system: str = "all",
          suite_version: str = "current", jobs: int | None = None, data_dir: str | None = None,
          quiet: bool = False) -> Report:
    """English coreference resolvers and (with ``lang``) MT systems scored on the same gender-suite items."""
    from discotest.gender.coref.compare import coref_report

    return coref_report(suite, resolver, lang, system, suite_version, jobs, data_dir, quiet)


def validate_sample(suite: str, lang: str, output: str | Path, **options: Any) -> tuple[int, Any]:
    """A stratified sample of gender verdicts as a CSV for a person (``validate sample``); the rows written and the
    verdict type. ``options``: system or input, verdict, annotators, n, seed, jobs, data_dir, quiet."""
    from discotest.gender.validate import sample_sheet

    return sample_sheet(suite, lang, output, **options)


def validate_score(csv: str | Path, n_samples: int = 1000, seed: int | None = None) -> list:
    """Agreement of a filled sample with the verdicts, with bootstrap intervals (``validate score``)."""
    from discotest.gender import validate
    from discotest.stats import DEFAULT_SEED

    return validate.score(validate.read_filled(csv), n_samples=n_samples, seed=DEFAULT_SEED if seed is None else seed)


def translate(lang: str, *, suite: str | None = None, input: str | None = None, model: str | None = None,
              endpoint: str | None = None, output: str | Path | None = None, suite_version: str = "current",
              data_dir: str | None = None, engine: str | None = None, context: int | list[int] | None = 0,
              src_lang: str | None = None, tgt_lang: str | None = None, **options: Any) -> list[str]:
    """A gender suite's sources (``suite``) or an English file (``input``) translated by a model (``model``) or a
    served one (``endpoint``); written to ``output`` when given. ``options``: markers, resolver, beam,
    max_length, batch_size, device, revision, use_cache, quiet, ray_address, ray_actors, prompt_file,
    concurrency, timeout (seconds one attempt waits for an endpoint)."""
    from discotest.engine import resolve_engine
    from discotest.gender.family import one_context
    from discotest.gender.translate import translate_file, translate_suite

    if (suite is None) == (input is None):
        raise InputError("translate: give --suite (a gender suite) or --input (an English file)")
    if not (model or endpoint):
        raise InputError("give --model (a model folder or hub name) or --endpoint URL")
    settings = dict(options, src_code=src_lang or "en", tgt_code=tgt_lang, runner=resolve_engine(engine),
                    context=one_context(context), endpoint=endpoint)
    if suite is not None:
        return translate_suite(suite, lang, model, output, data_dir=data_dir, suite_version=suite_version,
                               **settings)
    return translate_file(input, lang, model, output, **settings)


def augment(input: str | Path, output: str | Path, target: str | Path | None = None, **options: Any):
    """Coref/gender fine-tuning pairs selected from a parallel corpus (``augment``); the counts."""
    from discotest.gender.augment import augment as select

    return select(input, output, target, **options)


def finetune(model: str, data: str | Path, output: str | Path, **options: Any):
    """A Marian model fine-tuned on ``augment``'s JSONL, coreference markers in its vocabulary (``finetune``)."""
    from discotest.gender.finetune import finetune as train

    return train(model, data, output, **options)


def mine(benchmark: str = "dip", **options: Any) -> tuple[dict, list[str]]:
    """DiP test sets mined from one WMT pair's system outputs into ``output`` (``mine dip``): the manifest and any
    warnings. ``options``: the ``mine`` command's (pair, output, data, ref, holdout, system, max_docs, phenomena, …)."""
    from discotest.dip.family import MINE_OPTIONS, mine_sets
    from discotest.registry import checked_settings
    from discotest.registry.options import DATA_DIR, QUIET

    if benchmark != "dip":
        raise InputError(f"mine: no benchmark {benchmark!r} (dip)")
    output = options.pop("output", None)
    if not output:
        raise InputError("mine dip needs --output DIR")
    return mine_sets({**checked_settings((*MINE_OPTIONS, DATA_DIR, QUIET), options, "mine dip"), "output": output})


def make_contrastive(input: str | Path, output: str | Path | None = None, replacement: str | None = None) -> list[dict]:
    """Incorrect variants built by swapping each row's annotated pronoun chain (``make-contrastive``): the suite
    rows, also written to ``output`` as JSONL when given."""
    from discotest.contrastive.build import build_rows, write_rows

    rows = build_rows(input, replacement)
    if output is not None:
        write_rows(output, rows)
    return rows


def data_status(names: Sequence[str] = (), data_dir: str | None = None) -> list[dict[str, Any]]:
    """Each registered data source (of the named suites or sources; all without names): suite, name, status,
    path, size on disk, origin and licence (``data list``)."""
    from discotest.data import catalogue

    return catalogue.status(list(names), data_dir)


def data_fetch(names: Sequence[str], data_dir: str | None = None, **limits: Any) -> list[tuple[str, Path, str]]:
    """Download sources and check their sha256 (``data fetch``): per source its name, path and the pin recorded
    for a source with no published checksum. ``limits``: timeout, deadline, max_size (bytes)."""
    from discotest.data import catalogue

    return catalogue.fetch_all(list(names), data_dir, catalogue.Limits(**limits))


def data_prepare(suites: Sequence[str], **options: Any) -> list[str]:
    """Build now what runs of ``suites`` build on first use, into the cache (``data prepare``): the alignment models
    (options: the suite family's, e.g. ``lang=``, ``domain=``, ``subset=``) and the language check's model. One line
    per thing made ready. For a machine that will run offline or must not pause on a first run."""
    from discotest.lang.identify import prepare_model

    lines = []
    for suite in suites:
        lines += families.prepare(suite, **options)
    return [*lines, prepare_model()]


def data_verify(names: Sequence[str] = (), data_dir: str | None = None) -> list[tuple[str, str, str]]:
    """Check the sha256 of the files present (``data verify``): per source its status and path."""
    from discotest.data import catalogue

    return [(name, *catalogue.verify(name, data_dir)) for name in (names or list(catalogue.SOURCES))]


__all__ = ["VERSION", "Report", "augment", "card", "card_init", "card_plan", "card_versus", "compare", "coref",
           "data_fetch", "data_prepare", "data_status", "data_verify", "finetune", "make_contrastive", "mine", "run",
           "suite_facts", "suites", "translate", "validate_sample", "validate_score"]
