"""Arabic gender analyser (farahidi + entity lexicon) on hand-written tricky cases.

Each case: a sentence, the words the aligner gave for the entity, the expected grammatical gender
and why. Needs the farahidi wheel, not ../shared/data.

The harness (each case read alone, and all in one batch in order; the empty span, the version, the reason) is
``tests/lang/test_morph_readings.py``; what only this language does stays in ``tests/lang/test_morph_ar.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ('farahidi',)  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH
VERSION = ('farahidi-',)  # its version starts with the first and names the others


def analyser():
    from discotest.lang.morph.ar import ArabicAnalyser

    return ArabicAnalyser()


M, F, N, U = Gender.MALE, Gender.FEMALE, Gender.NEUTRAL, Gender.UNKNOWN

CASES = [
    # ta marbuta on the participle: al-mumarrida "the (female) nurse" vs al-mumarrid
    ("قالت الممرضة إن المريض بخير.", "الممرضة", F),
    ("قال الممرض إن المريض بخير.", "الممرض", M),
    # a loanword farahidi does not know, decided by the verb before it (VSO: katabat, ت suffix)
    ("كتبت البلوجر مقالا جديدا.", "البلوجر", F),
    # the same word as subject before its verb (SVO: kataba, masculine)
    ("البلوجر كتب مقالا جديدا.", "البلوجر", M),
    # unknown loanword, no agreeing word: no feminine ending means masculine
    ("قابل المدير البلوجر أمس.", "البلوجر", M),
    # بيكر (transliterated "baker") has one form for both genders: nothing agrees -> unknown ...
    ("زار المدير بيكر أمس.", "بيكر", U),
    # ... and the relative pronoun التي (feminine) decides it
    ("تحدث المدير مع بيكر التي خبزت الكعك.", "بيكر", F),
    # ة-final but masculine: al-'umda "the mayor/sheriff", al-marra "passers-by" (plural of marr),
    # al-tuhat "the cooks" (broken plural of tahin, closed list)
    ("انتقد العمدة المعلم.", "العمدة", M),
    ("اتصل المارة بالشرطة.", "المارة", M),
    ("وصل الطهاة مبكرا.", "الطهاة", M),
    # construct state: 'amil al-bina' "construction worker", the first word carries the gender
    ("عامل البناء استأجر المنظف.", "عامل البناء", M),
    # the aligner marked only the complement al-bina': the head is 'amilat (f.)
    ("تحدث المدير مع عاملة البناء.", "البناء", F),
    # a shadda inside the word (الميكانيكيّة): the -iyya ending with ta marbuta is still read
    ("أعطى الخياط الميكانيكيّة هدية.", "الميكانيكيّة", F),
    # farahidi reads هي as a verb (وَهَى); the closed pronoun list reads the pronoun
    ("قال المدير إن هي الأفضل.", "هي", F),
    # a stray verb in the span: the noun phrase al-tabiba al-shar'iyya decides
    ("حصل الطبيبة الشرعية على عينات.", "حصل الطبيبة", F),
    # the aligner gave only ما of شخص ما "someone" (b+shakhs ma): shakhs is masculine; the later
    # feminine verb طلبت is coreference, not agreement
    ("اتصل الوسيط بشخص ما لأنها طلبت استشارة.", "ما", M),
    # final ه for ة (as one system writes it) on a definite noun: al-khabbaza "the (female) baker"
    ("شكر النجار الخبازه على الكعكة.", "الخبازه", F),
    # plural entities: al-mumarridat (fem. sound plural), al-muhasibun (masc. sound plural)
    ("وصلت الممرضات مبكرا.", "الممرضات", F),
    ("وصل المحاسبون مبكرا.", "المحاسبون", M),
    # hamza dropped (امينة for أمينة) on the head of a construct: amina al-sunduq "cashier"
    ("ذهب المدير إلى امينة الصندوق.", "امينة الصندوق", F),
    # the noun is masculine even though the English pronoun (and the translation's لأنها) is "she"
    ("طلب المدير من الكاتب إعداد الأوراق لأنها عادة تقوم بعمل ممتاز.", "الكاتب", M),
    # a word outside the lexicon: farahidi's noun reading decides (al-tayyar "the pilot")
    ("وصل الطيار متأخرا.", "الطيار", M),
]

EMPTY = "قالت الممرضة إن المريض بخير."  # a sentence read with nothing aligned to the entity
# (sentence, entity words, gender, what the reason names, the evidence), or None: one reading's reason and evidence
EVIDENCE = ("كتبت البلوجر مقالا جديدا.", "البلوجر", F, "كتبت", ("البلوجر", "كتبت"))
