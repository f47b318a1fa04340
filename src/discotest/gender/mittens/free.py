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

import re
from collections.abc import Sequence
from functools import lru_cache

from discotest import cache
from discotest.errors import InputError
from discotest.gender.mentions import PRONOUNS as ROLES
from discotest.gender.mittens.person import person_anchors
from discotest.gender.mittens.suite import MittensItem
from discotest.gender.pipeline import noun_gender
from discotest.lang.align import MODEL_REL_ITERATIONS, align_cached, make_aligner
from discotest.lang.align.base import Pair, WordAligner
from discotest.lang.align.model import AlignmentModel
from discotest.lang.align.thot_aligner import ThotAligner
from discotest.lang.lexicon import entity_lexicon, find_entity_tokens, normalise
from discotest.lang.locate import locate_entity
from discotest.lang.morph import languages
from discotest.lang.morph._romance_pronouns import ES, FR, IT
from discotest.lang.morph._semitic import UNKNOWN_WORD
from discotest.lang.morph.ar import _PREPOSITION_KEYS as AR_PREPOSITIONS
from discotest.lang.morph.ar import normalise as ar_normalise
from discotest.lang.morph.base import GenderReading, PronounTarget, TargetEntity, Token
from discotest.lang.morph.cached import CachedReads
from discotest.lang.tokenize import tokenize
from discotest.timing import stage

# what shapes a reference model beside its texts (the identity) and the aligner's code: the training recipe below
MODEL_CODE = "gender/mittens/free.py"
_ROLE = {p: r for table in ROLES.values() for p, r in table.items()}
_SHOWN = ("female", "male")
# a masculine noun read at these anchors (a noun complement, a person noun that is not gendered in English), or any
# masculine word of a group, may be the generic masculine: it shows male only where no other word shows female
GENERIC_MASCULINE_AT = frozenset(["complement-of-person", "person-noun-subject"])
PLURAL = frozenset(["they", "we"])  # a group's masculine is also the mixed and the default form (ar فراغهم)
# languages whose first-person verbs show no gender (ar أعمل, كنت): a speaker's verbs are not read, and the words
# agreeing with any subject are read as words of their own (the pronoun reader searches the passage for a verb)
FIRST_PERSON_VERBS_SILENT = frozenset(["ar", "he"])
FIRST_PERSON = frozenset(["i", "me", "myself", "we", "us", "ourselves"])
_HAVE = {"fr": FR, "es": ES, "it": IT}
_SENTENCE_END = re.compile(r"(?<=[.!?؟])\s+")
# prepositions that end a Romance noun's own words ("homme d'affaires", "ingeniero de sonido")
_OF = {"fr": frozenset(["de", "d'", "d", "du", "des"]), "es": frozenset(["de", "del"]),
       "it": frozenset(["di", "del", "della", "dei", "d'"])}
# prepositions before a noun complement of another noun: a word after one is not the person's noun
_PREPOSITIONS = {lang: _OF[lang] | _HAVE[lang].prepositions | {"en", "in", "du", "des", "della", "dei", "al", "au"}
                 for lang in _OF}
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
                    use_cache: bool = True, decoder: str | None = None) -> WordAligner:
    """The language's alignment model, trained once on every passage's English source with its reference;
    ``decoder``: how it decodes (``lang.align.model.DECODERS``; ignored by an aligner that keeps no model)."""
    base = make_aligner(aligner)
    if not isinstance(base, ThotAligner):
        return base
    base = make_aligner(aligner, rel_iterations=MODEL_REL_ITERATIONS)
    texts = [(i.source, i.reference) for i in items]

    def training() -> list[Pair]:
        return [(_texts(tokenize(s, "en")), _texts(tokenize(r, lang))) for s, r in texts]

    identity = cache.content_key([lang, *(f"{s}\t{r}" for s, r in texts)])
    return AlignmentModel(base, f"mittens-out-{lang}:references", identity, training, use_cache,
                          code=cache.code_key(MODEL_CODE), decoder=decoder)


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
    with stage("english"):
        anchors_of = person_anchors([i.source for i in items])
    analyser = CachedReads(lang, use_cache)
    pronouns: list[PronounTarget] = []
    nouns: list[TargetEntity] = []
    retry: dict[int, TargetEntity] = {}
    plans = []
    for item, text, s, h, lk, anchors in zip(items, translations, src, hyp, links, anchors_of):

        def tokens_at(spans: Sequence[tuple[int, int]], s=s) -> set[int]:
            return {k for k, t in enumerate(s) for a, b in spans if t.start < b and a < t.end}

        def aligned(spans: Sequence[tuple[int, int]], lk=lk) -> set[int]:
            at = tokens_at(spans)
            return {j for i, j in lk if i in at}

        steps = []
        for a in anchors:
            silent_first = lang in FIRST_PERSON_VERBS_SILENT and a.text.lower() in FIRST_PERSON
            first = None
            span: tuple[int, ...] = ()
            if a.kind == "noun":
                located, how = locate_entity(sorted(tokens_at([(a.start, a.end), *a.possessor])), len(s), lk, h,
                                             a.lemma or a.text.lower(), lang)
                span = tuple(located)
                if lang == "ar" and span:
                    span = _arabic_person_noun(h, span, a.lemma or a.text.lower())
                if how == "aligned":
                    span = _head_stretch(h, _first_run(span), lang)
                    if lang in _OF and span and span[0] > 0:  # "une archère fantastique" aligned to the adjective
                        before = tuple(range(max(0, span[0] - 2), span[0]))
                        # not a noun inside or right after a preposition: "de classe mondiale", "de la paix
                        # norvégien" name another thing than the person
                        if not any(h[j].text.lower() in _PREPOSITIONS[lang] for j in (*before, before[0] - 1)
                                   if j >= 0):
                            retry[len(nouns)] = TargetEntity(text, h, (*before, *span))
                first = ("noun", len(nouns), span)
                nouns.append(TargetEntity(text, h, span))
            elif a.kind == "pronoun" and not silent_first:
                span = tuple(sorted(aligned([(a.start, a.end)])))
                if a.role == "subject":
                    span = _without_have_participles(h, span, lang)
                role = _role(a.pronoun, item.source, a.end) if a.pronoun in _ROLE else a.role
                first = ("pronoun", len(pronouns), span)
                pronouns.append(PronounTarget(text, h, span, (), a.pronoun, role))
            second = None
            predicate = a.predicate
            if silent_first:  # a speaker's verbs show no gender: only adjectives
                predicate = tuple(p for p in predicate if p not in a.verbs)
            # a name's own translation is no word agreeing with it (an unknown name's ending is no gender)
            own = aligned([(a.start, a.end)]) if a.why == "name-subject" else set()
            rest = tuple(sorted(aligned(predicate) - set(span) - own)) if predicate else ()
            rest = _without_have_participles(h, rest, lang)
            if rest and lang in FIRST_PERSON_VERBS_SILENT:
                second = ("noun", len(nouns), rest)
                nouns.append(TargetEntity(text, h, rest))
            elif rest:
                second = ("pronoun", len(pronouns), rest)
                pronouns.append(PronounTarget(text, h, rest, (), a.pronoun or "he", "subject"))
            if first or second:
                steps.append((a, first, second))
        plans.append((h, steps, {j for _, first, _ in steps if first and first[0] == "noun" for j in first[2]},
                      item.source, text))
    with stage("morphology"):
        pronoun_reads = analyser.read_pronouns(pronouns) if pronouns else []
        noun_reads = analyser.read(nouns) if nouns else []
        # a Romance noun aligned to the adjective after it: read again with the word before (the noun)
        again = [k for k in retry if noun_gender(noun_reads[k]) not in _SHOWN]
        for k, reading in zip(again, analyser.read([retry[k] for k in again]) if again else []):
            if noun_gender(reading) in _SHOWN:
                noun_reads[k], nouns[k] = reading, retry[k]
    out = []
    for h, steps, noun_words, source, text in plans:
        if not steps:
            out.append(("none", (), "english-names-the-person-by-no-word"))
            continue
        words, shown, reasons, weak = [], set(), [], []
        for a, *reads in steps:
            for step in reads:
                if step is None:
                    continue
                kind, k, span = step
                reading = pronoun_reads[k] if kind == "pronoun" else noun_reads[k]
                span = span if kind == "pronoun" else nouns[k].entity
                # the one noun-level definition (gender.pipeline.noun_gender): a gender that is only grammatical (an
                # indefinite's default masculine, a German epicene noun's fixed gender) does not mark the person
                gender = noun_gender(reading) if kind == "noun" else reading.gender.value
                if kind == "pronoun" and reading.omitted:
                    reasons.append(reading.omitted)
                    continue
                if step is reads[1] and kind == "pronoun" and not _near(h, span, reading.evidence):
                    reasons.append("no agreeing word among the predicate's words")  # found by a search elsewhere
                    continue
                if kind == "pronoun" and _other_sentence(source, a.start, text, h, span, reading.evidence):
                    reasons.append("the word read is in another sentence than the pronoun's")  # found by a search
                    continue
                if kind == "pronoun" and reading.evidence and {h[j].text for j in noun_words} >= set(reading.evidence):
                    reasons.append("agreeing word is a noun read as the person's")  # "suis pharmacienne"
                    continue
                if gender not in _SHOWN:
                    reasons.append(reading.reason or "unreadable")
                    continue
                if step is reads[1] and kind == "noun" and _ending_guess(reading):
                    reasons.append(f"'{' '.join(reading.evidence)}' is an unknown word: its ending agrees with nothing")
                    continue
                if step is reads[1] and kind == "noun" and a.text.lower() not in FIRST_PERSON and len(
                        reading.evidence) < 2:
                    reasons.append(f"'{' '.join(reading.evidence)}' is a noun: its own gender agrees with nothing")
                    continue
                generic = gender == "male" and ((kind == "noun" and a.why in GENERIC_MASCULINE_AT)
                                                or a.pronoun in PLURAL)
                if generic and kind == "noun" and _no_feminine(a.lemma or a.text, reading.evidence, lang):
                    reasons.append(f"masculine '{' '.join(reading.evidence)}' has no feminine form: generic")
                    continue
                evidence = set(reading.evidence)
                found = [{"word": h[j].text, "start": h[j].start, "end": h[j].end, "gender": gender, "kind": kind,
                          "person": True, "why": f"{a.why}: {reading.reason}"}
                         for j in span or () if not evidence or h[j].text in evidence]
                if generic:
                    weak.extend(found or [{}])
                else:
                    shown.add(gender)
                    words.extend(found)
                break  # the anchor's own words decide; its predicate only where they show nothing
        if weak and "female" not in shown:  # "Она работает врачом", "une femme médecin": the generic masculine
            shown.add("male")
            words.extend(w for w in weak if w)
        read = "both" if len(shown) > 1 else shown.pop() if shown else "none"
        out.append((read, tuple(words), "" if read != "none" else "; ".join(dict.fromkeys(reasons)) or "unread"))
    return out, analyser.signature()


def _arabic_person_noun(tokens: Sequence[Token], span: tuple[int, ...], english: str) -> tuple[int, ...]:
    """An Arabic person noun's words where the located word is not the person's noun:

    - a noun right after a preposition (مدرس في [مدرسة] 'a teacher at a school': مدرسة is also 'teacher' (f.)) names
      what the preposition governs; where the entity lexicon finds another rendering of the English noun in the
      passage that is not after a preposition, that one (the nearest) is read;
    - an indefinite noun right after an indefinite person noun of the entity lexicon is the second member of its
      construct phrase (طبيب [جراحة] 'a doctor of surgery', not 'a surgeon' (f.)): the construct's first noun, the
      person noun, is read with it, and decides (the analyser reads a lexicon form first)."""
    def after_preposition(j: int) -> bool:
        return j > 0 and ar_normalise(tokens[j - 1].text) in AR_PREPOSITIONS

    if after_preposition(span[0]):
        runs = [j for j in find_entity_tokens(tuple(tokens), english, "ar")
                if j not in span and not after_preposition(j)]
        if runs:
            return (min(runs, key=lambda j: abs(j - span[0])),)
    before = span[0] - 1
    if before >= 0 and not any(ar_normalise(tokens[j].text).startswith("ال") for j in (before, span[0])) and (
            normalise(tokens[before].text, "ar") in _arabic_person_forms()):
        return (before, *span)
    return span


@lru_cache(maxsize=1)
def _arabic_person_forms() -> frozenset[str]:
    """Every form of the Arabic entity lexicon: the nouns known to name a person."""
    return frozenset(f for forms in entity_lexicon("ar").values() for f in forms.all)


def _ending_guess(reading: GenderReading) -> bool:
    """Whether a Semitic reading rests on nothing but the ending of a word its analyser does not know
    (``_semitic.SemiticAnalyser._read_one``, step 4): among a subject's agreeing words (ar) such a word is a name's
    spelling (مولكوفا, اللبيري) or a loanword, whose lack of ة is no masculine verb or adjective."""
    return len(reading.evidence) == 1 and UNKNOWN_WORD in reading.reason and "agrees" not in reading.reason


def _no_feminine(english: str, evidence: Sequence[str], lang: str) -> bool:
    """Whether the entity lexicon knows ``english`` in ``lang`` by masculine forms only (ru инженер, хирург,
    консультант, блогер): the masculine is then the only word for a person of either sex."""
    forms = entity_lexicon(lang).get(english.lower())
    # a hyphenated compound is read by its last part ("YouTube-блогер" by "блогер")
    return bool(forms) and not forms.feminine and any(
        w.lower() in forms.masculine | forms.common or w.lower().rsplit("-", 1)[-1] in forms.masculine
        for w in evidence)


def _without_have_participles(tokens: Sequence[Token], span: tuple[int, ...], lang: str) -> tuple[int, ...]:
    """A Romance participle after avoir/haber/avere does not agree with the subject ("ha trabajado", "l'ha
    saputo"): it and its auxiliary are not read as the subject's agreeing words."""
    tables = _HAVE.get(lang)
    if tables is None:
        return span
    def after_have(j: int) -> bool:
        k = j - 1
        while k >= 0 and tokens[k].text.lower() in tables.skip:  # "j'ai déjà travaillé"
            k -= 1
        return k >= 0 and tokens[k].text.lower() in tables.have

    return tuple(j for j in span if tokens[j].text.lower() not in tables.have and not after_have(j))


def _sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a passage, cut after . ! ? ؟ and a space."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    return [*out, (start, len(text))]


def _other_sentence(source: str, at: int, translation: str, tokens: Sequence[Token], span: tuple[int, ...],
                    evidence: Sequence[str]) -> bool:
    """Whether a pronoun reading rests on words a search found outside the sentence that renders the English
    pronoun's: where the English and the translation have as many sentences (more than one), the k-th renders the
    k-th. An analyser reading a pronoun the aligner left out searches its whole text, which for a passage holds other
    people's pronouns ("والدته هي …", "منها") and pronouns agreeing with things ("أعماله هي جرمانيا")."""
    if not evidence or {tokens[j].text for j in span} >= set(evidence):
        return False
    english, target = _sentences(source), _sentences(translation)
    if len(english) < 2 or len(english) != len(target):
        return False
    k = next(i for i, (_, end) in enumerate(english) if at < end or i == len(english) - 1)
    low, high = target[k]
    return not any(t.text in evidence and low <= t.start < high for t in tokens)


def _near(tokens: Sequence[Token], span: tuple[int, ...], evidence: Sequence[str]) -> bool:
    """Whether the words a predicate reading rests on are the predicate's translation or just after it (the
    participle after an aligned copula), not words a reader found elsewhere in the passage."""
    if not span:
        return False
    near = {tokens[j].text for j in (*span, span[-1] + 1, span[-1] + 2) if j < len(tokens)}
    return bool(evidence) and set(evidence) <= near


def _first_run(span: tuple[int, ...]) -> tuple[int, ...]:
    """The first stretch of consecutive words of an aligned span: the aligner often adds a word further on
    ("campeona mundial … del mundo")."""
    out = span[:1]
    for j in span[1:]:
        if j != out[-1] + 1:
            break
        out += (j,)
    return out


def _head_stretch(tokens: Sequence[Token], span: tuple[int, ...], lang: str) -> tuple[int, ...]:
    """A Romance noun's words up to a preposition: "homme d'affaires" is read by "homme", not "affaires"."""
    stop = _OF.get(lang)
    if not stop or len(span) < 2:
        return span
    for n, j in enumerate(span):
        if n and tokens[j].text.lower().replace("’", "'") in stop:
            return span[:n]
    return span


def align_pairs(pairs: Sequence[Pair], aligner: WordAligner, use_cache: bool = True):
    with stage("alignment"):
        return align_cached(aligner, pairs, use_cache)
