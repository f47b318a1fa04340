"""MiTTenS out of English: the person's gender read from a translation into ar de es fr it ru, as MT-GenEval's
reference-free reading reads it (``gender.mt_geneval.reference_free``), with the English source deciding where.

Anchors: the English source's words of the passage's person (``english.gendered_words``: their pronouns, the nouns
that name them). Each anchor's aligned translation words are read by the language's gender analyser: a pronoun
with ``read_pronouns`` (its English form and role; a dropped or possessive pronoun that shows no gender is left
out, the analysers' own rules), a noun with ``read`` (the noun and the words that agree with it). The genders shown
give ``female``, ``male``, ``both`` or ``none``. A passage whose English names the person by no gendered word
("My name is Marc. I am a nurse.") has no anchor: ``none`` with that reason.

Alignment (as MT-GenEval's): a model trained once per language on every passage's English source with its
reference — text that does not depend on the translation — decodes each translation, so a reading depends on its
own passage alone. An aligner that keeps no model (``--aligner eflomal``) trains on the translations themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from discotest import cache
from discotest.errors import InputError
from discotest.gender.mentions import PRONOUNS as ROLES
from discotest.gender.mittens.english import gendered_words
from discotest.gender.mittens.suite import MittensItem
from discotest.lang.align import MODEL_REL_ITERATIONS, align_cached, make_aligner
from discotest.lang.align.base import Pair, WordAligner
from discotest.lang.align.model import AlignmentModel
from discotest.lang.align.thot_aligner import ThotAligner
from discotest.lang.morph import languages
from discotest.lang.morph.base import PronounTarget, TargetEntity, Token
from discotest.lang.morph.cached import CachedReads
from discotest.lang.tokenize import tokenize
from discotest.timing import stage

# what shapes a reference model beside its texts (the identity) and the aligner's code: the training recipe below
MODEL_CODE = "gender/mittens/free.py"
_ROLE = {p: r for table in ROLES.values() for p, r in table.items()}
_SHOWN = ("female", "male")
NOT_READABLE = {
    "am": "Amharic: no gender analyser in discotest (its verbs and pronouns mark gender, but no offline tagger)",
    "bn": "Bengali: the language marks no grammatical gender on pronouns or verbs",
    "cs": "Czech: no gender analyser in discotest yet (past-tense verbs and adjectives mark it)",
    "hi": "Hindi: no gender analyser in discotest (verbs mark it; no offline morphology here)",
    "ja": "Japanese: pronouns are usually dropped and nothing else marks gender",
    "pl": "Polish: no gender analyser in discotest yet (past-tense verbs and adjectives mark it)",
    "pt": "Portuguese: no gender analyser in discotest (offline)",
    "te": "Telugu: no gender analyser in discotest (verbs mark it)",
    "th": "Thai: gender is marked only by optional pronouns and particles, which no analyser reads",
    "zh": "Chinese: 他/她 differ in writing only and are often dropped; no analyser reads them",
}


def readable(lang: str) -> bool:
    return lang in languages()


def check_language(lang: str) -> None:
    if not readable(lang):
        why = NOT_READABLE.get(lang, "no gender analyser")
        raise InputError(f"mittens-out cannot read {lang!r}: {why} (readable: "
                         f"{', '.join(sorted(set(languages()) - {'he', 'uk'}))})")


def _texts(tokens: Sequence[Token]) -> tuple[str, ...]:
    return tuple(t.text for t in tokens)


def reference_model(items: Sequence[MittensItem], lang: str, aligner: str = "thot-eflomal",
                    use_cache: bool = True) -> WordAligner:
    """The language's alignment model, trained once on every passage's English source with its reference."""
    base = make_aligner(aligner)
    if not isinstance(base, ThotAligner):
        return base
    base = make_aligner(aligner, rel_iterations=MODEL_REL_ITERATIONS)
    texts = [(i.source, i.reference) for i in items]

    def training() -> list[Pair]:
        return [(_texts(tokenize(s, "en")), _texts(tokenize(r, lang))) for s, r in texts]

    identity = cache.content_key([lang, *(f"{s}\t{r}" for s, r in texts)])
    return AlignmentModel(base, f"mittens-out-{lang}:references", identity, training, use_cache,
                          code=cache.code_key(MODEL_CODE))


def _role(word: str, source: str, end: int) -> str:
    """The English pronoun's role; "her" before a word is a possessive, else an object."""
    if word != "her":
        return _ROLE[word]
    rest = source[end:].lstrip()
    return "possessive" if rest[:1].isalpha() else "object"


def read_translations(items: Sequence[MittensItem], translations: Sequence[str], lang: str, aligner: WordAligner,
                      use_cache: bool = True) -> tuple[list[tuple[str, tuple[dict, ...], str]], str]:
    """For each item: (gender read, the translation's words read with their offsets, why nothing was read), and
    the analyser's ``name:version``."""
    check_language(lang)
    with stage("tokenise"):
        src = [tokenize(i.source, "en") for i in items]
        hyp = [tokenize(t, lang) for t in translations]
    links = align_pairs([(_texts(s), _texts(h)) for s, h in zip(src, hyp)], aligner, use_cache)
    analyser = CachedReads(lang, use_cache)
    pronouns, nouns, plans = [], [], []
    for item, text, s, h, lk in zip(items, translations, src, hyp, links):
        anchors = []
        for w in gendered_words(item.source):
            if not w.person:
                continue
            at = [k for k, t in enumerate(s) if t.start < w.end and w.start < t.end]
            span = tuple(sorted({j for i, j in lk if i in at}))
            if w.kind == "pronoun":
                anchors.append(("pronoun", len(pronouns), span))
                pronouns.append(PronounTarget(text, h, span, (), w.text.lower(),
                                              _role(w.text.lower(), item.source, w.end)))
            else:
                anchors.append(("noun", len(nouns), span))
                nouns.append(TargetEntity(text, h, span))
        plans.append((h, anchors))
    with stage("morphology"):
        pronoun_reads = analyser.read_pronouns(pronouns) if pronouns else []
        noun_reads = analyser.read(nouns) if nouns else []
    out = []
    for h, anchors in plans:
        if not anchors:
            out.append(("none", (), "english-names-the-person-by-no-gendered-word"))
            continue
        words, shown, reasons = [], set(), []
        for kind, k, span in anchors:
            reading = pronoun_reads[k] if kind == "pronoun" else noun_reads[k]
            gender = reading.gender.value
            if kind == "pronoun" and reading.omitted:
                reasons.append(reading.omitted)
                continue
            if gender in _SHOWN:
                shown.add(gender)
                evidence = set(reading.evidence)
                for j in span or ():
                    if not evidence or h[j].text in evidence:
                        words.append({"word": h[j].text, "start": h[j].start, "end": h[j].end, "gender": gender,
                                      "kind": kind, "person": True, "why": reading.reason})
            else:
                reasons.append(reading.reason or "unreadable")
        read = "both" if len(shown) > 1 else shown.pop() if shown else "none"
        out.append((read, tuple(words), "" if read != "none" else "; ".join(dict.fromkeys(reasons)) or "unread"))
    return out, f"{analyser.name}:{analyser.version()}"


def align_pairs(pairs: Sequence[Pair], aligner: WordAligner, use_cache: bool = True):
    with stage("alignment"):
        return align_cached(aligner, pairs, use_cache)
