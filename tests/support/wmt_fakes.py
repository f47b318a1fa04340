"""A hand-made WMT pair for DiP tests: written into a data dir of the test's own and registered in place of the
real pair (DiP finds a pair's files through the registry, not by looking into the folder); shared by the DiP
end-to-end, CLI and coherence tests."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import pytest

from discotest.data import catalogue
from discotest.dip.documents import DATASETS


def fake_pair(monkeypatch: pytest.MonkeyPatch, root: Path, data: str, pair: str, reference: Sequence[str],
              doc_ids: Sequence[str], systems: dict[str, Sequence[str]], source: Sequence[str] | None = None) -> Path:
    """Write source, reference A, doc ids and system outputs under ``root`` in the registry's layout and register
    them, pinned to what was written, as ``data``'s ``pair`` (for the test only); returns ``root``."""
    folder, prefix = DATASETS[data]
    src, tgt = pair.split("-")
    suite = next(s.suite for s in catalogue.SOURCES.values() if s.name.startswith(f"{data}-"))
    files = {  # registry name -> (kind, path in the data dir, system, lines)
        f"{data}-{pair}-src": ("corpus", f"txt/sources/{prefix}.{pair}.src.{src}", None,
                               source or [f"source {i}" for i in range(len(reference))]),
        f"{data}-{pair}-ref-A": ("corpus", f"txt/references/{prefix}.{pair}.ref.A.{tgt}", None, reference),
        f"{data}-{pair}-docids": ("annotations", f"docids/{prefix}.{pair}.docids", None, doc_ids),
        **{f"{data}-{pair}-hyp-{name}": ("system-output", f"txt/system-outputs/{prefix}.{pair}.hyp.{name}.{tgt}", name,
                                         lines) for name, lines in systems.items()},
    }
    for name in [n for n in catalogue.SOURCES if n.startswith(f"{data}-{pair}-")]:
        monkeypatch.delitem(catalogue.SOURCES, name)
    for name, (kind, rel, system, lines) in files.items():
        path = root / folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = "".join(line + "\n" for line in lines).encode("utf-8")
        path.write_bytes(payload)
        monkeypatch.setitem(catalogue.SOURCES, name, catalogue.Source(
            name, kind, suite, "hand-made for a test", "https://example.org/", hashlib.sha256(payload).hexdigest(),
            f"{folder}/{rel}", subset=pair, system=system))
    return root
