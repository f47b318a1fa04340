"""Benchmarks: run from the repository root as ``python -m bench.<group>.<name>`` (see docs/contributing/benches.md),
so that ``bench.runner`` and the shared test helpers (``tests.support``) import without editing ``sys.path``."""
