"""An alignment model trained once on text that does not depend on the input, and every sentence decoded with it.

Training an aligner on the evaluated file made a sentence's links (and so its verdict) depend on the rest of the file,
judged the two sides of a comparison with different aligners, and made every new file pay the training. An
``AlignmentModel`` is trained once per recipe (for WinoMT: the suite's sources with every published output of the
language; for mZPRT: its background corpus), kept in the content-hash cache (namespace ``align-model``: both
directions' Thot model files in one gzipped tar), and aligns any pair by decoding: the same source–translation pair gets
the same links in any file, alone or in company, on any engine (tests/lang/test_align_model.py).

Its key is the base aligner's signature, the recipe, an ``identity`` string the caller derives cheaply from what
fixes the training text (e.g. the pinned sha256 of every file it is read from), so a warm run never reads or tokenises
the training text, and the code that shapes the model: the aligner's and the tokeniser's modules (``ALIGNER_CODE``),
and ``code``, the caller's key of the modules that read and select its training text (``cache.code_key(...)`` of
them; every caller names its own). So an edit to the card or a verdict rule does not retrain it (63 s for WinoMT's
languages), and an edit to the aligner, the tokeniser or the text selection does. The signature names
the recipe and the data (``recipe@<hash of recipe and identity>``), not the code: like every other field it stands for
this discotest version, and it does not change with an edit that leaves the model alone.
"""

from __future__ import annotations

import atexit
import io
import shutil
import sys
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from discotest import cache
from discotest.lang.align.base import Links, Pair, WordAligner
from discotest.lang.align.thot_aligner import ThotAligner
from discotest.progress import is_quiet

NAMESPACE = "align-model"
# wall seconds per training pair (both directions, on two cores), measured on the first runs of WinoMT's languages
# (ar: 15,544 pairs, about 12 s of training on a quiet 2-core machine): for the note a first run prints
TRAIN_SECONDS_PER_PAIR = 0.0008
ALIGNER_CODE = ("lang/align", "lang/tokenize.py")  # the code every model depends on (package-relative paths)
_extracted: dict[str, Path] = {}  # model key -> folder of its files in this process


class AlignmentModel(WordAligner):
    """A ``WordAligner`` whose ``align`` decodes with a model trained once on ``training()`` (called only when the
    model is not in the cache); ``text`` names the training text for the signature (``recipe@key``); ``code``: the
    key of the caller's modules that make ``training()`` (``cache.code_key(...)`` of them)."""

    def __init__(self, aligner: ThotAligner, recipe: str, identity: str, training: Callable[[], Sequence[Pair]],
                 use_cache: bool = True, *, code: str):
        self.aligner = aligner
        self.recipe = recipe
        self.key = cache.content_key([NAMESPACE, aligner.signature(), recipe, identity, cache.code_key(*ALIGNER_CODE),
                                      code])
        self.data = cache.content_key([recipe, identity])  # what the signature names
        self.training = training
        self.use_cache = use_cache
        self.name = aligner.name

    @property
    def text(self) -> str:
        """What the model was trained on, as the signature's ``align_text`` field."""
        return f"model:{self.recipe}@{self.data[:10]}"

    def signature(self) -> str:
        return f"{self.aligner.signature()}+{self.text}"

    def align(self, pairs: Sequence[Pair]) -> list[Links]:
        return self.start(pairs)()

    def start(self, pairs: Sequence[Pair]) -> Callable[[], list[Links]]:
        if not pairs:
            return list
        return self.aligner.decode(pairs, str(self.folder() / "model"))

    def folder(self) -> Path:
        """The folder holding this model's files (``model.fwd.*``, ``model.rev.*``): unpacked from the cache, else
        trained now and stored."""
        if self.use_cache and self.key in _extracted:
            return _extracted[self.key]
        folder = Path(tempfile.mkdtemp(prefix="discotest-align-model-"))
        atexit.register(shutil.rmtree, folder, True)
        if not self.use_cache:
            self._train(folder)
            return folder
        packed = cache.load_bytes(NAMESPACE, self.key, ".tar.gz", parse=_checked_tar)
        if packed is None:
            with cache.making(NAMESPACE, self.key, ".tar.gz"):  # a process training the same model: wait for it
                packed = cache.load_bytes(NAMESPACE, self.key, ".tar.gz", parse=_checked_tar)
                if packed is None:
                    self._train(folder)
                    cache.store_bytes(NAMESPACE, self.key, _pack(folder), ".tar.gz")
        if packed is not None:
            _unpack(packed, folder)
        _extracted[self.key] = folder
        return folder

    def _train(self, folder: Path) -> None:
        pairs = list(self.training())
        if not pairs:
            raise ValueError(f"no training text for the alignment model {self.recipe}")
        if not is_quiet() and sys.stderr is not None:  # a long first run says what it does (-q: nothing)
            print(f"discotest: training the alignment model {self.recipe.split(':')[0]} (first run, about "
                  f"{max(1, round(len(pairs) * TRAIN_SECONDS_PER_PAIR))} s)", file=sys.stderr, flush=True)
        self.aligner.train_model(pairs, str(folder / "model"))

    def cached(self) -> bool:
        """Whether the model is ready without training (unpacked here or in the cache)."""
        return self.use_cache and self.key in _extracted or cache.entry_path(NAMESPACE, self.key, ".tar.gz").is_file()


def _pack(folder: Path) -> bytes:
    """The model files as a gzipped tar, members sorted and stripped of times and owners."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:
        for path in sorted(folder.iterdir()):
            info = tarfile.TarInfo(path.name)
            data = path.read_bytes()
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _checked_tar(payload: bytes) -> bytes:
    """The payload if it is a tar of plain files named ``model.fwd.*`` / ``model.rev.*`` (ValueError otherwise)."""
    with tarfile.open(fileobj=io.BytesIO(payload), mode="r:gz") as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
        if len(names) != len(tar.getmembers()) or not all(n.startswith(("model.fwd.", "model.rev.")) and "/" not in n
                                                          for n in names):
            raise ValueError("not an alignment model")
    return payload


def _unpack(payload: bytes, folder: Path) -> None:
    with tarfile.open(fileobj=io.BytesIO(payload), mode="r:gz") as tar:
        for member in tar.getmembers():
            extracted = tar.extractfile(member)
            assert extracted is not None
            (folder / member.name).write_bytes(extracted.read())
