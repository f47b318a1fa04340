"""Checks before a change lands: byte-identical verdicts, determinism, the README examples, the built package."""
