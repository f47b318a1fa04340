"""Italian gender analyser: article and noun-form rules, Apertium (apertium-spa-ita) for the rest.

Why rules first: the article decides epicene nouns (il/la docente, lo/la assistente) and the noun's
form decides most others (infermiera, medico), while Apertium's dictionary lacks many feminine
professions (avvocata) and tags epicene nouns ``<mf>``. Where the article is elided (l', all', dell')
or missing, adjectives and participles that agree with the noun decide: attributive ones next to it
and predicative ones after essere (è stata pagata, era stanca), read from Apertium's tags. The rules
and the order in which the cues decide are shared with French and Spanish (``_romance``).

Pipeline: ``lt-proc -z ita-spa.automorf.bin | apertium-tagger -g -z -f -p ita-spa.prob``, run once
per batch over all sentences, separated by NUL characters (``-z``). The Debian package has no
vislcg3 rules step here (``cg-proc`` is optional), so the HMM tagger only orders the readings; all
readings are kept. If the tagger fails, the unordered lt-proc readings are used.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.errors import InputError
from discotest.lang.installed import program
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
from discotest.lang.morph._romance_pronouns import IT, PronounReader, Tag, Tagging
from discotest.lang.morph.base import Gender, GenderAnalyser, GenderReading, PronounReading, PronounTarget, TargetEntity

APERTIUM_DIR = Path("/usr/share/apertium/apertium-spa-ita")
_HINT = "apt-get install -y apertium-spa-ita (it brings lttoolbox and apertium)"
_ESCAPE = set("^$/<>{}[]\\@")


def _table(text: str, gender: Gender | None) -> dict[str, Gender | None]:
    return {norm(w): gender for w in text.split()}


# determiners and articulated prepositions right before the noun (or its prenominal adjectives)
ARTICLES: dict[str, Gender | None] = {
    **_table(
        "il lo i gli un uno del dello dei degli al allo ai agli dal dallo dai dagli nel nello nei negli "
        "sul sullo sui sugli col coi questo quel quello questi quei quegli codesto alcun alcuno nessun "
        "nessuno ciascun ciascuno tale",
        M,
    ),
    **_table(
        "la le una un' della delle alla alle dalla dalle nella nelle sulla sulle colla questa queste "
        "quella quelle codesta alcuna nessuna ciascuna",
        F,
    ),
    **_table("l' dell' all' dall' nell' sull' coll' quest' quell' ogni qualche", None),
}
# adjectives (possessives included) that come before the noun
PRENOMINAL: dict[str, Gender | None] = {
    **_table(
        "mio tuo suo nostro vostro miei tuoi suoi nostri vostri nuovo nuovi buon buono buoni bravo bravi "
        "vecchio vecchi stesso stessi altro altri primo primi ultimo ultimi unico unici proprio propri caro "
        "cari povero poveri bel bello begli piccolo piccoli vero certo",
        M,
    ),
    **_table(
        "mia tua sua nostra vostra mie tue sue nostre vostre nuova nuove buona buone brava brave vecchia "
        "vecchie stessa stesse altra altre prima prime ultima ultime unica uniche propria proprie cara care "
        "povera povere bella belle piccola piccole vera certa",
        F,
    ),
    **_table("loro giovane giovani grande grandi gran", None),
}
# articles that show singular number only (the elided ones show no gender)
SINGULAR_ARTICLES = frozenset(_table("l' dell' all' dall' nell' sull' coll' quest' quell' un uno un' una", None))
INDEFINITES = {"qualcuno": M, "qualcuna": F}  # qualcuno: the generic masculine
COPULAS = frozenset({"essere", "sembrare", "rimanere", "restare", "diventare", "divenire", "stare"})
ADVERBS = frozenset(
    _table(
        "non molto così troppo ben bene sempre già ancora davvero piuttosto tanto più meno poco anche mai si s'", None
    )
)
RELATIVES = frozenset({"che", "cui"})
BARE_PREPOSITIONS = frozenset({"di", "d'", "da", "in", "per", "con"})


def suffix_class(word: str) -> object:
    """Gender class an Italian noun's ending shows, for nouns the lexicon does not know."""
    if word.endswith(("trice", "trici", "essa", "esse")):
        return F
    if word.endswith(("tore", "tori", "sore", "iere", "ieri", "aio", "ario", "ore")):
        return M
    if word.endswith(("zione", "sione", "ione", "tà", "tù")):
        return F  # abstract nouns a misaligned span may point at
    if word.endswith(("ista", "iste", "isti", "nte", "nti", "ta", "cida", "iatra", "ega", "eghi", "e")):
        return COMMON  # l'autista, il/la docente, il/la custode
    if word.endswith("a"):
        return F
    if word.endswith("o"):
        return M
    return None


@dataclass(frozen=True)
class Unit:
    """One Apertium lexical unit: surface, character offsets, readings (tagger's choice first)."""

    surface: str
    start: int
    end: int
    readings: tuple[tuple[str, tuple[str, ...]], ...]  # (lemma, tags); unknown words have none

    def pos(self) -> str:
        return self.readings[0][1][0] if self.readings and self.readings[0][1] else ""

    def has(self, *tags: str) -> bool:
        return bool(self.readings) and all(t in self.readings[0][1] for t in tags)

    def gender(self) -> Gender | None:
        """Gender of the first reading (None for <mf> and unmarked readings)."""
        if not self.readings:
            return None
        tags = self.readings[0][1]
        return M if "m" in tags else F if "f" in tags else None

    def noun_gender(self) -> Gender | None:
        for _lemma, tags in self.readings:
            if tags and tags[0] in ("n", "np"):
                return M if "m" in tags else F if "f" in tags else None
        return None

    def number(self) -> str | None:
        """ "sg" or "pl" when every reading agrees ("sp", unmarked or mixed: None)."""
        found = {tag for _lemma, tags in self.readings for tag in ("sg", "pl") if tag in tags}
        return found.pop() if len(found) == 1 else None

    def singular_noun_genders(self) -> set[Gender | None]:
        return {
            M if "m" in tags else F if "f" in tags else None
            for _lemma, tags in self.readings
            if tags and tags[0] in ("n", "np") and "sg" in tags
        }

    def lemma(self) -> str:
        return self.readings[0][0].lower() if self.readings else ""


def _escape(text: str) -> str:
    return "".join("\\" + c if c in _ESCAPE else c for c in text)


def _split_unescaped(text: str, sep: str) -> list[str]:
    parts, cur, i = [], [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            cur.append(text[i : i + 2])
            i += 2
            continue
        if c == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _readings(analyses: Iterable[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    out = []
    for analysis in analyses:
        if analysis.startswith("*") or "<" not in analysis:
            continue  # unknown word
        first = analysis.split("+")[0]  # "di<pr>+il<det>...": the first part decides the POS
        lemma, _, rest = first.partition("<")
        out.append((_unescape(lemma), tuple(t.strip("<>") for t in ("<" + rest).split("><"))))
        # joined units (dell' = di + il) also carry the article's gender
        for part in analysis.split("+")[1:]:
            if "<" not in part:
                continue
            lemma2, _, rest2 = part.partition("<")
            out.append((_unescape(lemma2), tuple(t.strip("<>") for t in ("<" + rest2).split("><"))))
    return tuple(out)


def parse_stream(stream: str, sentence: str) -> list[Unit]:
    """Lexical units of one sentence's Apertium stream, with offsets into ``sentence``."""
    units: list[Unit] = []
    pos, i = 0, 0
    while i < len(stream):
        c = stream[i]
        if c == "\\" and i + 1 < len(stream):
            pos += 1
            i += 2
            continue
        if c == "^":
            j = i + 1
            while j < len(stream) and stream[j] != "$":
                j += 2 if stream[j] == "\\" else 1
            body = stream[i + 1 : j]
            i = j + 1
            parts = _split_unescaped(body, "/")
            surface = _unescape(parts[0])
            start = sentence.find(surface, pos)
            if start < 0:
                start = pos
            pos = start + len(surface)
            units.append(Unit(surface, start, pos, _readings(parts[1:])))
            continue
        if c == "[":  # superblank: we never send any, but skip one safely
            j = stream.find("]", i)
            i = j + 1 if j >= 0 else len(stream)
            continue
        if not c.isspace() or (pos < len(sentence) and sentence[pos] == c):
            pos += 1
        i += 1
    return units


class ItalianAnalyser(RomanceNounRules, GenderAnalyser):
    """Italian: il/la, un/un', al/alla, lo/la decide; noun forms, then Apertium agreement."""

    lang = "it"
    name = "apertium-it"
    tagger_name = "Apertium"
    articles = ARTICLES
    prenominal = PRENOMINAL
    prenominal_as_written = True  # Apertium's reasons cite the adjective as written
    prenominal_links = frozenset({"molto", "così", "più", "meno", "assai", "tanto", "e", "ed"})
    bare_prepositions = BARE_PREPOSITIONS
    suffix_class = staticmethod(suffix_class)

    def __init__(self, data_dir: Path = APERTIUM_DIR) -> None:
        self._lt_proc = program("lt-proc")
        self._tagger = program("apertium-tagger")
        self._morf = data_dir / "ita-spa.automorf.bin"
        self._prob = data_dir / "ita-spa.prob"
        if self._lt_proc is None or not self._morf.is_file():
            raise InputError(f"the Italian analyser needs Apertium's Italian analyser ({self._morf}): {_HINT}")
        self._classes = lexicon_classes("it")
        self._version = self._package_version()

    @staticmethod
    def _package_version() -> str:
        """Debian versions of the data and tools, e.g. apertium-spa-ita-0.2.1-3+lttoolbox-3.7.1-1+b2."""
        dpkg_query = program("dpkg-query")
        if dpkg_query is None:
            return "apertium-spa-ita-unknown"
        try:
            out = subprocess.run(
                [dpkg_query, "-W", "-f=${Package}-${Version}\\n", "apertium-spa-ita", "lttoolbox", "apertium"],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        return "+".join(out.split()) or "apertium-spa-ita-unknown"

    def version(self) -> str:
        return self._version

    # --- Apertium, once per batch -------------------------------------------------------------
    def analyse(self, sentences: Sequence[str]) -> list[list[Unit]]:
        """Lexical units of every sentence from one lt-proc (+ tagger) run."""
        if not sentences:
            return []
        # "\n" before each NUL: lt-proc -z otherwise holds back a sentence-final full stop
        text = "".join(_escape(s.replace("\0", " ")) + "\n\0" for s in sentences).encode("utf-8")
        morf = subprocess.run([self._lt_proc, "-z", str(self._morf)], input=text, capture_output=True, check=False)
        if morf.returncode != 0:
            raise InputError(f"lt-proc failed: {morf.stderr.decode('utf-8', 'replace').strip()[:300]}")
        streams = morf.stdout.decode("utf-8").split("\0")
        if self._tagger is not None and self._prob.is_file():
            tagged = subprocess.run(
                [self._tagger, "-g", "-z", "-f", "-p", str(self._prob)],
                input=morf.stdout,
                capture_output=True,
                check=False,
            )
            tagged_streams = tagged.stdout.decode("utf-8").split("\0")
            if tagged.returncode == 0 and len(tagged_streams) >= len(sentences):
                streams = tagged_streams
        return [parse_stream(streams[k] if k < len(streams) else "", s) for k, s in enumerate(sentences)]

    # --- rules (RomanceNounRules) -----------------------------------------------------------------
    def _indefinite(self, item: TargetEntity, span: list[int]) -> GenderReading | None:
        for i in span:
            word = norm(item.tokens[i].text)
            if word in INDEFINITES:
                g = INDEFINITES[word]
                how = "grammatically masculine (generic)" if g is M else NAMES[g]
                return GenderReading(g, f"indefinite pronoun '{word}' is {how}", (item.tokens[i].text,),
                                     generic=g is M)
        return None

    # --- Apertium readings, for what the rules left open ---------------------------------------------
    @staticmethod
    def _unit_at(units: list[Unit], char: int) -> int | None:
        for k, u in enumerate(units):
            if u.start <= char < max(u.end, u.start + 1):
                return k
        return None

    def _pick_head(self, item: TargetEntity, span: list[int], units: list[Unit]) -> tuple[int | None, bool]:
        ranked = []
        for i in span:
            k = self._unit_at(units, item.tokens[i].start)
            u = units[k] if k is not None else None
            pos = u.pos() if u else ""
            if pos in ("det", "pr", "cnjcoo", "cnjsub", "cm", "sent", "lpar", "rpar", "lquest", "rel"):
                continue
            if u is not None and u.noun_gender() is not None or pos in ("n", "np"):
                ranked.append((0, i, True))
            elif pos in ("prn", "vbser", "vbhaver", "vaux", "vbmod"):
                continue
            else:
                ranked.append((1, i, pos in ("", "adj")))
        if not ranked:
            return None, False
        _, i, is_noun = min(ranked)
        return i, is_noun

    def _agreement(self, item: TargetEntity, head: int, units: list[Unit]) -> list[Cue]:
        """Adjectives/participles right after the noun, and a predicate after essere with the noun as subject."""
        cues: list[Cue] = []
        k = self._unit_at(units, item.tokens[head].start)
        if k is None:
            return cues
        number = units[k].number()

        def agrees(u: Unit) -> bool:
            return number is None or u.number() in (None, number)

        k += 1
        # attributive: "l'amministratore delegato", "l'autista stanca"; not an adjective that comes
        # before the next noun ("insegna all'assistente nuove tecniche")
        while k < len(units) and (units[k].pos() == "adj" or units[k].has("pp")) and len(cues) < 2:
            nxt = units[k + 1] if k + 1 < len(units) else None
            if not agrees(units[k]) or (nxt is not None and nxt.pos() in ("n", "np")):
                break
            g = units[k].gender()
            if g is not None:
                cues.append(Cue(g, "participle" if units[k].has("pp") else "adjective", units[k].surface))
            k += 1
        # predicative: [che] [non/si/adverbs] essere|sembrare ... [stato/stata] adjective|participle
        if k < len(units) and norm(units[k].surface) in RELATIVES:
            k += 1
        while k < len(units) and norm(units[k].surface) in ADVERBS:
            k += 1
        if k >= len(units) or units[k].lemma() not in COPULAS or units[k].has("pp"):
            return cues
        k += 1
        while k < len(units):
            u = units[k]
            if norm(u.surface) in ADVERBS:
                k += 1
                continue
            if (u.pos() == "adj" or u.has("pp")) and agrees(u):
                g = u.gender()
                if g is not None:
                    cues.append(Cue(g, "participle" if u.has("pp") else "adjective", u.surface))
                if u.lemma() in COPULAS and u.has("pp"):  # "è stata pagata": read both
                    k += 1
                    continue
            break
        return cues

    def _indefinite_cues(self, item: TargetEntity, at: int, units: list[Unit]) -> list[Cue]:
        """The words agreeing with *qualcuno* at token ``at``: its adjectives and its own predicate (*qualcuno
        stanca*, *qualcuno era stanca*); nothing after *che*, which after a verb of saying may open a complement whose
        subject is someone else (*ha detto a qualcuno che sarebbe stata felice*: the one who said)."""
        nxt = at + 1
        while nxt < len(item.tokens) and not any(ch.isalnum() for ch in item.tokens[nxt].text):
            nxt += 1
        if nxt < len(item.tokens) and norm(item.tokens[nxt].text) in RELATIVES:
            return []
        return self._agreement(item, at, units)

    def _number(self, item: TargetEntity, i: int, units: list[Unit]) -> str | None:
        """ "sg" or "pl" by Apertium's readings of token ``i`` (None when they do not agree or it is unknown)."""
        k = self._unit_at(units, item.tokens[i].start)
        return units[k].number() if k is not None else None

    def _unit_adjective(self, item: TargetEntity, i: int, units: list[Unit]) -> tuple[bool, Gender | None]:
        """Is token ``i`` an adjective (or numeral) by Apertium's first reading, and what gender does it show?"""
        k = self._unit_at(units, item.tokens[i].start)
        if k is None:
            return False, None
        u = units[k]
        if u.pos() in ("num", "adj") or u.has("pp"):
            return True, u.gender() if u.pos() != "num" else None
        word = norm(u.surface)
        if not u.readings and word.isalpha() and word not in self._classes:
            # a word the small ita-spa dictionary lacks (graziosa, amabile), between the noun and the walk's start:
            # read as an adjective, its gender by the ending (-a/-o; amabile, -i, -e show none)
            return True, F if word.endswith("a") else M if word.endswith("o") else None
        return False, None

    def _with_units(self, item: TargetEntity, f: Finding, units: list[Unit]) -> GenderReading:
        if f.head is None:
            span = sorted(i for i in item.entity if any(ch.isalnum() for ch in item.tokens[i].text))
            f.head, is_noun = self._pick_head(item, span, units)
            if f.head is None:
                return no_noun(item, span)
            self._fill(item, f, noun=is_noun)
            if f.reading is not None:
                return f.reading
        self._walk_with_tool(
            item, f, lambda i: self._unit_adjective(item, i, units), lambda i: self._number(item, i, units)
        )
        if f.article is not None:
            return decide(f, self.tagger_name)
        seen = {norm(c.word) for c in f.agreement}
        f.agreement.extend(c for c in self._agreement(item, f.head, units) if norm(c.word) not in seen)
        k = self._unit_at(units, item.tokens[f.head].start)
        if k is not None and f.noun_class == COMMON and f.article_word in SINGULAR_ARTICLES:
            # "l'infermiere": masculine singular or feminine plural; the singular article picks the reading
            genders = units[k].singular_noun_genders()
            if len(genders) == 1 and None not in genders:
                f.noun_class, f.noun_source = genders.pop(), f"Apertium's singular reading after '{f.article_word}'"
        if f.noun_class is None and k is not None and (tagged := units[k].noun_gender()) is not None:
            f.tagger = Cue(tagged, "tagger", units[k].surface)
        return decide(f, self.tagger_name)

    def read(self, items: Sequence[TargetEntity]) -> list[GenderReading]:
        findings = [self._rules(item) for item in items]
        sentences = list(dict.fromkeys(it.sentence for it, f in zip(items, findings)
                                       if f.reading is None or f.reading.generic))
        analysed = dict(zip(sentences, self.analyse(sentences)))
        out = []
        for it, f in zip(items, findings):
            if f.reading is None:
                out.append(self._with_units(it, f, analysed[it.sentence]))
            elif f.reading.generic and f.head is not None:  # qualcuno: a feminine word agreeing marks the person
                out.append(indefinite_agreement(f.reading, self._indefinite_cues(it, f.head, analysed[it.sentence])))
            else:
                out.append(f.reading)
        return out

    # --- target-side pronouns ------------------------------------------------------------------
    def read_pronouns(self, items: Sequence[PronounTarget]) -> list[PronounReading]:
        """Word lists first; Apertium tags (one run over the open items' sentences) where they do not decide."""
        return PronounReader(IT, self._pronoun_tags).read(items)

    def _pronoun_tags(self, items: Sequence[PronounTarget]) -> list[Tagging]:
        sentences = list(dict.fromkeys(item.sentence for item in items))
        analysed = dict(zip(sentences, self.analyse(sentences)))
        out: list[Tagging] = []
        for item in items:
            units = analysed[item.sentence]
            tags = []
            for tok in item.tokens:
                k = self._unit_at(units, tok.start)
                tags.append(_apertium_tag(units[k]) if k is not None else Tag("other"))
            out.append(tags.__getitem__)
        return out


_APERTIUM_POS = {"adj": "adj", "n": "noun", "np": "noun", "det": "det", "prn": "pron", "adv": "adv", "pr": "adp",
                 "vblex": "verb", "vbser": "verb", "vbhaver": "verb", "vaux": "verb", "vbmod": "verb"}


def _apertium_tag(unit: Unit) -> Tag:
    """Apertium's first reading as the pronoun reader wants it (a participle is ``<pp>``)."""
    if unit.has("pp"):
        return Tag("part", unit.gender())
    pos = _APERTIUM_POS.get(unit.pos(), "other")
    return Tag(pos, unit.gender() if pos == "adj" else None)
