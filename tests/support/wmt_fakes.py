"""A hand-made WMT pair for DiP tests: written into a data dir of the test's own and registered in place of the
real pair (DiP finds a pair's files through the registry, not by looking into the folder); shared by the DiP
end-to-end, CLI and coherence tests, and one small hand-made WMT22 de-en (``write_pair``) that the DiP, progress,
messages and browser tests run on."""

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


DOC_IDS = ["d1"] * 4 + ["d2"] * 3
REF = ["The car was red.", "She washed the car.", "He saw her yesterday.",
       "Then the car broke down because it was old.",
       "Anna met Tom.", "She left and he stayed.", "They were happy."]
# Good copies the reference; Bad repeats "car" less ("vehicle"), says "him" for "her", drops "then",
# "because" and the clausal "and".
GOOD = list(REF)
BAD = ["The car was red.", "She washed the vehicle.", "He saw him yesterday.",
       "The car broke down, it was old.",
       "Anna met Tom.", "She left, he stayed.", "They were happy."]


def write_pair(monkeypatch: pytest.MonkeyPatch, root: Path, systems: dict[str, list[str]], ref: list[str] = REF,
               doc_ids: list[str] = DOC_IDS) -> Path:
    """A hand-made WMT22 de-en in ``root``, registered for the test in place of the real one."""
    return fake_pair(monkeypatch, root, "wmt22", "de-en", ref, doc_ids, systems,
                     source=[f"Quelle {i}." for i in range(len(ref))])
