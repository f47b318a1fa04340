"""Italian gender analyser on hand-made tricky cases (no ../shared/data needed).

Each case: sentence, the words aligned to the entity (space-separated tokens as ``tokenize`` gives
them; "" for an empty span), the expected grammatical gender, and why.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason) is
``tests/lang/test_morph_readings.py``; what only this language does stays in ``tests/lang/test_morph_it.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender
from tests.support.morph_cases import DECIDES

REQUIRES = ()  # modules the analyser needs (without them the language is skipped)
BINARY = 'lt-proc'  # a program it needs on the PATH
VERSION = ('apertium',)  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph.it import ItalianAnalyser

    return ItalianAnalyser()  # an InputError (its Apertium data missing) skips the language


M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # epicene nouns: the article decides
    ("La docente ha parlato con il medico.", "docente", F),  # la docente
    ("Il docente ha parlato con il medico.", "docente", M),  # il docente
    ("Un'assistente ha chiamato.", "assistente", F),  # un' (elided una) is feminine
    ("Un assistente ha chiamato.", "assistente", M),  # un (uno) is masculine
    ("Ho parlato con lo psicologo.", "psicologo", M),  # lo + masculine -o form
    # elided article: agreement decides, or nothing does
    ("L'insegnante è arrivata tardi.", "insegnante", F),  # participle arrivata (essere) agrees
    ("L'insegnante era stanco.", "insegnante", M),  # predicative adjective stanco
    ("L'insegnante ha parlato con il medico.", "insegnante", U),  # ha parlato (avere) does not agree
    ("L'autista che era stanca è partita.", "autista", F),  # relative clause with essere
    ("Il capo ha parlato all'assistente.", "assistente", U),  # all' = a + l': no gender
    ("La governante è stata pagata dall'analista.", "governante", F),  # article la; stata pagata agree
    # noun forms (Apertium does not know avvocata; the lexicon does)
    ("Il giudice ha chiamato l'avvocata.", "avvocata", F),
    ("L'infermiere è arrivato.", "infermiere", M),  # infermiere is the masculine form
    ("L'infermiera è arrivata.", "infermiera", F),
    ("La guardia ha fermato il ladro.", "guardia", F),  # guardia is a feminine noun
    ("L'amministratore delegato ha parlato.", "amministratore delegato", M),
    # the span may include the article or a stray word, or be empty
    ("Il medico ha parlato.", "Il medico", M),
    ("Il medico ha parlato.", "medico ha", M),
    ("Il medico ha parlato.", "", U),
    # someone
    ("Il medico ha avvertito qualcuno.", "qualcuno", M),  # indefinite pronoun: generic masculine
    # words the lexicon does not know: article, ending, Apertium
    ("Il collega ha parlato.", "collega", M),  # -a ending but the article il decides
    ("La zorglubista ha parlato.", "zorglubista", F),  # unknown word, feminine article
    # adjectives between the article and the noun (issue 51): the walk crosses them, the article decides
    ("La simpatica giornalista ha parlato.", "giornalista", F),
    ("Il simpatico giornalista ha parlato.", "giornalista", M),
    ("La gentile giornalista ha parlato.", "giornalista", F),  # invariable adjective
    ("Il timido e gentile collega ha parlato.", "collega", M),  # two adjectives joined by e
    ("La graziosa operaio edile ha parlato.", "operaio edile", F),  # graziosa: not in Apertium's dictionary
    ("L'amabile giornalista ha parlato.", "giornalista", U),  # elided article, invariable adjective: nothing
    ("Ogni timida giornalista ha parlato.", "giornalista", F),  # ogni shows no gender: the adjective's ending does
    ("Il direttore ha dato le mance bell'assistente.", "assistente", U),  # le is plural: mance's article, not its
]

EMPTY = next(sentence for sentence, words, _ in CASES if not words)  # the case with nothing aligned
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = None

# issue 25: a silent noun (nothing in the translation shows its gender) completed by the words that render the English
# sentence's pronoun (``complete_silent``): (English sentence, the entity's word index in it, the entity, the
# translation, the entity's words, the pronoun's words ("" = dropped), the gender, what the reason names, what the
# evidence holds, how the reason ends or None); read by the harness's ``test_silent_noun_completed_by_its_pronoun``
SILENT = [
    # an epicene noun after an elided article, nothing agreeing with it (real outputs: aws #3026, google #1717 and
    # #331, google #15)
    ("The salesperson talked to the teacher and invited her to dinner.", 5, "teacher",
     "Il venditore ha parlato con l'insegnante e l'ha invitata a cena.", "insegnante", "l' ha invitata", F,
     (DECIDES, "invitata"), ("invitata",), None),
    ("The construction worker stared at the teacher because she entered the construction zone.", 6, "teacher",
     "Il muratore fissò l'insegnante perché era entrata nella zona di costruzione.", "insegnante", "", F,
     (DECIDES, "entrata"), ("entrata",), None),
    ("The sheriff trusts the assistant because he was always honest.", 4, "assistant",
     "Lo sceriffo si fida dell'assistente perché è sempre stato onesto.", "assistente", "", M,
     (DECIDES, "stato"), ("stato",), None),
    ("The cook prepared a dish for the teacher because he is hungry.", 7, "teacher",
     "Il cuoco ha preparato un piatto per l'insegnante perché ha fame.", "insegnante", "", U, (), (),
     "no agreeing word"),
]
