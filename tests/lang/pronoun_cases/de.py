"""German pronoun reading (target-side consistency): hand-written tricky cases, no ../shared/data needed.

Labels are the gender the German gives the pronoun, never the English pronoun's gender; the English
pronoun's number only decides forms German leaves ambiguous (accusative sie, possessive ihr-).

The harness (each case read alone, and all in one batch in order) is ``tests/lang/test_pronoun_readings.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender, PronounTarget
from tests.support.morph_cases import pronoun_marked

REQUIRES = ("german_nouns", "HanTa")  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH


def analyser():
    from discotest.lang.morph.de import GermanAnalyser

    return GermanAnalyser()


def target(sentence: str, pronoun: str, entity: str, source: str, role: str) -> PronounTarget:
    return pronoun_marked(sentence, pronoun, "de", source, role, entity)


MALE, FEMALE = (Gender.MALE, None), (Gender.FEMALE, None)
NEUTRAL_FORM = (Gender.UNKNOWN, "neutral-form")
NO_WORDS = (Gender.UNKNOWN, "no-target-words")

CASES = [
    # Google wrote "er" for "she": the translation's gender is masculine, whatever the English said
    (target("Die Entwicklerin stritt mit dem Designer , weil er das Design nicht mochte .", "er",
            "Entwicklerin", "she", "subject"), MALE),
    # "sie" + plural finite verb: "they" kept plural, German shows no gender
    (target("Der Arzt sagte dem Patienten , dass sie müde waren .", "sie", "Patienten", "they", "subject"),
     NEUTRAL_FORM),
    # "sie" + singular verb for "they": the translation chose a feminine singular
    (target("Jemand rief den Arzt an , weil sie krank war .", "sie", "Jemand", "they", "subject"), FEMALE),
    # "schien" ends in -en but is a singular past: still feminine singular
    (target("Der Teenager vertraute dem Therapeuten , weil sie vertrauenswürdig schien .", "sie",
            "Therapeuten", "they", "subject"), FEMALE),
    # capitalised "Sie" mid-sentence is polite address: no gender
    (target("Der Arzt sagte dem Patienten , dass Sie morgen kommen sollen .", "Sie", "Patienten", "they",
            "subject"), NEUTRAL_FORM),
    # a capital after a semicolon is MT's sentence-start capital, not polite: possessive ihr- for "her"
    (target("Der Chirurg operierte die Frau ; Ihr Tumor war gewachsen .", "Ihr", "Frau", "her", "possessive"),
     FEMALE),
    # das Mädchen legitimately takes "es": a neutral form
    (target("Die Lehrerin lobte das Mädchen , weil es fleißig war .", "es", "Mädchen", "she", "subject"),
     NEUTRAL_FORM),
    # possessive sein- shows the possessor's gender (masculine), not that of the possessed Vorschlag
    (target("Die Planerin sprach mit dem Bewohner , der sagte , dass sein Vorschlag scheitern würde .", "sein",
            "Bewohner", "their", "possessive"), MALE),
    # ... but with a neuter person noun (das Kind) sein- is neuter: no gender to compare
    (target("Der Arzt untersuchte das Kind und lobte seinen Mut .", "seinen", "Kind", "his", "possessive"),
     NEUTRAL_FORM),
    # possessive ihr- for "their": feminine or plural, read plural
    (target("Jemand traf den Buchhalter , um Hilfe bei ihrer Steuer zu bekommen .", "ihrer", "Jemand", "their",
            "possessive"), NEUTRAL_FORM),
    # the same form for "her" is the feminine possessor
    (target("Die Redakteurin schrieb einen Artikel über ihr Unternehmen .", "ihr", "Redakteurin", "her",
            "possessive"), FEMALE),
    # dative ihr for "them" is still feminine singular (the plural dative would be ihnen)
    (target("Der Bäcker gab ihr einen Kuchen .", "ihr", "Bäcker", "them", "object"), FEMALE),
    # "he" rendered as a dative experiencer: ihm is masculine
    (target("Der Entwickler stritt mit dem Designer , weil ihm das Design nicht gefiel .", "ihm", "Entwickler",
            "he", "subject"), MALE),
    # "they" rendered by the demonstrative dieser: masculine
    (target("Jemand wollte den Manager sprechen , weil dieser den Fehler beheben könne .", "dieser",
            "Manager", "they", "subject"), MALE),
    # "weil die keinen Computer hatte": demonstrative die with a singular verb, feminine
    (target("Der Entwickler tauschte mit der Bäckerin , weil die keinen Computer hatte .", "die", "Bäckerin",
            "she", "subject"), FEMALE),
    # the aligner took the conjunction: the pronoun of its clause is read
    (target("Der Fahrer ging zum Kassierer , weil sie eine Fahrt brauchte .", "weil", "Kassierer", "she",
            "subject"), FEMALE),
    # aligned "sein" is the verb here (zufrieden sein wird), not a possessive: the clause's sie is read
    (target("Der Chef hoffte , dass sie zufrieden sein wird .", "sein", "Chef", "she", "subject"), FEMALE),
    # "sie zu verklagen": an infinitive, not a plural finite verb; accusative sie for "her" is feminine
    (target("Der Anwalt schrie den Friseur an und drohte , sie zu verklagen .", "sie", "Friseur", "her",
            "object"), FEMALE),
    # accusative sie for "them": feminine singular or plural, read plural
    (target("Der Lehrer rief die Schüler und lobte sie .", "sie", "Schüler", "them", "object"), NEUTRAL_FORM),
    # nothing aligned and "sich" is the analyst's own reflexive: "him" is not rendered
    (target("Der Analyst traf den Betreuer und bedankte sich für den Service .", "", "Betreuer", "him",
            "object"), NO_WORDS),
    # nothing aligned: an expletive "es" is not taken for "her"
    (target("In den Ohren der Anwältin kam es zu Ausschreitungen .", "", "Anwältin", "her", "object"), NO_WORDS),
    # "herself" as reflexive sich: German shows no gender
    (target("Die Ärztin fragte sich , was zu tun sei .", "sich", "Ärztin", "herself", "reflexive"), NEUTRAL_FORM),
    # a relative pronoun agrees with the noun before the comma (plural Unterlagen), not with the entity
    (target("Der Angestellte gab dem Kunden Unterlagen , die er zurückgeben konnte .", "die", "Angestellte",
            "her", "object"), NEUTRAL_FORM),
]
