"""Run every README and docs example as written, in order, in a fresh clone of HEAD with ../shared beside it.

Usage: .venv/bin/python -m bench.release.readme_examples [--cache DIR] [--keep] [--only TEXT]
The order is the README's, then the docs pages' in mkdocs.yml's nav (tests/support/readme_examples.py).
Prints one line per example (file:line, exit status, seconds, the command) and the examples it skipped because
they need a network (``# online``) or files a user brings (``# your files``); exits 1 if any example failed.
The clone runs with this checkout's virtualenv (``.venv`` linked in, ``PYTHONPATH`` on the clone's ``src``),
``DISCOTEST_DATA=../shared/data`` and ``PATH`` starting with ``.venv/bin``, as the README says. Each Python
block is saved as a script and run (``python readme_example_PAGE_LINE.py``). Takes ~20 min cold (it mines and ranks
DiP on WMT22 de-en).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support.readme_examples import examples

ROOT = Path(__file__).resolve().parents[2]


def fresh_clone(where: Path) -> Path:
    """A clone of HEAD in ``where/discotest`` with ``where/shared`` pointing at ../shared and ``.venv`` linked in."""
    clone = where / "discotest"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    (where / "shared").symlink_to(ROOT.parent / "shared")
    (clone / ".venv").symlink_to(ROOT / ".venv")
    return clone


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", help="DISCOTEST_CACHE for the run (default: a fresh one in the temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary clone and print where it is")
    parser.add_argument("--only", help="run only the examples whose text contains this (and every file-making one)")
    args = parser.parse_args()
    where = Path(tempfile.mkdtemp(prefix="readme-"))
    clone = fresh_clone(where)
    env = {**os.environ, "DISCOTEST_DATA": "../shared/data", "PYTHONPATH": str(clone / "src"),
           "PATH": f"{clone / '.venv' / 'bin'}:{os.environ['PATH']}",
           "DISCOTEST_CACHE": args.cache or str(where / "cache")}
    failed, skipped, total = [], [], time.perf_counter()
    for example in examples(clone):
        if not example.runnable:
            skipped.append(example)
            continue
        makes_files = example.kind == "shell" and not example.text.startswith("discotest")
        if args.only and args.only not in example.text and not makes_files:
            continue
        start = time.perf_counter()
        if example.kind == "python":  # saved as a script, as a user would (worker processes import it again)
            script = clone / f"readme_example_{example.path.replace('/', '_')[:-3]}_{example.line}.py"
            script.write_text(example.text + "\n", "utf-8")
            done = subprocess.run([str(clone / ".venv" / "bin" / "python"), script.name], cwd=clone, env=env,
                                  capture_output=True, text=True)
        else:
            done = subprocess.run(["bash", "-c", example.text], cwd=clone, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        first = example.text.splitlines()[0][:100]
        print(f"{example.where:<34} exit {done.returncode:<3} {seconds:7.1f} s  {first}", flush=True)
        if done.returncode != 0:
            failed.append(example)
            print("    " + "\n    ".join((done.stderr or done.stdout).strip().splitlines()[-3:]), flush=True)
    print(f"\n{len(failed)} failed; {len(skipped)} skipped (online or your files); "
          f"{time.perf_counter() - total:.0f} s in all")
    for example in skipped:
        print(f"  skipped {example.where}: {example.text.splitlines()[0][:110]}")
    if args.keep:
        print(f"clone kept in {clone}")
    else:
        subprocess.run(["rm", "-rf", str(where)], check=False)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
