"""The text a gender suite's prepared models are made from: a language's published outputs (the suite's own, else
WinoMT's), read and tokenised, and what fixes that text.

Its own module because the models' cache keys hold the code that makes their text (``TEXT_CODE``), not the code of the
runs that use them: an edit to how a run schedules its languages or reads its verdicts (gender/run.py) trains no
alignment model again (a minute of CPU per language), an edit here does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from discotest import cache
from discotest.data import catalogue
from discotest.gender.pipeline import Bitext, word_pairs
from discotest.gender.published import available_published, published_systems, published_translations
from discotest.gender.suites import load_gender_suite
from discotest.gender.winomt import GenderItem, load_winomt
from discotest.lang.align.base import Pair


class RunOptions(Protocol):
    """What of a run's options (``gender.run.RunOptions``) chooses the text: the suite and where the data is."""

    @property
    def suite(self) -> str: ...
    @property
    def suite_version(self) -> str: ...
    @property
    def data_dir(self) -> str | None: ...


# the modules that read, select and tokenise a language's published outputs into the text its alignment model (and its
# word table) is made from: the models' cache keys hold their code, not the whole package's (an edit to the card, a
# verdict rule or the runs' schedule retrains nothing); the aligner's and the tokeniser's own code is added by
# ``AlignmentModel``
TEXT_CODE = ("gender/training_text.py", "gender/published.py", "gender/pipeline.py", "gender/winomt.py",
             "gender/suites.py", "gender/bug.py", "gender/winomt_adj.py", "data/catalogue.py", "data/translations.py",
             "data/readers.py")


def extra_text_suite(suite: str) -> str:
    """Whose published outputs train the aligner: the suite's own, else WinoMT's (same English-to-X direction and
    entity vocabulary; BUG has no published outputs)."""
    return suite if published_systems(suite) else "winomt"


def published_rows(system: str, lang: str, options: RunOptions) -> tuple[list[GenderItem], dict[int, str]]:
    """A published output as aligner training text (WinoMT's when the suite has none of its own): the suite's items
    and the translations by row."""
    suite = extra_text_suite(options.suite)
    items = load_winomt("2019", options.data_dir) if suite != options.suite else \
        load_gender_suite(options.suite, options.suite_version, options.data_dir)  # the registered rows, not a file's
    return items, published_translations(system, lang, items, options.data_dir, suite).by_row


def published_bitext(system: str, lang: str, options: RunOptions) -> Bitext:
    """A published output tokenised (``published_rows``)."""
    return Bitext(*published_rows(system, lang, options), lang)


@dataclass(frozen=True)
class PublishedText:
    """The published outputs of one language that its prepared models are made from (the suite's own, else WinoMT's)
    and ``identity``, what fixes their text: the pinned sha256 of every file read (nothing is read or tokenised)."""

    suite: str
    version: str
    lang: str
    systems: tuple[str, ...]
    identity: str

    @property
    def recipe(self) -> str:
        return f"{self.suite}-{self.version}-{self.lang}:{'+'.join(self.systems)}"

    def table_identity(self) -> str:
        """What fixes the word forms of these outputs, for the key of a table of readings per word form."""
        return cache.content_key([self.recipe, self.identity, cache.code_key(*TEXT_CODE)])

    def bitexts(self, options: RunOptions, systems: Sequence[str] | None = None) -> list[Bitext]:
        """The tokenised outputs of ``systems`` (default: all of them)."""
        return [published_bitext(s, self.lang, options) for s in (self.systems if systems is None else systems)]

    def pairs(self, options: RunOptions) -> list[Pair]:
        """The word pairs of every system's output, as its ``bitexts`` give them (``pipeline.word_pairs``)."""
        return [pair for s in self.systems for pair in word_pairs(*published_rows(s, self.lang, options), self.lang)]


def published_text(lang: str, options: RunOptions) -> PublishedText | None:
    """The published outputs of ``lang`` present under the data directory, or None where there are none."""
    suite = extra_text_suite(options.suite)
    version = options.suite_version if suite == options.suite else "2019"
    with catalogue.tracking() as files:  # what fixes the training text, read from the pins (nothing is tokenised)
        catalogue.locate(catalogue.suite_file(suite, version), options.data_dir)
        systems = available_published(lang, options.data_dir, suite)
    if not systems:
        return None
    identity = cache.content_key(f"{c.name}\t{c.sha256}" for c in sorted(files.values(), key=lambda c: c.name))
    return PublishedText(suite, version, lang, tuple(systems), identity)
