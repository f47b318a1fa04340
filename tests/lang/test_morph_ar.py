"""Arabic gender analyser (farahidi + entity lexicon): what only Arabic does (a span without a noun); the harness
(``tests/lang/test_morph_readings.py``, cases in ``tests/lang/morph_cases/ar.py``) reads its tricky cases, empty
span, version and reason. Needs the farahidi wheel, not ../shared/data.
"""

from __future__ import annotations

import pytest

from discotest.lang.morph.base import Gender, TargetEntity
from tests.support.morph_cases import marked  # noqa: E402

pytest.importorskip("farahidi")

U = Gender.UNKNOWN


@pytest.fixture(scope="module")
def analyser():
    from discotest.lang.morph.ar import ArabicAnalyser

    return ArabicAnalyser()


def _item(sentence: str, words: str) -> TargetEntity:
    return marked(sentence, words, "ar")


def test_no_noun_in_span(analyser):
    sentence = "قالت الممرضة إن المريض بخير."
    reading = analyser.read([_item(sentence, "إن")])[0]
    assert reading.gender == U and "no noun" in reading.reason


# ar-rules-3: aws/ar #324 and #3451 write walakinnaha "but she" with a space inside the particle (ول كنها); rules-2 read
# كنها alone as a form of the verb كان, masculine, where the suffix -ha is feminine
AWS_324 = "و زودت المشرف الكاتب بأدوات جديدة ول كنها لم تقدم كرسيا جديدا."
AWS_3451 = "و أراد المحقق مقابلة الشاهد شخصيا, ول كنها لم تتمكن من الاتصال به."


def test_a_particle_split_inside_is_one_word():
    """ول كنها is the one word ولكنها (both tokens), systran's لأنّ ه the one word لأنّه; و لكنها and أنّ هو stay two
    words (the second is a closed form alone), and so do a clitic before anything that is not a particle with a
    pronoun suffix (ول كن, ول كتابها) and a space inside the suffix (لكنه ما)."""
    from discotest.lang.morph.ar import _words

    def texts(sentence: str) -> list[str]:
        return [w.text for w in _words(marked(sentence, "", "ar"))]

    assert "ولكنها" in texts(AWS_324) and "كنها" not in texts(AWS_324)
    joined = next(w for w in _words(marked(AWS_3451, "", "ar")) if w.text == "ولكنها")
    assert joined.last == joined.first + 1
    assert texts("قال و لكنها تعبت.")[1:3] == ["و", "لكنها"]
    assert texts("قال ول كن المدير تعب.")[1:3] == ["ول", "كن"]
    assert texts("قرأ ول كتابها.")[1:3] == ["ول", "كتابها"]
    assert texts("زار الكاتب الطبيب لأنّ ه إلى الخلف أوجع.")[3] == "لأنّه"
    assert texts("قال أنّ هو تعب.")[1:3] == ["أنّ", "هو"]
    assert texts("قال لكنه ما تعب.")[1:3] == ["لكنه", "ما"]


@pytest.mark.parametrize("word", ["لكنه", "ولكنها", "ولكنه", "فإنه", "لعلها", "كأنه", "بأنها", "ولكنهم"])
def test_a_particle_with_a_pronoun_suffix_is_never_a_verb(analyser, word):
    """farahidi also reads لكنه، ولكنها … as forms of كان; the particle's suffix is the word's gender, never a verb's
    subject."""
    assert analyser.verb_gender(word) is None


@pytest.mark.parametrize("sentence", [AWS_324, AWS_3451])
def test_the_split_particle_gives_the_suffix_gender(analyser, sentence):
    """The pronoun 'she' aligned to كنها (aws's split ولكنها): the particle's feminine suffix, not a verb كان."""
    from tests.support.morph_cases import pronoun_marked

    (reading,) = analyser.read_pronouns([pronoun_marked(sentence, "كنها", "ar", "she", "subject")])
    assert reading.gender == Gender.FEMALE and "ولكنها" in reading.reason, reading.reason
