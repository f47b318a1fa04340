"""``python -m tests.support.stray_stdout ARGS``: ``discotest ARGS`` (through ``command``, as the installed command)
in a process where the libraries of the run write to its standard output, each the way a real one does: a native
write to fd 1 (a C extension), a child process writing to the stdout it inherited, a Python ``print``, and with
``--engine ray`` a Ray worker that dies, whose ``(raylet) A worker died …`` line Ray's driver prints to
``sys.stdout`` from its error-listener thread (the run waits until Ray has printed it). ``STRAY_FAIL=1``: the run
then fails with an input error (``suite.txt:3: bad row``)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from pathlib import Path

from discotest import api, engine
from discotest.cli.dispatch import command
from discotest.errors import InputError

STRAYS = ("stray native write", "stray child output", "stray python print")
RAYLET = "A worker died or was killed"
REPO = Path(__file__).resolve().parents[2]


def run_with_strays(cache: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``discotest ARGS`` run by this module in a child process with its own cache: exit status, stdout, stderr."""
    return subprocess.run([sys.executable, "-m", __name__, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "DISCOTEST_CACHE": str(cache), **env,
                                            "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])})


def assert_report_alone(proc: subprocess.CompletedProcess, *on_stderr: str) -> None:
    """Every stray line (and ``on_stderr``) went to stderr, none to stdout."""
    for line in (*STRAYS, *on_stderr):
        assert line in proc.stderr, (line, proc.stderr)
        assert line not in proc.stdout, (line, proc.stdout)


def _dies() -> None:
    os._exit(1)


def _kill_a_ray_worker(ray) -> None:
    """Run a task whose worker dies and wait until Ray's driver has printed the raylet's message about it."""
    from ray._private import worker as ray_worker

    printed = threading.Event()
    original = ray_worker.print_to_stdstream

    def print_and_tell(data, ignore_prefix):
        original(data, ignore_prefix)
        printed.set()

    ray_worker.print_to_stdstream = print_and_tell
    with contextlib.suppress(ray.exceptions.RayError):
        ray.get(ray.remote(max_retries=0)(_dies).remote())
    if not printed.wait(120):
        sys.exit("stray_stdout: Ray printed no message about the dead worker")


def _strays() -> None:
    os.write(1, f"{STRAYS[0]}\n".encode())
    subprocess.run(["echo", STRAYS[1]], check=True)
    print(STRAYS[2])


def main() -> None:
    run, start = api.run, engine.RayEngine.start

    def run_with_strays(*args, **kwargs):
        _strays()
        if os.environ.get("STRAY_FAIL"):
            raise InputError("bad row", "suite.txt", 3)
        return run(*args, **kwargs)

    def start_and_kill_a_worker(self):
        ray = start(self)
        _kill_a_ray_worker(ray)
        engine.RayEngine.start = start
        return ray

    api.run = run_with_strays
    engine.RayEngine.start = start_and_kill_a_worker
    sys.argv = ["discotest", *sys.argv[1:]]
    command()


if __name__ == "__main__":
    main()
