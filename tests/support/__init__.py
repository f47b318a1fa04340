"""Shared test helpers (tiny models built on the spot, fake WMT pairs, CLI runners, gold readers), imported as
``tests.support.<module>`` by the tests and, run from the repository root with ``python -m``, by the benches."""
