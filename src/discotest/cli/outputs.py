"""Every output a command will write is checked before any work (and standard input/output as ``-``), so that
hours of scoring are never lost to an output that cannot be written."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from discotest.atomic import check_output
from discotest.data import catalogue
from discotest.errors import STDIN, InputError
from discotest.report.charts import FIGURE_FORMATS

# Options naming files (or folders) a command reads: no output may be one of them.
INPUT_OPTIONS = ("input", "scores", "suite_file", "train_text", "target", "data", "tests", "csv", "model",
                 "contrapro_context")


# Input options that name a folder the command reads (DiP's mined --tests, a model, finetune's --data): no output
# may lie inside one (a --details file among the mined test sets overwrote or joined them).
FOLDER_INPUTS = ("tests", "model", "data")


# Commands whose --output is a folder, and commands that print nothing but messages to stdout when -o is given.
FOLDER_OUTPUT = ("mine", "finetune")


STDOUT_FREE = ("translate", "augment", "make-contrastive", "mine")


# Commands whose --output may be '-' (standard output, as for sacrebleu); for the others it names a folder or a
# file beside which more files go, so '-' is refused.
DASH_OUTPUT = ("run", "compare", "rank", "coref", "translate", "make-contrastive")


def outputs_of(args: argparse.Namespace) -> list[str]:
    """Every file or folder the command will write, as given."""
    out = [getattr(args, "output", None), getattr(args, "details", None)]
    if args.command == "augment" and args.output:
        out.append(args.summary or f"{args.output}.summary.json")
    return [o for o in out if o is not None]


def _below(path: str, folder: str) -> bool:
    """Whether ``path`` lies inside ``folder`` (links resolved; the folder itself is ``check_output``'s case)."""
    resolved, base = Path(path).resolve(), Path(folder).resolve()
    return resolved != base and resolved.is_relative_to(base)


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse unusable output paths before any work: one of the command's inputs, a directory where a file is
    expected, a device, FIFO or socket, a name too long, a missing or unwritable folder, two outputs on one file,
    a registered file of the data directory; and a closed stdout when the report goes there."""
    inputs: list[str] = []
    for name in INPUT_OPTIONS:
        value = getattr(args, name, None)
        if name == "data" and args.command != "finetune":
            continue  # mine/rank --data names a WMT test set, not a file
        inputs += [str(v) for v in value] if isinstance(value, list) else [value] if isinstance(value, str) else []
    outputs = outputs_of(args)
    data = catalogue.data_dir(getattr(args, "data_dir", None)).resolve()
    registered = {data / p for source in catalogue.SOURCES.values() for p in (source.path, source.usable_path)}
    read_folders = [str(v) for name in FOLDER_INPUTS for v in as_list(getattr(args, name, None))
                    if isinstance(v, str) and v != STDIN and Path(v).is_dir()]
    for i, path in enumerate(outputs):
        folder = i == 0 and args.command in FOLDER_OUTPUT
        inside = next((f for f in read_folders if _below(path, f)), None)
        if inside is not None:
            raise InputError(f"is inside {inside}, a folder this command reads; refusing to write into an input",
                             path)
        check_output(path, inputs, folder=folder)
        resolved = Path(path).resolve()
        if any(resolved == Path(other).resolve() for other in outputs[:i]):
            raise InputError("the same file is given for two outputs", path)
        if resolved in registered:
            raise InputError(f"is a file of the data directory {data}; refusing to overwrite third-party data", path)
    if getattr(args, "figures_format", None) and not getattr(args, "figures", None):
        raise InputError("--figures-format says which figure files --figures DIR writes; give --figures DIR too")
    if getattr(args, "figures", None):
        if any(_below(args.figures, f) for f in read_folders):
            raise InputError("--figures is inside a folder this command reads; refusing to write into an input",
                             args.figures)
        check_output(args.figures, inputs, folder=True)
        if any(Path(args.figures).resolve() == Path(o).resolve() for o in outputs):
            raise InputError("--figures names the same path as another output (-o or --details): the figures go in "
                             "a folder of their own", args.figures)
        if set(getattr(args, "figures_format", None) or FIGURE_FORMATS) - {"svg"}:
            from discotest.report.charts import require_cairosvg

            require_cairosvg()  # its missing extra said before the work, not after
    to_stdout = getattr(args, "output_to_stdout", False)
    if sys.stdout is None and (to_stdout or not (getattr(args, "output", None) or args.command in STDOUT_FREE)):
        raise InputError("standard output is closed; give --output FILE or redirect it to a file")


def check_model(args: argparse.Namespace) -> None:
    """A --model that cannot load (missing folder; hub name, no network, not cached) fails before any work (the
    coreference resolver of --markers predicted, aligners …), not after it. With --endpoint, --model names the
    served model: the server is asked, not the disk or the hub."""
    model = getattr(args, "model", None)
    if getattr(args, "endpoint", None):
        return
    if isinstance(model, str) and model and args.command != "finetune":  # finetune reads its (small) data first
        from discotest.models.hf_models import check_model

        check_model(model, getattr(args, "revision", None))


# the standard output a command was started with, held by ``dispatch.report_only_on_stdout`` while it runs
HELD_STDOUT: list[TextIO] = []


def report_stdout() -> TextIO | None:
    """Where a command writes what it prints for its user (the report, a listing, a plan): the standard output the
    command was started with. While a command runs, ``sys.stdout`` and fd 1 point at stderr, so that what a library
    prints (Ray's ``(raylet) …`` lines, a child process's output) never mixes into a report on stdout."""
    return HELD_STDOUT[-1] if HELD_STDOUT else sys.stdout


def print_out(*values: object, sep: str = " ", end: str = "\n") -> None:
    """``print`` to ``report_stdout()``: how a command writes to its standard output."""
    print(*values, sep=sep, end=end, file=report_stdout())


def as_list(value: object) -> list:
    return value if isinstance(value, list) else [value]


def dash_output(args: argparse.Namespace) -> None:
    """``--output -`` means standard output: ``args.output`` becomes None and ``args.output_to_stdout`` True."""
    dashes = [name for name in INPUT_OPTIONS for value in as_list(getattr(args, name, None)) if value == STDIN]
    if len(dashes) > 1:
        raise InputError("standard input ('-') can be read by one input only; name files for the others")
    if getattr(args, "details", None) == STDIN:
        raise InputError("--details - is not possible: the report goes to standard output; name a file")
    if getattr(args, "output", None) != STDIN:
        return
    if args.command not in DASH_OUTPUT:
        raise InputError(f"--output - (standard output) is not possible for `discotest {args.command}`; name a "
                         f"{'folder' if args.command in FOLDER_OUTPUT else 'file'}")
    args.output, args.output_to_stdout = None, True

