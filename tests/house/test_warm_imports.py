"""A warm run (every verdict cached) loads no language tool and nothing slow to import: an analyser module imports its
tools when the analyser is created, never when its class is asked for its name and version; package versions are read
without importlib.metadata; a quiet run never imports tqdm."""

from __future__ import annotations

import json
import subprocess
import sys

from discotest.cli import main

# what a warm run must not import: the languages' tools (natasha with navec, slovnet and numpy; pymorphy3; farahidi;
# spaCy; HanTa; jieba; torch), importlib.metadata (45 ms) and tqdm (it imports importlib.metadata)
HEAVY = ("natasha", "navec", "slovnet", "numpy", "pymorphy3", "farahidi", "spacy", "thinc", "HanTa", "jieba", "torch",
         "importlib.metadata", "tqdm")
REPORT = f"import json, sys; print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)), file=sys.stderr)"


def _loaded(code: str, env: dict | None = None) -> tuple[str, list[str]]:
    """Run ``code`` in a fresh interpreter: its stdout, and which of HEAVY it imported."""
    done = subprocess.run([sys.executable, "-c", f"{code}\n{REPORT}"], capture_output=True, text=True, check=True,
                          env=env)
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


def test_the_cli_and_every_analysers_name_and_version_load_no_tool():
    code = ("from discotest.cli import build_parser\nbuild_parser()\nimport discotest.gender.run\n"
            "from discotest.lang.morph import ANALYSERS, analyser_class\n"
            "for lang in ANALYSERS:\n    cls = analyser_class(lang); cls.name; cls.static_version()\n")
    assert _loaded(code)[1] == []


def test_a_warm_run_loads_no_tool(tmp_path, monkeypatch, capsys):
    import os

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    args = ["-q", "run", "winomt-demo", "--lang", "de", "--system", "demo", "--format", "json"]
    assert main(args) == 0  # cold: the verdicts are computed and cached
    cold = capsys.readouterr().out
    out, heavy = _loaded(f"from discotest.cli import main\nmain({args!r})", dict(os.environ))
    assert out == cold and heavy == []
