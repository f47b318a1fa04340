"""The package as a whole: import layers, docs site, README examples, determinism, the pointers in the docs, and the
top-level modules (cache, stats, progress, timing)."""
