from discotest.lang.tokenize import normalise_moses, tokenize


def texts(sentence: str, lang: str) -> list[str]:
    return [t.text for t in tokenize(sentence, lang)]


def test_offsets_point_into_the_sentence():
    sentence = "Die Entwicklerin, weil sie nicht wollte."
    for token in tokenize(sentence, "de"):
        assert sentence[token.start : token.end] == token.text


def test_french_elision_is_split_but_not_inside_words():
    assert texts("L'infirmière arriva aujourd'hui jusqu'ici.", "fr") == [
        "L'", "infirmière", "arriva", "aujourd'hui", "jusqu'", "ici", ".",
    ]


def test_italian_elided_articles():
    assert texts("dell'infermiera e un'avvocata", "it") == ["dell'", "infermiera", "e", "un'", "avvocata"]


def test_german_keeps_hyphenated_compounds():
    assert texts("Der Olympia-Rat kam.", "de") == ["Der", "Olympia-Rat", "kam", "."]


def test_hebrew_and_arabic_clitics_stay_attached():
    assert texts("היזם התווכח עם המעצב", "he") == ["היזם", "התווכח", "עם", "המעצب".replace("ب", "ב")]
    assert texts("لأنها لم تحب التصميم.", "ar") == ["لأنها", "لم", "تحب", "التصميم", "."]


def test_moses_escapes_are_undone():
    assert normalise_moses("dem Olympia @-@ Rat , weil") == "dem Olympia-Rat , weil"
    assert normalise_moses("l ' agent a parlé à quelqu ' un .") == "l'agent a parlé à quelqu'un ."


def test_arabic_marks_and_hebrew_gershayim_stay_inside_words():
    assert texts("الميكانيكيّة قالت.", "ar") == ["الميكانيكيّة", "قالت", "."]
    assert texts('המנכ"ל והצ\'יף אמרו "שלום".', "he") == ['המנכ"ל', "והצ'יף", "אמרו", '"', "שלום", '"', "."]


def test_words_are_the_texts_of_the_tokens_in_every_language(shared_data):
    """``words`` (the alignment model's training text) gives exactly the token texts, on every WinoMT language's
    published outputs and the English sources: elisions, clitics, marks, gershayim and punctuation included."""
    from discotest.gender.run import RunOptions, published_text
    from discotest.lang.morph import languages
    from discotest.lang.tokenize import words

    options = RunOptions(data_dir=str(shared_data))
    for lang in languages():
        text = published_text(lang, options)
        assert text is not None, lang
        bitext = text.bitexts(options, text.systems[:1])[0]
        assert [words(t, lang) for t in bitext.translations] == [tuple(t.text for t in tokens)
                                                                  for tokens in bitext.tgt_tokens], lang
        assert [words(item.sentence, "en") for item in bitext.items] == [tuple(t.text for t in tokens)
                                                                         for tokens in bitext.src_tokens]
