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
them; every caller names its own). So an edit to the card or a verdict rule does not retrain it (seconds per
language of WinoMT), and an edit to the aligner, the tokeniser or the text selection does. The signature names
the recipe and the data (``recipe@<hash of recipe and identity>``), not the code: like every other field it stands for
this discotest version, and it does not change with an edit that leaves the model alone.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gzip
import io
import json
import shutil
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import cast

from discotest import cache
from discotest.errors import InputError
from discotest.lang.align import DECODERS, FAST_DECODE
from discotest.lang.align.base import Links, Pair, Watch, WordAligner
from discotest.lang.align.thot_aligner import Decoding, ThotAligner
from discotest.progress import note

NAMESPACE = "align-model"
# CPU seconds of each model's training by its name (the recipe before ':', as the note a first run prints names it),
# measured by bench/cards/card_costs.py (its first run's CPU less its trained run's; the file's "about" says where):
# the note's "about N s" and the card's --dry-run estimate of a first run (cards/build.py). In discotest/lang, not
# here: a new measurement must not change ALIGNER_CODE's key (every model would be trained again)
TRAINING = "training.json"
# for a model with no figure there: CPU seconds per training pair, from the same measurements (WinoMT's de model,
# about 19,400 pairs, 21.5 s; ar's, 15,544 pairs, 14.1 s)
TRAIN_SECONDS_PER_PAIR = 0.001
ALIGNER_CODE = ("lang/align", "lang/tokenize.py")  # the code every model depends on (package-relative paths)
_extracted: dict[str, Path] = {}  # model key -> folder of its files in this process
# How a model decodes (``DECODERS``): "thot" (Thot's seeded Gibbs sampler in two child processes, the default), "fast"
# (the model's exported tables decoded here, lang/align/fast_decode.py; eflomal models only) or "checked" (fast, and the
# pairs whose watched words the fast decode is unsure of decoded by Thot: ``fast_decode.Tables.check``).
# bench/validity/fast_decode.py compares them on every published WinoMT pair; the figures and the reason the default
# stays are in VALIDITY.md.
DEFAULT_DECODER = "thot"
_tables: dict[str, object] = {}  # model key -> its fast_decode.Tables in this process
# model key -> [pairs the "checked" decoder decoded in this process, those of them it sent to Thot] (the bench reads it)
checked_counts: dict[str, list[int]] = {}


class AlignmentModel(WordAligner):
    """A ``WordAligner`` whose ``align`` decodes with a model trained once on ``training()`` (called only when the
    model is not in the cache); ``text`` names the training text for the signature (``recipe@key``); ``code``: the
    key of the caller's modules that make ``training()`` (``cache.code_key(...)`` of them)."""

    def __init__(self, aligner: ThotAligner, recipe: str, identity: str, training: Callable[[], Sequence[Pair]],
                 use_cache: bool = True, *, code: str, decoder: str | None = None,
                 dropped: frozenset[str] = frozenset(), attached: tuple[str, ...] = ()):
        self.decoder = DEFAULT_DECODER if decoder is None else decoder
        if self.decoder not in DECODERS:
            raise InputError(f"unknown alignment decoder {self.decoder!r}; choose one of {', '.join(DECODERS)}")
        if self.decoder != "thot" and aligner.model != "eflomal":
            raise InputError(f"the fast decoder reads eflomal models; {aligner.name} has no fast decoder")
        self.aligner = aligner
        self.recipe = recipe
        self.key = cache.content_key([NAMESPACE, aligner.signature(), recipe, identity, cache.code_key(*ALIGNER_CODE),
                                      code])
        self.data = cache.content_key([recipe, identity])  # what the signature names
        self.training = training
        self.use_cache = use_cache
        self.name = aligner.name
        self.reads_watch = self.decoder == "checked"
        # English words the translations may leave out (a pro-drop language's subject pronouns): ``checked`` takes
        # such a watched word left without a link by both directions as no doubt (``fast_decode.Tables.check``)
        self.dropped = dropped
        self._early: Decoding | None = None  # Thot's decode processes begun by ``warm_up``, not given pairs yet
        # endings of a target word that carry a pronoun written into it: ``checked`` takes a watched English pronoun
        # put on its neighbour's word so ending as no doubt (``fast_decode.ATTACHED``)
        self.attached = attached

    @property
    def text(self) -> str:
        """What the model was trained on, as the signature's ``align_text`` field."""
        return f"model:{self.recipe}@{self.data[:10]}"

    def aligner_signature(self) -> str:
        """The signature's ``aligner`` field: the base aligner's, plus ``+fast-decode-fertility`` (``FAST_DECODE``)
        when the tables are decoded here (other links than Thot's decode: other numbers), with the margin below which
        Thot decodes instead and the disagreement of the two directions it lets pass (``checked``:
        ``fast_decode.CHECK``)."""
        if self.decoder != "checked":  # (the fast decoder's module loads numpy: a warm Thot run reads no tool)
            return self.aligner.signature() + {"thot": "", "fast": f"+{FAST_DECODE}"}[self.decoder]
        from discotest.lang.align.fast_decode import ATTACHED, CHECK, MARGIN

        dropped = f"-and-unaligned-{'-'.join(sorted(self.dropped))}" if self.dropped else ""
        attached = f"-and-{ATTACHED}@{cache.content_key(sorted(self.attached))[:8]}" if self.attached else ""
        return f"{self.aligner.signature()}+{FAST_DECODE}-thot-below-{MARGIN}-but-{CHECK}{dropped}{attached}"

    def signature(self) -> str:
        return f"{self.aligner_signature()}+{self.text}"

    def align(self, pairs: Sequence[Pair], watch: Watch = None) -> list[Links]:
        return self.start(pairs, watch)()

    def start(self, pairs: Sequence[Pair], watch: Watch = None) -> Callable[[], list[Links]]:
        """Decode ``pairs`` (begun now, finished by calling the result). A model that must be trained first is trained
        now in the aligner's processes, which decode ``pairs`` right after: the caller does its other work (the
        suite's English roles, the analyser) beside the training, not after it. ``watch``: the source words whose
        links the caller reads (the ``checked`` decoder makes sure of those only)."""
        if not pairs:
            return list
        for seen in _tracking:
            seen.setdefault(self.key, 0.0)
        if self.decoder == "checked":
            if self.key in _training:
                _training[self.key]()
            return self._checked(pairs, watch)
        if self.decoder == "fast":
            if self.key not in _training and (self.key in _tables or self.cached()):
                return lambda: self.tables().align(pairs)
            training = _training.get(self.key) or self._start_training(())
            return _then(training, lambda: self.tables().align(pairs))
        if self.key not in _training and (folder := self._ready()) is not None:
            early, self._early = self._early, None
            return early.send(pairs) if early is not None else self.aligner.decode(pairs, str(folder / "model"))
        if self.key in _training:  # this process trains it now: decode once it is stored
            trained = _training[self.key]
            return _then(trained, lambda: self.aligner.decode(pairs, str(trained.folder / "model"))())
        return self._start_training(pairs)

    def warm_up(self) -> None:
        """Start Thot's two decode processes now, so that their start-up and model load run beside the caller's reading
        and tokenising; the next ``start`` sends them its pairs. Only for Thot's decode in child processes of a model
        that is stored already (one to train: ``start`` trains it, in processes of its own)."""
        if not (self._early is None and self.decoder == "thot" and self.aligner.processes > 1
                and self.key not in _training and self.cached()):
            return
        folder = self._ready()
        if folder is None:  # the stored entry was unreadable: ``start`` trains it again, under the lock it takes then
            self._release()
            return
        self._early = self.aligner.start_decode(str(folder / "model"))

    def cool_down(self) -> None:
        early, self._early = self._early, None
        if early is not None:
            early.close()

    def _checked(self, pairs: Sequence[Pair], watch: Watch) -> Callable[[], list[Links]]:
        """The fast decode's links, those of the pairs it is unsure of on their watched words replaced by Thot's
        decode of them (one call, begun now)."""
        links, unsure = self.tables().check(pairs, watch, self.dropped, self.attached)
        counts = checked_counts.setdefault(self.key, [0, 0])
        counts[0] += len(pairs)
        counts[1] += len(unsure)
        if not unsure:
            return lambda: cast(list[Links], links)  # every pair sure: none is None
        pending = self.aligner.decode([pairs[n] for n in unsure], str(self.folder() / "model"))

        def finish() -> list[Links]:
            out = list(links)
            for n, redone in zip(unsure, pending()):
                out[n] = redone
            return cast(list[Links], out)  # every None (an unsure pair) replaced

        return finish

    def folder(self) -> Path:
        """The folder holding this model's files (``model.fwd.*``, ``model.rev.*``): unpacked from the cache, else
        trained now and stored."""
        trained = _training.get(self.key)
        if trained is None and (folder := self._ready()) is not None:
            return folder
        if trained is None:
            trained = self._start_training(())
        trained()
        return trained.folder

    def tables(self):
        """The model's decode tables (``fast_decode.Tables``): read from the cache (``.npz`` beside the model's files,
        same key), else exported from the model's files (trained first if need be) and stored."""
        from discotest.lang.align import fast_decode

        if self.key in _tables:
            return _tables[self.key]
        tables = cache.load_bytes(NAMESPACE, self.key, ".npz", parse=fast_decode.Tables.from_bytes) \
            if self.use_cache else None
        if tables is None:
            tables = fast_decode.export(str(self.folder() / "model"))
            if self.use_cache:
                cache.store_bytes(NAMESPACE, self.key, tables.to_bytes(), ".npz")
        _tables[self.key] = tables
        return tables

    def _ready(self) -> Path | None:
        """The model's folder when it needs no training: unpacked here, or unpacked now from the cache. Else None,
        holding the cache's lock on the entry (``cache.making``: a process training the same model is waited for)
        until ``_start_training`` stores it."""
        if not self.use_cache:
            return None
        if self.key in _extracted:
            return _extracted[self.key]
        packed = cache.load_bytes(NAMESPACE, self.key, ".tar.gz", parse=_checked_tar)
        if packed is None:
            lock = contextlib.ExitStack()
            lock.enter_context(cache.making(NAMESPACE, self.key, ".tar.gz"))
            packed = cache.load_bytes(NAMESPACE, self.key, ".tar.gz", parse=_checked_tar)
            if packed is None:
                self._lock = lock  # released once the trained model is stored
                return None
            lock.close()
        folder = _new_folder()
        _unpack(packed, folder)
        _extracted[self.key] = folder
        return folder

    def _start_training(self, decoded: Sequence[Pair]) -> _Training:
        """Train the model in the aligner's processes, which then decode ``decoded``; the result waits for both,
        stores the model and returns the links."""
        folder = _new_folder()
        pairs = list(self.training())
        if not pairs:
            self._release()
            raise ValueError(f"no training text for the alignment model {self.recipe}")
        # a long first run says what it does (-q: nothing), through the bars' helper: a card's rows run quiet under
        # the card's bar, and the line still shows there
        name = self.recipe.split(":")[0]
        seconds = training_seconds(name) or len(pairs) * TRAIN_SECONDS_PER_PAIR
        note(f"discotest: training the alignment model {name} (about {max(1, round(seconds))} s, once; cached)")
        started = time.monotonic()
        try:
            pending = self.aligner.start_training(pairs, str(folder / "model"), decoded)
        except BaseException:
            self._release()
            raise

        def finish() -> list[Links]:
            try:
                links = pending()
                if self.use_cache:
                    cache.store_bytes(NAMESPACE, self.key, _pack(folder), ".tar.gz")
                    _extracted[self.key] = folder
            finally:
                _training.pop(self.key, None)
                self._release()
            for seen in _tracking:
                seen[self.key] = time.monotonic() - started
            return links

        trained = _training[self.key] = _Training(finish, folder)
        return trained

    def _release(self) -> None:
        """Let go of the cache's lock on the entry (taken by ``_ready``), if held."""
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is not None:
            lock.close()

    def cached(self) -> bool:
        """Whether the model is ready without training (unpacked here or in the cache)."""
        return self.use_cache and trained(self.key)


@functools.cache
def _training_figures() -> dict[str, float]:
    from importlib import resources

    return json.loads(resources.files("discotest.lang").joinpath(TRAINING).read_text("utf-8"))["seconds"]


def training_seconds(name: str) -> float | None:
    """The measured CPU seconds of training the model ``name`` (``TRAINING``), or None: a quiet machine's wall is at
    most that (the aligner trains both directions at once, in two processes)."""
    return _training_figures().get(name)


def trained(key: str) -> bool:
    """Whether the model of ``key`` is trained: unpacked in this process or in the cache (no file is read)."""
    return key in _extracted or cache.entry_path(NAMESPACE, key, ".tar.gz").is_file()


_tracking: list[dict[str, float]] = []  # the open ``tracking`` records


@contextlib.contextmanager
def tracking() -> Iterator[dict[str, float]]:
    """The models used inside, key -> seconds spent training it here (0.0: it was trained already): what a card
    row's run costs once (its measured time less the training) and again only where a model is gone
    (``cards.build``'s estimate)."""
    seen: dict[str, float] = {}
    _tracking.append(seen)
    try:
        yield seen
    finally:
        _tracking.remove(seen)


class _Training:
    """A model being trained in this process's aligner processes: call it to wait (once; later calls return the
    same links); ``folder`` holds its files once done."""

    def __init__(self, finish: Callable[[], list[Links]], folder: Path):
        self._finish, self.folder, self._links = finish, folder, None

    def __call__(self) -> list[Links]:
        if self._links is None:
            self._links = self._finish()
        return self._links


_training: dict[str, _Training] = {}  # model key -> its training begun in this process and not yet waited for


def _then(first: Callable[[], object], then: Callable[[], list[Links]]) -> Callable[[], list[Links]]:
    """A function that calls ``first`` (waits for it), then returns ``then()``."""
    def both() -> list[Links]:
        first()
        return then()

    return both


def _new_folder() -> Path:
    """A private folder for a model's files, removed when this process ends."""
    folder = Path(tempfile.mkdtemp(prefix="discotest-align-model-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _pack(folder: Path) -> bytes:
    """The model files as a gzipped tar, members sorted and stripped of times and owners, the gzip header's time too:
    the same model is the same bytes."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=1, mtime=0) as packed, \
            tarfile.open(fileobj=packed, mode="w") as tar:
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


# a model's training text (``model.fwd.src`` …): Thot reads it whole when it loads a model, to train it further, and no
# decode reads it, so a stored model is unpacked with those files empty: Thot's decode child loads the German model in
# 8-13 ms of CPU instead of 14-19, with the same links (bench/speed/thot_child.py links: all 33 published pairs)
TRAINING_TEXT = (".src", ".trg", ".srctrgc")


def _unpack(payload: bytes, folder: Path) -> None:
    """The model's files written into ``folder``, its training text empty (``TRAINING_TEXT``)."""
    with tarfile.open(fileobj=io.BytesIO(payload), mode="r:gz") as tar:
        for member in tar.getmembers():
            if member.name.endswith(TRAINING_TEXT):
                (folder / member.name).write_bytes(b"")
                continue
            extracted = tar.extractfile(member)
            assert extracted is not None
            (folder / member.name).write_bytes(extracted.read())
