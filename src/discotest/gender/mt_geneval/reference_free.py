"""The reference-free reading beside MT-GenEval: the person's gender read from the translation itself by discotest's
aligner and gender analysers, to set beside the reference-based verdict (issue 28, item 2).

Anchors: the English words that render the person. MT-GenEval's English sentences need not hold a gendered word
(the contextual subset's second sentence never says the gender), so the anchors are found through the references:
the English words aligned to the reference's words that the other-gender reference lacks (``Autor`` against
``Autorin`` anchors "author"). The translation's words aligned to each anchor are read by the language's gender
analyser (the noun and the words that agree with it); the readings that show a gender must agree (else ``mixed``).
The verdict is ``correct`` when that gender is the item's, ``wrong`` when it is the other; ``undecided`` with the
reason when the reference has no own word, no anchor is aligned, nothing readable is found, or the item has no
gender label (contextual items whose English context has no or both pronouns).

Alignment (issue 23): a model trained once per subset, split and language on the English sources with both
references of every item — text that does not depend on the translation — decodes the references and the
translation, so a translation's reading depends on its own sentence alone and every system is read by the same model
(``reference_model``). An aligner that keeps no model (``--aligner eflomal``) trains on the references and the
translation together instead.

Languages: those with an analyser (``discotest.lang.morph.languages()``: ar de es fr it ru of MT-GenEval's); hi and
pt have none offline, so they get no reading.
"""

from __future__ import annotations

from collections.abc import Sequence

from discotest import cache
from discotest.errors import InputError
from discotest.gender.mt_geneval.judge import FreeReading, GenEvalVerdict, combine_readings, words
from discotest.gender.mt_geneval.suite import GenEvalItem
from discotest.lang.align import MODEL_REL_ITERATIONS, align_cached, make_aligner
from discotest.lang.align.base import Links, Pair, WordAligner
from discotest.lang.align.model import AlignmentModel
from discotest.lang.align.thot_aligner import ThotAligner
from discotest.lang.morph import languages
from discotest.lang.morph.base import TargetEntity, Token
from discotest.lang.morph.cached import CachedReads
from discotest.lang.tokenize import tokenize
from discotest.timing import stage

# what shapes a reference model beside its texts (the identity) and the aligner's code: the training recipe below
MODEL_CODE = "gender/mt_geneval/reference_free.py"


def reference_model(items: Sequence[GenEvalItem], lang: str, recipe: str, aligner: str = "thot-eflomal",
                    use_cache: bool = True, decoder: str | None = None) -> WordAligner:
    """The alignment model of one subset, split and language (``recipe`` names them): trained once on every item's
    English source with its reference and with its other-gender reference; else (an aligner that keeps no model) the
    aligner itself, trained on what it aligns. ``decoder``: how the model decodes (``lang.align.model.DECODERS``)."""
    base = make_aligner(aligner)
    if not isinstance(base, ThotAligner):
        return base
    base = make_aligner(aligner, rel_iterations=MODEL_REL_ITERATIONS)
    texts = [(item.source, ref) for item in items for ref in (item.reference, item.other)]

    def training() -> list[Pair]:
        return [(_texts(tokenize(src, "en")), _texts(tokenize(ref, lang))) for src, ref in texts]

    identity = cache.content_key([lang, *(f"{src}\t{ref}" for src, ref in texts)])
    return AlignmentModel(base, recipe, identity, training, use_cache, code=cache.code_key(MODEL_CODE), decoder=decoder)


def align_pairs(pairs: Sequence[Pair], aligner: WordAligner, use_cache: bool = True) -> list[Links]:
    """The only place this reading aligns: decoded with the model (``reference_model``), or trained on ``pairs``."""
    with stage("alignment"):
        return align_cached(aligner, pairs, use_cache)


def aligner_signature(aligner: WordAligner) -> str:
    """The signature's ``reference_free`` aligner part: the settings, and the model's recipe and key."""
    return aligner.signature()


def check_language(lang: str) -> None:
    if lang not in languages():
        raise InputError(f"--reference-free reads the gender with an analyser; there is none for {lang!r} "
                         f"(analysers: {', '.join(languages())})")


def _texts(tokens: Sequence[Token]) -> tuple[str, ...]:
    return tuple(t.text for t in tokens)


def read_free(verdicts: Sequence[GenEvalVerdict], lang: str, aligner: WordAligner,
              use_cache: bool = True) -> tuple[list[FreeReading], str]:
    """One reading per verdict (same order) and the analyser's ``name:version`` for the signature.

    The source is aligned with the right-gender reference (to find the anchors) and with the translation: decoded
    with the model ``aligner`` (``reference_model``), or, for an aligner without one, trained on both blocks."""
    check_language(lang)
    with stage("tokenise"):
        src = [tokenize(v.source, "en") for v in verdicts]
        ref = [tokenize(v.reference, lang) for v in verdicts]
        hyp = [tokenize(v.translation, lang) for v in verdicts]
    ref_pairs = [(_texts(s), _texts(r)) for s, r in zip(src, ref)]
    hyp_pairs = [(_texts(s), _texts(h)) for s, h in zip(src, hyp)]
    same = hyp_pairs == ref_pairs  # the references as translations: one block
    links = align_pairs(ref_pairs if same else ref_pairs + hyp_pairs, aligner, use_cache)  # one decoding run
    ref_links, hyp_links = links[:len(verdicts)], links[:len(verdicts)] if same else links[len(verdicts):]
    analyser = CachedReads(lang, use_cache)
    plans, targets = [], []
    for v, s, r, h, rl, hl in zip(verdicts, src, ref, hyp, ref_links, hyp_links):
        own = set(v.right_only)
        marked = {j for j, token in enumerate(r) if words(token.text) & own}
        anchors = sorted({i for i, j in rl if j in marked})
        spans = [tuple(sorted({j for i, j in hl if i == a})) for a in anchors]
        spans = [span for span in spans if span]
        plans.append((v, [s[a].text for a in anchors], h, spans, bool(own)))
        targets += [TargetEntity(v.translation, h, span) for span in spans]
    with stage("morphology"):
        readings = iter(analyser.read(targets)) if targets else iter(())
    out = []
    for v, anchors, h, spans, has_own in plans:
        read = [next(readings) for _ in spans]
        out.append(combine_readings(v, tuple(anchors), tuple(h[j].text for span in spans for j in span), read, has_own))
    return out, analyser.signature()
