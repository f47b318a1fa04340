"""Parse, dispatch, and end every command the same way: exit status 0, or 2 with one line on stderr naming the file
and line for bad input and for an output that cannot be written (checked before the work by
``outputs.check_outputs``, or failing while written); 141 quietly when stdout is a pipe closed by its reader.
Standard output carries what the command prints for its user and nothing else (``report_only_on_stdout``)."""

from __future__ import annotations

import argparse
import atexit
import io
import os
import shlex
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NoReturn

from discotest import timing
from discotest.cli import (
    augment,
    card,
    compare,
    coref,
    data,
    finetune,
    make_contrastive,
    mine,
    rank,
    run,
    suites,
    translate,
    validate,
)
from discotest.cli.outputs import HELD_STDOUT, check_model, check_outputs, dash_output, report_stdout
from discotest.cli.parsers import global_defaults, global_flags_parser, help_target
from discotest.data import catalogue, readers
from discotest.engine import pace_collector
from discotest.errors import InputError
from discotest.registry import Family
from discotest.values import OneLineParser
from discotest.version import VERSION

# one module per command, in the order ``discotest --help`` lists them; each has NAME, add(sub) and run(args)
COMMANDS = (run, compare, card, validate, coref, data, translate, augment, finetune, mine, rank, suites,
            make_contrastive)


def build_parser(help_for: tuple[str, Family | bool] | None = None) -> argparse.ArgumentParser:
    """The whole parser; ``help_for`` (from ``help_target``) narrows ``run``/``compare`` to what its help shows."""
    parser = OneLineParser(
        prog="discotest", description="Discourse test bench for machine translation.", parents=[global_flags_parser()]
    )
    parser.add_argument("--version", action="version", version=f"discotest {VERSION}")
    parser.set_defaults(**global_defaults())
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        if command in (run, compare):
            command.add(sub, help_for[1] if help_for and help_for[0] == command.NAME else None)
        else:
            command.add(sub)
    return parser


def _stdout_problem() -> str | None:
    """Flush stdout now (not at interpreter exit, where a failure is a traceback and exit 120); the error if any."""
    try:
        if (stdout := report_stdout()) is not None:
            stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _silence_stdout()
        return f"cannot write standard output: {exc.strerror or exc}"
    return None


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's last flush of a dead stdout cannot fail loudly."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, report_stdout().fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        pass


def _reserve_standard_fds() -> None:
    """Put /dev/null on a closed fd 0, 1 or 2, so that no file opened later (an output's temporary file, a cache
    entry) takes that number and receives what a child process or a library writes to "stdout" or "stderr".
    ``sys.stdout``/``sys.stderr`` stay None, so a closed stdout is still reported."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


SIGPIPE_STATUS = 141  # what a shell reports for a program killed by SIGPIPE (`yes | head -1`)


class _NamedStdout:
    """``sys.stdout`` whose write errors name it: a full disk under ``discotest … > file`` is reported as
    ``standard output: No space left on device``, not as a bare "No space left on device"."""

    def __init__(self, stream):
        self._stream = stream

    def _named(self, call, *args):
        try:
            return call(*args)
        except OSError as exc:
            if exc.filename is None:
                exc.filename = "standard output"
            raise

    def write(self, text: str) -> int:
        return self._named(self._stream.write, text)

    def flush(self) -> None:
        self._named(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _fd_is(stream, fd: int) -> bool:
    try:
        return stream.fileno() == fd
    except (OSError, AttributeError, ValueError):  # pytest's capsys, an io.StringIO
        return False


@contextmanager
def report_only_on_stdout() -> Iterator[None]:
    """While a command runs, ``sys.stdout`` is stderr and fd 1 a copy of fd 2, and the command writes to the standard
    output it was started with through ``outputs.report_stdout()``. What a library prints goes to stderr, whether it
    prints in Python or writes to fd 1 natively or from a child process: Ray's driver prints the messages of its
    cluster (``(raylet) A worker died …``) to ``sys.stdout`` from a thread of its own, ``log_to_driver=False`` or not,
    and they broke the JSON of ``run … --engine ray --format json``. Only the command line does this: the Python API
    leaves its caller's streams alone. A ``sys.stdout`` that is not fd 1 (pytest's capsys) is used as it is."""
    stdout = sys.stdout
    if stdout is None:
        yield
        return
    held = None
    report = stdout
    if _fd_is(stdout, 1):  # fd 2 is open (``_reserve_standard_fds``)
        stdout.flush()
        held = os.dup(1)
        # buffered as the original is (unbuffered under ``python -u`` or PYTHONUNBUFFERED)
        raw = isinstance(getattr(stdout, "buffer", None), io.RawIOBase)
        binary = open(held, "wb", buffering=0 if raw else -1, closefd=False)  # noqa: SIM115
        report = _NamedStdout(io.TextIOWrapper(binary, encoding=stdout.encoding, errors=stdout.errors,
                                               line_buffering=stdout.line_buffering,
                                               write_through=getattr(stdout, "write_through", False)))
        os.dup2(2, 1)
    HELD_STDOUT.append(report)
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = stdout
        HELD_STDOUT.pop()
        if held is not None:
            try:
                report.close()  # flushed already when the command ended well (``_stdout_problem``)
            except OSError:  # a closed pipe or a full disk, reported already: what is left goes nowhere
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, held)
                os.close(null)
                report.close()
            os.dup2(held, 1)
            os.close(held)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Exit status: 0 success; 2 bad input, an output that cannot be written (disk full,
    permission denied …) or another system error (one line on stderr, ``discotest: error: FILE: message``);
    141 quietly when stdout is a pipe closed by its reader
    (``discotest … | head -1``), as for any Unix filter; 130 on Ctrl-C."""
    _reserve_standard_fds()
    pace_collector()
    if sys.stderr is None:  # started with stderr closed (2>&-): progress bars and warnings go nowhere, not to stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    plain = sys.stdout
    if plain is not None and not isinstance(plain, _NamedStdout):
        sys.stdout = _NamedStdout(plain)
    try:
        return _main(argv)
    except BrokenPipeError:
        _silence_stdout()
        return SIGPIPE_STATUS
    finally:
        if isinstance(sys.stdout, _NamedStdout) and sys.stdout._stream is plain:
            sys.stdout = plain


def command() -> NoReturn:
    """The ``discotest`` command and ``python -m discotest``: ``main``, then the process ends without the interpreter's
    teardown. Freeing a run's heap object by object (the suite, a token per word, the analysers' models and tables)
    took 0.3-0.4 s of CPU after the last output of a cold Russian or German run, a tenth of the run. Everything a run
    writes is closed when ``main`` returns; the exit handlers still run (the timing report, temporary folders, Ray),
    the standard streams are flushed. A thread still running (not a daemon) gets the ordinary exit, which waits
    for it, and so does a run under a profiler or tracer (``python -m cProfile -m discotest``, coverage), which
    writes its figures after this returns."""
    status = main()
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    if others or sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(status)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(status)  # the ordinary exit reports it as it always did
    if _fd_is(sys.stdout, 1):  # the output is complete: what Ray prints while it shuts down goes to stderr too
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    atexit._run_exitfuncs()
    os._exit(status)


def _main(argv: Sequence[str] | None) -> int:
    timing.mark_started()
    argv = sys.argv[1:] if argv is None else list(argv)
    readers.set_stdin(None)  # '-' reads this call's standard input (main may run several times in one process)
    args = build_parser(help_target(argv)).parse_args(argv)
    args.command_line = shlex.join(["discotest", *argv])
    commands = {command.NAME: command.run for command in COMMANDS}
    try:
        dash_output(args)
        check_outputs(args)
        check_model(args)
        with report_only_on_stdout(), catalogue.modified_allowed_while(args.allow_modified_data):
            status = commands[args.command](args)  # every reader (and worker) sees --allow-modified-data
            if (problem := _stdout_problem()) is not None:
                raise InputError(problem)
        return status
    except InputError as exc:
        print(f"discotest: error: {exc.one_line()}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except OSError as exc:  # the environment failed (stdout on a full disk, an unreadable file …): one line too
        # a failed write to stdout leaves its buffer full, so flushing again names the culprit
        message = _stdout_problem() or InputError(exc.strerror or str(exc), exc.filename).one_line()
        print(f"discotest: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("discotest: interrupted", file=sys.stderr)
        return 130

