"""The gender suites end to end: translations of each (system, language) → alignment → gender verdicts → result.

``run_one`` evaluates one published system, translation file or model in one language; ``run_many`` every requested
published pair, languages in parallel worker processes. The suite, the analyser and one alignment of all the
language's bitexts are loaded or computed once per language and shared by every system.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from discotest import cache
from discotest.data import catalogue
from discotest.data.readers import system_name
from discotest.data.translations import Translations, read_translations
from discotest.engine import WorkerDied, each_in_own_process, start_worker
from discotest.errors import InputError, did_you_mean
from discotest.gender.judge import score_consistency, score_gender
from discotest.gender.mentions import learn_her_roles
from discotest.gender.pipeline import Bitext, evaluate_gender, start_align_in_corpus
from discotest.gender.published import (
    available_published,
    check_lines_match,
    check_system,
    published_systems,
    published_translations,
)
from discotest.gender.result import GenderResult
from discotest.gender.suites import load_gender_suite, locate_gender_suite
from discotest.gender.training_text import TEXT_CODE, extra_text_suite, published_bitext, published_text
from discotest.gender.verdict_cache import (
    files_key,
    load_by_files,
    load_verdicts,
    store_files_entry,
    store_verdicts,
    verdicts_key,
)
from discotest.gender.winomt import GenderItem
from discotest.lang.align import (
    DEFAULT_ALIGNER,
    MODEL_REL_FERTILITY,
    MODEL_REL_ITERATIONS,
    PendingLinks,
    make_aligner,
)
from discotest.lang.align.base import Pair, WordAligner
from discotest.lang.align.model import AlignmentModel
from discotest.lang.align.thot_aligner import ThotAligner
from discotest.lang.morph import MEASURED_COST, MEASURED_MEMORY, analyser_class, languages
from discotest.lang.morph.cached import CachedReads
from discotest.models.requests import Ask, Asked, answer_all
from discotest.progress import is_quiet, quiet_scope
from discotest.report.result import build_signature
from discotest.stats import stratified_sample
from discotest.timing import stage
from discotest.values import check_int

if TYPE_CHECKING:
    from discotest.models.spec import ModelSpec


@dataclass(frozen=True)
class RunOptions:
    """Settings shared by every (system, language) evaluated in one run."""

    suite: str = "winomt"
    suite_version: str = "current"
    data_dir: str | None = None
    aligner: str = DEFAULT_ALIGNER
    # what the aligner is trained on: "suite" (a model trained once per language on the suite's published outputs,
    # every sentence decoded with it) or "input" (trained on each evaluated file, with ``align_extra``)
    align_train: str = "suite"
    # --align-train input: train the aligner on all published outputs of the language too: "published", "none", or
    # "auto" (only when an evaluated bitext is small). On the full WinoMT it found the hand-checked entity no
    # more often (bench/validity/locate_agreement.py); on a 12-sentence BUG file it fixed 2 of 12 alignments.
    align_extra: str = "auto"
    # how the language's alignment model decodes: "thot" (Thot's sampler, child processes) or "fast" (its tables in
    # this process, lang/align/fast_decode.py); None: lang.align.model.DEFAULT_DECODER. Named in the signature's
    # aligner field when fast
    align_decode: str | None = None
    lexicon: str = "on"
    use_cache: bool = True
    measure: tuple[str, ...] = ("accuracy",)  # add "consistency" for target-side consistency
    input_format: str = "auto"  # how --input files are read: auto, plain, bitext, jsonl (data.translations)
    # what accuracy, ΔG and ΔS are computed on: "noun" (WinoMT's, an entity whose gender is only grammatical neutral:
    # ``pipeline.noun_gender``), "grammatical" (mt_gender's convention: that gender counts; verdict:grammatical in the
    # signature) or "reader" (noun + coreferent pronoun; it turns the consistency reading on and adds verdict:reader
    # to the signature)
    verdict: str = "noun"
    # refuse an --input file whose lines do not translate their rows (``published.check_lines_match``); off with
    # --skip-language-check, as the language check is
    check_lines: bool = True
    # --limit: score a deterministic sample of this many items, stratified by gold gender and stereotype
    # (``scored_items``); the files are still read and checked whole, a model translates the sample only
    limit: int | None = None
    # --suite-file: the user's own suite (``gender/suite_file.py``) in place of the registered suite's rows; the suite
    # name still chooses the aligner's model and the published outputs it is trained on
    suite_file: str | None = None

    def check(self) -> None:
        """What no option declaration can check: the suite file of this version. The options' values were checked
        by their declarations (``catalogue.Option.check``) before any pipeline runs."""
        catalogue.suite_file(self.suite, self.suite_version)  # unknown suite or version: a clear error
        unknown = set(self.measure) - set(MEASURES)  # measure is a list the family parses
        if unknown:
            raise InputError(f"unknown measure {sorted(unknown)[0]!r}; choose from {', '.join(MEASURES)}")


def _check_lang(lang: str) -> None:
    if lang not in languages():
        raise InputError(f"unknown language {lang!r}{did_you_mean(lang, languages())}; choose from "
                         f"{', '.join(languages())} or 'all'")


def load_suite(options: RunOptions) -> list[GenderItem]:
    """The items of the gender suite ``options`` name: the user's ``suite_file``, else the registered suite's."""
    return load_versioned_suite(options)[0]


def load_versioned_suite(options: RunOptions) -> tuple[list[GenderItem], str]:
    """The suite's items and the signature's ``version``: the suite's, or the user's suite file's (``file@<sha8>``)."""
    if options.suite_file is not None:
        from discotest.gender.suite_file import load_suite_file

        own = load_suite_file(options.suite_file, options.data_dir)
        return list(own.items), own.version
    return load_gender_suite(options.suite, options.suite_version, options.data_dir), options.suite_version


def scored_items(items: Sequence[GenderItem], limit: int | None) -> list[GenderItem]:
    """The items a run scores: all of them, or with ``--limit`` a deterministic sample stratified by gold gender and
    stereotype (WinoMT's pro/anti × male/female cells: ΔG and ΔS keep both sides), the same on every run."""
    if not limit:
        return list(items)
    chosen = stratified_sample([item.index for item in items], [(item.gold, item.stereotype or "") for item in items],
                               limit)
    return [items[i] for i in chosen]


MEASURES = ("accuracy", "consistency")
SMALL_BITEXT = 2000  # below this many pairs, "auto" adds the published outputs as aligner training text


# English pronouns a language's translations leave without a word of their own, which both directions of the fast
# decode then leave unaligned: a dropped subject (the verb's ending gives the person: es, it), an object pronoun
# written as a clitic before the verb that the model does not link ("le dio", "lo esaminò", "l'a prévenue") or into
# another word (ar). A watched one so left is no doubt to the checked decode there (issue 55): on the 33 published
# pairs Thot's decode links it elsewhere in 0.8% (es), 1.1% (it), 3.2% (fr), 3.4% (ar) of the sentences this frees,
# less often than it differs on the sentences sure before (bench/validity/fast_decode.py ``--why``, VALIDITY.md)
UNALIGNED_PRONOUNS = {"es": frozenset({"he", "she", "him", "her"}), "it": frozenset({"he", "she", "him", "her"}),
                      "fr": frozenset({"him", "her"}), "ar": frozenset({"him", "her"})}
# Languages that write an object or possessive pronoun into the word before it (a noun's or verb's suffix, a
# preposition's): the endings of such a word (lower-case); a watched English pronoun that the reverse direction puts on
# its English neighbour's word, so ending, is no doubt to the checked decode there (issue 55, ``fast_decode.ATTACHED``)
ATTACHED_PRONOUNS = {"ar": ("ه", "ها", "هم", "هن", "هما"), "he": ("ו", "ה", "ם", "ן")}


def language_aligner(lang: str, options: RunOptions, processes: int = 2) -> WordAligner:
    """The aligner of ``lang``: with ``--align-train suite`` (the default) the language's alignment model, trained once
    on the English sources with every published output of the language present (the suite's own, else WinoMT's) and
    decoding every sentence, so a verdict depends on its sentence alone and every system of the language is judged by
    the same model; with ``input``, or an aligner that cannot keep a model (the unseeded eflomal binary), or no
    published output present, the aligner itself, trained on each evaluated file (``corpus`` adds the extra text)."""
    aligner = make_aligner(options.aligner, processes=processes)
    if options.align_train != "suite" or not isinstance(aligner, ThotAligner):
        return aligner
    text = published_text(lang, options)
    if text is None:
        return aligner

    def training() -> list[Pair]:
        return text.pairs(options)

    model_aligner = make_aligner(options.aligner, processes=processes, rel_iterations=MODEL_REL_ITERATIONS,
                                 rel_fertility=MODEL_REL_FERTILITY)
    return AlignmentModel(model_aligner, text.recipe, text.identity, training, options.use_cache,
                          code=cache.code_key(*TEXT_CODE), decoder=options.align_decode,
                          dropped=UNALIGNED_PRONOUNS.get(lang, frozenset()), attached=ATTACHED_PRONOUNS.get(lang, ()))


def use_word_table(analyser: CachedReads, lang: str, options: RunOptions, make: bool = False) -> bool:
    """Where the analyser keeps a table of readings per word form (Arabic), the one of the language's published outputs
    (``lang/morph/word_table.py``): read where the analyser first loads, made there only with ``make`` (``data
    prepare``). Whether there is one."""
    text = published_text(lang, options) if analyser_class(lang).word_table_code is not None else None
    if text is None:
        return False
    analyser.use_word_table(text.table_identity(), lambda: [tokens for bitext in text.bitexts(options) for tokens in
                                                            bitext.tgt_tokens], make)
    return True


def _keeps_word_table(lang: str) -> bool:
    """Whether the analyser of ``lang`` keeps a word table (False where its extra is not installed)."""
    try:
        return analyser_class(lang).word_table_code is not None
    except InputError:
        return False


def prepare_models(suite: str, langs: Sequence[str], options: RunOptions) -> list[str]:
    """``data prepare``: each language's alignment model trained (or found) now, one line each."""
    lines = []
    for lang in langs:
        _check_lang(lang)
        aligner = language_aligner(lang, replace(options, suite=suite))
        if not isinstance(aligner, AlignmentModel):
            lines.append(f"{suite} {lang}: no alignment model (no published output present): files are aligned "
                         "on their own")
            continue
        was = aligner.cached()
        aligner.folder()
        lines.append(f"{suite} {lang}: alignment model {aligner.text} {'ready' if was else 'trained'}")
        if _keeps_word_table(lang):
            readings = CachedReads(lang, options.use_cache)
            if use_word_table(readings, lang, replace(options, suite=suite), make=True):
                readings.analyser()  # reads the table, or makes it now
                lines.append(f"{suite} {lang}: readings per word form ready")
    learn_her_roles(load_suite(replace(options, suite=suite)), options.use_cache)  # the English side, once per suite
    return lines


def _align_text(aligner: WordAligner, extra: bool) -> str:
    """The signature's ``align_text``: the model's recipe and key, else the evaluated file (plus the published
    outputs with ``--align-extra``)."""
    if isinstance(aligner, AlignmentModel):
        return aligner.text
    return "input+published" if extra else "input"


def _evaluate_language(
    lang: str,
    systems: Sequence[str],
    options: RunOptions,
    inputs: Sequence[tuple[str, str]] = (),
    models: Sequence = (),
    in_worker: bool = False,
    looked_up: bool = False,
) -> list[GenderResult]:
    """Evaluate published ``systems``, user ``inputs`` (name, path) and ``models`` (``translate.ModelSystem``, which
    translate the suite through their cache) for one language. ``looked_up``: the caller found the systems' verdicts
    not cached (``_read_back``), so they are not looked up by their files again (a cold run did it twice: locating the
    suite and the outputs, the aligner's text and the keys).

    Runs in a worker process for ``--lang all`` (``in_worker``): the suite and the analyser are loaded once here and
    shared by every system. A worker aligns in its own process, one bitext at a time: the other workers keep the
    cores busy, and aligner child processes next to every worker's analyser would only add memory.
    """
    if not (inputs or models or looked_up) and (found := _cached_language(lang, systems, options)) is not None:
        return found
    with stage("suite and translations"):
        with catalogue.tracking() as suite_files:
            items, version = load_versioned_suite(options)
        translation_sets, read = _translation_sets(lang, systems, options, items, inputs, models)
        if options.limit:
            items = scored_items(items, options.limit)
            translation_sets = _restricted(translation_sets, items)
    aligner = language_aligner(lang, options, processes=1 if in_worker else 2)
    with stage("analyser load"):
        analyser = CachedReads(lang, options.use_cache)  # loads the analyser itself only when a reading is not cached
    use_word_table(analyser, lang, options)
    reading = _LanguageReading(lang, items, translation_sets, options, aligner, analyser)
    with catalogue.tracking() as corpus_files:  # aligner training text shapes every result
        corpus = reading.corpus()
    verdict_sets = reading.verdict_sets(corpus, in_worker)
    if reading.keys and not inputs and not models:  # published outputs: found by their files next time
        with stage("verdict cache"):
            for name, key in _files_keys(lang, systems, options, aligner, analyser, suite_files, read).items():
                store_files_entry(key, reading.keys[name], translation_sets[name].unmatched)
    model_fields = {m.name: tuple(m.signature_fields()) for m in models}
    results = []
    for name, verdicts in verdict_sets.items():
        extra = any(block != reading.bitext_of(name).pairs for block in corpus) if corpus else False
        files = catalogue.data_field({**suite_files, **read.get(name, {}), **corpus_files})
        with stage("scoring"):
            results.append(_result(lang, name, verdicts, options, translation_sets[name].unmatched,
                                   (*model_fields.get(name, ()), ("aligner", _aligner_field(aligner)),
                                    ("align_text", _align_text(aligner, extra))),
                                   analyser, files, version))
    return results


def _cached_language(lang: str, systems: Sequence[str], options: RunOptions) -> list[GenderResult] | None:
    """The results of published ``systems`` in ``lang`` read back whole from the verdict cache by the data files they
    come from (``verdict_cache.files_key``), or None when one of them is not there: a warm run neither reads nor matches
    the translations, tokenises, aligns nor loads an analyser that has a static version. The same results as
    ``_evaluate_language`` computes (tests/gender/test_verdict_cache.py)."""
    if not options.use_cache or not systems:
        return None
    with stage("suite and translations"):
        with catalogue.tracking() as suite_files:  # the suite's files, checked and recorded, are not parsed
            locate_gender_suite(options.suite, options.suite_version, options.data_dir)
        read = _published_files(lang, systems, options)
    aligner = language_aligner(lang, options, processes=1)
    if not isinstance(aligner, AlignmentModel):  # trained on the input: the verdict keys need the translations
        return None
    with stage("analyser load"):
        analyser = CachedReads(lang, options.use_cache)
    found = {}
    with stage("verdict cache"):
        for name, key in _files_keys(lang, systems, options, aligner, analyser, suite_files, read).items():
            if (hit := load_by_files(key)) is None:
                return None
            found[name] = hit
    results = []
    for name, (verdicts, unmatched) in found.items():
        with stage("scoring"):
            fields = (("aligner", _aligner_field(aligner)), ("align_text", _align_text(aligner, False)))
            results.append(_result(lang, name, verdicts, options, unmatched, fields, analyser,
                                   catalogue.data_field({**suite_files, **read[name]})))
    return results


def _published_files(lang: str, systems: Sequence[str], options: RunOptions) -> dict[str, dict]:
    """The data file each published output is read from, checked against its pin and recorded (as its reading would)."""
    read: dict[str, dict] = {}
    for s in systems:
        check_system(s, lang, options.suite)
        with catalogue.tracking() as read[s]:
            catalogue.locate(catalogue.system_outputs(options.suite)[(s, lang)], options.data_dir)
    return read


def _verdict_settings(aligner: WordAligner, analyser: CachedReads, options: RunOptions) -> tuple[str, ...]:
    """What besides the items and translations a verdict depends on: the aligner (its settings and model), the
    analyser and its version, the lexicon, and which readings are made."""
    reader = options.verdict == "reader"
    settings = (aligner.signature(), analyser.name, analyser.version(), options.lexicon,
                str("consistency" in options.measure or reader), str(reader))
    return (*settings, "grammatical") if options.verdict == "grammatical" else settings


def _files_keys(lang: str, systems: Sequence[str], options: RunOptions, aligner: WordAligner, analyser: CachedReads,
                suite_files: dict, read: dict[str, dict]) -> dict[str, str]:
    """``verdict_cache.files_key`` of each published system: the suite's and its output's files, the settings, and
    what chooses the items (suite, version, --limit)."""
    settings = (*_verdict_settings(aligner, analyser, options), options.suite, options.suite_version,
                f"limit={options.limit}")
    return {s: files_key([*suite_files.values(), *read[s].values()], lang, s, settings) for s in systems}


def _aligner_field(aligner: WordAligner) -> str:
    """The signature's ``aligner`` field: the aligner's settings, and how a model decodes when not Thot's way."""
    return aligner.aligner_signature() if isinstance(aligner, AlignmentModel) else aligner.signature()


def _translation_sets(lang: str, systems: Sequence[str], options: RunOptions, items: Sequence[GenderItem],
                      inputs: Sequence[tuple[str, str]], models: Sequence) -> tuple[dict[str, Translations],
                                                                                    dict[str, dict]]:
    """Every evaluated system's translations by name (published outputs, files, models, in that order) and the data
    files each published output was read from (for its signature)."""
    sources = {item.index: item.sentence for item in items}  # keyed by suite row: BUG's indices skip a row
    read: dict[str, dict] = {}
    translation_sets: dict[str, Translations] = {}
    for s in systems:
        with catalogue.tracking() as read[s]:
            translation_sets[s] = published_translations(s, lang, items, options.data_dir, options.suite)
    for name, path in inputs:
        translation_sets[name] = read_translations(path, sources, options.input_format)
        if options.check_lines:
            with stage("input check"):
                check_lines_match(translation_sets[name], list(items), lang, options.data_dir, options.suite,
                                  own_rows=options.suite_file is not None)
    # a model translates only what is scored (--limit: a quick look at a model)
    translation_sets.update({m.name: m.translations(scored_items(items, options.limit)) for m in models})
    return translation_sets, read


def _restricted(translation_sets: dict[str, Translations], items: Sequence[GenderItem]) -> dict[str, Translations]:
    """Each translation set on the scored items only (``--limit``): the files were read and checked whole."""
    rows = {item.index for item in items}
    return {name: replace(ts, by_row={r: t for r, t in ts.by_row.items() if r in rows},
                          unmatched=[r for r in ts.unmatched if r in rows]) for name, ts in translation_sets.items()}


class _LanguageReading:
    """One language's verdicts for every translation set: from the verdict cache, else tokenise, align (in the
    aligner's own processes, the next bitext started before this one's morphology) and read.

    Bitexts are tokenised when first needed and dropped once read (unless they train the aligner): a worker holds
    one system's tokens at a time."""

    def __init__(self, lang: str, items: Sequence[GenderItem], translation_sets: dict[str, Translations],
                 options: RunOptions, aligner: WordAligner, analyser: CachedReads):
        self.lang, self.items, self.translation_sets = lang, items, translation_sets
        self.options, self.aligner, self.analyser = options, aligner, analyser
        self.reader = options.verdict == "reader"
        self.consistency = "consistency" in options.measure or self.reader
        small = min(sum(item.index in ts.by_row for item in items) for ts in translation_sets.values()) < SMALL_BITEXT
        self.extra_text = not isinstance(aligner, AlignmentModel) and (
            options.align_extra == "published" or (options.align_extra == "auto" and small))
        self.bitexts: dict[str, Bitext] = {}
        self.keys: dict[str, str] = {}  # the verdict cache key of each translation set (``verdict_sets``)

    def bitext_of(self, name: str) -> Bitext:
        if name not in self.bitexts:
            with stage("tokenise"):
                self.bitexts[name] = Bitext(self.items, self.translation_sets[name].by_row, self.lang)
        return self.bitexts[name]

    def corpus(self) -> list[list[Pair]]:
        """The aligner's extra training text: every published output of the language (``--align-extra``), else
        nothing. Call it inside ``catalogue.tracking()``: the files it reads shape every result."""
        if not self.extra_text:
            return []
        options = self.options
        return [self.bitext_of(s).pairs if s in self.translation_sets else
                published_bitext(s, self.lang, options).pairs
                for s in available_published(self.lang, options.data_dir, extra_text_suite(options.suite))]

    def verdict_keys(self) -> dict[str, str]:
        """The verdict cache key of every translation set; none with aligner extra text (the key would need it; small
        suites only)."""
        if self.extra_text:
            return {}
        settings = _verdict_settings(self.aligner, self.analyser, self.options)
        with stage("verdict cache"):
            return {name: verdicts_key(self.items, ts.by_row, self.lang, settings)
                    for name, ts in self.translation_sets.items()}

    def verdict_sets(self, corpus: list[list[Pair]], in_worker: bool) -> dict[str, list]:
        """Verdicts by name, in the order of the translation sets. A rerun on the same suite and translations gets
        them back whole (``gender_cache``): nothing is tokenised."""
        keys = self.keys = self.verdict_keys()
        found: dict[str, list] = {}
        if self.options.use_cache:
            with stage("verdict cache"):
                for name, key in keys.items():
                    if (hit := load_verdicts(key)) is not None:
                        found[name] = hit
        todo = [name for name in self.translation_sets if name not in found]
        for name, verdicts in self._read(todo, corpus, in_worker):
            found[name] = verdicts
            if name in keys:
                with stage("verdict cache"):
                    store_verdicts(keys[name], verdicts)
        return {name: found[name] for name in self.translation_sets}

    def _start_align(self, name: str, corpus: list[list[Pair]]) -> PendingLinks:
        """The alignment of ``name``'s bitext begun (told the words the verdicts read, where the aligner uses them)."""
        bitext = self.bitext_of(name)
        return start_align_in_corpus(self.aligner, bitext.pairs, corpus, self.options.use_cache,
                                     bitext.watched if self.aligner.reads_watch else None)

    def _read(self, todo: list[str], corpus: list[list[Pair]], in_worker: bool) -> Iterator[tuple[str, list]]:
        """Align and read ``todo`` in order. Outside a worker the next bitext's alignment starts before this one's
        morphology (one ahead: at most two alignments at once), and the analyser loads and prepares while the first
        alignment runs (new translations mean new readings)."""
        pending: dict[str, PendingLinks] = {}
        if todo:
            with stage("alignment"):
                self.aligner.warm_up()  # the aligner's processes start while the first bitext is tokenised
                pending[todo[0]] = self._start_align(todo[0], corpus)
                self.aligner.cool_down()  # unused if those links were cached
            with stage("english roles"):  # the suite's "her" roles (spaCy once per suite), while the alignment runs
                learn_her_roles(self.items, self.options.use_cache)
            if not pending[todo[0]].from_cache:
                self.analyser.prepare(self.bitext_of(todo[0]).tgt_tokens)
        for position, name in enumerate(todo):
            bitext = self.bitext_of(name)
            with stage("alignment"):
                if name not in pending:
                    pending[name] = self._start_align(name, corpus)
                if position + 1 < len(todo) and not in_worker:
                    following = todo[position + 1]
                    pending[following] = self._start_align(following, corpus)
                current = pending.pop(name)
                links = current()
            if position > 0 and not current.from_cache:
                self.analyser.prepare(bitext.tgt_tokens)
            try:
                verdicts = evaluate_gender(bitext, links, self.analyser, self.options.lexicon, self.consistency,
                                           self.reader, self.options.verdict == "grammatical")
            except NotImplementedError as exc:
                raise InputError(f"--measure consistency: {exc} (language {self.lang})") from None
            if not corpus:
                del self.bitexts[name]
            del bitext, links, current
            yield name, verdicts


def _result(lang: str, name: str, verdicts: list, options: RunOptions, unmatched, settings: tuple,
            analyser: CachedReads, files: tuple[str, str], version: str | None = None) -> GenderResult:
    """One (language, system)'s scores and signature; ``settings``: the model's and the aligner's fields;
    ``version``: the signature's (a suite file's ``file@<sha8>``), by default the suite's."""
    reader = options.verdict == "reader"
    consistency = "consistency" in options.measure or reader
    signature = build_signature(
        options.suite, version or options.suite_version, name, len(verdicts), lang=lang,
        settings=(
            *settings,
            ("lexicon", options.lexicon),
            ("analyser", analyser.signature()),
            *((("verdict", options.verdict),) if options.verdict != "noun" else ()),  # the noun default: no field
        ),
        files=files,
    ).with_limit(options.limit)
    return GenderResult(
        suite=options.suite,
        version=options.suite_version,
        lang=lang,
        system=name,
        scores=score_gender(verdicts, options.verdict),
        signature=signature,
        verdicts=verdicts,
        unmatched=unmatched,
        located_by=dict(Counter(v.located_by for v in verdicts)),
        consistency=score_consistency(verdicts) if consistency else None,
        verdict=options.verdict,
    )


def run_one(
    suite: str = "winomt",
    lang: str = "de",
    system: str | None = None,
    input: str | os.PathLike | None = None,  # noqa: A002 - mirrors the CLI's --input
    model: ModelSpec | None = None,
    markers: str = "none",
    resolver: str = "rules",
    **options,
) -> GenderResult:
    """Evaluate one published system, one translation file, or one MT model (``model=`` its ``ModelSpec``: a local
    or served model and every option of it; ``markers``/``resolver``: what the model's sources are marked with,
    ``translate.model_system``) in one language."""
    if sum(x is not None for x in (system, input, model)) != 1:
        raise InputError("give exactly one of system= (a published output), input= (a translation file) "
                         "or model= (an MT model)")
    opts = RunOptions(suite=suite, **options)
    opts.check()
    _check_lang(lang)
    if model is not None:
        asked = model_requests(suite, lang, model, markers=markers, resolver=resolver, **options)
        return model_result(asked, answer_all(asked.asks))
    if system is not None:
        check_system(system, lang, suite)
        return _evaluate_language(lang, [system], opts)[0]
    return _evaluate_language(lang, [], opts, [(system_name(input), str(input))])[0]


def model_requests(suite: str, lang: str, spec: ModelSpec, *, markers: str = "none", resolver: str = "rules",
                   **options) -> Asked:
    """``run_one``'s first phase for a model: the model opened, the suite loaded (the ``limit`` sample taken), and
    the translation of each scored item's source asked (``model_result`` scores the answers)."""
    from discotest.gender.translate import model_system

    opts = RunOptions(suite=suite, **options)
    opts.check()
    _check_lang(lang)
    system = model_system(spec, lang, markers=markers, resolver=resolver)
    items = scored_items(load_suite(opts), opts.limit)
    return Asked((Ask(system.translator, tuple(system.requests(items, lang))),), (opts, lang, system, items))


def model_result(asked: Asked, answers: Sequence[Sequence[str]]) -> GenderResult:
    """``run_one``'s result for a model from its answers (``model_requests``): aligned and read as a file's."""
    opts, lang, system, items = asked.state
    return _evaluate_language(lang, [], opts, models=[system.with_answers(items, answers[0])])[0]


def planned_pairs(suite: str = "winomt", langs: Sequence[str] | str = "all", systems: Sequence[str] | str = "all"
                  ) -> dict[str, list[str]]:
    """The published systems ``run_many`` evaluates per language (their number is its progress bar's total)."""
    available = published_systems(suite)
    lang_list = list(languages()) if langs == "all" else list(langs)
    for lang in lang_list:
        _check_lang(lang)
    system_list = list(available) if systems == "all" else list(systems)
    for system in system_list:
        if system not in available:
            raise InputError(f"unknown system {system!r}{did_you_mean(system, available)}; published {suite} outputs "
                             f"exist for {', '.join(available)}")
    tasks = {
        lang: [s for s in system_list if lang in available[s]] for lang in lang_list
    }
    tasks = {lang: systems_ for lang, systems_ in tasks.items() if systems_}
    if not tasks:
        if len(system_list) == 1 and len(lang_list) == 1:
            check_system(system_list[0], lang_list[0], suite)  # says which languages it does have
        raise InputError("none of the requested systems has a published output in the requested languages")
    return tasks


def run_many(
    suite: str = "winomt",
    langs: Sequence[str] | str = "all",
    systems: Sequence[str] | str = "all",
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    engine: str = "local",
    ray_address: str | None = None,
    **options,
) -> list[GenderResult]:
    """Every requested published (system, language) pair, languages in parallel worker processes (``engine="local"``)
    or one Ray task per language (``engine="ray"``, on a local Ray instance with ``jobs`` CPUs or the cluster at
    ``ray_address``); the results are the same, in the same order.

    ``progress`` is called with the number of pairs each finished language completed.
    """
    opts = RunOptions(suite=suite, **options)
    opts.check()
    if jobs is not None:
        check_int(jobs, "jobs")
    tasks = planned_pairs(suite, langs, systems)
    locate_gender_suite(suite, opts.suite_version, opts.data_dir)  # a missing suite fails here, with a clean message
    if engine == "ray":
        load_suite(opts)  # and a malformed one before any worker starts
        return _sorted(suite, _run_on_ray(tasks, opts, jobs, ray_address, progress))
    by_lang = _read_back(tasks, opts, progress)  # a warm language starts no worker (8 of them: 6.5 s of CPU)
    tasks = {lang: systems_ for lang, systems_ in tasks.items() if lang not in by_lang}
    if tasks:
        load_suite(opts)  # a malformed suite fails in the parent too; a warm run never parses it
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if jobs == 1:
        for lang, systems_ in tasks.items():
            by_lang[lang] = _evaluate_language(lang, systems_, opts, looked_up=True)
            if progress:
                progress(len(systems_))
    else:
        def done(lang: str, results: list[GenderResult]) -> None:
            by_lang[lang] = results
            if progress:
                progress(len(results))

        in_language_workers({lang: (_evaluate_language, (lang, systems_, opts, (), (), True, True))
                             for lang, systems_ in tasks.items()}, tasks, jobs, done)
    return _sorted(suite, [r for results in by_lang.values() for r in results])


def in_language_workers(calls: dict[str, tuple[Callable[..., Any], tuple]], tasks: dict[str, Sequence[str]],
                        jobs: int, on_done: Callable[[str, Any], None]) -> None:
    """Each language's call ``(fn, args)`` in a worker process of its own (``engine.each_in_own_process``), ``jobs`` at
    once: the languages with the most work first (``tasks``: the pairs each computes; ``_slowest_first``), a heavy one
    beside a light one (``_next_language``). ``on_done(lang, result)`` here as each ends. One language per process: a
    process that went on to the next language kept the last one's analyser loaded (the French spaCy model and natasha
    together: 870 MB in one process)."""
    order = _slowest_first(tasks)
    try:
        each_in_own_process({lang: calls[lang] for lang in order}, jobs,
                            lambda pending, running: _next_language(pending, running, jobs), on_done,
                            _start_worker, (is_quiet(),))
    except WorkerDied:
        raise InputError("a worker process could not start or died; in a script, run discotest under "
                         "`if __name__ == \"__main__\":` (workers import the script again), or pass jobs=1") from None


def _start_worker(quiet: bool) -> None:
    """A language's worker process: ``engine.start_worker``, and the caller's ``--quiet`` for its notes and bars."""
    start_worker()
    quiet_scope(quiet).__enter__()  # for the rest of this process (it runs one language and ends)


def _slowest_first(tasks: dict[str, list[str]]) -> list[str]:
    """The languages with the most work first (``MEASURED_COST`` per system times their systems), on either engine."""
    return sorted(tasks, key=lambda lang: -MEASURED_COST.get(lang, 0.0) * len(tasks[lang]))


WORKER_MEMORY = 450  # MiB per worker that --lang all aims at (two workers and the parent: under 1 GB)


def _next_language(pending: Sequence[str], running: Sequence[str], jobs: int) -> str:
    """The language a free worker takes: the first of ``pending`` (slowest first) whose worker fits beside the
    ``running`` ones in ``WORKER_MEMORY`` per worker (``MEASURED_MEMORY``), else the one that needs the least memory;
    a worker is never left idle. Slowest first alone ran French (its spaCy model, 645 MiB) beside Russian (314 MiB):
    the tree peaked at 1,010-1,024 MiB cold; now French runs beside de, he and uk (tests/gender/test_run_schedule.py
    simulates both orders on the measured tables: the workers' peak 860 MiB instead of 970, the work done no later)."""
    def memory(lang: str) -> float:
        return MEASURED_MEMORY.get(lang, 0.0)

    used = sum(map(memory, running))
    return next((lang for lang in pending if used + memory(lang) <= WORKER_MEMORY * jobs), None) or \
        min(pending, key=memory)


def _sorted(suite: str, results: list[GenderResult]) -> list[GenderResult]:
    """Published systems in the registry's order, then languages: the order whatever ran them."""
    order = {s: i for i, s in enumerate(published_systems(suite))}
    return sorted(results, key=lambda r: (order.get(r.system, 99), r.lang))


def _run_on_ray(tasks: dict[str, list[str]], opts: RunOptions, jobs: int | None, address: str | None,
                progress: Callable[[int], None] | None) -> list[GenderResult]:
    """One Ray task per language (all its systems), the slowest languages first, each in a fresh worker process
    (``max_calls=1``): the local engine's work for one language, so the same verdicts. A reused worker kept every
    language's analyser it had run (WinoMT all×all, 2 CPUs: tree peak 2.9 GB with a task per (language, system) on
    reused workers, 2.1 GB with a fresh worker per such task, 1.8 GB per language; a local Ray alone is 0.86 GB;
    bench/speed/bench_ray_memory.py). A language whose verdicts are all cached is read back here instead: a fresh worker
    per language only to read them took 12.9 s for all pairs warm, 4.3 s here."""
    from discotest.engine import ray_engine

    here = _read_back(tasks, opts, progress)  # a language whose verdicts are all cached: a warm run starts no Ray
    out = [r for results in here.values() for r in results]
    remote = [lang for lang in _slowest_first(tasks) if lang not in here]
    if remote:
        done = ray_engine(address, jobs).map_ordered(
            _evaluate_language, [(lang, tasks[lang], opts, (), (), True, True) for lang in remote], max_calls=1,
            on_done=(lambda _, results: progress(len(results))) if progress else None)
        out += [r for results in done for r in results]
    return out


def _read_back(tasks: dict[str, list[str]], options: RunOptions, progress: Callable[[int], None] | None
               ) -> dict[str, list[GenderResult]]:
    """The results of every language whose verdicts are all cached (``_cached_language``), read here in the parent;
    the others are left to the workers."""
    out = {}
    for lang, systems in tasks.items():
        if (found := _cached_language(lang, systems, options)) is not None:
            out[lang] = found
            if progress:
                progress(len(systems))
    return out
