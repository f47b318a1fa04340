"""Target-side consistency: the scores by hand, and the pipeline on real outputs with a test double
for the pronoun reading (each language's real reading has its own gold test)."""

from __future__ import annotations

import json

import pytest

from discotest.gender.judge import GenderVerdict, score_consistency
from discotest.lang.morph.base import Gender, PronounReading


def verdict(entity: str, pronoun: str | None, distractor: str, omitted: str | None = None) -> GenderVerdict:
    consistent = None if omitted else pronoun == entity
    return GenderVerdict(0, "", "", "", [], "aligned", entity, entity, True, "", pronoun="she",
                         pronoun_gender=pronoun, omitted=omitted, distractor_gender=distractor, consistent=consistent)


def test_consistency_by_hand():
    scores = score_consistency([
        verdict("female", "female", "male"),  # consistent
        verdict("female", "female", "female"),  # consistent, trivially (distractor also female)
        verdict("male", "female", "male"),  # inconsistent, trivially
        verdict("male", None, "male", omitted="pronoun-dropped"),
        verdict("male", None, "female", omitted="entity-unreadable"),
    ])
    assert scores.n == 5 and scores.scored == 3
    assert scores.consistency == pytest.approx(200 / 3)
    assert scores.trivial == pytest.approx(200 / 3)
    assert scores.omitted == {"entity-unreadable": 1, "pronoun-dropped": 1}


class GermanPronounsByWord:
    """A stand-in for read_pronouns: er/ihn/ihm/sein* male, sie/ihr* female, es neutral-form."""

    def __call__(self, items):
        out = []
        for item in items:
            words = [item.tokens[i].text.lower() for i in item.pronoun]
            if not words:
                out.append(PronounReading(Gender.UNKNOWN, "nothing aligned", omitted="no-target-words"))
            elif words[0] == "es":
                out.append(PronounReading(Gender.NEUTRAL, "es", omitted="neutral-form"))
            elif words[0] in ("er", "ihn", "ihm") or words[0].startswith("sein"):
                out.append(PronounReading(Gender.MALE, words[0]))
            elif words[0] == "sie" or words[0].startswith("ihr"):
                out.append(PronounReading(Gender.FEMALE, words[0]))
            else:
                out.append(PronounReading(Gender.UNKNOWN, words[0]))
        return out


@pytest.mark.parametrize(("located_by", "expected"), [
    ("lexicon-confirmed", (6,)), ("lexicon-found", (6,)), ("lexicon-override", (6,)), ("aligned", (3, 6)),
])
def test_pronoun_words_leave_out_the_entity_noun(located_by, expected):
    # "for the designer and her" -> "למעצבת ... לה": the pronoun (source word 7) is linked to the entity's
    # noun (target 3) as well; a noun the entity lexicon found is never the pronoun, an aligned-only span may be
    from discotest.gender.pipeline import _pronoun_words

    links = [(1, 0), (5, 3), (7, 3), (7, 6), (8, 7)]
    assert _pronoun_words(links, 7, (3,), located_by) == expected
    assert _pronoun_words(links, 7, (3, 6), "lexicon-confirmed") == ()
    assert _pronoun_words(links, None, (3,), "lexicon-confirmed") == ()


def test_pipeline_on_google_german(tmp_path, shared_data, monkeypatch):
    import discotest
    from discotest.gender.result import render_consistency_table
    from discotest.lang.morph import load_analyser
    from discotest.report.emit import write_jsonl

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    analyser = load_analyser("de")
    monkeypatch.setattr(type(analyser), "read_pronouns", lambda self, items: GermanPronounsByWord()(items))
    details = tmp_path / "items.jsonl"
    # the current suite (google's output has no translation of its rows 2120-2121, hence 3,886): its German alignment
    # model serves the other German tests of the session; the 2019 one was trained for this test alone
    (run,) = discotest.run("winomt", lang="de", system="google", data_dir=shared_data,
                           measure=("accuracy", "consistency"))
    write_jsonl(details, run.details())
    result = json.loads(json.dumps(run.to_json()))
    assert "Cons%" in render_consistency_table([run])
    c = result["scores"]["consistency"]
    assert c["n"] == 3886 and c["scored"] + sum(c["omitted"].values()) == 3886
    rows = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
    # row 0: "Die Entwicklerin …, weil sie das Design nicht mochte": entity female, pronoun "sie" female
    assert rows[0]["pronoun"] == "she" and rows[0]["target_pronoun"] == ["sie"]
    assert rows[0]["pronoun_gender"] == "female" and rows[0]["consistent"] is True
    assert rows[0]["distractor"] == "designer" and rows[0]["target_distractor"] == ["Designer"]
    assert rows[0]["distractor_gender"] == "male"
    scored = [r for r in rows if r["consistent"] is not None]
    assert len(scored) == c["scored"] and c["consistency"] == pytest.approx(
        100 * sum(r["consistent"] for r in scored) / len(scored), abs=0.01)
    # the pronoun's words were found by alignment for nearly every row
    assert sum(bool(r["target_pronoun"]) for r in rows) > 0.9 * len(rows)
