"""Child processes end with their parent (issue 24): the aligner's two training children (``ThotAligner`` with
``processes=2``) are SIGKILLed by the kernel when the process that started them is SIGKILLed
(``engine.end_with_parent``), instead of training on for seconds with nobody to read their links."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from discotest.engine import own_pythonpath

PARENT = textwrap.dedent("""
    import os, sys, time
    from discotest.lang.align import make_aligner
    words = [f"w{i}" for i in range(300)]
    pairs = [([words[(k * 7 + j * 3) % 300] for j in range(12)], [words[(k * 11 + j * 5) % 300] for j in range(12)])
             for k in range(20000)]  # about a minute of training per direction (measured here: 53 s)
    pending = make_aligner().start(pairs)
    children = open(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read().split()
    print(" ".join(children), flush=True)
    pending()
""")


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; the mechanism is Linux's prctl")
def test_aligner_children_die_with_a_killed_parent():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": own_pythonpath()})
    try:
        children = [int(p) for p in parent.stdout.readline().split()]
        assert len(children) == 2
        time.sleep(0.5)  # both have started and called end_with_parent
        assert all(_alive(c) for c in children)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 20  # a child still starting up sees its parent gone and ends too
        while any(_alive(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(c) for c in children)
    finally:
        parent.kill()
        parent.wait()
        for child in children if "children" in locals() else ():
            if _alive(child):
                os.kill(child, signal.SIGKILL)


def test_a_child_whose_parent_is_already_gone_ends_at_once():
    """The race between fork and ``end_with_parent``: the pid it was started by is not its parent any more."""
    code = "from discotest.engine import end_with_parent; end_with_parent(); print('ran on')"
    env = {**os.environ, "PYTHONPATH": own_pythonpath(), "DISCOTEST_PARENT_PID": "1" if os.getpid() != 1 else "2"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "ran on" not in done.stdout
    env["DISCOTEST_PARENT_PID"] = str(os.getpid())
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "ran on\n"
