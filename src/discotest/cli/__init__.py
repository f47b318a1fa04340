"""The ``discotest`` command: one module per command (``run``, ``compare``, ``validate`` …), each declaring its
options and calling ``discotest.api``, which does the work; ``main`` parses, dispatches and turns every error into one
line and an exit status."""

import os

# One BLAS thread per process: discotest parallelises across languages itself, and a multi-threaded
# OpenBLAS on busy cores made the Russian tagger 5-20 times slower (measured). Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from discotest.cli.dispatch import build_parser, command, main  # noqa: E402

__all__ = ["build_parser", "command", "main"]
