"""The second reader of MiTTenS-out draw 3 (issue 51 item 5): its labels read every draw-3 row once, the figures
VALIDITY.md and the mittens-out badge quote are the ones the two gold files give (so they cannot drift from a rule
change that re-records a reading, or from a relabelled row), the blind printer shows no judgement, and a bad row ends
in one line naming the file and line."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from bench.validity.mittens_blind import SHOWN, blind_rows
from bench.validity.mittens_second_reader import figures, read_first, read_second, share

from discotest.cards.groups import validity_badges
from discotest.errors import InputError

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
