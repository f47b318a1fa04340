"""AZPT on mZPRT: one result per (domain, system) — read the hypotheses, align them within the corpus
(``corpus.py``), judge every ZP sentence by sentence (``zero_pronoun/judge.py``), score, and add BLEU.
Comparing two systems is ``compare.py``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from discotest import cache as content_cache
from discotest.data import catalogue
from discotest.engine import resolve_engine
from discotest.errors import InputError
from discotest.lang.align import align_cached, cached_links
from discotest.lang.align.base import Links, Pair, WordAligner
from discotest.lang.align.model import AlignmentModel
from discotest.models.interface import Translator, in_context_fields
from discotest.models.requests import Ask
from discotest.progress import progress_bar
from discotest.report.result import Signature, build_signature
from discotest.stats import stratified_sample
from discotest.zero_pronoun import segment_zh
from discotest.zero_pronoun.corpus import Corpus, SegmentedSource, azpt_aligner, build_corpus
from discotest.zero_pronoun.hypotheses import (
    REFERENCE,
    Hypotheses,
    model_hypotheses,
    model_requests,
    published_hypotheses,
    read_input,
    reference_hypotheses,
)
from discotest.zero_pronoun.judge import DEFAULT_REACH, DEFAULT_WINDOW, ZPVerdict, judge_segment, score_azpt
from discotest.zero_pronoun.mzprt import DOMAINS, MZPRTSuite, check_domain, load_mzprt
from discotest.zero_pronoun.outputs import ReleasedVerdict, published_systems
from discotest.zero_pronoun.pronouns import load_zh_en
from discotest.zero_pronoun.result import AZPTResult

_MOSES_CLITIC = re.compile(r" ('(?:s|m|d|t|re|ve|ll))(?!\w)", re.IGNORECASE)


def evaluate(
    suite: MZPRTSuite, sources: SegmentedSource, hyps: Hypotheses, segments: list[int], pairs: list[Pair],
    links: Sequence[Links], window: int = DEFAULT_WINDOW, reach: int = DEFAULT_REACH,
) -> list[ZPVerdict]:
    """One verdict per ZP of the segments that have a hypothesis (excluded ZPs included, unscored), judged
    sentence by sentence (``judge_segment``), a published output's released verdict beside ours."""
    table = load_zh_en()
    released = hyps.published.released_verdicts if hyps.published else {}
    verdicts = []
    for seg_index, (src, hyp), lk in zip(segments, pairs, links):
        zps = [(zp, sources.zp_word[(zp.segment, zp.ordinal)]) for zp in suite.segments[seg_index].zps]
        for verdict in judge_segment(src, hyp, lk, zps, table, window, reach):
            verdicts.append(_beside_released(verdict, released.get((verdict.segment, verdict.ordinal))))
    return verdicts


def _beside_released(verdict: ZPVerdict, released: ReleasedVerdict | None) -> ZPVerdict:
    if released is None:
        return verdict
    return replace(
        verdict,
        released_correct=released.correct,
        released_target=released.target,
        released_target_position=released.target_position,
        released_reference_word=released.reference_word,
    )


def bleu_texts(result: AZPTResult, suite: MZPRTSuite, segments: Sequence[int]) -> tuple[list[str], list[str]]:
    """(hypotheses, references) of ``segments`` as BLEU reads them, here and in ``compare``."""
    hyps = [result.hypotheses[i] for i in segments]
    if result.kind == "published":  # Moses-tokenised: rejoin clitics so 13a sees "don't" as the reference does
        hyps = [_MOSES_CLITIC.sub(r"\1", h) for h in hyps]
    return hyps, [suite.segments[i].reference for i in segments]


def bleu_metric(lowercase: bool):
    """sacrebleu's BLEU, imported on use: only ``--bleu`` and comparisons need the ``zh`` extra's sacrebleu."""
    try:
        from sacrebleu.metrics import BLEU
    except ImportError:
        raise InputError("BLEU needs sacrebleu: pip install 'discotest[zh]'") from None

    return BLEU(lowercase=lowercase, force=True)


def sampled_zps(suite: MZPRTSuite, limit: int | None) -> set[tuple[int, int]] | None:
    """``--limit``: the (segment, ordinal) of a deterministic sample of the domain's scored ZPs, stratified by the ZP's
    form (subject, object, possessive …), the same on every run; None without a limit (every ZP)."""
    if not limit:
        return None
    zps = [zp for zp in suite.zps if zp.scored]
    return {(zps[p].segment, zps[p].ordinal)
            for p in stratified_sample([(zp.segment, zp.ordinal) for zp in zps], [zp.form for zp in zps], limit)}


def _add_bleu(result: AZPTResult, suite: MZPRTSuite, only: set[int] | None = None) -> None:
    segments = sorted(s for s in result.hypotheses if only is None or s in only)
    hyps, refs = bleu_texts(result, suite, segments)
    # published outputs are released lower-cased: cased BLEU would count every capital as an error (docs/signatures.md,
    # "BLEU's case"); a user's file is scored case-sensitively, as DiP's WMT outputs are
    metric = bleu_metric(lowercase=result.kind == "published")
    result.bleu = metric.corpus_score(hyps, [refs]).score
    result.bleu_signature = bleu_signature(metric, len(segments))


def bleu_signature(metric, sentences: int) -> str:
    """sacrebleu's own signature fields as a discotest Signature, with the number of sentences scored."""
    return Signature(Signature.parse(metric.get_signature().format()).fields + (("sents", str(sentences)),)).format()


def domains_of(domains: Sequence[str] | str) -> list[str]:
    """The domain codes a run covers (``all``: the five test domains), each checked."""
    if domains == "all":
        return list(DOMAINS)
    if isinstance(domains, str):
        domains = [domains]
    return [check_domain(d) for d in domains]


def _sampled_segments(suite: MZPRTSuite, limit: int | None) -> set[int] | None:
    """The segments of the ``limit`` sample's ZPs (None: every segment)."""
    sample = sampled_zps(suite, limit)
    return None if sample is None else {segment for segment, _ in sample}


def mzprt_requests(domains: Sequence[str] | str, translator: Translator, data_dir: str | Path | None = None,
                   context: int = 0, limit: int | None = None) -> tuple[Ask, ...]:
    """A model's first phase: per requested domain (in order), the sentences it translates with their context
    (``hypotheses.model_requests``; under ``limit`` the sampled ZPs' only), one ask each; ``run_mzprt`` scores the
    answers (``answered``)."""
    root = str(data_dir) if data_dir else None
    return tuple(Ask(translator, tuple(model_requests(suite, context, _sampled_segments(suite, limit))), (0,), d)
                 for d in domains_of(domains) for suite in [load_mzprt(d, root)])


def run_mzprt(
    domains: Sequence[str] | str,
    systems: Sequence[str] | str | None = None,
    inputs: Sequence[str | Path] | None = None,
    data_dir: str | Path | None = None,
    window: int = DEFAULT_WINDOW,
    bleu: bool = False,
    use_cache: bool = True,
    progress: Callable[[int], None] | None = None,
    extra: str = "wmt",
    aligner: str | WordAligner = "default",
    reach: int = DEFAULT_REACH,
    input_format: str = "auto",
    engine: str = "local",
    ray_address: str | None = None,
    align_train: str = "suite",
    limit: int | None = None,
    translator: Translator | None = None,
    context: int = 0,
    answered: Sequence[Sequence[str]] | None = None,
    align_decode: str | None = None,
) -> list[AZPTResult]:
    """AZPT of published systems and/or input files on mZPRT domains, one result per (domain, system).

    ``domains``: codes QA GR MS PP WF (or MS-valid, WF-valid for inputs), a list, or "all".
    ``systems``: published outputs by name (``base_tgt`` …), "all", or None. A named system is
    evaluated in every requested domain that has it. ``inputs``: hypothesis files of one domain, or one per domain of
    ``domains`` in its order (see ``read_input`` for the line layout: one line per sentence without the ``[doc]`` lines,
    or the raw file's lines with them, or ``source ||| hypothesis`` lines; ``input_format`` forces one). Each file
    is aligned and scored alone (``corpus``), so its result is the one a run of its domain alone gives.
    ``window``: candidate words on each side of the aligned word.
    ``reach``: how far beyond the window an unclaimed rendering may be (0: the paper's rule only).
    ``bleu``: also sacrebleu BLEU (on the sentences each system covers: the ZP sentences for
    published outputs). ``progress`` is called with 1 per finished result.
    ``align_train``: ``suite`` decodes every text with the model trained once on the background; ``input`` aligns an
    input file by training on the background plus that file (``corpus``); ``align_decode``: how that model decodes
    (``lang.align.model.DECODERS``; named in the signature's aligner field when not Thot's).
    ``limit``: a quick look: per domain, a deterministic sample of that many scored ZPs (``sampled_zps``), signed
    ``limit:N``; files are still read, checked and aligned whole, only the judging is restricted (BLEU: the
    sampled ZPs' sentences).
    ``translator``: a model (``models.door.open_translator``) that translates every requested domain
    (``hypotheses.model_hypotheses``: with ``context`` previous sentences of the document in its prompt; under
    ``limit`` only the sampled ZPs' sentences), each scored as an input file of its translations is; ``answered``: its
    answers to ``mzprt_requests``, one list per domain (else it is asked here).
    ``engine``: where the alignment runs go (``local``, or ``ray``: one Ray task per run, at ``ray_address`` or on a
    local Ray instance). Judging and scoring stay here on both engines: every ZP of the 33 published (domain, system)
    results is judged in about 1 s, against about 60 s for one alignment of the background.
    """
    root = str(data_dir) if data_dir else None
    engine = resolve_engine(engine)
    domain_list = domains_of(domains)
    inputs = list(inputs or [])
    if not inputs and not systems and translator is None:
        raise InputError("give --system (published outputs, or 'all'), --input (your hypotheses) or --model")
    if inputs and len(domain_list) > 1 and len(inputs) != len(domain_list):
        raise InputError(f"--input: one file per --domain, in its order ({len(domain_list)} domains: "
                         f"{' '.join(domain_list)}; {len(inputs)} file{'s' if len(inputs) != 1 else ''}), or files "
                         "of one domain")
    wanted = _published_requests(domain_list, systems)
    aligner_obj = aligner if isinstance(aligner, WordAligner) else azpt_aligner(aligner)
    with catalogue.tracking() as read_by_all:  # every domain and present output trains the aligner: shared by all
        suites = {d: load_mzprt(d, root) for d in domain_list}
    read: dict[tuple[str, str], dict] = {}  # a published system's own files (with its released score)
    published = []
    for d, s in wanted:
        if s != REFERENCE:
            with catalogue.tracking() as read[(d, s)]:
                published.append(published_hypotheses(d, s, suites[d], root))
    of_domain = domain_list * len(inputs) if len(domain_list) == 1 else domain_list  # one domain: every file is its
    typed = [read_input(path, suites[domain], input_format) for domain, path in zip(of_domain, inputs)]
    model_fields = in_context_fields(translator, context) if translator is not None else []
    for k, d in enumerate(domain_list if translator is not None else ()):
        typed.append(model_hypotheses(suites[d], translator, context, _sampled_segments(suites[d], limit),
                                      answered[k] if answered is not None else None))
    with catalogue.tracking() as corpus_files, progress_bar("mZPRT: segmenting the corpus", total=1) as bar:
        corpus = build_corpus(aligner_obj, root, extra, domain_list, published, typed, use_cache, align_train,
                              align_decode)
        bar.update(1)
    read_by_all.update(corpus_files)
    # the aligner's settings, and how its model decodes where one decodes every run (Thot's decode: nothing added)
    aligner_field = corpus.model.aligner_signature() if corpus.model else aligner_obj.signature()
    by_name = {(h.domain, h.system): h for h in published}
    evaluated = [
        (by_name.get((d, s)) or reference_hypotheses(corpus.suites[d]), (d, s)) for d, s in wanted
    ] + [(h, ("input", str(k))) for k, h in enumerate(typed)]
    links_of = _align(corpus, [key for _, key in evaluated], engine, ray_address)

    results = []
    with progress_bar("mZPRT: scoring domain×system", "result", total=len(evaluated)) as bar:
        for hyps, key in evaluated:
            bar.set_description(f"mZPRT: scoring {hyps.domain}×{hyps.system}")
            suite, src = corpus.suites[hyps.domain], corpus.sources[hyps.domain]
            segments, pairs = hyps.pairs(src.words)
            by_segment = links_of[key]
            links = [by_segment[i] for i in segments]
            verdicts = evaluate(suite, src, hyps, segments, pairs, links, window, reach)
            sample = sampled_zps(suite, limit)
            if sample is not None:
                verdicts = [v for v in verdicts if (v.segment, v.ordinal) in sample]
            result = AZPTResult(
                domain=hyps.domain,
                system=hyps.system,
                scores=(scores := score_azpt(verdicts)),
                signature=_signature(hyps, scores.n, aligner_field, corpus.description(key), window, reach,
                                     catalogue.data_field({**read_by_all, **read.get((hyps.domain, hyps.system), {})}),
                                     model_fields if hyps.kind == "model" else ()).with_limit(limit),
                kind=hyps.kind,
                path=hyps.path,
                layout=hyps.layout,
                n_segments=len(segments),
                released=hyps.published.released if hyps.published else None,
                released_counts=hyps.published.released_counts if hyps.published else None,
                released_details_counts=hyps.published.released_details_counts if hyps.published else None,
                verdicts=verdicts,
                hypotheses=hyps.by_segment,
            )
            if bleu:
                _add_bleu(result, suite, None if sample is None else {segment for segment, _ in sample})
            results.append(result)
            bar.update(1)
            if progress:
                progress(1)
        bar.set_description("mZPRT: scoring domain×system")
    return results


def prepare_model(data_dir: str | None = None, aligner: str = "default", extra: str = "wmt",
                  use_cache: bool = True) -> list[str]:
    """``data prepare mzprt``: the background corpus's alignment model trained (or found) now, one line."""
    corpus = build_corpus(azpt_aligner(aligner), data_dir, extra, use_cache=use_cache)
    if corpus.model is None:
        return [f"mzprt: no alignment model for the {aligner} aligner: each run aligns its corpus"]
    was = corpus.model.cached()
    corpus.model.folder()
    return [f"mzprt: alignment model {corpus.model.text} {'ready' if was else 'trained'}"]


def _align(corpus: Corpus, keys: list[tuple[str, str]], engine: str = "local", ray_address: str | None = None
           ) -> dict[tuple[str, str], dict[int, Links]]:
    """The links of every evaluated block, each alignment run (``Corpus.run_of``) a step of one stage bar: with the
    background's model, the evaluated blocks decoded in one run and each input decoded alone; without, one run for
    the background (shared by the published outputs and the reference) and one per input file (the background plus
    that input). On the ray engine the model is trained in a Ray task, and without a model every run not in the cache
    is one (``_align_on_ray``); the links are the same."""
    runs = list(dict.fromkeys(corpus.run_of(key) for key in keys))
    what = "the background" if all(key[0] != "input" for key in keys) else "the background with each input"
    out: dict[tuple[str, str], dict[int, Links]] = {}
    with progress_bar(f"mZPRT: aligning {what} ({corpus.aligner.name})", "run", total=len(runs)) as bar:
        if engine == "ray":
            _align_on_ray(corpus, runs, ray_address, bar.update)
        bar.update(corpus.decode_blocks(keys))  # with a model: the blocks the keys need, decoded in one run
        for key in keys:
            fresh = corpus.run_of(key) not in corpus.aligned
            out[key] = corpus.links_of(key)
            bar.update(int(fresh))
    return out


def _align_on_ray(corpus: Corpus, runs: list[str], address: str | None, done: Callable[[int], object]) -> None:
    """Put the links of ``runs`` in ``corpus.aligned``: a run the cache holds is read here, every other one is one Ray
    task running ``align_cached`` in a worker, which stores its links under the same content key in the same cache
    (``worker_env``), so the next run on either engine reads them. A task uses the cores the aligner does (Thot: one
    child process per direction), as on the local engine."""
    from discotest.engine import ray_engine

    if corpus.model:  # training the background's model is the work; decoding the blocks here is quick
        if not (corpus.use_cache and corpus.model.cached()):
            ray_engine(address).map_ordered(_train_model, [(corpus.model,)])
        return
    todo = []
    for run in runs:
        pairs = corpus.run_pairs(run)
        if corpus.use_cache and (hit := cached_links(corpus.runner, pairs)) is not None:
            corpus.aligned[run] = hit
            done(1)
        else:
            todo.append((run, pairs))
    if todo:
        links = ray_engine(address).map_ordered(align_cached, [(corpus.runner, pairs, corpus.use_cache)
                                                               for _, pairs in todo], on_done=lambda *_: done(1))
        corpus.aligned.update(zip([run for run, _ in todo], links))


def _train_model(model: AlignmentModel) -> str:
    """A Ray task: train ``model`` (stored in the shared cache, where the driver then finds it)."""
    model.folder()
    return model.key


def _published_requests(domains: list[str], systems: Sequence[str] | str | None) -> list[tuple[str, str]]:
    """(domain, system) pairs to evaluate: "all" is every published output; a named system is taken in
    every requested domain that has it; ``reference`` exists in every domain."""
    if not systems:
        return []
    known = {d: published_systems(d) if d in DOMAINS else [] for d in domains}
    if systems == "all":
        return [(d, s) for d, names in known.items() for s in names]
    systems = [systems] if isinstance(systems, str) else list(systems)
    everywhere = {s for names in known.values() for s in names} | {REFERENCE}
    for system in systems:
        if system not in everywhere:
            have = ", ".join(dict.fromkeys(s for names in known.values() for s in names)) or "none"
            raise InputError(
                f"unknown mZPRT system {system!r} for {', '.join(domains)}; published: {have} (and {REFERENCE})"
            )
    return [(d, s) for d, names in known.items() for s in systems if s in names or s == REFERENCE]


def _signature(hyps: Hypotheses, n: int, aligner: str, align_text: str, window: int, reach: int,
               data: tuple[str, str] = ("files", "none"), model: Sequence[tuple[str, str]] = ()) -> Signature:
    table = content_cache.content_key(
        f"{k[0]}\t{k[1]}\t{'|'.join(sorted(v))}" for k, v in sorted(load_zh_en().entries.items())
    )[:8]
    return build_signature(
        "mzprt", "current", hyps.system, n, lang="zh-en", scope=(("domain", hyps.domain),),
        settings=(
            *model,
            ("aligner", aligner),
            ("align_text", align_text),
            ("window", str(window)),
            ("reach", str(reach)),
            ("tok", f"{segment_zh.signature()}+en-clitics"),
            ("table", f"zh_en-{table}"),
        ),
        files=data,
    )
