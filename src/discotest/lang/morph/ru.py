"""Russian gender analyser: natasha (slovnet morphology and syntax over the whole sentence) + pymorphy3.

natasha tags every token in context (case, number, the gender of verbs and adjectives) and its
dependency parse says which verb the entity is the subject of, so «Врач сказала» and «судья,
которая ушла» are read from the words that agree with the noun. The noun's own gender is lexical
(the entity lexicon, then pymorphy3's dictionary): natasha's contextual tag would copy the
agreement (it tags «бухгалтер» Fem in «главная бухгалтер»), which is what we want to see separately.

The tokens given by discotest are fed to natasha as they are (no Segmenter), so readings map back one to one. Models
load once; the tagger runs once per batch, only on the sentences whose reading can depend on its tags
(``_context_free``: no aligned words, a feminine entity-lexicon noun, or a masculine one with no word that could agree
with it in the feminine need none: ``_may_agree_feminine``), the parser only on sentences where agreement can change
the answer (a masculine noun: only where a word tagged feminine could agree with it). A personal pronoun form (она,
её, ей) is never an agreeing word, only the feminine can turn a masculine noun's verdict, an attributive word agrees
only in a case the noun can take, and a verb after «что она» agrees with «она»; so google's Russian output has natasha
tag 524 of its 3,886 sentences and parse 444 (1,302 and 1,144 when any feminine-capable word anywhere in the sentence
sent it; 2,525 and 1,854 when a neuter word or «она» did too), with every verdict of the four published outputs the
same (bench/validity/ru_context_free.py); a masculine verdict then
lists its masculine agreeing words only where the sentence was parsed. Both run their numpy matrix products on one
BLAS thread (in each of two Python threads, ``ru_natasha.py``): the aligner's processes run beside them, and OpenBLAS
threads spinning for busy cores made tagging google's 3,886 sentences take 7.9-16.5 s instead of 2.2-2.6 s on a loaded
2-core machine; the tags are the same (bench/release/verdict_identity.py). ``ru_natasha.py`` runs natasha's models
without the parts of natasha's own wrappers the analyser does not read (the embedding's vocabulary, markup records).

Pronouns (target-side consistency) are read from word forms with pymorphy3 alone, see
``_slavic.read_pronoun``: natasha is not needed for «он/она», «его/её» or «сказала».
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from discotest.lang.morph._slavic import (
    _RELATIVES,
    FEM,
    MASC,
    NEUT,
    PERSONAL,
    PLURAL,
    Head,
    Pymorphy,
    PymorphyAnalyser,
    Reading,
    Vote,
    decide,
    find_head,
    is_indefinite_pronoun,
    lexicon_classes,
    window_votes,
)
from discotest.lang.morph.base import Gender, GenderReading, TargetEntity, Token, package_version

if TYPE_CHECKING:
    from discotest.lang.morph.ru_natasha import Natasha

_GENDERS = {"Masc": MASC, "Fem": FEM, "Neut": NEUT}
_CASES = {"Nom": "nom", "Gen": "gen", "Par": "gen", "Dat": "dat", "Acc": "acc", "Ins": "ins", "Loc": "loc",
          "Voc": "voc"}
_PRED_CHILDREN = ("cop", "aux", "aux:pass")
_PYMORPHY_GENDERS = {"masc": MASC, "femn": FEM, "neut": NEUT}
_PYMORPHY_CASES = {"nomn": "nom", "gent": "gen", "gen2": "gen", "datv": "dat", "accs": "acc", "acc2": "acc",
                   "ablt": "ins", "loct": "loc", "loc2": "loc", "voct": "voc"}
_ROLE_KIND = {"verb": "predicate", "predicate": "predicate", "adjective": "modifier", "participle": "modifier",
              "relative pronoun": "relative"}
# words whose lemma the rules look at: который, быть, стать, являться, possessives его/её/их/свой
_LEMMA_PREFIXES = ("котор", "был", "буд", "быв", "бы", "ста", "явл", "ест", "его", "ее", "её", "их", "сво")
# the (kinds, with case) asked of _form_gender by _reading: every way a tag can make a word show a gender
_FORM_KINDS = ((("PRTF",), True), (("VERB", "PRTS", "ADJS"), False), (("ADJS", "PRTS"), False),
               (("ADJF", "PRTF", "NPRO", "NUMR"), True))
_LETTER = re.compile(r"[^\W\d_]")
# personal pronoun forms (он, она, её, ей …): never an agreeing word (``_read_tagged``)
_PERSONAL_FORMS = frozenset(form for forms in PERSONAL["ru"].values() for form in forms)
# nominative personal pronouns: a past verb after one agrees with it (``_may_agree_feminine``)
_SUBJECT_PRONOUNS = frozenset({"он", "она", "оно", "они"})
# words that open a clause of their own (``_clause``): a subordinating conjunction, or «поэтому» after a comma
_CLAUSE_OPENERS = frozenset({"что", "чтобы", "чтоб", "поскольку", "если", "когда", "хотя", "пока", "ибо", "будто",
                             "словно", "поэтому"})
_NOT_CASES = frozenset({"predicate", "relative", "unread"})  # the ways of ``_feminine_ways`` that are not cases
# the kinds ``_feminine_ways`` asks ``_form_gender`` about: attributive forms (in each case), predicates (without case)
_ATTRIBUTIVE_KINDS = (("ADJF", "PRTF", "NPRO", "NUMR"), ("PRTF",))
_PREDICATE_KINDS = (("VERB", "PRTS", "ADJS"), ("ADJS", "PRTS"))
_ALL_CASES = ("none", *dict.fromkeys(_CASES.values()))  # "none": ``_form_gender`` asked without a case


def _feminine_cases(forms: Sequence[tuple[str, str | None, set[str]]], kinds: tuple[str, ...],
                    cases: Sequence[str] = _ALL_CASES) -> set[str]:
    """The ``cases`` ("none": no case) for which ``RussianAnalyser._form_gender(word, kinds, case)`` is feminine, from
    the word's singular forms (``_singular_forms``) in one pass: a form of one of ``kinds`` counts for every case if it
    has none, else for no case ("none") and its own; the answer is feminine where the genders counted are exactly
    {feminine}."""
    every: set[str] = set()  # genders of forms that count for every case
    anyone: set[str] = set()  # genders of every form of ``kinds`` (the question without a case)
    by_case: dict[str, set[str]] = {}
    for pos, form_case, genders in forms:
        if pos not in kinds:
            continue
        anyone |= genders
        if not form_case:
            every |= genders
        elif (case := _PYMORPHY_CASES.get(form_case)) is not None:
            by_case.setdefault(case, set()).update(genders)
    fem = {FEM}
    return {case for case in cases if (anyone if case == "none" else every | by_case.get(case, set())) == fem}


def _clause(tokens: Sequence[Token], head: int) -> range:
    """The tokens of the clause of token ``head``: those with no clause opener (``_CLAUSE_OPENERS``) from them to the
    token before the head, or from the head to the token before them (an opener counts from the token after it;
    commas are not a border: a participle or relative clause between commas belongs to the noun)."""
    start = head
    while start > 0 and tokens[start - 1].text.lower() not in _CLAUSE_OPENERS:
        start -= 1
    end = head + 1
    while end < len(tokens) and tokens[end - 1].text.lower() not in _CLAUSE_OPENERS:
        end += 1
    return range(start, end)


class RussianAnalyser(PymorphyAnalyser):
    """Reads the gender a Russian translation gives the entity (see the module docstring)."""

    lang = "ru"
    name = "natasha+pymorphy3"
    # ru-rules-1: a masculine lexicon noun with no word in its clause that could agree with it in the feminine is read
    # without natasha's parse (``_may_agree_feminine``): every verdict of the 4 published outputs as before
    # (bench/validity/ru_context_free.py), but the clause bound is checked on those outputs, not proven for every
    # text, so a user's own file may read otherwise: named in the signature
    rules = "ru-rules-1"

    def __init__(self) -> None:
        self._natasha: Natasha | None = None  # loaded by ``prepare`` or the first sentence that needs it
        self.morph = Pymorphy("ru")
        self._tagged: dict[tuple[str, int], tuple[Reading, ...]] = {}  # (word in lower case, tag id) -> its reading
        self._lemmas: dict[str, str] = {}
        self._nouns: dict[tuple[str, str | None, bool], Reading] = {}
        self._form_genders: dict[tuple[str, tuple[str, ...], str | None], str | None] = {}
        self._forms: dict[str, list[tuple[str, str | None, set[str]]]] = {}
        # the batch's sentences (``_batch``): the tags and parses read asked for, kept for every read of that batch
        # (the entities', then with --verdict reader the distractors' of the same translations)
        self._prepared: dict[tuple[str, ...], list[tuple[Reading, ...]]] = {}
        self._prepared_arcs: dict[tuple[str, ...], list[tuple[int, str]]] = {}
        self._batch_keys: set[tuple[str, ...]] = set()
        self._marks: dict[str, frozenset[str]] = {}

    @property
    def natasha(self) -> Natasha:
        """natasha's tagger and parser (with navec, slovnet and numpy: 0.15 s of CPU), loaded where a sentence needs
        them: not with this module (a warm run needs only the class's name and static_version, lang/morph/cached.py),
        nor with the analyser (pronoun readings, and items the words alone settle, need only pymorphy3)."""
        if self._natasha is None:
            from discotest.lang.morph.ru_natasha import Natasha

            self._natasha = Natasha()
        return self._natasha

    @classmethod
    def static_version(cls) -> str:
        parts = ("natasha", "slovnet", "navec", "pymorphy3", "pymorphy3-dicts-ru")
        return "+".join(f"{p}-{package_version(p)}" for p in parts)

    # -- natasha → readings ------------------------------------------------------------------

    def _lemma(self, word: str) -> str:
        """Lemma where agreement rules need one (который, быть/стать, possessives); else the word itself."""
        low = word.lower()
        if not low.startswith(_LEMMA_PREFIXES):
            return low
        if low not in self._lemmas:
            parses = self.morph.parses(low)
            self._lemmas[low] = parses[0].normal_form if parses else low
        return self._lemmas[low]

    def _form_gender(self, word: str, kinds: tuple[str, ...], case: str | None) -> str | None:
        """The gender the word form itself shows (pymorphy), not natasha's contextual guess.

        natasha copies the subject's gender onto the verb («Уборщик выговорила» comes out Masc), so the
        gender of agreeing words is read from their endings; several possible genders → None.
        """
        low = word.lower()
        key = (low, kinds, case)
        if key not in self._form_genders:
            genders = set()
            for pos, form_case, form_genders in self._singular_forms(low):
                if pos not in kinds:
                    continue
                if case and form_case and _PYMORPHY_CASES.get(form_case) != case:
                    continue
                genders |= form_genders
            self._form_genders[key] = genders.pop() if len(genders) == 1 else None
        return self._form_genders[key]

    def _singular_forms(self, low: str) -> list[tuple[str, str | None, set[str]]]:
        """(part of speech, case, genders) of each of the word's pymorphy parses that is not plural: what
        ``_form_gender`` and ``_feminine_ways`` read, taken from pymorphy's tags once per word (``Pymorphy.tags``:
        which tags, not their order)."""
        if low not in self._forms:
            self._forms[low] = [(tag.POS, tag.case, {_PYMORPHY_GENDERS[g] for g in _PYMORPHY_GENDERS if g in tag})
                                for tag in self.morph.tags(low) if "plur" not in tag]
        return self._forms[low]

    def _reading(self, text: str, pos: str, feats: dict[str, str]) -> Reading:
        plural = feats.get("Number") == "Plur"
        case = _CASES.get(feats.get("Case", ""))
        form = feats.get("VerbForm")
        short = feats.get("Variant") == "Short"
        lemma = self._lemma(text)
        if pos in ("VERB", "AUX"):
            if form == "Part" and not short:  # full participle: agrees like an adjective
                gender = None if plural else self._form_gender(text, ("PRTF",), case)
                return Reading("ADJ", lemma, gender, plural, case, participle=True)
            past = form == "Fin" and feats.get("Tense") == "Past"
            gender = None
            if (past or short) and not plural:
                gender = self._form_gender(text, ("VERB", "PRTS", "ADJS"), None)
            return Reading(pos, lemma, gender, plural, None, past or short, form == "Fin")
        if pos == "ADJ" and short:
            gender = None if plural else self._form_gender(text, ("ADJS", "PRTS"), None)
            return Reading("ADJ", lemma, gender, plural, None, marks_subject=True)
        if pos in ("ADJ", "DET", "PRON", "NUM"):
            gender = None if plural else self._form_gender(text, ("ADJF", "PRTF", "NPRO", "NUMR"), case)
            return Reading(pos, lemma, gender, plural, case)
        return Reading(pos, lemma, _GENDERS.get(feats.get("Gender", "")), plural, case)

    def _noun_reading(self, word: str, tagged: Reading) -> Reading:
        """A noun's number and case from the dictionary, with natasha's tag only to choose among them.

        natasha mistags nouns it has rarely seen («плотнику» as a plural adjective, «эконома» plural);
        the dictionary knows which forms a noun can be. Entity-lexicon forms are all singular.
        """
        key = (word.lower(), tagged.case, tagged.plural)
        if key in self._nouns:
            return self._nouns[key]
        nouns = [p for p in self.morph.parses(word) if p.tag.POS == "NOUN"]
        if not nouns:
            return tagged
        in_lexicon = word.lower() in lexicon_classes(self.lang)
        options = {(_PYMORPHY_CASES.get(p.tag.case), "plur" in p.tag and not in_lexicon) for p in nouns}
        if (tagged.case, tagged.plural) in options:
            case, plural = tagged.case, tagged.plural
        else:
            plural = all(pl for _, pl in options)
            cases = {c for c, pl in options if pl == plural}
            case = "nom" if "nom" in cases else (cases.pop() if len(cases) == 1 else None)
        gender, _ = self.morph.noun_gender(word)
        reading = Reading("NOUN", tagged.lemma, gender if gender in (MASC, FEM, NEUT) else None, plural, case)
        self._nouns[key] = reading
        return reading

    def _adjectival(self, word: str) -> bool:
        return any(tag.POS in ("ADJF", "PRTF", "NPRO", "NUMR") for tag in self.morph.tags(word))

    # -- agreement from the dependency parse -------------------------------------------------

    @staticmethod
    def _syntax_votes(item: TargetEntity, readings: Sequence[Sequence[Reading]], arcs: Sequence[tuple[int, str]],
                      head: int) -> list[Vote]:
        """Words the parse attaches to the noun (amod, det, acl, relative clause) and its predicate."""
        children: dict[int, list[int]] = defaultdict(list)
        for i, (gov, _) in enumerate(arcs):
            children[gov].append(i)

        def one(i: int) -> Reading | None:
            return readings[i][0] if readings[i] else None

        votes = []
        head_case = {r.case for r in readings[head] if r.case}
        for c in children[head]:
            rel = arcs[c][1]
            r = one(c)
            if r is None or not r.gender or r.plural:
                continue
            if rel in ("amod", "det", "acl") and r.pos in ("ADJ", "DET") and not r.marks_subject \
                    and r.lemma not in ("его", "её", "ее", "их") and (not head_case or r.case in head_case):
                votes.append(Vote(c, r.gender, "adjective" if rel != "acl" else "participle"))
        # «врач, которая …» — unless the clause belongs to the noun ours depends on (петицию фермера, которая)
        owner = one(arcs[head][0]) if arcs[head][1] == "nmod" and arcs[head][0] >= 0 else None
        for c in children[head]:
            if arcs[c][1] != "acl:relcl":
                continue
            for g in children[c]:
                r = one(g)
                if r is not None and r.lemma == "который" and r.gender and not r.plural \
                        and not (owner is not None and owner.pos == "NOUN" and owner.gender == r.gender):
                    votes.append(Vote(g, r.gender, "relative pronoun"))
        if arcs[head][1].startswith("nsubj") and arcs[head][0] >= 0:
            gov = arcs[head][0]
            if any(arcs[c][1].startswith("nsubj") for c in children[gov] if c != head):
                return votes  # two subjects for one predicate (врач … она была): the parse cannot tell whose
            preds = [gov] + [c for c in children[gov] if arcs[c][1] in _PRED_CHILDREN]
            # conjoined predicates are left out: «водитель хромает и осмотрела его» is the nurse's verb
            direct = [Vote(p, PLURAL if r.plural else r.gender, "verb" if r.pos in ("VERB", "AUX") else "predicate")
                      for p in preds if (r := one(p)) is not None and r.marks_subject and (r.gender or r.plural)]
            votes += direct
        return votes

    # -- batch --------------------------------------------------------------------------------

    def prepare(self, sentences: Sequence[Sequence[Token]]) -> None:
        """A new batch: the last batch's tags and parses are forgotten. Tagging waits for ``read``, which knows where
        the entity is and tags only the sentences whose reading can depend on context (``_context_free``); natasha
        loads now (``prepare`` runs while the aligner does), as a batch of real translations nearly always has some."""
        self._batch(())
        if sentences:
            self.natasha  # noqa: B018 (the property loads it)

    def _batch(self, keys: Sequence[tuple[str, ...]]) -> None:
        """Keep the tags and parses while reads are over the same sentences (the entities', then with --verdict
        reader the distractors' of the same translations); forget them when other sentences come."""
        wanted = set(keys)
        if not wanted <= self._batch_keys:
            self._batch_keys, self._prepared, self._prepared_arcs = wanted, {}, {}

    # -- readings that need no tagger -------------------------------------------------------------

    def _context_free(self, item: TargetEntity, key: tuple[str, ...]) -> GenderReading | None:
        """The reading ``read`` gives this item without natasha's tags and parse, where the words alone settle its
        verdict; else None (tag it). Most of google's rows are one of:

        - no target words aligned to the entity;
        - the span's only entity-lexicon form is a dictionary noun (so it is the head wherever it stands in the span,
          whatever the tags, and singular: ``pick_head``, ``_noun_reading``), and it is feminine (a feminine noun
          decides alone), or masculine with no word that could agree with it in the feminine (``_may_agree_feminine``:
          only the feminine can turn a masculine noun's verdict): the noun's masculine stands, and no agreeing word is
          listed unless the sentence was parsed for another read of the batch (then it is read as before).
        """
        if not item.entity:
            return GenderReading(Gender.UNKNOWN, "no target words aligned to the entity")
        span = sorted(item.entity)
        lexicon = lexicon_classes(self.lang)
        forms = [i for i in span if item.tokens[i].text.lower() in lexicon]
        if len(forms) != 1 or any(is_indefinite_pronoun(item.tokens[i].text) for i in span):
            return None
        head = forms[0]
        word = item.tokens[head].text
        if not any(tag.POS == "NOUN" for tag in self.morph.tags(word)):
            return None
        cls = lexicon[word.lower()]
        if cls == FEM:
            return GenderReading(Gender.FEMALE, f"feminine noun '{word}' (lexicon)", (word,))
        if cls == MASC and key not in self._prepared_arcs and not self._may_agree_feminine(item.tokens, head):
            return GenderReading(Gender.MALE, f"masculine noun '{word}' (lexicon), no feminine agreement", (word,))
        return None

    def _may_agree_feminine(self, tokens: Sequence[Token], head: int) -> bool:
        """Can natasha's tags and parse find a word agreeing with the masculine lexicon noun at ``head`` in the
        feminine (a ``Vote``)? Only a word that can show the feminine (``_feminine_ways``) and can stand where such a
        vote comes from:

        - an attributive form (adjective, participle, determiner) only in a case the noun can take: a vote needs the
          case of the noun's reading (``_syntax_votes``, ``window_votes``), which ``_noun_reading`` takes from the
          dictionary's cases of the noun (``_noun_cases``); so «налоговую» (accusative) never agrees with «механик»;
        - a predicate (past verb, short form) not claimed by a subject of its own: «потому что она сказала» agrees
          with «она», not with the noun before it (a nominative personal pronoun between the noun and the verb);
        - the relative pronoun (котор-) after the noun.

        And every such word only in the noun's own clause (``_clause``: a subordinating word such as что, чтобы,
        когда opens another one): natasha's parse makes the noun the subject of a verb, or attaches a modifier or a
        relative clause to it, within its clause. That last condition is the parse's, not the words': on the four
        published Russian outputs (entities and distractors, noun, reader and grammatical verdicts) every verdict is
        the one natasha's full reading gives (bench/validity/ru_context_free.py)."""
        cases = self._noun_cases(tokens[head].text)
        subject = False  # a nominative personal pronoun between the noun and the word (after the noun)
        for i in _clause(tokens, head):
            if i == head:
                continue
            ways = self._feminine_ways(tokens[i].text)
            if ways:
                if "unread" in ways or "relative" in ways and i > head:
                    return True
                if "predicate" in ways and (i < head or not subject):
                    return True
                if cases is None and any(w for w in ways if w not in _NOT_CASES) or cases and (ways & cases):
                    return True
            subject = subject or i > head and tokens[i].text.lower() in _SUBJECT_PRONOUNS
        return False

    def _noun_cases(self, word: str) -> frozenset[str] | None:
        """The cases the reading of a lexicon noun form can have (``_noun_reading``: natasha's case where the
        dictionary has it, else the nominative, or the one case, or none), None where no case is sure (then a
        modifier in any case agrees)."""
        cases = {_PYMORPHY_CASES.get(tag.case) for tag in self.morph.tags(word) if tag.POS == "NOUN"}
        if None in cases or ("nom" not in cases and len(cases) > 1):
            return None
        return frozenset(c for c in cases if c)

    def _feminine_ways(self, word: str) -> frozenset[str]:
        """How ``word`` can show the feminine under some tag (``_reading``, ``_form_gender``): the cases of its
        feminine attributive forms ("none" for a tag without case), "predicate" (a feminine past verb or short form),
        "relative" (a feminine form of котор-), "unread" (letters the dictionary does not know and cannot read as a
        noun: natasha's own reading would be taken); empty for a personal pronoun form (never a vote, ``_read_tagged``)
        and for a word that shows no feminine under any tag. Each answer is ``_form_gender``'s for one (kinds, case),
        taken in one pass over the word's forms (``_feminine_cases``): asking ``_form_gender`` the 18 questions one by
        one was a sixth of a cold Russian run's morphology."""
        low = word.lower()
        if low not in self._marks:
            ways: set[str] = set()
            if low not in _PERSONAL_FORMS:
                forms = self._singular_forms(low)
                if any(FEM in genders for _, _, genders in forms):  # else no question can answer feminine
                    for kinds in _ATTRIBUTIVE_KINDS:
                        ways |= _feminine_cases(forms, kinds)
                    if any(_feminine_cases(forms, kinds, ("none",)) for kinds in _PREDICATE_KINDS):
                        ways.add("predicate")
                if ways - {"predicate"} and (low.startswith("котор") or low in _RELATIVES):
                    ways.add("relative")
                if _LETTER.search(low) and not self.morph.known(low) \
                        and not any(tag.POS == "NOUN" for tag in self.morph.tags(low)):
                    ways.add("unread")
            self._marks[low] = frozenset(ways)
        return self._marks[low]

    def _tag(self, keys: Sequence[tuple[str, ...]]) -> dict[tuple[str, ...], list[tuple[Reading, ...]]]:
        """Readings of every token of each distinct non-empty sentence, from one natasha batch. A reading depends on
        the word in lower case and its tag only (``_reading``, ``_noun_reading``), so it is made once for each."""
        unique = [k for k in dict.fromkeys(keys) if k]
        lexicon = lexicon_classes(self.lang)
        readings = {}
        for key, tags in zip(unique, self.natasha.tag_ids(unique)):
            rs = []
            for text, tag in zip(key, tags):
                low = text.lower()
                if (low, tag) not in self._tagged:
                    r = self._reading(text, *self.natasha.tag(tag))
                    if r.pos in ("NOUN", "PROPN") or low in lexicon:
                        r = self._noun_reading(text, r)
                    self._tagged[low, tag] = (r,)
                rs.append(self._tagged[low, tag])
            readings[key] = rs
        return readings

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        keys = [tuple(t.text for t in item.tokens) for item in items]
        self._batch(keys)
        out = [self._context_free(item, key) for item, key in zip(items, keys)]
        asked = [k for k, reading in enumerate(out) if reading is None]
        self._read_tagged(items, keys, asked, out)
        # a masculine noun read without the tagger is read again where its sentence was parsed for another item (two
        # rows with the same translation): the parse's agreeing words then count, as they always did
        first = set(asked)
        again = [k for k, key in enumerate(keys) if k not in first and key in self._prepared_arcs
                 and out[k].gender is Gender.MALE]  # type: ignore[union-attr]
        self._read_tagged(items, keys, again, out)
        return out  # type: ignore[return-value]  # every None was read

    def _read_tagged(self, all_items: Sequence[TargetEntity], all_keys: Sequence[tuple[str, ...]],
                     asked: Sequence[int], out: list[GenderReading | None]) -> None:
        """Read the items at ``asked`` with natasha's tags (and its parse where agreement can change the answer)
        into ``out``; sentences already tagged or parsed in this batch are not done again."""
        if not asked:
            return
        items = [all_items[k] for k in asked]
        keys = [all_keys[k] for k in asked]
        self._prepared.update(self._tag([k for k in keys if k not in self._prepared]))
        readings: dict[tuple[str, ...], list[tuple[Reading, ...]]] = {(): []}
        readings.update((k, self._prepared[k]) for k in dict.fromkeys(keys) if k)
        arcs = self._prepared_arcs

        heads = [find_head(item, readings[key], self.lang, self.morph.noun_gender, self.tool,
                           self.morph.animate)
                 for item, key in zip(items, keys)]

        def marked(key: tuple[str, ...]) -> bool:  # can a word agree with a masculine noun in the feminine?
            return any(r.gender == FEM for word, rs in zip(key, readings[key]) if word.lower() not in _PERSONAL_FORMS
                       for r in rs if r.pos != "NOUN")

        wanted = [key for key, head in zip(keys, heads) if isinstance(head, Head) and head.needs_agreement
                  and (head.cls != MASC or not head.known or marked(key))]
        to_parse = [key for key in dict.fromkeys(wanted) if key not in arcs]
        arcs.update(zip(to_parse, self.natasha.arcs(to_parse)))

        for k, item, key, head in zip(asked, items, keys, heads):
            if not isinstance(head, Head):
                out[k] = head
                continue
            votes: list[Vote] = []
            if key in arcs:
                # a personal pronoun form never agrees with the noun: «её врач» is her doctor, «она» stands for a
                # person of its own (coreference, not agreement)
                votes = [v for v in self._syntax_votes(item, readings[key], arcs[key], head.index)
                         if key[v.index].lower() not in _PERSONAL_FORMS]
                # the positional reading fills in only what the parse did not find (it is wrong more often);
                # when the parse makes the noun a subject, its verdict on the predicate stands, even if silent
                found = {_ROLE_KIND[v.role] for v in votes}
                if arcs[key][head.index][1].startswith("nsubj"):
                    found.add("predicate")
                votes += [v for v in window_votes(item, readings[key], head.index)
                          if _ROLE_KIND[v.role] not in found and key[v.index].lower() not in _PERSONAL_FORMS]
                # natasha sometimes tags a noun ADJ (бренность): a modifier must have an adjectival dictionary reading
                votes = [v for v in votes
                         if _ROLE_KIND[v.role] != "modifier" or self._adjectival(item.tokens[v.index].text)]
            out[k] = decide(item, head, votes, self.tool)
