"""Target-side pronoun gender for French, Spanish and Italian (shared by their analysers).

Why one module: the three languages read a pronoun's gender the same way and differ only in their
word lists. The aligned words decide first (fr il/elle/le/la, es él/ella/lo/la, it lui/lei/lo/la/gli/le,
enclitics like "ayudarla", "chiedergli"); forms that show no gender (fr lui/l'/leur/se, es le/se, it
gliel-/si) then look for a word that agrees with the pronoun: a past participle after avoir/avere
agreeing with a preceding direct object ("l'a trouvée", "l'ha licenziata"), or a predicate after a
copula agreeing with a (possibly dropped) subject ("porque estaba cansada", "perché era stanca").
Possessives (son/sa, su, suo/sua) agree with the possessed noun and are left out.

The analyser supplies a part-of-speech lookup (spaCy for fr/es, Apertium for it); it is only asked
for the items the word lists leave open, so a batch is tagged once and most items need no tagging.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from discotest.lang.morph.base import Gender, PronounReading, PronounTarget

M, F = Gender.MALE, Gender.FEMALE
_NON_PERSON = frozenset({"y", "en", "ne", "ci", "vi", "non", "no", "n'"})  # clitics that never render a person
_NAMES = {M: "masculine", F: "feminine"}


@dataclass(frozen=True)
class Tag:
    """What the tagger says of one token: a coarse class and the gender its morphology shows."""

    pos: str  # pron det adj part verb noun adv adp other
    gender: Gender | None = None


# per-sentence lookup: our token index -> Tag
Tagging = Callable[[int], Tag]


class NeedTags(Exception):
    """Raised by the first pass when a decision needs the tagger (the item is tagged in a second pass)."""


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class PronounTables:
    """The closed classes of one language."""

    lang: str
    gendered: dict[str, Gender]  # forms that show gender by themselves
    article_like: frozenset[str]  # gendered forms that are articles when the tagger says DET
    stressed_masculine: frozenset[str]  # fr "lui": masculine after a preposition, no gender as a clitic
    neutral: frozenset[str]  # forms that show no gender (clitics, reflexives, cela)
    possessives: frozenset[str]
    object_clitics: frozenset[str]  # clitics whose participle after avoir/avere agrees (l', les)
    have: frozenset[str]  # forms of avoir/avere
    be: frozenset[str]  # copula/auxiliary forms after which a predicate agrees with the subject
    skip: frozenset[str]  # negation, adverbs, clitics between auxiliary and participle
    prepositions: frozenset[str]
    pro_drop: bool
    no_noun_copulas: frozenset[str] = frozenset()  # es estar: what follows is never a noun predicate
    conjunctions: frozenset[str] = frozenset()  # open the clause of a dropped subject (porque, perché)
    subject_forms: frozenset[str] = frozenset()  # stressed/subject pronouns (objects only after a preposition)
    before_clitic: frozenset[str] = frozenset()  # words after which le/la is a clitic, not an article
    enclitic_hosts: tuple[str, ...] = ()  # endings of infinitives/gerunds that take enclitics
    enclitics: dict[str, Gender | None] | None = None  # enclitic -> gender (None: no gender)
    participle_gender: Callable[[str], Gender | None] | None = None  # by form, when the tagger is silent
    adverb_ending: str = ""  # "mente": adverbs skipped before a predicate
    # definite articles of a nominalised adjective after a copula ("perché era la migliore"): the article shows the
    # subject's gender where the adjective shows none
    predicate_articles: dict[str, Gender] = field(default_factory=dict)
    # floating quantifiers agreeing with a plural subject ("Siamo tutte atlete", "Son todos", "ils sont tous")
    quantifiers: dict[str, Gender] = field(default_factory=dict)


def _norm(word: str) -> str:
    return word.replace("’", "'").replace("`", "'").lower()


def _alnum(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


class PronounReader:
    """Reads :class:`PronounTarget` items with one language's tables and the analyser's tagger."""

    def __init__(self, tables: PronounTables, tag_sentences: Callable[[Sequence[PronounTarget]], list[Tagging]]):
        self.t = tables
        self._tag_sentences = tag_sentences

    def read(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        out: list[PronounReading | None] = []
        pending: list[int] = []
        for k, item in enumerate(items):
            try:
                out.append(self._read(item, None))
            except NeedTags:
                out.append(None)
                pending.append(k)
        if pending:
            taggings = self._tag_sentences([items[k] for k in pending])
            for k, tagging in zip(pending, taggings):
                out[k] = self._read(items[k], tagging)
        return [r for r in out if r is not None]

    # --- helpers ------------------------------------------------------------------------------
    def _word(self, item: PronounTarget, i: int) -> str:
        """Normalised token; a Moses-split elision "l ' a" is read as "l'"."""
        w = _norm(item.tokens[i].text)
        if w.isalpha() and len(w) <= 2 and i + 1 < len(item.tokens) and item.tokens[i + 1].text in ("'", "’"):
            return w + "'"
        return w

    def _next(self, item: PronounTarget, i: int) -> int:
        """Index of the next word token after ``i`` (skipping a split apostrophe)."""
        j = i + 1
        while j < len(item.tokens) and not _alnum(item.tokens[j].text) and item.tokens[j].text in ("'", "’"):
            j += 1
        return j

    def _agreeing(self, item: PronounTarget, j: int, tags: Tagging | None, after: str) -> tuple[Gender, str] | None:
        """Gender of the participle/adjective at or after ``j`` (skipping adverbs), if it shows one."""
        toks = item.tokens
        copula = self._word(item, j - 1) if j > 0 else ""
        if after == "be":
            found = self._article_predicate(item, j, tags)
            if found:
                return found
        while j < len(toks) and (self._word(item, j) in self.t.skip or self._adverb(self._word(item, j))):
            j = self._next(item, j)
        if j >= len(toks) or not _alnum(toks[j].text):
            return None
        word = self._word(item, j)
        if after == "be" and word in self.t.be:  # "a été", "è stata": été/stata itself, then onwards
            g = self._form_gender(word)
            if g is not None:
                return g, toks[j].text
            return self._agreeing(item, self._next(item, j), tags, after)
        if tags is None:
            raise NeedTags
        tag = tags(j)
        if (tag.pos in ("noun", "verb") and copula in self.t.no_noun_copulas
                and word.endswith(("o", "a", "os", "as")) and not word.endswith("ndo")):
            # "estaba borracha" mis-tagged: estar takes no noun or finite verb (a gerund "estaba comiendo" aside)
            g = M if word.endswith(("o", "os")) else F
            return g, toks[j].text
        if tag.pos not in ("adj", "part") and not (tag.pos == "other" and self._form_gender(word)):
            return None  # a noun, article, preposition ...; a word the tagger does not know may be a participle
        g = self._form_gender(word) or tag.gender
        return (g, toks[j].text) if g is not None else None

    def _article_predicate(self, item: PronounTarget, j: int, tags: Tagging | None) -> tuple[Gender, str] | None:
        """A definite article + adjective right after a copula ("era la migliore", "era il primo"): the article's
        gender is the subject's."""
        toks = item.tokens
        while j < len(toks) and self._adverb(self._word(item, j)):
            j = self._next(item, j)
        k = self._next(item, j)
        if j >= len(toks) or self._word(item, j) not in self.t.predicate_articles or k >= len(toks):
            return None
        if not _alnum(toks[k].text):
            return None
        if tags is None:
            raise NeedTags
        if tags(k).pos != "adj":
            return None  # a noun ("era la persona"): its own gender, not the subject's
        return self.t.predicate_articles[self._word(item, j)], f"{toks[j].text} {toks[k].text}"

    def _search_after_entity(self, item: PronounTarget, tags: Tagging | None) -> PronounReading | None:
        """The reading of the first pronoun after the entity that renders the unaligned English pronoun: the first
        of the nearest three that shows a gender, else the first that is a pronoun at all ("si è offerto di
        aiutarla": si shows none, -la does)."""
        first = None
        for c in self._unaligned_candidates(item)[:3]:
            found = self._read(replace(item, pronoun=(c,)), tags, searched=True)
            if found.omitted == "no-target-words":
                continue
            found = replace(found, reason=f"pronoun not aligned; '{item.tokens[c].text}' after the entity: "
                                          f"{found.reason}")
            if found.omitted is None:
                return found
            first = first or found
        return first

    def _dropped_subject_predicate(self, item: PronounTarget, tags: Tagging | None) -> tuple[Gender, str] | None:
        """A clause after the entity ("porque estaba cansada") that opens with a copula (no overt subject
        between the conjunction and the copula): its predicate agrees with the dropped subject."""
        start = max(item.entity) + 1 if item.entity else 0
        for i in range(start, len(item.tokens)):
            if self._word(item, i) not in self.t.conjunctions:
                continue
            j = self._next(item, i)
            while j < len(item.tokens) and (self._word(item, j) in self.t.skip or self._adverb(self._word(item, j))):
                j = self._next(item, j)
            if j < len(item.tokens) and self._word(item, j) in self.t.be:
                found = self._agreeing(item, self._next(item, j), tags, "be")
                if found:
                    return found
        return None

    def _unaligned_candidates(self, item: PronounTarget) -> list[int]:
        """Pronouns after the entity that may render an unaligned English pronoun, nearest first.

        Aligners often leave French/Spanish/Italian object clitics unaligned ("et l'a aidée"). A
        WinoMT sentence mentions the entity before its pronoun, so the first person pronoun after the
        entity is taken. Pro-drop subjects are not searched: a dropped subject has no word to find.
        """
        t = self.t
        if item.role == "subject" and t.pro_drop:
            return []
        start = max(item.entity) + 1 if item.entity else 0
        out = []
        for i in range(start, len(item.tokens)):
            word = self._word(item, i)
            if word in _NON_PERSON or not self._pronoun_like(word):
                continue
            if (word in t.possessives) != (item.role == "possessive") and word not in t.neutral:
                continue
            if item.role == "reflexive" and word in t.article_like:
                continue  # "himself" is se/si/soi or lui-même, never another's object clitic lo/la/le
            prev = self._word(item, i - 1) if i > 0 else ""
            if item.role == "subject" and word not in t.subject_forms:
                continue
            if item.role != "subject" and word in t.subject_forms and prev not in t.prepositions:
                continue  # "il", "elle" as subjects of another clause; "pour elle" is an object
            out.append(i)
        return out

    def _pronoun_like(self, word: str) -> bool:
        t = self.t
        return (word in t.gendered or word in t.neutral or word in t.stressed_masculine or word in t.possessives
                or self._enclitic(word) is not None)

    def _clitic_before(self, item: PronounTarget, start: int, role: str) -> int | None:
        """A pronoun just left of aligned verb words, over auxiliaries, negation and other clitics.

        Aligners often link an English object pronoun to the verb or participle only ("l'a appelée",
        "lui a demandé"). The nearest clitic is taken for objects; for subjects a gendered pronoun
        further left wins over reflexive/object clitics in between ("elle s'est").
        """
        t = self.t
        found: list[int] = []
        i, steps = start - 1, 0
        while i >= 0 and steps < 4:
            if not _alnum(item.tokens[i].text):
                if item.tokens[i].text not in ("'", "’"):
                    break
                i -= 1
                continue
            word = self._word(item, i)
            if word in _NON_PERSON:
                pass
            elif self._pronoun_like(word) and (word not in t.possessives or role == "possessive"):
                found.append(i)
                if role != "subject":
                    break
            elif not (word in t.have or word in t.be or word in t.skip or self._adverb(word)):
                break
            i -= 1
            steps += 1
        if not found:
            return None
        if role == "subject":
            gendered = [i for i in found if self._word(item, i) in t.gendered]
            return (gendered or found)[0]
        return found[0]

    def _after_have(self, item: PronounTarget, i: int) -> bool:
        """Whether the word at ``i`` follows a form of avoir/avere/haber, over negation and adverbs."""
        k = i - 1
        while k >= 0 and (self._word(item, k) in self.t.skip or self._adverb(self._word(item, k))) \
                and self._word(item, k) not in self.t.have:
            k -= 1
        return k >= 0 and self._word(item, k) in self.t.have

    def _adverb(self, word: str) -> bool:
        """-ment/-mente adverbs may come between a copula and its predicate ("troppo gravemente mutilati")."""
        return bool(self.t.adverb_ending) and word.endswith(self.t.adverb_ending) and len(word) > 6

    def _form_gender(self, word: str) -> Gender | None:
        return self.t.participle_gender(word) if self.t.participle_gender else None

    def _after_clitic(self, item: PronounTarget, i: int, tags: Tagging | None) -> tuple[Gender, str] | None:
        """Participle agreeing with an object clitic ("l'a trouvée") or reflexive ("s'est blessée")."""
        j = self._next(item, i)
        while j < len(item.tokens) and self._word(item, j) in self.t.skip:
            j = self._next(item, j)
        if j >= len(item.tokens):
            return None
        word = self._word(item, j)
        if word in self.t.have:
            return self._agreeing(item, self._next(item, j), tags, "have")
        if word in self.t.be:
            return self._agreeing(item, self._next(item, j), tags, "be")
        return None

    def _predicate(self, item: PronounTarget, span: list[int], tags: Tagging | None) -> tuple[Gender, str] | None:
        """A word agreeing with the subject: an aligned adjective/participle, or one after a copula."""
        for i in span:
            word = self._word(item, i)
            if word in self.t.quantifiers:
                return self.t.quantifiers[word], item.tokens[i].text
            if word in self.t.be:
                found = self._agreeing(item, self._next(item, i), tags, "be")
                if found:
                    return found
                continue
            if tags is None:
                raise NeedTags
            tag = tags(i)
            if tag.pos in ("adj", "part") and i > 0 and (self._form_gender(word) or tag.gender):
                prev = self._word(item, i - 1)
                if self._after_have(item, i):
                    continue  # "ha trabajado", "a travaillé": a perfect's participle agrees with no subject
                if prev in self.t.be or prev in self.t.skip or i - 1 in span:
                    return (self._form_gender(word) or tag.gender), item.tokens[i].text  # type: ignore[return-value]
        # a clitic aligned, the copula right after it ("si | è dimenticato")
        j = self._next(item, span[-1])
        while j < len(item.tokens) and self._word(item, j) in self.t.skip:
            j = self._next(item, j)
        if j < len(item.tokens) and self._word(item, j) in self.t.be and j - 1 in span:
            return self._agreeing(item, self._next(item, j), tags, "be")
        return None

    def _enclitic(self, word: str) -> tuple[str, list[str]] | None:
        """Split "ayudarla" -> ("ayudar", ["la"]), "dárselo" -> ("dár", ["se", "lo"])."""
        if not self.t.enclitics:
            return None
        clitics: list[str] = []
        stem = word
        changed = True
        while changed and len(clitics) < 2:
            changed = False
            for c in sorted(self.t.enclitics, key=len, reverse=True):
                if stem.endswith(c) and len(stem) > len(c) + 2:
                    clitics.insert(0, c)
                    stem = stem[: -len(c)]
                    changed = True
                    break
            if stem.endswith(self.t.enclitic_hosts) and clitics:
                return stem, clitics
        return None

    # --- the decision ---------------------------------------------------------------------------
    def _read(self, item: PronounTarget, tags: Tagging | None, searched: bool = False) -> PronounReading:
        t = self.t
        span = sorted(i for i in item.pronoun if _alnum(item.tokens[i].text))
        if not searched and not any(self._pronoun_like(self._word(item, i)) for i in span) and (
            not span or self._clitic_before(item, span[0], item.role) is None
        ):
            # nothing aligned, or only words that are no pronoun ("des", "entrer"): search after the entity
            found = self._search_after_entity(item, tags)
            if found is not None:
                return found
        if not span and item.role == "subject" and t.pro_drop and not searched:
            found = self._dropped_subject_predicate(item, tags)
            if found:
                return _dropped_subject_reading(found)
        if not span:
            if item.role == "subject" and t.pro_drop:
                return PronounReading(Gender.UNKNOWN, "no word aligned to the subject pronoun (dropped)",
                                      omitted="pronoun-dropped")
            return PronounReading(Gender.UNKNOWN, "no target word aligned to the pronoun", omitted="no-target-words")
        words = [self._word(item, i) for i in span]
        if not any(self._pronoun_like(w) for w in words):
            clitic = self._clitic_before(item, span[0], item.role)
            if clitic is not None:  # "l'a appelée" / "lui a demandé" aligned to the verb only
                span = [clitic, *span]
                words = [self._word(item, clitic), *words]
        texts = tuple(item.tokens[i].text for i in span)
        neutral: list[str] = []
        possessive: list[str] = []
        articles: set[int] = set()
        for i, word in zip(span, words):
            if word in t.article_like and (word in t.gendered or searched):  # an aligned l' is trusted
                if tags is None:
                    raise NeedTags
                j = self._next(item, i)
                prev = self._word(item, i - 1) if i > 0 else ""
                clitic = prev in t.before_clitic or f"{prev} {word}" in t.before_clitic
                if not clitic and tags(i).pos == "det" and j < len(item.tokens) \
                        and tags(j).pos in ("noun", "adj") \
                        and not _norm(item.tokens[j].text).endswith(("ait", "aient")):
                    articles.add(i)
                    continue  # "la secrétaire": an article aligned to the pronoun
            if word in t.gendered:
                g = t.gendered[word]
                if word in t.object_clitics:  # "les": the participle may show more
                    found = self._after_clitic(item, i, tags)
                    if found:
                        why = f"'{word}' + participle '{found[1]}' agreeing"
                        return PronounReading(found[0], why, (word, found[1]))
                return PronounReading(g, f"{_NAMES[g]} pronoun '{item.tokens[i].text}'", (item.tokens[i].text,))
            if word in t.stressed_masculine:
                prev = self._word(item, i - 1) if i > 0 else ""
                nxt = _norm(item.tokens[i + 1].text) if i + 1 < len(item.tokens) else ""
                stressed = nxt in ("-même", "même") or word.endswith("-même")
                if prev in t.prepositions and not stressed:
                    if tags is None:
                        raise NeedTags
                    j = self._next(item, i)  # "de lui fournir": a clitic before an infinitive
                    stressed = j >= len(item.tokens) or tags(j).pos not in ("verb", "part")
                if stressed:
                    return PronounReading(M, f"stressed '{item.tokens[i].text}' after '{prev}' is masculine",
                                          (item.tokens[i].text,))
                neutral.append(word)
                continue
            split = self._enclitic(word)
            if split:
                genders = [t.enclitics[c] for c in split[1]]  # type: ignore[index]
                if len(genders) == 1 and genders[0] is not None:
                    g = genders[0]
                    why = f"{_NAMES[g]} enclitic '-{split[1][0]}' on '{split[0]}'"
                    return PronounReading(g, why, (item.tokens[i].text,))
                neutral.append(word)
                continue
            if word in t.possessives and (item.role == "possessive" or word not in t.neutral):
                possessive.append(word)  # fr leur / it loro: possessive only for a possessive pronoun
            elif word in t.neutral:
                neutral.append(word)
        if possessive and (item.role == "possessive" or not neutral):
            return PronounReading(Gender.UNKNOWN, f"possessive '{possessive[0]}' agrees with the possessed noun",
                                  tuple(possessive), omitted="possessive-agrees-with-possessed")
        # clitics without gender: a participle agreeing with them
        for i, word in zip(span, words):
            if i in articles:
                continue
            if word in t.object_clitics or word in t.neutral:
                found = self._after_clitic(item, i, tags)
                if found and (word in t.object_clitics or item.role == "reflexive"):
                    return PronounReading(found[0], f"'{word}' + {_NAMES[found[0]]} participle '{found[1]}' agreeing",
                                          (item.tokens[i].text, found[1]))
        if item.role == "subject":  # "si è dimenticato": a reflexive clitic, the participle agrees
            found = self._predicate(item, span, tags)
            if found:
                return PronounReading(found[0], f"{_NAMES[found[0]]} '{found[1]}' agrees with the subject",
                                      (found[1],))
        if neutral:
            return PronounReading(Gender.UNKNOWN, f"'{neutral[0]}' shows no gender", texts, omitted="neutral-form")
        if item.role == "subject" and t.pro_drop:
            # the aligned words show nothing and no predicate agrees with them (the aligner linked the dropped
            # subject to "que", an article, a verb without gender): read it as an unaligned dropped subject,
            # so the verdict does not depend on which word the aligner linked the missing pronoun to
            found = None if searched else self._dropped_subject_predicate(item, tags)
            if found:
                return _dropped_subject_reading(found, f"aligned words '{' '.join(texts)}' show no gender; ")
            return PronounReading(Gender.UNKNOWN, "subject pronoun dropped; no agreeing word",
                                  texts, omitted="pronoun-dropped")
        if articles and not searched and item.entity:
            # only an article was aligned ("le ha fornito la documentazione": her -> "la documentazione"): the
            # pronoun is another word after the entity (without a located entity there is no "after" to search)
            found = self._search_after_entity(item, tags)
            if found is not None:
                return found
        return PronounReading(Gender.UNKNOWN, f"no pronoun among the aligned words '{' '.join(texts)}'",
                              texts, omitted="no-target-words")


def _dropped_subject_reading(found: tuple[Gender, str], prefix: str = "") -> PronounReading:
    """The reading of a dropped subject from the predicate of the clause after the entity."""
    gender, word = found
    return PronounReading(gender, f"{prefix}subject dropped; {_NAMES[gender]} '{word}' after a copula opening a "
                          "clause after the entity agrees", (word,))


def romance_participle_gender(word: str) -> Gender | None:
    """es/it participle forms that show gender by ending (stato/stata, sido has none)."""
    if word.endswith(("ati", "uti", "iti", "ados", "idos", "tos")):
        return M
    if word.endswith(("ate", "ute", "ite", "adas", "idas", "tas")):
        return F
    if word.endswith(("ato", "uto", "ito", "ado", "ido", "sto", "tto", "so")) and not word.endswith("sido"):
        return M
    if word.endswith(("ata", "uta", "ita", "ada", "ida", "sta", "tta", "sa")):
        return F
    return None


def french_participle_gender(word: str) -> Gender | None:
    """French participle/adjective forms: -ée/-ie/-ue/-ise/-ite/-ante feminine, -é/-i/-u/-is/-it/-t masculine."""
    stem = word[:-1] if word.endswith("s") and len(word) > 3 and not word.endswith(("is", "ms")) else word
    if stem.endswith(("ée", "ie", "ue", "ise", "ite", "aite", "erte", "ointe", "ante", "ente", "euse", "ive")):
        return F  # not a bare -e: "triste", "malade" show no gender
    if stem.endswith(("é", "i", "u", "is", "it", "t", "eux", "if")):
        return M
    return None


FR = PronounTables(
    lang="fr",
    gendered={
        **dict.fromkeys(_words("il ils le eux lui-même eux-mêmes celui ceux"), M),
        **dict.fromkeys(_words("elle elles la elle-même elles-mêmes celle celles"), F),
    },
    article_like=_words("le la l' les"),
    stressed_masculine=_words("lui"),
    neutral=_words("l' les leur se s' y en on soi soi-même cela ça ce c' ceci me m' te t' nous vous"),
    possessives=_words("son sa ses leur leurs sien sienne siens siennes"),
    object_clitics=_words("l' les"),
    have=_words("a ai as avons avez ont avait avais avaient avions aura aurait auraient avoir ayant eu eut"),
    be=_words("est es suis sommes êtes sont était étais étaient sera serait seront soit fût fut été être étant "
              "reste restait resta restera resterait devient devenait devint deviendra deviendrait devenu devenue"),
    skip=_words(
        "ne n' pas jamais plus ensuite déjà aussi bien alors toujours vraiment finalement rien "
        "immédiatement rapidement très si trop tellement assez vite enfin y en lui leur"
    ),
    prepositions=_words("de d' à avec pour chez sans par sur entre vers contre selon envers après avant devant"),
    pro_drop=False,
    subject_forms=_words("il ils elle elles"),
    adverb_ending="ment",
    # "de le", "à le" are never articles (du, au); after ne or a subject pronoun le/la is a clitic
    before_clitic=frozenset({"de le", "à le", "de les", "à les", *_words("ne n' il elle ils elles on je nous vous")}),
    participle_gender=french_participle_gender,
    quantifiers={"tous": M, "toutes": F},
)

ES = PronounTables(
    lang="es",
    gendered={
        **dict.fromkeys(_words("él ellos lo los mismo mismos"), M),
        **dict.fromkeys(_words("ella ellas la las misma mismas"), F),
    },
    article_like=_words("lo los la las"),
    stressed_masculine=frozenset(),
    neutral=_words("le les se sí usted ustedes me te nos ello esto eso"),
    possessives=_words("su sus suyo suya suyos suyas"),
    object_clitics=frozenset(),
    # haber: the participle after it never agrees ("ha trabajado" for a woman); also in ``skip`` below
    have=_words("he has ha hemos habéis han había habías habíamos habían habría habrías habríamos habrían habrá "
                "habrán haya hayas hayamos hayan hubiera hubieran hubiese hubiesen hube hubo haber habiendo"),
    be=_words(
        "es era fue sería será sea fuera fuese ser siendo sido son eran fueron serían "
        "está estaba estuvo estaría estará esté estuviera estuviese estar estando estado están estaban "
        "parece parecía pareció parecía quedó quedaba queda sentía siente sintió"
    ),
    skip=_words(
        "no muy tan demasiado bastante más menos siempre ya todavía aún realmente un poco algo se "
        "ha había habría haya hubiera hubiese han habían suficientemente lo"
    ),
    prepositions=_words("de a con para por sin sobre entre hacia contra según"),
    subject_forms=_words("él ella ellos ellas"),
    conjunctions=_words("porque que pero aunque cuando si y pues como mientras"),
    no_noun_copulas=_words("está estaba estuvo estaría estará esté estuviera estuviese estar estando están estaban"),
    pro_drop=True,
    adverb_ending="mente",
    enclitic_hosts=("ar", "er", "ir", "ár", "ér", "ír", "ando", "iendo", "ándo", "iéndo", "yendo", "yéndo"),
    enclitics={"la": F, "las": F, "lo": M, "los": M, "le": None, "les": None, "se": None, "me": None,
               "te": None, "nos": None},
    participle_gender=romance_participle_gender,
    quantifiers={"todos": M, "todas": F, "ambos": M, "ambas": F},
)

IT = PronounTables(
    lang="it",
    gendered={
        **dict.fromkeys(_words("lui egli esso lo li gli stesso essi"), M),
        **dict.fromkeys(_words("lei ella essa la le stessa esse"), F),
    },
    article_like=_words("lo la le gli l'"),
    stressed_masculine=frozenset(),
    neutral=_words("l' si sé se loro glielo gliela glieli gliele gliene ne ci vi mi ti"),
    possessives=_words("suo sua suoi sue proprio propria propri proprie loro"),
    object_clitics=_words("l'"),
    have=_words("ha ho hanno aveva avevano avrebbe avrà abbia avesse avere avendo ebbe"),
    be=_words(
        "è era fu sarà sarebbe sia fosse essere essendo sono erano furono sarebbero "
        "stato stata stati state sembrava sembra sembrò rimase rimasta rimasto diventato diventata"
    ),
    skip=_words(
        "non molto così troppo ben bene sempre già ancora davvero piuttosto tanto più meno poco anche mai "
        "si s' ne gli le lo la l' ci"
    ),
    prepositions=_words("di a da con per su tra fra verso contro senza presso"),
    subject_forms=_words("lui lei egli ella essi esse"),
    conjunctions=_words("perché perchè che ma sebbene benché quando se e poiché mentre come"),
    pro_drop=True,
    adverb_ending="mente",
    enclitic_hosts=("ar", "er", "ir", "ando", "endo"),
    enclitics={"la": F, "le": F, "lo": M, "li": M, "gli": M, "glielo": None, "gliela": None, "glieli": None,
               "gliele": None, "gliene": None, "si": None, "ne": None, "mi": None, "ti": None, "ci": None},
    participle_gender=romance_participle_gender,
    predicate_articles={"il": M, "lo": M, "la": F},
    quantifiers={"tutti": M, "tutte": F, "entrambi": M, "entrambe": F},
)
