"""What model a run uses and how, as one typed value: ``ModelSpec``, built once from a family's (or the card's)
settings by ``ModelSpec.from_settings`` and handed to the door (``models.door.open_translator`` /
``open_scorer``), which gives each backend the fields it takes.

Its field names are the options' names (``registry.options.MODEL_SPEC`` declares them all, and every family that
takes ``--model`` declares every one: tests/registry/test_families.py), so a model option is declared once and reaches
every row that uses a model, ``--max-length`` as ``max_length`` from the command line to the backend. (The signature
still says ``max_len``: recorded signatures stay byte-identical.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from discotest.errors import InputError
from discotest.models.interface import DEFAULT_MAX_LENGTH


def one_context(value: Sequence[int] | int | None) -> int:
    """The single ``--context`` size a translating model takes (default 0)."""
    sizes = list(value) if isinstance(value, list | tuple) else [] if value is None else [value]
    if len(sizes) > 1:
        raise InputError("--context: a translating model takes one context size")
    return sizes[0] if sizes else 0


# the fields that decide how a model decodes: only where it translates (a scored candidate is not decoded; the door
# gives no scorer these, and the card gives them to no scoring row)
DECODING = ("beam", "max_length")


@dataclass(frozen=True)
class ModelSpec:
    """A model and every setting that decides how it answers or how it is reached. ``model``: a folder or hub name,
    or with ``endpoint`` the served model's name (None: the only one served); ``context``: the sizes given (a
    translating model takes one, ``translating_context``; a scorer scores at each); ``src_lang``/``tgt_lang``: the
    model family's language codes when the user gives them (None: the suite's); ``engine``: where a local model's
    batches run (local or ray, already resolved)."""

    model: str | None = None
    endpoint: str | None = None
    prompt_file: str | None = None
    context: tuple[int, ...] = ()
    beam: int = 4
    max_length: int = DEFAULT_MAX_LENGTH
    batch_size: int | None = None  # None: the backend's own (a family gives --batch-size's default)
    device: str = "cpu"
    revision: str | None = None
    src_lang: str | None = None
    tgt_lang: str | None = None
    concurrency: int = 4
    timeout: float = 120.0
    engine: str = "local"
    ray_address: str | None = None
    ray_actors: int = 2
    use_cache: bool = True
    quiet: bool = False

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], **given: Any) -> ModelSpec:
        """The spec of a family's (or the card's) checked settings: every field the settings hold, then ``given``
        (what the caller decides itself). ``context`` is kept as the tuple of sizes given; ``engine`` is resolved
        (``--engine``, else ``$DISCOTEST_ENGINE``, else local), as every family resolves it."""
        from discotest.engine import resolve_engine

        values = {name: settings[name] for name in cls.names() if name in settings}
        if "engine" in values:
            values["engine"] = resolve_engine(values["engine"])
        values.update(given)
        return cls.of(**values)

    @classmethod
    def of(cls, **values: Any) -> ModelSpec:
        """A spec from keyword values (a caller without settings: DiP's ``hf:`` scorer, a notebook); None stands for
        the default (an option not given: ``engine`` local), ``context`` may be one size or a list of them."""
        from discotest.engine import ENGINES

        unknown = [k for k in values if k not in cls.names()]
        if unknown:
            raise TypeError(f"ModelSpec has no field {unknown[0]!r}")
        defaults = cls()
        kept = {k: v for k, v in values.items() if v is not None or getattr(defaults, k) is None}
        context = kept.get("context", ())
        kept["context"] = tuple(context) if isinstance(context, list | tuple) else (int(context),)
        if kept.get("engine", "local") not in ENGINES:
            raise InputError(f"--engine must be one of {', '.join(ENGINES)}, not {kept['engine']!r}")
        return cls(**kept)

    @property
    def translating_context(self) -> int:
        """The one context size a translating model takes (an InputError for several)."""
        return one_context(self.context)

    @property
    def named(self) -> bool:
        """Whether a model is named at all (``--model`` or ``--endpoint``)."""
        return bool(self.model or self.endpoint)

