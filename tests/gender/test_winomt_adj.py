"""winomt-adj: items derived from the published adjective outputs' sources (real files), the plain WinoMT rows they
pair with, and the without/with comparison table."""

from __future__ import annotations

from pathlib import Path

import pytest

from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.errors import InputError
from discotest.gender.judge import GenderVerdict, score_gender
from discotest.gender.published import published_systems
from discotest.gender.result import GenderResult, adjective_rows, render_adjective_effect
from discotest.gender.suites import load_gender_suite
from discotest.gender.winomt import GenderItem
from discotest.gender.winomt_adj import ADJECTIVES, adjective_item
from discotest.gender.winomt_adj_run import plain_on_adjective_rows
from discotest.report.comparison import compare_results
from discotest.report.result import Signature


def test_items_are_the_anti_rows_with_the_gold_gender_adjective(shared_data):
    items = load_gender_suite("winomt-adj")
    anti = load_gender_suite("winomt", "2019")
    assert len(items) == 1584 and {i.stereotype for i in items} == {"anti"}
    assert sum(i.gold == "female" for i in items) == 790
    for item in items:
        words = item.sentence.split(" ")
        assert words[item.entity_index - 1] == ADJECTIVES[item.gold]
        assert words[item.entity_index].rstrip(",.") == item.entity.split()[0]
    assert {" ".join(i.sentence.split(" ")[:i.entity_index - 1] + i.sentence.split(" ")[i.entity_index:])
            for i in items} <= {i.sentence for i in anti if i.stereotype == "anti"}


def test_every_published_output_has_the_same_sources(shared_data):
    systems = published_systems("winomt-adj")
    assert systems == {"google": ("ar", "de", "es", "fr", "he", "it", "ru", "uk"),
                       "bing": ("ar", "de", "es", "fr", "he", "it", "ru", "uk")}
    sentences = [i.sentence for i in load_gender_suite("winomt-adj")]
    for system, langs in systems.items():
        for lang in langs:
            path = catalogue.locate(catalogue.system_outputs("winomt-adj")[(system, lang)])
            assert [line.split("|||")[0].strip() for line in read_lines(path)] == sentences, (system, lang)


def test_a_source_that_is_not_its_row_with_the_adjective_is_refused():
    row = GenderItem(7, "female", 1, "The developer argued with the designer.", "developer", "anti")
    assert adjective_item(row, "The pretty developer argued with the designer.", Path("f"), 8).entity_index == 2
    for wrong in ("The handsome developer argued with the designer.", "The developer pretty argued with the designer.",
                  "The pretty developer argued with a designer."):
        with pytest.raises(InputError, match="not row 8 of en_anti.txt with 'pretty'") as caught:
            adjective_item(row, wrong, Path("f"), 8)
        assert caught.value.line == 8


def _verdict(item: GenderItem, correct: bool) -> GenderVerdict:
    predicted = item.gold if correct else ("female" if item.gold == "male" else "male")
    return GenderVerdict(index=item.index, source=item.sentence, translation="t", entity=item.entity,
                         target_entity=[], located_by="aligned", predicted_gender=predicted, gold_gender=item.gold,
                         correct=correct, reason="", evidence=[], stereotype=item.stereotype)


def _result(suite: str, system: str, verdicts: list[GenderVerdict]) -> GenderResult:
    signature = Signature((("suite", suite), ("version", "2019"), ("n", str(len(verdicts))), ("files", "x")))
    return GenderResult(suite, "2019", "de", system, score_gender(verdicts), signature, verdicts)


def test_plain_verdicts_land_on_their_adjective_items_and_the_table_compares_them(shared_data):
    plain_items = load_gender_suite("winomt", "2019")
    adjective_items = load_gender_suite("winomt-adj")
    # the plain system is right on even rows of en.txt, the adjective one on every item
    plain = _result("winomt", "sys", [_verdict(i, i.index % 2 == 0) for i in plain_items])
    without = plain_on_adjective_rows(plain, plain_items, adjective_items)
    assert without.system == "sys/plain" and without.suite == "winomt-adj" and not without.unmatched
    assert len(without.verdicts) == 1584 and without.signature.get("rows") == "anti-stereotypical"
    assert without.signature.get("n") == "1584" and without.signature.fields[-1][0] == "files"
    rows_of: dict[tuple[str, str], list[int]] = {}  # en.txt holds one anti row twice (396, 397): copies in order
    for i in plain_items:
        if i.stereotype == "anti":
            rows_of.setdefault((i.sentence, i.entity), []).append(i.index)
    for item, verdict in zip(adjective_items, without.verdicts):
        assert verdict.index == item.index and verdict.entity == item.entity
        assert item.sentence.replace(f"{ADJECTIVES[item.gold]} ", "", 1) == verdict.source
        assert verdict.correct == (rows_of[verdict.source, verdict.entity].pop(0) % 2 == 0)
    expected = 100 * sum(v.correct for v in without.verdicts) / 1584
    assert without.scores.accuracy == pytest.approx(expected)
    with_adjective = _result("winomt-adj", "sys", [_verdict(i, True) for i in adjective_items])
    comparison = compare_results(without, with_adjective, 100, 1)
    (row,) = adjective_rows([comparison])
    assert (row["n"], row["with"], row["without"]) == (1584, 100.0, round(expected, 4))
    assert f"{expected:.1f}" in render_adjective_effect([comparison])
