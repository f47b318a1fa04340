"""The card's options, declared once for ``discotest card`` and ``discotest.card`` alike (``cards.OPTIONS``), and the
flags the card's command takes (``card_flags``: a row's warning names no other)."""

from __future__ import annotations

import dataclasses

from discotest.registry import Option
from discotest.registry import options as shared

PAIRS = Option("pairs", ("--pairs",), "language pairs, comma-separated (en-de,ja-en,zh-en …; default: the pairs the "
               "outputs' manifest or the published system covers)", metavar="LIST", many=True)
SUITES = Option("suites", ("--suites",), "only these suites (or row ids, e.g. mt-geneval-contextual) of the pairs' "
                "groups, comma-separated", metavar="LIST", many=True)
OUTPUTS = Option("outputs", ("--outputs",), "a folder of your system's translation (or scores) files with "
                 "manifest.json naming the file of each PAIR/ROW (`--init` writes the template)", metavar="DIR")
CARD_SYSTEM = Option("system", ("--system", "-s"), "a published system (google, bing, deepl-contexts, base_tgt …): "
                     "its outputs in every suite that has them")
INIT = Option("init", ("--init",), "with --outputs DIR: write the sources to translate and manifest.json's template "
              "into DIR, then stop", default=False, action="store_true")
CHECK = Option("check", ("--check",), "with --outputs DIR: say row by row whether its file is present, missing or "
               "wrong (not one line per line of the sources --init wrote), before any scoring; exit 1 if one is "
               "wrong", default=False, action="store_true")
DRY_RUN = Option("dry_run", ("--dry-run",), "print the plan (rows done, to run, not fillable; items; measured "
                 "seconds) and stop", default=False, action="store_true")
# the shared --bootstrap (registry.options), which on the card draws the intervals as well as the paired tests
BOOTSTRAP = dataclasses.replace(shared.BOOTSTRAP, help="bootstrap resamples for the intervals and the paired tests")
SEED = shared.SEED
VERSUS = Option("versus", ("--versus",), "a second system to compare with, row by row (a published name, an outputs "
                "folder, a model folder or an endpoint URL): both values, the difference and the paired bootstrap "
                "p-value of every number", metavar="SYSTEM")
# the card's --context: what each kind of row does with it (``build.model_options_for``), not a run's help
CONTEXT = dataclasses.replace(shared.CONTEXT, help="--model/--endpoint: previous sentences as context; the rows a "
                              "model translates take the first size (default 0), the contrastive rows score at each "
                              "size given (default 1)")
# the card's --jobs: its own worker processes as well as the languages' (``cards.parallel``), not a run's help
JOBS = dataclasses.replace(shared.JOBS, help="worker processes (default: one per core): the rows filled at once (a "
                           "published system's or a folder's; a model's rows are asked from this process, then scored "
                           "in the workers), and the languages of a published system's gender rows run "
                           "together; --engine ray: the CPUs of a local Ray instance")
MODEL_OPTIONS = (shared.BATCH_SIZE, shared.DEVICE, shared.REVISION, shared.PROMPT, shared.CONCURRENCY,
                 shared.ENDPOINT_TIMEOUT, CONTEXT, shared.BEAM, shared.MAX_LENGTH)
OPTIONS = (CARD_SYSTEM, OUTPUTS, shared.MODEL, shared.ENDPOINT, PAIRS, SUITES, VERSUS, shared.LIMIT, INIT, CHECK,
           DRY_RUN,
           BOOTSTRAP, SEED, *shared.ENGINE_OPTIONS, JOBS,
           *MODEL_OPTIONS, shared.DATA_DIR, shared.QUIET, shared.USE_CACHE, shared.SKIP_LANGUAGE_CHECK)


def card_flags() -> set[str]:
    """Every flag ``discotest card`` takes: its declared options, the global ones, and the output's."""
    return {f for o in (*OPTIONS, *shared.GLOBAL_OPTIONS) for f in o.flags} | {"--format", "-f", "--output", "-o"}
