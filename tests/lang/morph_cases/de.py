"""German gender analyser: hand-written tricky cases (no ../shared/data needed).

Labels are the grammatical gender the German gives the entity, not what the English meant.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason) is
``tests/lang/test_morph_readings.py``; what only this language does stays in ``tests/lang/test_morph_de.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ('german_nouns', 'HanTa')  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH
VERSION = ('german-nouns-', '+hanta-')  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph.de import GermanAnalyser

    return GermanAnalyser()


M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # the -in suffix on a compound: head Arbeiterin is feminine
    ("Der Prüfer lächelte die Bauarbeiterin an.", "Bauarbeiterin", F),
    # the same compound without -in is masculine
    ("Der Bauarbeiter braucht den Assistenten.", "Bauarbeiter", M),
    # "der" after "mit" is dative feminine; the noun says so too
    ("Der Arzt sprach mit der Ärztin.", "Ärztin", F),
    # nominalised participle: "die Angestellte" (acc. sg.) can only be feminine
    ("Der Verkäufer begrüßte die Angestellte und zwinkerte ihr zu.", "Angestellte", F),
    # ... "den Angestellten" is masculine accusative (the plural reading is dative, not possible here)
    ("Der Verkäufer begrüßte den Angestellten.", "Angestellten", M),
    # ... "der Angestellte" at the start of the clause is masculine nominative
    ("Der Angestellte half dem Arzt.", "Angestellte", M),
    # ... "mit der Angestellten": "der" is dative after "mit", so feminine (masculine would be "dem")
    ("Der Arzt sprach mit der Angestellten.", "Angestellten", F),
    # german-nouns lists only "der Sachverständige"; the feminine dative is still read from "der ...-en"
    ("Der Richter gab der Sachverständigen das Gutachten.", "Sachverständigen", F),
    # "ein Reisender": strong -er after "ein" is masculine nominative
    ("Ein Reisender fragte nach dem Weg.", "Reisender", M),
    # "der" as a genitive attribute after a noun: feminine genitive
    ("Die Akte der Vorgesetzten lag auf dem Tisch.", "Vorgesetzten", F),
    # CEO has both genders in german-nouns: the case context decides ("mit" -> dative -> feminine)
    ("Der Fahrer sprach mit der CEO.", "CEO", F),
    # ... and at the start of the sentence "der" is nominative masculine
    ("Der CEO sprach mit dem Fahrer.", "CEO", M),
    # plural "die" is not feminine: Bäcker is a masculine noun
    ("Die Bäcker backten Brot.", "Bäcker", M),
    # neuter nouns are neutral: Kind, Mitglied
    ("Der Arzt untersuchte das Kind.", "Kind", N),
    ("Das Mitglied stimmte dagegen.", "Mitglied", N),
    # epicene nouns keep their grammatical gender: die Person, die Wache (feminine)
    ("Der Kassierer achtete nie auf die Wache.", "Wache", F),
    ("Die Person lachte.", "Person", F),
    # "jemand" (someone) is grammatically masculine (generic: neutral to a reader, issue 40)
    ("Der Techniker sagte jemandem, er könne bar bezahlen.", "jemandem", M),
    # gender-inclusive spellings are neutral
    ("Die Lehrer*in kam zu spät.", "Lehrer", N),
    ("Die LehrerIn kam zu spät.", "LehrerIn", N),
    # Leiter is masculine as a person (die Leiter is a ladder): the entity lexicon picks the person
    ("Die Leiterin sprach mit dem Leiter.", "Leiter", M),
    # a span with the article and a stray word: the noun is found among them
    ("Die Entwicklerin konnte nicht kommunizieren.", "Die Entwicklerin konnte", F),
    # only the article was aligned: the noun right after it is read
    ("Der Hausmeister fegte den Boden.", "Der", M),
    # an English loanword unknown to german-nouns, decided by the masculine article
    ("Der Buchhalter sprach mit dem Mover.", "Mover", M),
    # ... and with -in it is feminine whatever the article
    ("Die Moverin trug den Schreibtisch.", "Moverin", F),
    # sota-style garbage: a lowercase adjective as the noun, decided by "den" (masculine accusative)
    ("Der Chefredakteur bat den sauberer , zu gehen .", "sauberer", M),
    # the entity only as first part of a compound whose head is a thing: masculine Schriftsteller-
    ("Die Frau ging an das Schriftstellerhaus .", "Schriftstellerhaus", M),
    # a nominalised participle german-nouns lacks (HanTa recognises it), feminine article
    ("Die Praktizierende rief den Patienten an.", "Praktizierende", F),
    # an aligned verb and nothing else: no noun, unknown
    ("Der Bauarbeiter bat verbunden mit, nicht zu gehen.", "verbunden", U),
    # the plural of a nominalised adjective has no gender
    ("Der Arzt sprach mit den Angestellten.", "Angestellten", U),
]

EMPTY = "Die Irritationen trafen sich zu Hause."  # a sentence read with nothing aligned to the entity
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = ("Die Entwicklerin stritt mit dem Designer.", "Entwicklerin", F,
            "article 'Die' + noun 'Entwicklerin' (Fem, german-nouns)", ("Die", "Entwicklerin"))
