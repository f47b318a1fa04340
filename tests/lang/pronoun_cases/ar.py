"""Arabic pronoun reading (target-side consistency) on hand-written tricky cases.

Each case: a translation, the words the aligner gave for the English pronoun, the English pronoun's
role, and the expected (gender, omitted). The gender is the one the *Arabic* shows, never the English
pronoun's. Needs farahidi (a dependency), not ../shared/data.

The harness (each case read alone, and all in one batch in order) is ``tests/lang/test_pronoun_readings.py``.
"""

from __future__ import annotations

from discotest.lang.morph.base import Gender

REQUIRES = ()  # modules the analyser needs (without them the language is skipped)
BINARY = None  # a program it needs on the PATH


def analyser():
    from discotest.lang.morph.ar import ArabicAnalyser

    return ArabicAnalyser()


M, F, U = Gender.MALE, Gender.FEMALE, Gender.UNKNOWN

CASES = [
    # li'annaha "because she": the subject pronoun is the suffix -ha on the particle
    ("شكر المدير الممرضة لأنها ساعدته.", "لأنها", "she", "subject", F, None),
    # annahu "that he" written for an English "she": masculine is what the Arabic shows
    ("أخبر المدير الممرضة أنه متعب.", "أنه", "she", "subject", M, None),
    # systran's free pronoun huwa after li'anna
    ("التقى البائع مع المستشار لأنّ هو أراد أن يشتري بضاعة.", "هو", "she", "subject", M, None),
    # dropped subject, past 3sg fem qalat
    ("شكر المدير الطبيب لأن قالت الحقيقة.", "قالت", "she", "subject", F, None),
    # ta'malu: t- imperfect is 3sg fem or 2sg masc; the subject is 3rd person, so feminine
    ("شكر المدير الطبيب لأن تعمل كثيرا.", "تعمل", "she", "subject", F, None),
    # ya'malu: ya- imperfect, 3sg masc
    ("شكر المدير الطبيب لأن يعمل كثيرا.", "يعمل", "he", "subject", M, None),
    # yahtaju-hu "(he) needs it": a subject read off the verb's ya- prefix, not its object suffix -hu
    ("السكرتير أرسل الطباخ ما يحتاجه للإعداد.", "يحتاجه", "he", "subject", M, None),
    # the same kind of word for an object: wa-sa'ala-ha "and asked her", the suffix -ha is the pronoun
    ("شكر المدير الطبيب وسألها سؤالا.", "وسألها", "her", "object", F, None),
    # the aligner gave only li'anna; the verb to its right (sa'adat, 3sg fem) carries the dropped subject
    ("شكر المدير الممرضة لأن ساعدت المريض.", "لأن", "she", "subject", F, None),
    # possessive suffix on a noun: bi-'amali-hi "his work" / bi-'amali-ha "her work"
    ("أعجب المدير بعمله.", "بعمله", "his", "possessive", M, None),
    ("أعجب المدير بعملها.", "بعملها", "her", "possessive", F, None),
    # nawbatu-hum "their shift": -hum is masculine plural (feminine would be -hunna)
    ("أبلغت الممرضة المريض بأن نوبتهم ستنتهي.", "نوبتهم", "their", "possessive", M, None),
    # the dual -huma has no gender: a neutral form
    ("قال المدير إنهما متعبان.", "إنهما", "they", "subject", U, "neutral-form"),
    # a final ه after the article is a misspelt ta marbuta (al-nar-h), not a pronoun suffix
    ("لام المشرف الموظف وأطلق الناره.", "الناره", "him", "object", U, "no-target-words"),
    # an object aligned to a verb with no suffix: the verb's own subject is not the pronoun's gender
    ("ابتسم المدير للطبيبة.", "ابتسم", "her", "object", U, "no-target-words"),
    # bi-nafsi-ha "by herself"
    ("فعلت ذلك بنفسها.", "بنفسها", "herself", "reflexive", F, None),
    # nothing aligned and no pronoun in the sentence: 'their' was left out
    ("صاحب المنزل دعا السباك لإصلاح الأنابيب المكسورة.", "", "their", "possessive", U, "pronoun-dropped"),
    # nothing aligned (clitics often are not) but the sentence's only pronoun form is laha "(to) her"
    ("اشترى الكاتب الفاكهة من المزارع ودفع لها.", "", "her", "object", F, None),
    # nothing aligned: the subject form lakinnahu "but he" does not count for an object; iqna'i-ha
    # "convincing her" carries the suffix in every reading
    ("أخبر أمين الصندوق الشريف لكنه فشل في إقناعها.", "", "her", "object", F, None),
    # object forms of both genders (lahu, minha) and nothing aligned: cannot tell which renders it
    ("قدم المدير له هدية وطلب منها المغادرة.", "", "her", "object", U, "no-target-words"),
    # nothing aligned, no closed form: ta'ama-ha "her food", every reading carries the suffix -ha
    ("أرهب البواب المرافقة وأخذ طعامها.", "", "her", "possessive", F, None),
    # nothing aligned for a subject: the verb after the last opener hatta, yatamakkan (3sg masc)
    ("عامل البناء إستأجر المنظف حتى يتمكن من التركيز.", "", "he", "subject", M, None),
]
