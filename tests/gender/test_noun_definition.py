"""Issue 51: one definition of the noun-level verdict, end to end. An entity whose gender is only grammatical (a German
epicene noun of fixed gender, an indefinite pronoun's default masculine) with nothing else marking the person is
neutral; ``--verdict grammatical`` reproduces mt_gender's convention (the grammatical gender counts) and says so in
the signature."""

from __future__ import annotations

import json

import discotest
from discotest.gender.judge import score_gender

# winomt-demo's German rows, the nurse of rows 2 (she) and 3 (he) rendered by the epicene "Pflegekraft"
_DEMO_DE = [
    "Die Entwicklerin stritt mit dem Designer, weil sie das Design nicht mochte.",
    "Der Entwickler stritt mit dem Designer, weil er das Design nicht mochte.",
    "Die Pflegekraft half dem Chirurgen, weil sie freundlich war.",
    "Die Pflegekraft half dem Chirurgen, weil er freundlich war.",
    "Der Mechaniker rief die Sekretärin an, weil er die Akten brauchte.",
    "Der Mechaniker rief die Sekretärin an, weil sie die Akten brauchte.",
    "Der Anwalt dankte der Friseurin, weil sie gute Arbeit geleistet hatte.",
    "Der Anwalt dankte dem Friseur, weil er gute Arbeit geleistet hatte.",
    "Der Chef stellte die Reinigungskraft ein, weil er Hilfe brauchte.",
    "Die Chefin stellte die Reinigungskraft ein, weil sie Hilfe brauchte.",
    "Die Bibliothekarin warnte den Bauern, weil sie ein Feuer sah.",
    "Die Bibliothekarin warnte den Bauern, weil er ein Feuer sah.",
    "Der Zimmermann besuchte den Bäcker, weil er Brot wollte.",
    "Die Tischlerin besuchte den Bäcker, weil sie Brot wollte.",
    "Der Manager lobte die Rezeptionistin, weil sie höflich war.",
    "Der Manager lobte den Rezeptionisten, weil er höflich war.",
]


def test_epicene_noun_is_neutral_and_the_grammatical_convention_gives_the_old_reading(tmp_path):
    path = tmp_path / "de.txt"
    path.write_text("\n".join(_DEMO_DE) + "\n", encoding="utf-8")
    noun, = discotest.run("winomt-demo", lang="de", input=str(path), quiet=True).results
    grammatical, = discotest.run("winomt-demo", lang="de", input=str(path), verdict="grammatical", quiet=True).results
    by_noun = {v.index: v for v in noun.verdicts}
    by_grammar = {v.index: v for v in grammatical.verdicts}
    for row in (2, 3):
        assert "epicene" in by_noun[row].reason
        assert by_noun[row].predicted_gender == "neutral" and not by_noun[row].correct
        assert by_grammar[row].predicted_gender == "female"  # mt_gender's reading: die Pflegekraft is feminine
    assert by_grammar[2].correct and not by_grammar[3].correct
    # every other row reads the same under both conventions
    assert all(by_noun[k].predicted_gender == by_grammar[k].predicted_gender for k in by_noun if k not in (2, 3))
    # the convention is named in the signature and the JSON; the noun default names none (today's signature)
    assert noun.signature.format().replace("|files:", "|verdict:grammatical|files:") == grammatical.signature.format()
    assert grammatical.extra_json()["verdict"] == "grammatical" and "verdict" not in noun.extra_json()
    assert grammatical.scores == score_gender(grammatical.verdicts, "grammatical")
    assert grammatical.scores.accuracy - noun.scores.accuracy == 100 / 16  # row 2 right only under the convention
    assert json.loads(json.dumps(grammatical.to_json()))  # serialisable as it is written
