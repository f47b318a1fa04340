"""German closed classes and the record of a noun lookup, shared by the noun reader (``de``) and the
pronoun reader (``de_pronouns``).

Why a module of their own: both readers need the articles with their case readings, the cases the
prepositions govern and the words that open a clause (an article's case, a pronoun's clause, a dative
"ihr"), and the pronoun reader reads the analyser's noun lookups (a relative pronoun agrees with the
noun before the comma). Kept here, they leave ``de_pronouns`` nothing to import from ``de``, which
imports it to delegate ``read_pronouns``.
"""

from __future__ import annotations

from dataclasses import dataclass

GENUS_NAME = {"m": "Masc", "f": "Fem", "n": "Neut"}

# (gender, case, number); gender "p" = any gender in the plural
Reading = tuple[str, str, str]


def case_readings(spec: str) -> frozenset[Reading]:
    """'m.nom f.dat p.gen' -> readings (p = plural of any gender)."""
    out = set()
    for item in spec.split():
        gender, case = item.split(".")
        out.add((gender, case, "pl" if gender == "p" else "sg"))
    return frozenset(out)


# der-words take these endings; ein-words (ein, kein, possessives) have a bare form instead of -er/-es
DER_ENDINGS = {
    "er": "m.nom f.dat f.gen p.gen", "e": "f.nom f.acc p.nom p.acc", "es": "n.nom n.acc m.gen n.gen",
    "en": "m.acc p.dat", "em": "m.dat n.dat",
}
_EIN_ENDINGS = {
    "": "m.nom n.nom n.acc", "e": "f.nom f.acc p.nom p.acc", "en": "m.acc p.dat", "em": "m.dat n.dat",
    "er": "f.dat f.gen p.gen", "es": "m.gen n.gen",
}
DETERMINERS: dict[str, tuple[frozenset[Reading], str]] = {
    "der": (case_readings("m.nom f.dat f.gen p.gen"), "def"),
    "die": (case_readings("f.nom f.acc p.nom p.acc"), "def"),
    "das": (case_readings("n.nom n.acc"), "def"),
    "den": (case_readings("m.acc p.dat"), "def"),
    "dem": (case_readings("m.dat n.dat"), "def"),
    "des": (case_readings("m.gen n.gen"), "def"),
}
for _stem in ("dies", "jen", "jed", "welch", "manch", "solch", "jeglich"):
    for _end, _spec in DER_ENDINGS.items():
        DETERMINERS[_stem + _end] = (case_readings(_spec), "def")
for _stem in ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer", "eur"):
    for _end, _spec in _EIN_ENDINGS.items():
        if _stem == "eur" and not _end:
            continue
        DETERMINERS.setdefault(_stem + _end, (case_readings(_spec), "ein"))
# the cases a preposition governs
PREP_CASES: dict[str, frozenset[str]] = {
    **{w: frozenset({"dat"}) for w in (
        "mit", "von", "zu", "bei", "aus", "nach", "seit", "gegenüber", "außer", "entgegen", "samt", "nebst",
        "gemäß", "ab", "zusammen")},
    **{w: frozenset({"acc"}) for w in ("für", "durch", "gegen", "ohne", "um", "wider")},
    **{w: frozenset({"acc", "dat"}) for w in (
        "an", "auf", "in", "über", "unter", "vor", "hinter", "neben", "zwischen")},
    **{w: frozenset({"gen"}) for w in (
        "wegen", "trotz", "statt", "anstatt", "aufgrund", "innerhalb", "außerhalb", "anstelle", "seitens")},
    "während": frozenset({"gen"}),
    "dank": frozenset({"gen", "dat"}),
}
# words that open a clause: a "der" right after them starts the subject (nominative)
CLAUSE_OPENERS = frozenset({
    "und", "oder", "aber", "weil", "da", "dass", "daß", "ob", "als", "wenn", "nachdem", "obwohl", "bevor",
    "damit", "denn", "sondern", "sobald", "wie", "wo", "doch", "sodass", "so", "dann", "also", "jedoch",
    "deshalb", "darum", "bis", "seit", "falls", "sowie", "sowohl", "noch",
})
# heads of person nouns whose gender is fixed whatever the person's sex (epicene nouns of fixed grammatical gender,
# as a word or a compound's head: die Reinigungskraft, die Aufsichtsperson, die Haushaltshilfe, die Geisel, der Gast):
# their gender is only grammatical (``GenderReading.generic``); nominalised adjectives (der/die Angestellte) and
# nouns of two genders (der/die CEO) are not among them: their article marks the person
EPICENE_HEADS = (
    "kraft", "kräfte", "kräften", "person", "personen", "hilfe", "hilfen", "wache", "wachen", "geisel", "geiseln",
    "waise", "waisen", "gast", "gaste", "gastes", "gasts", "gäste", "gästen", "mitglied", "mitglieder", "mitgliedern",
    "mitglieds", "mitgliedes",
)
# adverbs that may stand between an article and its noun ("der sehr erfahrene Arzt")
SKIPPABLE = frozenset({"sehr", "so", "ganz", "besonders", "äußerst", "ziemlich", "recht"})


@dataclass(frozen=True)
class NounInfo:
    """What the lexicons say about one word form."""

    genders: frozenset[str]  # subset of {"m", "f", "n"}; empty when unknown
    # (genus, case, number, declension or "") for every paradigm cell the form fills
    cells: frozenset[tuple[str, str, str, str]]
    source: str  # e.g. "german-nouns", "german-nouns head 'arbeiterin'", "discotest lexicon"
    adjectival: bool = False  # declined like an adjective (der/die Angestellte)
    person: str = ""  # "m" / "f" / "c" when the word is a known rendering of a WinoMT entity
    modifier: str = ""  # person noun found only as the first part of a compound (Schriftsteller|haus)
