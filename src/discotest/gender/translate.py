"""Translate a gender suite (or any English text) with a local MT model, optionally with coreference markers.

A ``ModelSystem`` is what ``discotest run --model`` evaluates: it turns a suite's English sources into translations
(through the translation cache) that flow into the same evaluation as a ``--input`` file, and names the model and its
settings for the result signature. ``markers``: ``none`` (plain source), ``predicted`` (clusters from the English
resolver) or ``gold`` (the suite's annotated entity and pronoun), marked as in ``gender.coref.markers``; marker tags a
model copies into its output are removed before evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from discotest.atomic import write_text_atomic
from discotest.data.translations import Translations
from discotest.errors import InputError

if TYPE_CHECKING:  # the models floor loads when a model translates, not with the gender family's options
    from discotest.models.interface import Translator
    from discotest.models.requests import TranslateRequest
    from discotest.models.spec import ModelSpec

MARKERS = ("none", "predicted", "gold")


def marked_sources(items, markers: str = "none", resolver: str = "rules") -> list[str]:
    """The suite's English sources as given to the model."""
    from discotest.gender.coref.markers import mark

    sources = [item.sentence for item in items]
    if markers == "none":
        return sources
    if markers == "gold":
        from discotest.gender.coref.clusters import gold_clusters

        return [mark(s, c) for s, c in zip(sources, gold_clusters(items))]
    if markers == "predicted":
        from discotest.gender.coref.clusters import make_clusterer

        return [mark(s, c) for s, c in zip(sources, make_clusterer(resolver).clusters(sources))]
    raise InputError(f"--markers must be one of {', '.join(MARKERS)}, not {markers!r}")


@dataclass
class ModelSystem:
    """A translation model evaluated like a translation file."""

    translator: Translator
    markers: str = "none"
    resolver: str = "rules"
    name: str = field(default="")
    answered: dict[int, str] | None = None  # its raw translations by suite row, when they were asked for first


    def __post_init__(self):
        if self.markers not in MARKERS:
            raise InputError(f"--markers must be one of {', '.join(MARKERS)}, not {self.markers!r}")
        if not self.name:
            base = Path(self.translator.name).name or self.translator.name
            self.name = base if self.markers == "none" else f"{base}+{self.markers}-markers"

    def requests(self, items, lang: str) -> list[TranslateRequest]:
        """What the model is asked for ``items``: each source (marked), alone, in order."""
        from discotest.models.requests import TranslateRequest

        return [TranslateRequest(s, None, lang) for s in marked_sources(items, self.markers, self.resolver)]

    def with_answers(self, items, translations) -> ModelSystem:
        """This system, its translations of ``items`` those answered to its ``requests``."""
        return replace(self, answered={item.index: t for item, t in zip(items, translations, strict=True)})

    def translate_items(self, items) -> list[str]:
        from discotest.gender.coref.markers import strip_markers

        if self.answered is not None:
            raw = [self.answered[item.index] for item in items]
        else:
            raw = self.translator.translate(marked_sources(items, self.markers, self.resolver))
        return [strip_markers(t) for t in raw]

    def translations(self, items) -> Translations:
        # keyed by suite row, not position: BUG's indices skip its row without a sentence
        by_row = {item.index: t for item, t in zip(items, self.translate_items(items), strict=True)}
        return Translations(f"model:{self.translator.name}", by_row, format="model")

    def signature_fields(self) -> list[tuple[str, str]]:
        markers = self.markers if self.markers != "predicted" else f"predicted:{self.resolver}"
        return [*self.translator.signature_fields(), ("markers", markers)]


def model_system(spec: ModelSpec, lang: str, *, markers: str = "none", resolver: str = "rules") -> ModelSystem:
    """The model of the run's ``spec`` (``models.spec``), translating into ``lang`` with ``markers``."""
    from discotest.models.door import open_translator

    return ModelSystem(open_translator(spec, lang), markers, resolver)


def translate_suite(suite: str, lang: str, spec: ModelSpec, output: str | Path | None = None, *,
                    markers: str = "none", resolver: str = "rules", data_dir: str | None = None,
                    suite_version: str = "current") -> list[str]:
    """One translation per suite row (a plain file ``run --input`` reads back when ``output`` is given)."""
    from discotest.gender.suites import load_gender_suite

    items = load_gender_suite(suite, suite_version, data_dir)
    lines = model_system(spec, lang, markers=markers, resolver=resolver).translate_items(items)
    if output is not None:
        write_text_atomic(output, "".join(line.replace("\n", " ") + "\n" for line in lines))
    return lines


def translate_file(path: str | Path, lang: str, spec: ModelSpec, output: str | Path | None = None, *,
                   markers: str = "none", resolver: str = "rules") -> list[str]:
    """Translate an English text file, one sentence per line (empty lines are an error: they break alignment).
    ``markers="predicted"`` marks each line's clusters first (a plain file has no gold clusters)."""
    from discotest.data.readers import read_lines
    from discotest.gender.coref.markers import mark, strip_markers
    from discotest.models.door import open_translator

    if markers not in ("none", "predicted"):
        raise InputError("a text file has no gold clusters: --markers none or predicted")
    sources = read_lines(path)
    for number, line in enumerate(sources, start=1):
        if not line.strip():
            raise InputError("empty line", path, number)
    if markers == "predicted":
        from discotest.gender.coref.clusters import make_clusterer

        sources = [mark(s, c) for s, c in zip(sources, make_clusterer(resolver).clusters(sources))]
    lines = [strip_markers(t) for t in open_translator(spec, lang).translate(sources)]
    if output is not None:
        write_text_atomic(output, "".join(line.replace("\n", " ") + "\n" for line in lines))
    return lines

