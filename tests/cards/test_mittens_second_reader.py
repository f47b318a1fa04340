"""The second reader of MiTTenS-out (issue 51 items 3 and 5): its labels read every row of draw 3 and of the hard
round (draw 1 "none"/"wrong", draw 2 "other") once, every disagreement is judged, the figures VALIDITY.md and the
mittens-out badge quote are the ones the gold files give (so they cannot drift from a rule change that re-records a
reading, or from a relabelled row), the blind printer shows no judgement, and a bad row ends in one line naming the
file and line."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from bench.validity.mittens_blind import HARD, SHOWN, blind_rows
from bench.validity.mittens_second_reader import (
    figures,
    figures_hard,
    read_adjudged,
    read_first,
    read_second,
    share,
)

from discotest.cards.groups import validity_badges
from discotest.errors import InputError
from discotest.stats import cohen_kappa

REPO = Path(__file__).resolve().parents[2]
LANGS = ("ar", "de", "es", "fr", "it", "ru")


def _section() -> str:
    text = (REPO / "VALIDITY.md").read_text("utf-8")
    body = text.split("## " + validity_badges()["mittens-out"]["section"], 1)[1].split("\n## ", 1)[0]
    return " ".join(body.replace("**", "").split())  # bold marks the headline figures


def test_the_second_reader_reads_every_row_of_draw_3_once():
    first = read_first()
    second = read_second(first)
    assert len(second) == len(first) == 180
    assert Counter(r["lang"] for r in second) == {lang: 30 for lang in LANGS}


def test_validity_md_and_the_badge_quote_the_second_readers_figures():
    first = read_first()
    second = read_second(first)
    fig = figures(first, second)
    section = _section()
    paragraph = section[section.index("Out of English, a second reader"):]
    now, n = fig["all"]["rule"]["read"]
    assert f"right on {share(now, n)} now" in paragraph
    assert f"read it right on {share(*fig['all']['rule']['read_drawn'])} when the draw was made" in paragraph
    same, n, kappa = fig["all"]["agree"]
    assert f"{same} of {n} = {100 * same / n:.1f}%, Cohen's kappa {kappa:.2f}" in paragraph
    per_lang = {lang: fig[lang] for lang in LANGS}
    assert {v["rule"]["read"] for v in per_lang.values()} == {(30, 30)}  # "30 of 30 … in each of ar de es fr it ru"
    assert f"per language now {share(30, 30)} in each of {' '.join(LANGS)}" in paragraph
    assert {(v["agree"][0], round(v["agree"][2], 2)) for v in per_lang.values()} == {(30, 1.0)}
    assert not fig["disagree"] and "no disagreement" in paragraph
    labels = Counter(r["person"] for r in second)
    assert f"{labels['male']} male, {labels['female']} female" in paragraph
    assert not labels["none"] and not labels["both"]  # "neither reader reads any draw-3 row as none or both"
    assert not {r["person"] for r in first} & {"none", "both"}
    badge = validity_badges()["mittens-out"]["text"]
    assert f"{now} of {n} = {100 * now / n:.1f}% now" in badge and f"kappa {kappa:.2f}" in badge


def test_the_blind_printer_shows_no_judgement():
    rows = blind_rows()
    assert len(rows) == 180 and all(tuple(r) == SHOWN for r in rows)
    assert [r["id"] for r in rows] == [r["id"] for r in read_first()]


def test_a_bad_second_reader_row_names_the_file_and_line(tmp_path):
    first = read_first()
    row = json.dumps({"id": first[0]["id"], "lang": first[0]["lang"], "person": "male", "why": "x"})
    bad = tmp_path / "second.jsonl"
    for wrong in ('{"id": "out:99999", "lang": "de", "person": "male", "why": "x"}',
                  json.dumps({"id": first[1]["id"], "lang": first[1]["lang"], "person": "man", "why": "x"}),
                  row, "{not json"):
        bad.write_text(row + "\n" + wrong + "\n", "utf-8")
        with pytest.raises(InputError) as exc:
            read_second(first, bad)
        assert exc.value.one_line().startswith(f"{bad}:2: ")


def _hard() -> tuple[list[dict], list[dict]]:
    first = read_first(round_="hard")
    return first, read_second(first, round_="hard")


def test_the_second_reader_reads_every_hard_row_once_and_judges_every_disagreement():
    first, second = _hard()
    assert len(second) == len(first) == 211
    assert Counter(r["lang"] for r in second) == {"ar": 38, "de": 30, "es": 40, "fr": 36, "it": 38, "ru": 29}
    assert Counter((r["draw"], r["stratum"]) for r in first) == {(1, "none"): 186, (1, "wrong"): 4, (2, "other"): 21}
    adjudged = read_adjudged(first, second)
    assert set(adjudged) == {m["id"] for m, _ in figures_hard(first, second)["disagree"]}
    assert not {r["id"] for r in first} & {r["id"] for r in read_first()}  # the rounds share no row


def test_validity_md_and_the_badge_quote_the_hard_rows():
    first, second = _hard()
    fig = figures_hard(first, second)
    cell = fig["cells"]
    section = _section()
    paragraph = section[section.index("The hard rows"):]
    now, n = cell["all", "all"]["rule"]["read"]
    assert f"reads them right now on {share(now, n)}" in paragraph
    assert f'draw 1 "none" {share(*cell["all", "draw 1 none"]["rule"]["read"])}' in paragraph
    assert f'"wrong" {"{} of {}".format(*cell["all", "draw 1 wrong"]["rule"]["read"])}' in paragraph
    k, n2 = cell["all", "draw 2 other"]["rule"]["read_drawn"]
    assert f'draw 2 "other" {share(*cell["all", "draw 2 other"]["rule"]["read"])[:-1]}; when drawn, 2ef20c3, ' \
           f"{k} of {n2} = {100 * k / n2:.1f}%)" in paragraph
    langs = [lang for lang, stratum in cell if stratum == "all" and lang != "all"]
    cells = {lang: cell[lang, "all"] for lang in langs}
    per_lang = ", ".join(f"{lang} {100 * c['rule']['read'][0] / c['rule']['read'][1]:.1f}" for lang, c in cells.items())
    assert f"per language {per_lang} (% of {', '.join(str(c['rule']['read'][1]) for c in cells.values())})" \
        in paragraph
    by_first = sum(r["read"] == r["person"] for r in first)
    assert f"By the first reader: {by_first} of {n}." in paragraph
    same, n, kappa = cell["all", "all"]["agree"]
    assert f"{same} of {n} = {100 * same / n:.1f}%, Cohen's kappa {kappa:.2f}" in paragraph
    assert "(" + ", ".join(f"{lang} {c['agree'][0]} of {c['agree'][1]}" for lang, c in cells.items()) in paragraph
    kappas = sorted(c["agree"][2] for c in cells.values())
    assert f"kappa {kappas[0]:.2f}–{kappas[-1]:.2f} per language" in paragraph
    first3 = read_first()
    both = {r["id"]: r["person"] for r in [*read_second(first3), *second]}
    a, b = [r["person"] for r in [*first3, *first]], [both[r["id"]] for r in [*first3, *first]]
    agree_all = sum(x == y for x, y in zip(a, b))
    assert f"over both rounds {agree_all} of {len(a)} = {100 * agree_all / len(a):.1f}%, kappa " \
           f"{cohen_kappa(a, b):.2f}" in paragraph
    adjudged = read_adjudged(first, second)
    assert len(adjudged) == n - same == 10 and "The ten" in paragraph
    assert {a["right"] for a in adjudged.values()} == {"first"} and "The first reader is right on all ten" in paragraph
    reads = Counter(theirs["read"] for _, theirs in fig["disagree"])
    assert reads == {"male": 9, "female": 1} and "The rule reads 9 of the 10 male" in paragraph
    wrong_by_both = sum(r["read"] != r["person"] and r["read"] != m["person"] for m, r in zip(second, first))
    assert f"The {wrong_by_both} rows both readers call misread" in paragraph
    badge = validity_badges()["mittens-out"]["text"]
    assert f"{now} of {n} = {100 * now / n:.1f}% now, agreement with the first reader {100 * same / n:.1f}%, " \
           f"kappa {kappa:.2f}" in badge


def test_the_blind_printer_shows_no_judgement_on_the_hard_rows():
    rows = blind_rows(select=HARD)
    assert len(rows) == 211 and all(tuple(r) == SHOWN for r in rows)
    assert [r["id"] for r in rows] == [r["id"] for r in read_first(round_="hard")]
    assert [r["id"] for r in blind_rows("de", {1: ("wrong",)})] == []  # a selector narrows, never widens


def test_a_bad_round_or_judgement_names_the_file_and_line(tmp_path):
    first, second = _hard()
    bad = tmp_path / "second.jsonl"
    bad.write_text('{"id": "out:1", "lang": "es", "person": "male", "why": "x"}\n'
                   '{"id": "out:1", "lang": "es", "person": "male", "why": "x", "round": "easy"}\n', "utf-8")
    with pytest.raises(InputError) as exc:
        read_second(first, bad, round_="hard")
    assert exc.value.one_line().startswith(f"{bad}:2: ")
    judged = tmp_path / "judged.jsonl"
    agreed = next(m["id"] for m, r in zip(second, first) if m["person"] == r["person"])
    differ = next(m for m, r in zip(second, first) if m["person"] != r["person"])
    line = json.dumps({"id": differ["id"], "lang": differ["lang"], "right": "first", "why": "x"})
    for wrong in (json.dumps({"id": agreed, "right": "first", "why": "x"}),
                  json.dumps({"id": differ["id"], "right": "me", "why": "x"}), line):
        judged.write_text(line + "\n" + wrong + "\n", "utf-8")
        with pytest.raises(InputError) as exc:
            read_adjudged(first, second, judged)
        assert exc.value.one_line().startswith(f"{judged}:2: ")
    judged.write_text(line + "\n", "utf-8")
    with pytest.raises(InputError, match="disagreements are not judged"):
        read_adjudged(first, second, judged)
